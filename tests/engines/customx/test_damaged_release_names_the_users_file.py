"""A damaged CustomX release file is named as the user gave it. A tokenizer that can't be
read was named by its staged copy (``/tmp/kamishibai-customx-.../tokenizer_2/tokenizer.json``,
gone once the command ended), a tokenizer_config.json that is no JSON object was blamed on
tokenizer.json ("pop expected at most 1 argument"), and a ``.pt`` whose dictionary has a
key that is not text ended in an internal error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")
pytest.importorskip("transformers")

from studio.engines.customx.convert import ConversionError, ReleasedFiles, convert_release  # noqa: E402
from studio.engines.customx.sizes import TINY  # noqa: E402

from .test_convert import _release  # noqa: E402


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("customx release") / "release"
    _release(folder)
    return folder


def _copy(original: Path, tmp_path: Path) -> ReleasedFiles:
    folder = tmp_path / "release"
    shutil.copytree(original, folder)
    return ReleasedFiles(folder / "hunyuancustom_editing_720P" / "mp_rank_00_model_states.pt",
                         folder / "pytorch_lora_kohaya_weights.safetensors", folder / "vae.safetensors",
                         folder / "llava-llama-3-8b-v1_1-transformers", folder / "clip-vit-large-patch14")


@pytest.mark.parametrize(("folder", "name", "content", "said"), [
    ("clip", "tokenizer.json", "{{{", "tokenizer.json is not a readable tokenizer"),
    ("llava", "tokenizer.json", "{{{", "tokenizer.json is not a readable tokenizer"),
    ("llava", "tokenizer_config.json", "[1]", "tokenizer_config.json is not a JSON object"),
    ("clip", "special_tokens_map.json", "{oops", "special_tokens_map.json can't be read as JSON"),
])
def test_a_damaged_tokenizer_file_is_named_where_the_user_has_it(original: Path, tmp_path: Path, folder: str,
                                                                 name: str, content: str, said: str) -> None:
    files = _copy(original, tmp_path)
    given = getattr(files, folder)
    (given / name).write_text(content, encoding="utf-8")
    with pytest.raises(ConversionError) as raised:
        convert_release(files, tmp_path / "checkpoints", size=TINY, dtype=torch.float32)
    assert str(given / said) in raised.value.message
    assert "kamishibai-customx-" not in raised.value.message
    assert not (tmp_path / "checkpoints" / "customx" / "model.json").exists()


@pytest.mark.parametrize("part", ["transformer", "vae"])
def test_a_key_that_is_not_text_is_refused_naming_the_file(original: Path, tmp_path: Path, part: str) -> None:
    from safetensors.torch import load_file

    files = _copy(original, tmp_path)
    if part == "transformer":
        state = torch.load(files.transformer, weights_only=True)
        state["module"][5] = torch.zeros(1)
        torch.save(state, files.transformer)
        given = files.transformer
    else:
        tensors: dict[object, torch.Tensor] = dict(load_file(str(files.vae)))
        tensors[3] = torch.zeros(1)
        given = files.vae.with_suffix(".pt")
        torch.save(tensors, given)
        files = ReleasedFiles(files.transformer, files.lora, given, files.llava, files.clip)
    with pytest.raises(ConversionError) as raised:
        convert_release(files, tmp_path / "checkpoints", size=TINY, dtype=torch.float32)
    assert f"{given} holds a key that is not text" in raised.value.message
    assert "released file" in raised.value.hint
