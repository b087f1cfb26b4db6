"""Shared fixtures: the repository's example shaders by name."""

from pathlib import Path

import pytest

import sm5sim

ROOT = Path(__file__).resolve().parents[2]


def example(name: str) -> Path:
    """examples/<name>/<name>.dxbc"""
    return ROOT / "examples" / name / f"{name}.dxbc"


def kernel(name: str) -> sm5sim.Kernel:
    return sm5sim.Kernel(sm5sim.Shader.load(example(name)))


# The configurations each workload runs under, as tests/it/api.rs: parallel
# at 2 threads (warp width 32), and one seeded schedule at warp width 1.
CONFIGS = [
    {"threads": 2, "warp_width": 32},
    {"schedule": 7, "warp_width": 1},
]


@pytest.fixture(params=CONFIGS, ids=["parallel", "seeded"])
def config(request: pytest.FixtureRequest) -> dict:
    return dict(request.param)
