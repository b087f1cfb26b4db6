"""The debugger from Python (`Kernel.debug`): a breakpoint on an HLSL line
of mandelbrot's fxc /Zi build stops there, the locals equal the shader's
formula, stepping follows HLSL lines, lanes show every thread of the warp,
and the race build's checker stop names both threads."""

import numpy as np
import pytest

import sm5sim
from conftest import ROOT

ZI = ROOT / "tests" / "debug_info"


def mandelbrot_kernel() -> sm5sim.Kernel:
    k = sm5sim.Kernel(sm5sim.Shader.load(ZI / "mandelbrot.dxbc"))
    k.bind("iterations", np.zeros(512 * 512, np.uint32))
    k.set_constants("Params", {"width": 512, "height": 512, "max_iter": 256})
    return k


def formula(x: int, y: int, k: int) -> tuple:
    f = np.float32
    cx = f(f(f(3.0) * f(x)) / f(512)) + f(-2.0)
    cy = f(f(f(3.0) * f(y)) / f(512)) + f(-1.5)
    zx, zy = f(0.0), f(0.0)
    for _ in range(k):
        t = f(f(zx * zx) - f(zy * zy)) + cx
        zy = f(f(zy * zx) + f(zy * zx)) + cy
        zx = t
    return cx, cy, zx, zy


def test_a_breakpoint_stops_at_the_line_with_the_formulas_locals() -> None:
    d = mandelbrot_kernel().debug((64, 64), break_at="mandelbrot.hlsl:17", thread=(300, 256, 0))
    assert d.where()["group"] == (37, 32, 0)
    for k in range(3):
        stop = d.resume()
        assert stop["reason"] == "breakpoint"
        assert (stop["file"], stop["line"], stop["thread"]) == ("mandelbrot.hlsl", 17, (300, 256, 0))
        loc = d.locals()
        cx, cy, zx, zy = formula(300, 256, k)
        assert (loc["cx"], loc["cy"], loc["zx"], loc["zy"], loc["i"]) == (cx, cy, zx, zy, k)
        assert loc["dtid"] == (300, 256, 0) and loc["t"] is None
    lines = [d.next()["line"] for _ in range(5)]
    assert lines == [18, 20, 21, 15, 17]
    # back over the loop's test, then forward again: the same values
    assert d.back_line()["line"] == 15 and d.value("i") == 3
    assert d.next()["line"] == 17
    assert d.locals()["zx"] == formula(300, 256, 3)[2]
    # another thread of the group, and every lane of the warp
    assert d.locals(thread=(302, 257, 0))["cy"] == formula(302, 257, 0)[1]
    lanes = d.lanes("cx")
    assert len(lanes) == 32
    for lane in lanes:
        assert lane["value"] == formula(lane["thread"][0], 0, 0)[0]
    assert d.value("vThreadID") == (302, 257, 0)
    with pytest.raises(sm5sim.Error, match="names nothing"):
        d.value("nothing")


def test_a_dispatch_run_to_its_end_leaves_the_results() -> None:
    k = mandelbrot_kernel()
    d = k.debug((64, 64))
    assert d.resume()["reason"] == "finished" and d.finished
    done = mandelbrot_kernel()
    done.dispatch((64, 64))
    np.testing.assert_array_equal(k.read("iterations"), done.read("iterations"))


def test_the_checker_stop_names_both_threads_and_who_wrote() -> None:
    k = sm5sim.Kernel(sm5sim.Shader.load(ZI / "race.dxbc"))
    k.bind("o", np.zeros(256, np.uint32))
    d = k.debug(4, check=True)
    stop = d.resume()
    assert stop["reason"] == "finding"
    assert "race.hlsl:14" in stop["text"] and "race.hlsl:15" in stop["text"]
    f = d.findings[0]
    assert f.kind == "raw"
    assert d.who("s[2]") == {"group": (0, 0, 0), "thread": 2, "pc": 1, "line": 14, "value": 7}
    assert d.who("s[63]") is None
