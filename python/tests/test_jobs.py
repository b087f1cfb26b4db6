"""Job files from Python (sm5sim.run_job) and as pytest tests (the plugin,
sm5sim.pytest_plugin, through its pytest11 entry point); dispatch_threads
and Shader.compile (issue #45)."""

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import sm5sim
from sm5sim.pytest_plugin import is_job_file

from conftest import ROOT, kernel

HISTOGRAM = ROOT / "examples" / "histogram"


def copy_histogram(tmp_path: Path, job: str) -> Path:
    """examples/histogram's shader beside a job file of text `job`."""
    shutil.copy(HISTOGRAM / "histogram.dxbc", tmp_path / "histogram.dxbc")
    path = tmp_path / "job.toml"
    path.write_text(job)
    return path


def failing_job() -> str:
    """histogram.toml with its expectation on `bins` changed to zeros."""
    text = (HISTOGRAM / "histogram.toml").read_text()
    assert "[[steps]]\nexpect" in text, text
    head, _, _ = text.partition("[[steps]]\nexpect")
    return head + '[[steps]]\nexpect = { resource = "bins", fill_u32 = 0 }\n'


def test_run_job_reports_each_step():
    r = sm5sim.run_job(HISTOGRAM / "histogram.toml", threads=2)
    assert r.passed and r.skipped is None and r.error is None
    kinds = [s.kind for s in r.steps]
    assert "dispatch" in kinds and "expect" in kinds, kinds
    assert all(s.passed for s in r.steps)
    assert [s.index for s in r.steps] == list(range(len(r.steps)))
    assert r.steps[kinds.index("expect")].text.endswith(": ok\n")
    assert r.report().endswith("PASSED\n")
    assert not r.checked and r.findings == []


def test_a_failed_expectation_fails_the_job(tmp_path):
    r = sm5sim.run_job(copy_histogram(tmp_path, failing_job()))
    assert not r.passed
    failed = [s for s in r.steps if not s.passed]
    assert len(failed) == 1 and failed[0].kind == "expect"
    assert failed[0].mismatches > 0
    assert "FAILED, " in failed[0].text and "expected 0, got" in failed[0].text
    assert r.report().endswith("FAILED (1 expectation(s) failed)\n")


def test_a_job_that_cannot_load_raises_job_error(tmp_path):
    path = copy_histogram(tmp_path, 'shader = "histogram.dxbc"\n[resources.bins]\nelements = "x"\n')
    with pytest.raises(sm5sim.JobError, match="elements"):
        sm5sim.run_job(path)
    with pytest.raises(sm5sim.JobError, match="missing.toml"):
        sm5sim.run_job(tmp_path / "missing.toml")


def test_skipped_jobs(tmp_path):
    path = copy_histogram(tmp_path, 'skip = "needs the v2 shader"\n' + failing_job())
    r = sm5sim.run_job(path)
    assert r.skipped == "needs the v2 shader" and not r.passed and r.steps == []
    # HLSL with no compiler to be found is skipped, not an error
    (tmp_path / "fresh.hlsl").write_text(
        "RWStructuredBuffer<uint> o : register(u0);\n"
        f"[numthreads(1, 1, 1)] void main() {{ o[0] = {os.getpid()}; }}\n"
    )
    hlsl = tmp_path / "hlsl.toml"
    hlsl.write_text(
        'shader = "fresh.hlsl"\n[resources.o]\nelements = 1\n[[steps]]\ndispatch = [1, 1, 1]\n'
    )
    env = {k: v for k, v in os.environ.items() if k != "SM5SIM_FXC"}
    env["PATH"] = str(tmp_path)
    out = subprocess.run(
        [sys.executable, "-c", f"import sm5sim; print(sm5sim.run_job({str(hlsl)!r}).skipped)"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "needs an HLSL compiler, and none is installed" in out, out


def test_checked_jobs_report_the_checkers_findings():
    race = ROOT / "tests" / "debug_info" / "race.toml"
    assert sm5sim.run_job(race).passed
    r = sm5sim.run_job(race, check=True)
    assert r.checked and not r.passed
    assert len(r.errors) >= 1 and r.errors[0].severity == "error"
    assert "check" not in r.report() or "FAILED" in r.report()
    assert r.report().endswith(f"FAILED (0 expectation(s) failed, {len(r.errors)} checker error(s))\n")


def test_only_job_files_are_collected(tmp_path):
    assert is_job_file(HISTOGRAM / "histogram.toml")
    assert not is_job_file(ROOT / "pyproject.toml")
    assert not is_job_file(ROOT / "Cargo.toml")
    assert not is_job_file(HISTOGRAM / "histogram.hlsl")


def pytest_in(args: list, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
    )


def test_the_plugin_runs_every_example_job(tmp_path):
    env_fxc = os.environ.get("SM5SIM_FXC")
    junit = tmp_path / "r.xml"
    p = pytest_in([str(ROOT / "examples"), "-q", f"--junitxml={junit}"], tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    jobs = sorted(ROOT.glob("examples/*/*.toml"))
    cases = ET.parse(junit).getroot().iter("testcase")
    names = sorted(c.get("name") for c in cases)
    assert names == sorted(j.stem for j in jobs), names
    skipped = 0 if env_fxc else 1  # histogram_hlsl.toml without a compiler
    assert f"{len(jobs) - skipped} passed" in p.stdout, p.stdout
    # docs/python.md's figure for this command is the count without fxc
    doc = (ROOT / "docs" / "python.md").read_text()
    said = re.search(r"every example job: (\d+) passed, (\d+) skipped without fxc", doc)
    assert said, "docs/python.md states what `pytest examples/` prints"
    assert (int(said[1]), int(said[2])) == (len(jobs) - 1, 1), said[0]
    # -k selects, as for any test
    p = pytest_in([str(ROOT / "examples"), "-q", "-k", "scan or reduce"], tmp_path)
    assert p.returncode == 0 and "3 passed" in p.stdout, p.stdout + p.stderr


def test_the_plugin_fails_a_job_with_its_report(tmp_path):
    copy_histogram(tmp_path, failing_job())
    p = pytest_in(["-q", "job.toml"], tmp_path)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "FAILED, " in p.stdout and "expected 0, got" in p.stdout, p.stdout
    assert "1 failed" in p.stdout
    # --sm5sim-check: the checker's errors fail a job that passes
    race = ROOT / "tests" / "debug_info" / "race.toml"
    assert pytest_in(["-q", str(race)], tmp_path).returncode == 0
    p = pytest_in(["-q", str(race), "--sm5sim-check"], tmp_path)
    assert p.returncode == 1 and "checker error(s)" in p.stdout, p.stdout


def test_the_plugins_fixtures(tmp_path):
    (tmp_path / "test_saxpy.py").write_text(
        "import numpy as np\n"
        f"SAXPY = {str(ROOT / 'examples/saxpy_structured/saxpy_structured.dxbc')!r}\n"
        "def test_saxpy(sm5sim_kernel, sm5sim_options, sm5sim_shader):\n"
        "    assert sm5sim_shader(SAXPY) is sm5sim_shader(SAXPY)\n"
        "    k = sm5sim_kernel(SAXPY)\n"
        "    assert sm5sim_options == {'threads': 1, 'timeout': 5.0, 'check': True}\n"
        "    assert k.shader.thread_group[0] > 0\n"
    )
    p = pytest_in(["-q", "--sm5sim-threads", "1", "--sm5sim-timeout", "5", "--sm5sim-check"], tmp_path)
    assert p.returncode == 0 and "1 passed" in p.stdout, p.stdout + p.stderr


def test_dispatch_threads_refuses_what_is_not_a_count():
    k = kernel("saxpy_structured")
    for bad in [(1, 2, 3, 4), -1, "8", 2**32]:
        with pytest.raises(TypeError, match="thread counts"):
            k.dispatch_threads(bad)


def test_dispatch_threads_covers_every_thread():
    k = kernel("mandelbrot")
    w, h = 50, 30
    it = np.zeros(w * h, dtype=np.uint32)
    k.bind("iterations", it)
    k.set_constants("Params", {"width": w, "height": h, "max_iter": 16})
    size = k.shader.thread_group
    d = k.dispatch_threads((w, h))
    assert d.groups == (-(-w // size[0]), -(-h // size[1]), 1)
    assert (k.read("iterations") > 0).all()


def test_shader_compile_refusals(tmp_path):
    with pytest.raises(TypeError, match="ending in .hlsl"):
        sm5sim.Shader.compile("", name="dir/a.hlsl")
    with pytest.raises(TypeError, match="ending in .hlsl"):
        sm5sim.Shader.compile("", name="a.txt")
    with pytest.raises(sm5sim.LoadError):
        sm5sim.Shader.compile("void main() {}", fxc=tmp_path / "no-such-fxc")


def needs_fxc() -> str:
    """The fxc tests run with `-m fxc` where SM5SIM_FXC names the compiler
    (.ci/run, after tools/fxc/setup.sh); without it they fail, not skip."""
    fxc = os.environ.get("SM5SIM_FXC")
    assert fxc, "SM5SIM_FXC must name fxc for the fxc tests (tools/fxc/setup.sh)"
    return fxc


@pytest.mark.fxc
def test_shader_compile_from_a_string():
    needs_fxc()
    source = """
RWStructuredBuffer<uint> o : register(u0);
cbuffer Params : register(b0) { uint k; };
[numthreads(SIZE, 1, 1)]
void entry(uint3 t : SV_DispatchThreadID) { o[t.x] = t.x * k + OFFSET; }
"""
    s = sm5sim.Shader.compile(
        source, entry="entry", profile="cs_5_0", defines={"SIZE": "8", "OFFSET": "5"}, name="mul.hlsl"
    )
    assert s.thread_group == (8, 1, 1) and s.name == "mul.hlsl"
    k = sm5sim.Kernel(s)
    k.bind("o", np.zeros(20, np.uint32)).set_constants("Params", {"k": 3})
    assert k.dispatch_threads(20).groups == (3, 1, 1)
    np.testing.assert_array_equal(k.read("o"), np.arange(20, dtype=np.uint32) * 3 + 5)
    with pytest.raises(sm5sim.LoadError, match="mul.hlsl"):
        sm5sim.Shader.compile("this is not HLSL", name="mul.hlsl")


@pytest.mark.fxc
def test_the_plugin_runs_the_hlsl_example_with_fxc(tmp_path):
    needs_fxc()
    p = pytest_in([str(ROOT / "examples"), "-q", "-k", "histogram_hlsl"], tmp_path)
    assert p.returncode == 0 and "1 passed" in p.stdout, p.stdout + p.stderr
