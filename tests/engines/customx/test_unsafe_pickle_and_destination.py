"""CustomX's released .pt files read safely, and its converted files written safely: a pickle
that would run code is refused naming what it holds (without torch's advice to load it with
``weights_only=False``), a destination that can't be written is a StudioError, and a write
interrupted by Ctrl+C leaves no cut-short file behind."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")
pytest.importorskip("transformers")

from studio.cli import main  # noqa: E402
from studio.engines.catalog import customx as catalog  # noqa: E402
from studio.engines.customx.convert import ConversionError, convert_release, read_tensors  # noqa: E402

from .test_convert import SIZE, _release  # noqa: E402


class RunsCode:
    """Unpickling this would create ``marker``: proof that code ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (os.system, (f"touch '{self.marker}'",))


def test_a_pickle_that_runs_code_is_refused_by_name_without_unsafe_advice(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    path = tmp_path / "mp_rank_00_model_states.pt"
    torch.save({"module": {"w": torch.zeros(2), "x": RunsCode(marker)}}, path)
    with pytest.raises(ConversionError) as raised:
        read_tensors(path)
    message = str(raised.value)
    assert str(path) in message and "system" in message  # the file and the global refused
    assert "weights_only` set to `False`" not in message and "\x1b[" not in message
    assert not marker.exists()


def test_a_file_in_torchs_legacy_format_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "pytorch_model.pt"
    torch.save({"state_dict": {"w": torch.arange(3.0)}}, path, _use_new_zipfile_serialization=False)
    assert torch.equal(read_tensors(path)["w"], torch.arange(3.0))  # mmap can't read it; read without


def test_a_destination_that_cant_be_written_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files, _, _ = _release(tmp_path / "release")
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    checkpoints = blocker / "checkpoints"
    assert main(["checkpoints", "convert-customx", "--transformer", str(files.transformer), "--vae", str(files.vae),
                 "--llava", str(files.llava), "--clip", str(files.clip), "--checkpoints", str(checkpoints)]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and f"Can't write {checkpoints / catalog.NAME}" in err


def test_an_interrupted_write_leaves_no_cut_short_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files, _, _ = _release(tmp_path / "release")
    import safetensors.torch

    real = safetensors.torch.save_file

    def interrupted(tensors, filename, metadata=None):  # type: ignore[no-untyped-def]
        real(tensors, filename, metadata=metadata)
        Path(filename).write_bytes(Path(filename).read_bytes()[:100])  # as far as the write got
        raise KeyboardInterrupt

    monkeypatch.setattr(safetensors.torch, "save_file", interrupted)
    with pytest.raises(KeyboardInterrupt):
        convert_release(files, tmp_path / "checkpoints", size=SIZE)
    folder = tmp_path / "checkpoints" / catalog.NAME
    assert sorted(p.name for p in folder.glob("*.safetensors*")) == []
    assert not (folder / catalog.MODEL_FILE).exists()
