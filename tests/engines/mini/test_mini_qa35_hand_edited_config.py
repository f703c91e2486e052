"""config.json edited in a field no weight's shape shows (the clip's frames or size, how many
tokens the LM reads, the latent's scale): before, the engine loaded it and made clips the
model never learnt to make, without a word (a 33-frame clip of a model trained on 17).
The training record written beside the weights (``training.config.model``) says what the
model was trained as: the catalogue's check (doctor, and the command line before a turn)
names the edited field, its value and the trained one; loading refuses any field edited
since; nothing is written into the user's project."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.composition import default_checkpoints
from studio.engines.base import EngineConfig, EngineLoadError, RequirementKind
from studio.engines.catalog.mini import check
from studio.engines.mini import weights
from studio.engines.mini.engine import MiniEngine


def _manifest(folder: Path) -> dict[str, Any]:
    return json.loads((folder / weights.CONFIG).read_text(encoding="utf-8"))


def _write(folder: Path, manifest: dict[str, Any]) -> None:
    (folder / weights.CONFIG).write_text(json.dumps(manifest), encoding="utf-8")


@pytest.fixture
def trained(checkpoints: Path) -> Path:
    """The tiny checkpoint with a training record, as a training run exports it."""
    folder = checkpoints / "mini"
    manifest = _manifest(folder)
    manifest["training"] = {"config": {"model": json.loads(json.dumps(manifest["model"]))}}
    _write(folder, manifest)
    return folder


def _config_reasons(folder: Path) -> list[str]:
    return [r.message for r in check(EngineConfig(checkpoints=folder.parent)) if r.kind is RequirementKind.CONFIG]


def _edit(folder: Path, group: str, name: str, value: object) -> None:
    manifest = _manifest(folder)
    manifest["model"][group][name] = value
    _write(folder, manifest)


def test_the_record_as_exported_passes(trained: Path) -> None:
    assert _config_reasons(trained) == []
    engine = MiniEngine(EngineConfig(checkpoints=trained.parent, threads=1))
    engine.load()
    assert engine.loaded


def test_a_video_edited_by_hand_is_named_by_the_check_and_refused_by_loading(trained: Path) -> None:
    frames = _manifest(trained)["model"]["video"]["frames"]
    _edit(trained, "video", "frames", frames + 4)
    before = {path.name: path.stat().st_mtime_ns for path in trained.iterdir()}
    reasons = _config_reasons(trained)
    assert len(reasons) == 1, reasons
    assert str(trained / weights.CONFIG) in reasons[0]
    assert f"model.video.frames is {frames + 4}, trained as {frames}" in reasons[0], reasons[0]
    engine = MiniEngine(EngineConfig(checkpoints=trained.parent, threads=1))
    with pytest.raises(EngineLoadError) as caught:
        engine.load()
    assert f"model.video.frames is {frames + 4}, trained as {frames}" in caught.value.message
    assert "restore checkpoints/mini/" in (caught.value.hint or "")
    assert not engine.loaded
    assert {path.name: path.stat().st_mtime_ns for path in trained.iterdir()} == before  # nothing written there


def test_a_field_only_training_reads_is_refused_by_loading(trained: Path) -> None:
    _edit(trained, "decoder", "t_mean", 0.5)
    assert _config_reasons(trained) == []  # the weights can't tell; the check looks at what changes a clip
    with pytest.raises(EngineLoadError, match=r"model\.decoder\.t_mean is 0\.5, trained as"):
        MiniEngine(EngineConfig(checkpoints=trained.parent, threads=1)).load()


def test_a_folder_without_a_training_record_is_not_compared(checkpoints: Path) -> None:
    folder = checkpoints / "mini"
    _edit(folder, "lm", "max_instruction", 48)  # the tiny folder records no training config
    assert _config_reasons(folder) == []


def test_play_on_an_edited_shipped_config_is_refused_and_keeps_no_turn(tmp_path: Path) -> None:
    shipped = default_checkpoints() / "mini"
    if not (shipped / weights.CONFIG).is_file():
        pytest.skip("the shipped checkpoint is not in this checkout")
    folder = tmp_path / "checkpoints" / "mini"
    folder.mkdir(parents=True)
    for name in (*weights.ENGINE_FILES, weights.LATENT_DECODER, weights.CRITIC):
        shutil.copy2(shipped / name, folder / name)
    _edit(folder, "video", "height", 256)
    project = tmp_path / "story.kamishibai"
    run = [sys.executable, "-m", "studio"]
    subprocess.run([*run, "new", str(project)], check=True, capture_output=True, text=True, timeout=120)
    played = subprocess.run([*run, "play", str(project), "--engine", "mini", "--threads", "1", "--checkpoints",
                             str(folder.parent), "--setting", "steps=1", "-i", "Motion: jump."],
                            capture_output=True, text=True, timeout=300)
    assert played.returncode == 2, played.stdout + played.stderr
    assert f"{folder / weights.CONFIG} was edited since its weights were trained" in played.stderr
    assert "model.video.height is 256, trained as 128" in played.stderr and "Traceback" not in played.stderr
    tree = subprocess.run([*run, "tree", str(project), "--json"], capture_output=True, text=True, timeout=120)
    assert tree.returncode == 0 and "Motion: jump" not in tree.stdout
    assert not (project / "media" / "takes").exists() or not any((project / "media" / "takes").iterdir())
