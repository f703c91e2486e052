"""Copies of the shipped checkpoint damaged in ways its manifest can't see (each file re-listed
in config.json with its new size and SHA-256, as a re-export or a hand-made folder would):
the load names the damaged file and says what to do (QA 4: a decoder_io.safetensors of other
shapes was blamed on decoder.safetensors; weights holding NaN made black clips or a "predict
the turn again" that could never help; weights stored as whole numbers loaded as zeros)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")
from safetensors.torch import load_file, save_file  # noqa: E402

from studio.engines.base import EngineConfig, EngineLoadError  # noqa: E402
from studio.engines.mini import weights  # noqa: E402
from studio.engines.mini.engine import MiniEngine  # noqa: E402

SHIPPED = Path(__file__).resolve().parents[3] / "checkpoints" / "mini"


@pytest.fixture
def shipped_copy(tmp_path: Path) -> Path:
    """A checkpoints folder holding a copy of the shipped mini checkpoint (its engine files)."""
    if not (SHIPPED / weights.CONFIG).is_file():
        pytest.skip("the shipped checkpoint is not in this checkout")
    folder = tmp_path / "checkpoints" / "mini"
    folder.mkdir(parents=True)
    for name in (*weights.ENGINE_FILES, weights.LATENT_DECODER, weights.CRITIC):
        shutil.copy2(SHIPPED / name, folder / name)
    return folder.parent


def _relist(folder: Path, name: str) -> None:
    """List ``name`` in config.json with its present size and SHA-256."""
    manifest = json.loads((folder / weights.CONFIG).read_text(encoding="utf-8"))
    manifest["files"][name] = {"bytes": (folder / name).stat().st_size, "sha256": weights.sha256(folder / name)}
    weights.write_manifest(folder, manifest)


def _rewrite(folder: Path, name: str, change: Callable[[torch.Tensor], torch.Tensor]) -> None:
    """Replace every tensor of ``folder/name`` by ``change(tensor)``, as a valid safetensors file."""
    path = folder / name
    save_file({key: change(value).contiguous() for key, value in load_file(str(path)).items()}, str(path))
    _relist(folder, name)


def _load(checkpoints: Path) -> MiniEngine:
    engine = MiniEngine(EngineConfig(checkpoints=checkpoints, threads=1))
    engine.load()
    return engine


def test_a_decoder_io_file_of_other_shapes_is_named_not_the_blocks_file(shipped_copy: Path) -> None:
    folder = shipped_copy / "mini"
    save_file({"a": torch.zeros(3, 4)}, str(folder / weights.DECODER_IO))
    _relist(folder, weights.DECODER_IO)
    with pytest.raises(EngineLoadError) as caught:
        _load(shipped_copy)
    message = caught.value.message
    assert str(folder / weights.DECODER_IO) in message and "does not fit the model" in message
    assert str(folder / weights.DECODER) not in message, "the intact blocks file is not blamed"
    assert "1 unexpected tensor (a)" in message


def test_a_decoder_blocks_file_of_other_shapes_is_still_named(shipped_copy: Path) -> None:
    folder = shipped_copy / "mini"
    save_file({"b": torch.zeros(2)}, str(folder / weights.DECODER))
    _relist(folder, weights.DECODER)
    with pytest.raises(EngineLoadError) as caught:
        _load(shipped_copy)
    assert str(folder / weights.DECODER) in caught.value.message
    assert str(folder / weights.DECODER_IO) not in caught.value.message


@pytest.mark.parametrize("name", [weights.LM, weights.DECODER_IO, weights.LATENT_DECODER, weights.CRITIC])
def test_weights_that_are_not_numbers_are_refused_naming_the_file(shipped_copy: Path, name: str) -> None:
    folder = shipped_copy / "mini"
    _rewrite(folder, name, lambda value: value * float("nan") if value.is_floating_point() else value)
    with pytest.raises(EngineLoadError) as caught:
        _load(shipped_copy)
    assert str(folder / name) in caught.value.message
    assert "not numbers" in caught.value.message
    assert "the app's own mini weights" in caught.value.hint  # where to copy a whole one from


@pytest.mark.parametrize("name", [weights.LM, weights.LATENT_DECODER])
def test_weights_stored_as_whole_numbers_are_refused_naming_the_file(shipped_copy: Path, name: str) -> None:
    folder = shipped_copy / "mini"
    _rewrite(folder, name, lambda value: value.to(torch.int64) if value.is_floating_point() else value)
    with pytest.raises(EngineLoadError) as caught:
        _load(shipped_copy)
    assert str(folder / name) in caught.value.message
    assert "int64" in caught.value.message and "floating-point" in caught.value.message


def test_play_with_weights_that_are_not_numbers_keeps_no_black_turn(shipped_copy: Path, tmp_path: Path) -> None:
    folder = shipped_copy / "mini"
    _rewrite(folder, weights.DECODER_IO, lambda value: value * float("nan"))
    project = tmp_path / "story"
    run = [sys.executable, "-m", "studio"]
    subprocess.run([*run, "new", str(project)], check=True, capture_output=True, text=True, timeout=120)
    played = subprocess.run([*run, "play", str(project) + ".kamishibai", "--engine", "mini", "--threads", "1",
                             "--checkpoints", str(shipped_copy), "--setting", "preset=native", "--setting", "steps=1",
                             "-i", "Motion: jump."], capture_output=True, text=True, timeout=300)
    assert played.returncode != 0, played.stdout
    assert f"{folder / weights.DECODER_IO} holds" in played.stderr
    assert "Traceback" not in played.stderr
