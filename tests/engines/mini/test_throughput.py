"""The decoder-step throughput probe runs a config's real decoder step on the CPU at toy size."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")
pytest.importorskip("diffusers")

from studio.engines.mini.throughput import main


@pytest.mark.parametrize("config", ["tiny", "tiny_latent"])
def test_the_probe_times_each_batch_size_with_and_without_the_representation_table(
        config: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--config", config, "--batch", "2", "3", "--steps", "1", "--device", "cpu"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["batch"], r["encode_each_batch"]) for r in rows] == [(2, True), (2, False), (3, True), (3, False)]
    for row in rows:
        assert row["config"] == config and row["steps_per_s"] > 0 and row["first_step_s"] >= 0
        # clips a second are rounded to 0.1 and steps to 0.001: on a slow machine (under 1 step a
        # second) the rounding alone is more than 1 %
        assert row["clips_per_s"] == pytest.approx(row["steps_per_s"] * row["batch"], rel=0.01, abs=0.06)
