"""pytest plugin of sm5sim: job files as tests, and fixtures for shader tests.

Installed with the package (the ``pytest11`` entry point ``sm5sim``), so
``pytest examples/`` collects every job file under ``examples/`` (a
``.toml`` file with a ``shader`` or ``[shaders]`` key and ``[[steps]]``; other
TOML files such as ``pyproject.toml`` are left alone) as one test each,
run by :func:`sm5sim.run_job`. A failed expectation fails the test with the
steps as ``sm5sim run`` prints them; an error that stops the job is a
failure too; a job marked ``skip = "reason"``, or whose HLSL needs a
compiler that is not installed, is skipped. Selection (``-k``), ``-x``,
JUnit XML (``--junitxml``) and sharding (pytest-xdist) are pytest's own.

Options: ``--sm5sim-check`` runs each job under the concurrency checker
(its error findings fail the test, as ``sm5sim check`` exits 1);
``--sm5sim-threads N`` and ``--sm5sim-timeout SECONDS`` are the dispatch
options of ``sm5sim run``; ``--sm5sim-fxc PATH`` names the HLSL compiler.
``-p no:sm5sim`` turns the plugin off.

Fixtures: ``sm5sim_shader`` loads a shader by path (relative to the test
file's folder) once per test session; ``sm5sim_kernel`` makes a
:class:`sm5sim.Kernel` of one; ``sm5sim_options`` gives the command-line
options above as keyword arguments for ``Kernel.dispatch``.
docs/python.md ("Testing with pytest") is the guide.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, Optional, Union

import pytest

import sm5sim

# A job file: `shader = …` or `[shaders]` at the top level, and `[[steps]]`.
_SHADER_KEY = re.compile(r"^\s*(shader\s*=|\[shaders[.\]])", re.MULTILINE)
_STEPS_TABLE = re.compile(r"^\s*\[\[\s*steps\s*\]\]", re.MULTILINE)


def is_job_file(path: Path) -> bool:
    """Whether `path` is a job file the plugin collects: a ``.toml`` file
    with a top-level ``shader`` key (or a ``[shaders]`` table) and at least
    one ``[[steps]]`` table."""
    if path.suffix != ".toml":
        return False
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return bool(_SHADER_KEY.search(text) and _STEPS_TABLE.search(text))


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("sm5sim", "sm5sim job files")
    group.addoption(
        "--sm5sim-check",
        action="store_true",
        default=False,
        help="run job files under the concurrency checker; its error findings fail the test",
    )
    group.addoption(
        "--sm5sim-threads",
        type=int,
        default=0,
        metavar="N",
        help="worker threads of each dispatch (0: one per core)",
    )
    group.addoption(
        "--sm5sim-timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="wall-clock limit of each dispatch (0: none)",
    )
    group.addoption(
        "--sm5sim-fxc",
        default=None,
        metavar="PATH",
        help="the HLSL compiler for .hlsl shaders (default: SM5SIM_FXC, then PATH)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sm5sim_job: a job file collected by sm5sim's pytest plugin"
    )


def pytest_collect_file(
    file_path: Path, parent: pytest.Collector
) -> Optional[pytest.Collector]:
    if is_job_file(file_path):
        return JobFile.from_parent(parent, path=file_path)
    return None


class JobFailed(Exception):
    """A job whose expectation failed, whose run stopped on an error, or
    whose checker found an error; the message is its report."""


class JobFile(pytest.File):
    """A job file: one test item, named after the file."""

    def collect(self) -> Iterator[pytest.Item]:
        yield JobItem.from_parent(self, name=self.path.stem)


class JobItem(pytest.Item):
    """A job file run as one test by :func:`sm5sim.run_job`."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_marker("sm5sim_job")

    def runtest(self) -> None:
        opt = self.config.getoption
        timeout = opt("--sm5sim-timeout")
        result = sm5sim.run_job(
            self.path,
            check=opt("--sm5sim-check"),
            threads=opt("--sm5sim-threads"),
            timeout=timeout if timeout > 0 else None,
            fxc=opt("--sm5sim-fxc"),
        )
        self.user_properties.append(("steps", len(result.steps)))
        if result.skipped is not None:
            pytest.skip(result.skipped)
        if not result.passed:
            raise JobFailed(result.report())

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, (JobFailed, sm5sim.Error)):
            return f"{self.path}:\n{excinfo.value}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Union[os.PathLike[str], str], Optional[int], str]:
        return self.path, None, f"sm5sim job {self.path.name}"


@pytest.fixture(scope="session")
def _sm5sim_shaders() -> Dict[Path, sm5sim.Shader]:
    return {}


@pytest.fixture
def sm5sim_shader(
    request: pytest.FixtureRequest, _sm5sim_shaders: Dict[Path, sm5sim.Shader]
) -> Callable[[Union[str, "os.PathLike[str]"]], sm5sim.Shader]:
    """A function loading a shader (.dxbc, .cso, .asm or .hlsl) by path,
    relative to the test file's folder, each file once per session."""
    base = Path(request.path).parent

    def load(path: Union[str, "os.PathLike[str]"]) -> sm5sim.Shader:
        p = (base / path).resolve()
        if p not in _sm5sim_shaders:
            _sm5sim_shaders[p] = sm5sim.Shader.load(p)
        return _sm5sim_shaders[p]

    return load


@pytest.fixture
def sm5sim_kernel(
    sm5sim_shader: Callable[[Union[str, "os.PathLike[str]"]], sm5sim.Shader],
) -> Callable[[Union[str, "os.PathLike[str]"]], sm5sim.Kernel]:
    """A function making a new Kernel (nothing bound) of a shader, by path
    as ``sm5sim_shader`` takes it."""
    return lambda path: sm5sim.Kernel(sm5sim_shader(path))


@pytest.fixture
def sm5sim_options(request: pytest.FixtureRequest) -> Dict[str, Any]:
    """``--sm5sim-threads``, ``--sm5sim-timeout`` and ``--sm5sim-check`` as
    keyword arguments of ``Kernel.dispatch``."""
    opt = request.config.getoption
    timeout = opt("--sm5sim-timeout")
    return {
        "threads": opt("--sm5sim-threads"),
        "timeout": timeout if timeout > 0 else None,
        "check": opt("--sm5sim-check"),
    }
