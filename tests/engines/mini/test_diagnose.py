"""The stage-by-stage motion diagnosis on the shipped checkpoint, at a few turns and one step."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("diffusers")

import torch

from studio.engines.mini import weights
from studio.engines.mini.data import Split, combo_split
from studio.engines.mini.diagnose import LATENT_NOISES, NOISE_TIMES, READINGS, diagnose, main
from studio.engines.mini.report import data_config, load_held_out

CHECKPOINTS = Path(__file__).resolve().parents[3] / "checkpoints"


@pytest.fixture
def shipped() -> Path:
    if not (CHECKPOINTS / "mini" / "config.json").is_file():
        pytest.skip("no shipped mini checkpoint")
    return CHECKPOINTS


@pytest.mark.parametrize("split", [Split.TRAIN, Split.HELDOUT])
def test_the_episodes_come_from_the_asked_split(shipped: Path, split: Split) -> None:
    held = load_held_out(shipped, episodes=2, seed=None, device=torch.device("cpu"), alt=False,
                         log=lambda _m: None, split=split)
    fraction = data_config(held.manifest, 2, None, 0).heldout_fraction
    turns = held.evalset.table.turns
    assert len(turns) == 6
    assert all(combo_split(t.character, t.motion, t.location, fraction) is split for t in turns)


def test_every_stage_is_read_by_the_judge(shipped: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--checkpoints", str(shipped), "--episodes", "1", "--steps", "1", "--split", "train"]) == 0
    out = capsys.readouterr().out
    result = json.loads(out[out.index("{"):])
    assert result["split"] == "train" and result["turns"] == 3 and result["steps"] == 1
    stages = ["truth", "autoencoder", *(f"autoencoder_noise{s}" for s in LATENT_NOISES), "autoencoder_smoothed",
              "from_encoder", "from_lm", *(f"one_shot_t{t}" for t in NOISE_TIMES)]
    assert list(result["readings"]) == stages
    for reading in result["readings"].values():
        assert set(reading) == set(READINGS)
        assert all(0.0 <= value <= 1.0 for value in reading.values())


def test_without_the_training_only_files_those_stages_are_left_out(shipped: Path, tmp_path: Path) -> None:
    folder = tmp_path / "mini"
    shutil.copytree(shipped / "mini", folder)
    (folder / weights.ENCODER).unlink()
    (folder / weights.LATENT_ENCODER).unlink()
    result = diagnose(tmp_path, split=Split.HELDOUT, episodes=1, steps=1)
    # no autoencoder encoder: no true latent, so neither its reconstruction nor the one-shot rows
    assert list(result["readings"]) == ["truth", "from_lm"]
