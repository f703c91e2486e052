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
    metrics = run_evaluation(CHECKPOINTS, episodes=1, steps=1, threads=1, workers=1, candidates=2, log=lines.append)
    assert metrics["turns"] == 3 and metrics["episodes"] == 1 and metrics["steps"] == 1
    assert metrics["candidates"] == 2  # the shipped checkpoint has its motion critic
    assert metrics["held_out_seed"] == 14  # the training run's evaluation set, from the manifest
    assert metrics["training"]["decoder"] > 0 and metrics["cpu_seconds_per_turn"] > 0
    for key in ("acc_s_stamina", "level_accuracy", "judge_motion", "judge_location", "ceiling_motion"):
        assert 0.0 <= metrics[key] <= 1.0
    assert any(line.startswith("played 1 held-out episode (3 turns)") for line in lines)
    section = report_section(metrics, 1.0)
    assert section.startswith("<!-- bench:mini -->") and "judge: motion" in section
    assert "2 candidates per turn kept by the motion critic" in section and "1 step, best of 2)" in section
    assert "1 denoising step," in section and "1 steps" not in section


@pytest.mark.parametrize(("options", "message"), [
    (["--threads", "0"], "argument --threads: CPU threads must be from 1 to"),
    (["--threads", "-2"], "argument --threads: CPU threads must be from 1 to"),
    (["--device", "tpu"], "argument --device: Unknown device 'tpu'"),
    (["--device", "cuda:99"], "cuda:99"),  # named in the refusal (with the CPU in its place on a machine without GPUs)
    (["--episodes", "0"], "argument --episodes: must be at least 1, not 0"),
    (["--steps", "0"], "argument --steps: must be from 1 to 64, not 0"),
    (["--steps", "100000"], "argument --steps: must be from 1 to 64, not 100000"),
    (["--candidates", "0"], "argument --candidates: must be from 1 to 8, not 0"),
    (["--candidates", "9"], "argument --candidates: must be from 1 to 8, not 9"),
])
def test_the_command_refuses_bad_options_before_playing_anything(
        options: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studio.cli import main

    report = tmp_path / "BENCHMARKS.md"
    try:
        code = main(["eval", "mini", "--report", str(report), *options])
    except SystemExit as stop:  # refused with the arguments (argparse's exit status 2)
        code = stop.code
    assert code != 0
    assert message in capsys.readouterr().err
    assert not report.exists()


def test_a_report_path_that_is_a_folder_is_refused_before_playing_anything(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studio.cli import main

    assert main(["eval", "mini", "--report", str(tmp_path), "--episodes", "1"]) != 0
    assert "is not a file" in capsys.readouterr().err
