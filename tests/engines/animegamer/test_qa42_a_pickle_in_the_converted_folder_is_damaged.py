"""A PyTorch pickle saved under a converted file's name (qiqi/mllm.safetensors) is listed
DAMAGED by `checkpoints doctor`, said to be no safetensors file: it was listed "ok ... (1,556
bytes, expected 8,303,152 (incomplete copy?))", and named an incomplete copy below."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.engines.catalog import animegamer_layout as layout

torch = pytest.importorskip("torch")


def test_the_pickle_is_damaged_and_not_a_safetensors_file(tiny: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tiny / "animegamer" / "qiqi" / layout.MLLM_FILE
    torch.save({"w": torch.zeros(4)}, path)
    assert main(["checkpoints", "doctor", "--checkpoints", str(tiny)]) == 1
    out = capsys.readouterr().out
    assert f"  DAMAGED {path} ({path.stat().st_size:,} bytes) — " in out, out
    assert f"ok      {path}" not in out, out
    assert f"DAMAGED {path} is not a safetensors file: it is a PyTorch file" in out, out
    assert "incomplete copy" not in out, out
