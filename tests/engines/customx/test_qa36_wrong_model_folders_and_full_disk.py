"""CustomX's conversion as a user meets it: a --llava or --clip folder of another model is
refused from its config.json before anything is read or written, naming the option, the
folder and the differing sizes (and the doctor flags it instead of printing a command that
fails); a weight that does not fit names the option and the folder given, not our converted
file; and a disk that fills up while model.json is written leaves no cut-short model.json
and says which file could not be written."""

from __future__ import annotations

import errno
import functools
import json
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")
pytest.importorskip("transformers")

from studio.cli import main  # noqa: E402
from studio.engines.customx import convert  # noqa: E402
from studio.engines.customx.convert import ConversionError, ReleasedFiles, convert_release  # noqa: E402
from studio.engines.customx.sizes import RELEASED  # noqa: E402

from .test_convert import SIZE, _release  # noqa: E402

CLIP_B = {"architectures": ["CLIPModel"], "text_config": {"hidden_size": 512, "intermediate_size": 2048,
                                                          "num_attention_heads": 8, "num_hidden_layers": 12}}
"""clip-vit-base-patch32's text sizes: another CLIP than CLIP-L."""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("qa36") / "release"
    _release(folder)
    return folder


@pytest.fixture
def release(built: Path, tmp_path: Path) -> ReleasedFiles:
    """A copy of the tiny release (tests change its folders)."""
    folder = tmp_path / "release"
    shutil.copytree(built, folder)
    return ReleasedFiles(folder / "hunyuancustom_editing_720P" / "mp_rank_00_model_states.pt",
                         folder / "pytorch_lora_kohaya_weights.safetensors", folder / "vae.safetensors",
                         folder / "llava-llama-3-8b-v1_1-transformers", folder / "clip-vit-large-patch14")


def _args(files: ReleasedFiles, checkpoints: Path) -> list[str]:
    return ["checkpoints", "convert-customx", "--transformer", str(files.transformer), "--lora", str(files.lora),
            "--vae", str(files.vae), "--llava", str(files.llava), "--clip", str(files.clip),
            "--checkpoints", str(checkpoints)]


def _tiny_convert(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command converts at the tiny test size (the released size's shapes can't fit)."""
    monkeypatch.setattr(convert, "convert_release", functools.partial(convert_release, size=SIZE,
                                                                       dtype=torch.float32))


def test_a_clip_folder_of_another_model_is_refused_from_its_config(release: ReleasedFiles, tmp_path: Path) -> None:
    (release.clip / "config.json").write_text(json.dumps(CLIP_B))
    checkpoints = tmp_path / "checkpoints"
    with pytest.raises(ConversionError) as raised:
        convert_release(release, checkpoints, size=RELEASED)
    message = raised.value.message
    assert message.startswith(f"--clip {release.clip} holds another model: its config.json says ")
    assert "text_config.hidden_size 512 where CLIP-L (clip-vit-large-patch14) has 768" in message
    assert "num_hidden_layers" not in message  # 12, as CLIP-L's
    assert "Nothing was written" in raised.value.hint and "--clip" in raised.value.hint
    assert not checkpoints.exists()


def test_a_llava_config_of_another_size_is_refused_at_the_size_converted(release: ReleasedFiles,
                                                                         tmp_path: Path) -> None:
    (release.llava / "config.json").write_text(json.dumps(
        {"text_config": {"rope_parameters": {"rope_theta": 10000.0}}, "vision_config": {"image_size": 224}}))
    with pytest.raises(ConversionError) as raised:
        convert_release(release, tmp_path / "checkpoints", size=SIZE, dtype=torch.float32)
    message = raised.value.message
    assert f"--llava {release.llava} holds another model" in message
    assert f"text_config.rope_theta 10000.0 where the tiny-size model has {int(SIZE.text.rope_theta)}" in message
    assert f"vision_config.image_size 224 where the tiny-size model has {SIZE.text.image_size}" in message


def test_a_config_that_fits_converts(release: ReleasedFiles, tmp_path: Path) -> None:
    text = SIZE.text
    (release.clip / "config.json").write_text(json.dumps(
        {"text_config_dict": {"hidden_size": text.clip_hidden, "num_hidden_layers": text.clip_layers},
         "vision_config": {"hidden_size": 9999}}))  # the vision half is dropped: not checked
    convert_release(release, tmp_path / "checkpoints", size=SIZE, dtype=torch.float32)
    assert (tmp_path / "checkpoints" / "customx" / "model.json").is_file()


def test_a_weight_that_does_not_fit_names_the_option_and_the_folder(release: ReleasedFiles, tmp_path: Path) -> None:
    with pytest.raises(ConversionError) as raised:  # tiny weights against the released sizes
        convert_release(release, tmp_path / "checkpoints", size=RELEASED)
    assert raised.value.message.startswith(f"--llava {release.llava} (converted as text_encoder.safetensors): ")


def test_the_doctor_flags_a_folder_of_another_model(release: ReleasedFiles, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    (release.clip / "config.json").write_text(json.dumps(CLIP_B))
    code = main(["checkpoints", "doctor", "--engine", "customx", "--source", str(release.clip.parent),
                 "--checkpoints", str(tmp_path / "ck"), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["convert_command"] is None
    clip = next(row for row in report["release"] if row["option"] == "--clip")
    assert clip["problem"].startswith(f"--clip {release.clip} holds another model")


def test_a_full_disk_while_model_json_is_written_leaves_no_cut_short_model_json(
        release: ReleasedFiles, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    real_write_text = Path.write_text

    def fills_up(path: Path, text: str, *args: object, **kwargs: object) -> int:
        if path.name.startswith("model.json"):  # half of it reaches the disk, then no room
            real_write_text(path, text[: len(text) // 2], encoding="utf-8")
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write_text(path, text, *args, **kwargs)  # type: ignore[arg-type]

    _tiny_convert(monkeypatch)
    monkeypatch.setattr(Path, "write_text", fills_up)
    checkpoints = tmp_path / "checkpoints"
    assert main(_args(release, checkpoints)) == 2
    err = capsys.readouterr().err
    folder = checkpoints / "customx"
    assert f"Can't write {folder / 'model.json'}: No space left on device." in err
    assert "has no model.json, so the engine does not use it" in err and "internal error" not in err
    assert not (folder / "model.json").exists() and not list(folder.glob("*.partial"))
