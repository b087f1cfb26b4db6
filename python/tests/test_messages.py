"""The shader's printf and errorf from Python: Message objects in order."""

import numpy as np

import sm5sim
from conftest import ROOT

FRONT_END = ROOT / "tests" / "front_end"


def test_printf_and_errorf_come_back_as_messages() -> None:
    k = sm5sim.Kernel(sm5sim.Shader.load(FRONT_END / "messages_basic.dxbc"))
    k.bind("o", np.zeros(8, np.uint32))
    d = k.dispatch(2, threads=2)
    kinds = [(m.kind, m.group, m.thread, m.text) for m in d.messages]
    assert kinds == [
        ("printf", (0, 0, 0), (1, 0, 0), "thread 1 value 1.500000"),
        ("errorf", (0, 0, 0), (1, 0, 0), "bad 1"),
    ]
    assert d.messages_not_kept == 0
    assert d.first_error is not None and d.first_error.dispatch_thread == (1, 0, 0)
    assert "bad 1" in repr(d.first_error)


def test_the_conformance_formats_with_their_lines() -> None:
    k = sm5sim.Kernel(sm5sim.Shader.load(FRONT_END / "messages_formats.dxbc"))
    k.bind("o", np.zeros(1, np.uint32))
    d = k.dispatch(1)
    expected = (FRONT_END / "messages_formats.expected").read_text().splitlines()
    assert [m.text for m in d.messages] == expected
    assert d.messages[0].file == "messages_formats.hlsl" and d.messages[0].line == 9


def test_the_limit_keeps_the_first_and_counts_the_rest() -> None:
    k = sm5sim.Kernel(sm5sim.Shader.load(FRONT_END / "messages_basic.dxbc"))
    k.bind("o", np.zeros(400, np.uint32))
    d = k.dispatch(100, threads=2, messages=1)
    assert [m.text for m in d.messages] == ["thread 1 value 1.500000"]
    assert d.messages_not_kept == 1
    assert d.first_error is not None and d.first_error.text == "bad 1"


def test_run_job_steps_carry_the_messages_and_errorf_fails() -> None:
    r = sm5sim.run_job(FRONT_END / "messages_operands.toml")
    step = r.steps[0]
    assert step.kind == "dispatch" and not step.passed
    assert step.messages[0].text == "t=0 gi=0 f=0.000000 x=ff s= 2.50 %"
    assert [m.kind for m in step.messages].count("errorf") == 5
    assert "errorf: too big: 3" in step.text
