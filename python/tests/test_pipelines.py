"""The four pipeline examples (examples/NAME/NAME.py): several kernels on
shared Resources, copies, CopyStructureCount and DispatchIndirect, checked
against the committed expected outputs; and each script run as a program
(exit status 0)."""

import importlib.util
import subprocess
import sys
from types import ModuleType
from typing import Any, Dict

import numpy as np
import pytest

from conftest import ROOT

PIPELINES = ["bitonic_sort", "mip_chain", "stream_compaction", "multipass_reduce"]


def pipeline(name: str) -> ModuleType:
    """examples/NAME/NAME.py as a module (its main() is not run)."""
    path = ROOT / "examples" / name / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"pipeline_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(name: str, **options: Any) -> Dict[str, Any]:
    m = pipeline(name)
    r: Dict[str, Any] = m.run(**options)
    assert m.check(r) == []
    return r


def test_bitonic_sort(config: dict) -> None:
    r = run("bitonic_sort", **config)
    expected = np.load(ROOT / "examples/bitonic_sort/expected.npy")
    np.testing.assert_array_equal(r["sorted"], expected)
    np.testing.assert_array_equal(r["rows"], np.load(ROOT / "examples/bitonic_sort/rows.npy"))
    assert (np.diff(r["sorted"].astype(np.int64)) >= 0).all()


def test_mip_chain(config: dict) -> None:
    r = run("mip_chain", **config)
    assert [m.shape for m in r["mips"]] == [(64 >> k, 64 >> k, 4) for k in range(7)]
    for k in range(1, 7):
        want = np.load(ROOT / f"examples/mip_chain/mip{k}.npy")
        assert r["mips"][k].dtype == np.float32
        np.testing.assert_array_equal(r["mips"][k], want)


def test_stream_compaction(config: dict) -> None:
    r = run("stream_compaction", **config)
    # the figures of examples/stream_compaction/README.md (reference.py's output)
    assert r["counter"] == 5349 and r["count"] == 5349
    assert int(r["list"].sum(dtype=np.uint64)) % 2**32 == 1023080363
    assert r["args"].tolist() == [84, 1, 1] and r["groups"] == (84, 1, 1)
    assert r["totals"].tolist() == [1835682395, 5349, 4293564294]


def test_multipass_reduce(config: dict) -> None:
    r = run("multipass_reduce", **config)
    assert [(c, g) for c, g, _ in r["passes"]] == [(1000000, 1954), (1954, 4), (4, 1)]
    assert r["total"] == 500047590


@pytest.mark.parametrize("name", PIPELINES)
def test_script_exits_0(name: str) -> None:
    script = ROOT / "examples" / name / f"{name}.py"
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ok: "), done.stdout


def test_the_checks_catch_wrong_results() -> None:
    """Each script's check() is not vacuous: one wrong figure fails it."""
    wrong = {
        "bitonic_sort": lambda r: r.update(sorted=r["sorted"][::-1]),
        "mip_chain": lambda r: r["mips"].__setitem__(3, r["mips"][3] + 1),
        "stream_compaction": lambda r: r.update(totals=r["totals"] + 1),
        "multipass_reduce": lambda r: r.update(total=r["total"] + 1),
    }
    for name, spoil in wrong.items():
        m = pipeline(name)
        r = m.run(threads=2)
        assert m.check(r) == []
        spoil(r)
        assert len(m.check(r)) == 1, name
