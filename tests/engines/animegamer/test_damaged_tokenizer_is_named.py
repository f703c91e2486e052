"""A damaged AnimeGamer tokenizer file is named where it is met. The converter copied a
``tokenizer.model`` that is no SentencePiece model (or a tokenizer_config.json that is no
JSON) as if whole and said "Converted"; the engine then failed in transformers with
"`tiktoken` is required ... pip install tiktoken". A tokenizer folder lacking a file was
copied file by file up to it, replacing part of the converted tokenizer before failing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from studio.engines.animegamer.convert import ConversionError, convert_release  # noqa: E402
from studio.engines.animegamer.engine import AnimeGamerEngine  # noqa: E402
from studio.engines.animegamer.sizes import TINY  # noqa: E402
from studio.engines.base import EngineLoadError  # noqa: E402
from studio.engines.catalog import animegamer_layout as layout  # noqa: E402
from studio.engines.catalog.animegamer import TEST_INFO  # noqa: E402
from studio.engines.config import EngineConfig  # noqa: E402

from .released_files import write_release  # noqa: E402


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_release(tmp_path_factory.mktemp("tokenizer") / "release", TINY)


def _contents(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.mark.parametrize(("name", "content", "said"), [
    ("tokenizer.model", b"not a sentencepiece model", "is not a SentencePiece model"),
    ("tokenizer_config.json", b"{oops", "can't be read as JSON"),
    ("added_tokens.json", b"[1, 2]", "is not a JSON object"),
])
def test_the_converter_refuses_a_damaged_tokenizer_naming_the_file(release: Path, tmp_path: Path, name: str,
                                                                   content: bytes, said: str) -> None:
    given = tmp_path / "animegamer_tokenizer"
    shutil.copytree(release / "animegamer_tokenizer", given)
    (given / name).write_bytes(content)
    with pytest.raises(ConversionError) as raised:
        convert_release(release, tmp_path / "ck", size=TINY, tokenizer=given)
    assert f"{given / name} {said}" in raised.value.message
    assert "Nothing was written" in raised.value.hint
    assert not (tmp_path / "ck").exists()


def test_a_tokenizer_lacking_a_file_leaves_the_converted_one_whole(release: Path, tmp_path: Path) -> None:
    checkpoints = tmp_path / "ck"
    convert_release(release, checkpoints, size=TINY)
    converted = checkpoints / layout.ENGINE / "tokenizer"
    before = _contents(converted)
    given = tmp_path / "other_tokenizer"
    shutil.copytree(release / "animegamer_tokenizer", given)
    (given / "tokenizer.model").write_bytes((given / "tokenizer.model").read_bytes())  # a file that differs ...
    with (given / "tokenizer_config.json").open("a", encoding="utf-8") as file:
        file.write(" ")
    (given / "added_tokens.json").unlink()  # ... beside one that is missing
    with pytest.raises(ConversionError, match="added_tokens.json is missing"):
        convert_release(release, checkpoints, size=TINY, tokenizer=given)
    assert _contents(converted) == before


def test_converting_again_from_the_converted_tokenizer_works(release: Path, tmp_path: Path) -> None:
    checkpoints = tmp_path / "ck"
    convert_release(release, checkpoints, size=TINY)
    converted = checkpoints / layout.ENGINE / "tokenizer"
    before = _contents(converted)
    convert_release(release, checkpoints, size=TINY, tokenizer=converted)
    assert _contents(converted) == before


def test_the_engine_names_a_damaged_tokenizer_file(tiny: Path) -> None:
    path = tiny / layout.ENGINE / "tokenizer" / "tokenizer.model"
    path.write_bytes(b"not a sentencepiece model")
    engine = AnimeGamerEngine(EngineConfig(checkpoints=tiny), info=TEST_INFO)
    with pytest.raises(EngineLoadError) as raised:
        engine.load()
    assert f"{path} is not a SentencePiece model" in raised.value.message
    assert "tiktoken" not in raised.value.message and "convert" in raised.value.hint
    assert not engine.loaded
