"""Mistral-7B-Instruct-v0.1 downloaded as numbered shards without its index file, one shard
lost: the conversion read the shards that were there and stopped with "8 base weights are in
none of the files read"; it now names the missing shard, and so does ``checkpoints doctor
--source``. A whole set of shards without an index still converts."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from safetensors.torch import load_file, save_file  # noqa: E402

from studio.cli import main  # noqa: E402
from studio.engines.animegamer.convert import ConversionError, convert_release  # noqa: E402
from studio.engines.animegamer.sizes import TINY  # noqa: E402
from studio.engines.catalog import animegamer_layout as layout  # noqa: E402

from .released_files import write_release  # noqa: E402


def _sharded(tmp_path: Path) -> Path:
    """A trained-only release whose Mistral folder holds two numbered shards and no index."""
    release = write_release(tmp_path / "release", TINY, trained_only=True)
    folder = release / layout.RELEASE_BASE_DIR
    whole = folder / "model.safetensors"
    tensors = {name: tensor.clone() for name, tensor in load_file(str(whole)).items()}
    whole.unlink()
    names = sorted(tensors)
    for number, part in enumerate((names[: len(names) // 2], names[len(names) // 2:]), start=1):
        save_file({name: tensors[name] for name in part}, str(folder / f"model-0000{number}-of-00002.safetensors"))
    return release


def test_a_lost_shard_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    release = _sharded(tmp_path)
    lost = release / layout.RELEASE_BASE_DIR / "model-00002-of-00002.safetensors"
    lost.unlink()
    with pytest.raises(ConversionError) as raised:
        convert_release(release, tmp_path / "ck", size=TINY)
    assert "lacks 1 shard(s) of Mistral-7B-Instruct-v0.1: model-00002-of-00002.safetensors" in raised.value.message
    assert not list((tmp_path / "ck").rglob("*.safetensors"))
    main(["checkpoints", "doctor", "--source", str(release), "--checkpoints", str(tmp_path / "ck")])
    assert f"MISSING {lost} — a shard of Mistral-7B-Instruct-v0.1" in capsys.readouterr().out


def test_whole_shards_without_an_index_convert(tmp_path: Path) -> None:
    release = _sharded(tmp_path)
    convert_release(release, tmp_path / "ck", size=TINY)
    assert (tmp_path / "ck" / layout.ENGINE / "qiqi" / layout.MODEL_FILE).is_file()
