"""``kamishibai checkpoints convert`` with a damaged Mistral download, a destination that
can't be written, and a conversion interrupted while it writes: each is a StudioError that
names the file (never an internal error), and no half-written file is left or presented as
a finished conversion."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from safetensors.torch import load_file, save_file  # noqa: E402

from studio.cli import main  # noqa: E402
from studio.core.errors import StudioError  # noqa: E402
from studio.engines.animegamer.convert import ConversionError, convert_release  # noqa: E402
from studio.engines.animegamer.sizes import TINY  # noqa: E402
from studio.engines.catalog import animegamer_layout as layout  # noqa: E402

from .released_files import write_release  # noqa: E402


@pytest.fixture
def trained_only(tmp_path: Path) -> Path:
    """A release whose MLLM file holds only the trained weights (the base comes from Mistral)."""
    return write_release(tmp_path / "release ü", TINY, trained_only=True)


def _shard(source: Path) -> Path:
    """Split the release's Mistral file into two shards and an index, as Hugging Face ships
    it; returns the second shard's path."""
    folder = source / layout.RELEASE_BASE_DIR
    tensors = load_file(str(folder / "model.safetensors"))
    keys = sorted(tensors)
    names = ("model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors")
    halves = (keys[: len(keys) // 2], keys[len(keys) // 2:])
    for name, part in zip(names, halves, strict=True):
        save_file({k: tensors[k] for k in part}, str(folder / name))
    weight_map = {k: name for name, part in zip(names, halves, strict=True) for k in part}
    (folder / "model.safetensors.index.json").write_text(json.dumps({"metadata": {}, "weight_map": weight_map}))
    (folder / "model.safetensors").unlink()
    return folder / names[1]


def test_a_cut_short_mistral_file_is_named_not_an_internal_error(tmp_path: Path, trained_only: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    base = trained_only / layout.RELEASE_BASE_DIR / "model.safetensors"
    base.write_bytes(base.read_bytes()[: base.stat().st_size // 2])
    checkpoints = tmp_path / "checkpoints"
    with pytest.raises(StudioError, match="can't be read as a safetensors file") as raised:
        convert_release(trained_only, checkpoints, size=TINY)
    assert str(base) in raised.value.message and "again" in raised.value.hint
    assert main(["checkpoints", "convert", str(trained_only), "--checkpoints", str(checkpoints),
                 "--size", "tiny"]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and "model.safetensors can't be read" in err
    assert not (checkpoints / "animegamer" / "qiqi").exists()


def test_a_sharded_mistral_download_converts(tmp_path: Path, trained_only: Path) -> None:
    _shard(trained_only)
    convert_release(trained_only, tmp_path / "checkpoints", size=TINY)
    assert layout.complete_characters(tmp_path / "checkpoints" / "animegamer") == ["qiqi"]


def test_a_shard_the_index_names_but_is_missing_is_named(tmp_path: Path, trained_only: Path) -> None:
    _shard(trained_only).unlink()
    with pytest.raises(ConversionError, match="model-00002-of-00002.safetensors") as raised:
        convert_release(trained_only, tmp_path / "checkpoints", size=TINY)
    assert "shard" in raised.value.message  # not "N base weights are in none of the files read"
    assert not (tmp_path / "checkpoints" / "animegamer" / "qiqi").exists()


@pytest.mark.parametrize("index", ['{"weight_map": {"a": "../outside.safetensors"}}', "not json", "[1, 2]"])
def test_a_bad_shard_index_is_refused(tmp_path: Path, trained_only: Path, index: str) -> None:
    (trained_only / layout.RELEASE_BASE_DIR / "model.safetensors.index.json").write_text(index)
    with pytest.raises(ConversionError, match="model.safetensors.index.json"):
        convert_release(trained_only, tmp_path / "checkpoints", size=TINY)


def test_a_destination_that_cant_be_written_is_refused_first(tmp_path: Path, trained_only: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    checkpoints = blocker / "checkpoints"  # no folder can be made under a file (as root, too)
    assert main(["checkpoints", "convert", str(trained_only), "--checkpoints", str(checkpoints),
                 "--size", "tiny"]) == 2
    captured = capsys.readouterr()
    assert "internal error" not in captured.err and f"Can't write {checkpoints / 'animegamer'}" in captured.err
    assert "reading" not in captured.out  # refused before a release file was read


def test_an_interrupted_conversion_leaves_no_partial_file_and_no_finished_record(
        tmp_path: Path, trained_only: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    checkpoints = tmp_path / "checkpoints"
    convert_release(trained_only, checkpoints, size=TINY)
    folder = checkpoints / "animegamer"
    assert layout.complete_characters(folder) == ["qiqi"]
    import safetensors.torch

    real = safetensors.torch.save_file

    def interrupted(tensors, filename, metadata=None):  # type: ignore[no-untyped-def]
        real(tensors, filename, metadata=metadata)
        if "decoder" in Path(filename).name:
            Path(filename).write_bytes(Path(filename).read_bytes()[:100])  # as far as the write got
            raise KeyboardInterrupt

    monkeypatch.setattr(safetensors.torch, "save_file", interrupted)
    with pytest.raises(KeyboardInterrupt):
        convert_release(trained_only, checkpoints, size=TINY)  # converting again, stopped by Ctrl+C
    assert list(folder.rglob("*.partial")) == []
    assert layout.complete_characters(folder) == []  # the old record no longer vouches for new files
    monkeypatch.setattr(safetensors.torch, "save_file", real)
    convert_release(trained_only, checkpoints, size=TINY)
    assert layout.complete_characters(folder) == ["qiqi"]


def test_the_doctor_names_a_shard_the_index_names_but_is_missing(tmp_path: Path, trained_only: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    shard = _shard(trained_only)
    args = ["checkpoints", "doctor", "--checkpoints", str(tmp_path / "checkpoints"), "--source", str(trained_only)]
    main(args)
    assert str(shard) not in capsys.readouterr().out  # every shard there: nothing to name
    shard.unlink()
    main(args)
    assert f"MISSING {shard} — a shard of Mistral-7B-Instruct-v0.1" in capsys.readouterr().out


def test_a_character_named_twice_is_converted_once(tmp_path: Path, trained_only: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["checkpoints", "convert", str(trained_only), "--checkpoints", str(tmp_path / "checkpoints"),
                 "--size", "tiny", "--character", "qiqi", "--character", "qiqi"]) == 0
    out = capsys.readouterr().out
    assert "Converted qiqi:" in out and out.count("Qiqi: reading") == 4  # MLLM, Mistral, decoder, VAE: once each
