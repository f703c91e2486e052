"""``kamishibai eval mini``'s measurement on the shipped checkpoint, at one episode and one step."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("diffusers")

from studio.engines.mini.report import report_section, run_evaluation

CHECKPOINTS = Path(__file__).resolve().parents[3] / "checkpoints"


def test_the_evaluation_plays_held_out_episodes_and_reports_the_goals() -> None:
    if not (CHECKPOINTS / "mini" / "config.json").is_file():
        pytest.skip("no shipped mini checkpoint")
    lines: list[str] = []
    metrics = run_evaluation(CHECKPOINTS, episodes=1, steps=1, threads=1, workers=1, log=lines.append)
    assert metrics["turns"] == 3 and metrics["episodes"] == 1 and metrics["steps"] == 1
    assert metrics["held_out_seed"] == 14  # the training run's evaluation set, from the manifest
    assert metrics["training"]["decoder"] > 0 and metrics["cpu_seconds_per_turn"] > 0
    for key in ("acc_s_stamina", "level_accuracy", "judge_motion", "judge_location", "ceiling_motion"):
        assert 0.0 <= metrics[key] <= 1.0
    assert any(line.startswith("played 1 held-out episodes (3 turns)") for line in lines)
    section = report_section(metrics, 1.0)
    assert section.startswith("<!-- bench:mini -->") and "judge: motion" in section
