"""The motion-sensitivity measurement on the shipped checkpoint, at a few turns and one step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("diffusers")

from studio.engines.mini.sensitivity import main, partners

CHECKPOINTS = Path(__file__).resolve().parents[3] / "checkpoints"


def test_each_turn_is_paired_with_the_next_turn_of_another_motion() -> None:
    assert partners(["run", "run", "wave", "sit"]) == [2, 2, 3, 0]
    assert partners(["run", "run"]) == [0, 1]  # nothing to swap with: the turn itself


def test_the_shipped_decoder_is_measured_against_a_swapped_motion(capsys: pytest.CaptureFixture[str]) -> None:
    if not (CHECKPOINTS / "mini" / "config.json").is_file():
        pytest.skip("no shipped mini checkpoint")
    assert main(["--checkpoints", str(CHECKPOINTS), "--episodes", "2", "--steps", "1"]) == 0
    out = capsys.readouterr().out
    result = json.loads(out[out.index("{"):])
    assert result["turns"] == 6 and result["steps"] == 1
    for key in ("motion_own", "swapped_read_as_partner", "swapped_read_as_own"):
        assert 0.0 <= result[key] <= 1.0
    # the same noise with another motion's conditioning gives another clip, and clips move
    assert result["swap_change"] > 0 and result["frame_change_generated"] > 0 and result["frame_change_truth"] > 0
