"""docs/python.md's examples (the complete one, the pipelines) run as written,
from the repository's root."""

import os
import re

import pytest

from conftest import ROOT


def test_docs_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "docs" / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "docs/python.md has no python block"
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        for code in blocks:
            exec(compile(code, "docs/python.md", "exec"), {"__name__": "docs_example"})
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out
    assert "'x' (t0): the shader declares a structured buffer of 16-byte float4 elements" in out
    assert "error[cross-group-rmw]" in out
    # "Pipelines": the stream compaction's totals
    assert "[111277611       334       999]" in out
