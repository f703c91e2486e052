"""Converting CustomX again over a converted checkpoint with a damaged or wrong input: the
inputs are checked before ``checkpoints/customx/`` changes, so the checkpoint there (its
model.json, tokenizers and weights) is kept, and the command says so. QA: model.json was
removed and the tokenizers replaced before any input was read, so a cut-short LoRA or a
wrong --llava folder made a working CustomX unusable until a full (hours-long) conversion."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")
pytest.importorskip("transformers")

from safetensors.torch import load_file, save_file  # noqa: E402

from studio.cli import main  # noqa: E402
from studio.engines.customx import convert  # noqa: E402
from studio.engines.customx.convert import ConversionError, ReleasedFiles, convert_release  # noqa: E402
from tests.engines.customx.test_convert import SIZE, _release  # noqa: E402


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> ReleasedFiles:
    files, _, _ = _release(tmp_path_factory.mktemp("qa") / "release")
    return files


@pytest.fixture
def converted(tmp_path: Path, release: ReleasedFiles) -> Path:
    checkpoints = tmp_path / "checkpoints"
    convert_release(release, checkpoints, size=SIZE, dtype=torch.float32)
    return checkpoints


def _state(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _cut_lora(release: ReleasedFiles, tmp_path: Path) -> ReleasedFiles:
    assert release.lora is not None
    lora = tmp_path / "pytorch_lora_kohaya_weights.safetensors"
    lora.write_bytes(release.lora.read_bytes()[:-40])
    return ReleasedFiles(release.transformer, lora, release.vae, release.llava, release.clip)


def _damaged_llava(release: ReleasedFiles, tmp_path: Path) -> ReleasedFiles:
    import shutil

    llava = tmp_path / "llava-llama-3-8b-v1_1-transformers"
    shutil.copytree(release.llava, llava)
    weights = llava / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[:-40])
    return ReleasedFiles(release.transformer, release.lora, release.vae, llava, release.clip)


def _wrong_llava(release: ReleasedFiles, tmp_path: Path) -> ReleasedFiles:
    return ReleasedFiles(release.transformer, release.lora, release.vae, release.clip, release.clip)


def _wrong_clip_shape(release: ReleasedFiles, tmp_path: Path) -> ReleasedFiles:
    import shutil

    clip = tmp_path / "clip-vit-large-patch14"
    shutil.copytree(release.clip, clip)
    tensors = load_file(str(clip / "model.safetensors"))
    name = next(k for k in sorted(tensors) if k.startswith("text_model.") and tensors[k].ndim == 2)
    tensors[name] = torch.zeros(tensors[name].shape[0] + 1, tensors[name].shape[1])
    save_file(tensors, str(clip / "model.safetensors"))
    return ReleasedFiles(release.transformer, release.lora, release.vae, release.llava, clip)


def _cut_vae(release: ReleasedFiles, tmp_path: Path) -> ReleasedFiles:
    vae = tmp_path / "vae.safetensors"
    vae.write_bytes(release.vae.read_bytes()[:-40])
    return ReleasedFiles(release.transformer, release.lora, vae, release.llava, release.clip)


@pytest.mark.parametrize("damage", [_cut_lora, _damaged_llava, _wrong_llava, _wrong_clip_shape, _cut_vae])
def test_a_failed_reconversion_keeps_the_converted_checkpoint(tmp_path: Path, release: ReleasedFiles,
                                                              converted: Path,
                                                              damage: Callable[[ReleasedFiles, Path], ReleasedFiles]
                                                              ) -> None:
    folder = converted / "customx"
    before = _state(folder)
    with pytest.raises(ConversionError):
        convert_release(damage(release, tmp_path), converted, size=SIZE, dtype=torch.float32)
    assert _state(folder) == before


def test_the_command_says_the_checkpoint_was_kept(tmp_path: Path, release: ReleasedFiles, converted: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    files = _cut_lora(release, tmp_path)
    monkeypatch.setattr(convert, "convert_release", functools.partial(convert_release, size=SIZE,
                                                                       dtype=torch.float32))
    args = ["checkpoints", "convert-customx", "--transformer", str(files.transformer), "--lora", str(files.lora),
            "--vae", str(files.vae), "--llava", str(files.llava), "--clip", str(files.clip),
            "--checkpoints", str(converted)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and str(files.lora) in err
    assert "left as they were" in err and "has no model.json" not in err
    assert (converted / "customx" / "model.json").is_file()


def test_a_stop_while_writing_still_says_the_checkpoint_is_incomplete(
        tmp_path: Path, release: ReleasedFiles, converted: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    def full_disk(tensors: object, path: Path) -> None:
        raise convert._write_error(path, OSError(28, "No space left on device"))

    monkeypatch.setattr(convert, "_save", full_disk)
    monkeypatch.setattr(convert, "convert_release", functools.partial(convert_release, size=SIZE,
                                                                       dtype=torch.float32))
    args = ["checkpoints", "convert-customx", "--transformer", str(release.transformer), "--vae", str(release.vae),
            "--llava", str(release.llava), "--clip", str(release.clip), "--checkpoints", str(converted)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err and "has no model.json" in err
    assert not (converted / "customx" / "model.json").exists()
