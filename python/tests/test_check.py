"""The concurrency checker from Python: findings as objects, and a report."""

import numpy as np

import sm5sim
from conftest import ROOT, kernel

RACES = ROOT / "tests" / "races"


def test_a_race_is_reported_by_the_name_bound() -> None:
    k = sm5sim.Kernel(sm5sim.Shader.load(RACES / "histogram_plain_rmw_bug.dxbc"))
    k.bind("hist", np.zeros(8, np.uint32))
    d = k.dispatch(4, check=True)
    assert d.stopped is None
    races = [f for f in d.findings if f.kind == "cross-group-rmw"]
    assert races, d.report()
    f = races[0]
    assert f.severity == "error" and f.resource == "u0" and f.resource_name == "hist"
    assert f.count >= 1 and f.description
    assert str(f) == f.text and f.text.startswith("error[cross-group-rmw] u0")
    assert f in d.errors or any(e.text == f.text for e in d.errors)
    report = d.report()
    assert report.startswith(f"Dispatch(4, 1, 1): {len(d.errors)} error")
    assert f.text in report


def test_the_race_free_twin_has_no_error() -> None:
    k = sm5sim.Kernel(sm5sim.Shader.load(RACES / "histogram_plain_rmw_ok.dxbc"))
    k.bind("hist", np.zeros(8, np.uint32))
    d = k.dispatch(4, check=True)
    assert d.errors == [], d.report()


def test_reduce_under_the_checker_is_clean_and_correct() -> None:
    values = np.ones(300, np.uint32)
    k = kernel("reduce")
    k.bind("values", values).bind("total", np.zeros(1, np.uint32))
    k.set_constants("Params", {"value_count": 300})
    d = k.dispatch(2, check=True)
    assert d.errors == [], d.report()
    assert k.read("total")[0] == 300
