"""Released .bin/.pt files that are damaged rather than hostile: cut short, empty, random
bytes, missing. Each is a StudioError that names the file and says to download it again
(the command shows it as an error, not an internal one), and nothing in it runs."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from studio.core.errors import StudioError  # noqa: E402
from studio.engines.animegamer.safe_load import UnsafeCheckpointError, load_weights  # noqa: E402


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "pytorch_model.bin"
    torch.save({"w": torch.arange(4096, dtype=torch.float32)}, path)
    return path


def test_a_file_cut_short_is_named_as_damaged(saved: Path) -> None:
    saved.write_bytes(saved.read_bytes()[: saved.stat().st_size // 2])
    with pytest.raises(StudioError, match="can't be read as a PyTorch checkpoint") as raised:
        load_weights(saved)
    assert str(saved) in raised.value.message and "again" in raised.value.hint


def test_an_empty_file_is_named_as_damaged(tmp_path: Path) -> None:
    path = tmp_path / "empty.pt"
    path.write_bytes(b"")
    with pytest.raises(StudioError, match="empty.pt"):
        load_weights(path)


def test_random_bytes_are_not_called_a_pickled_object(tmp_path: Path) -> None:
    path = tmp_path / "noise.bin"
    path.write_bytes(bytes(range(7, 256)) * 20)
    with pytest.raises(StudioError) as raised:
        load_weights(path)
    assert not isinstance(raised.value, UnsafeCheckpointError), raised.value
    assert "not a PyTorch checkpoint" in raised.value.message


@pytest.mark.parametrize("what", ["missing", "folder"])
def test_a_missing_file_or_a_folder_is_named(tmp_path: Path, what: str) -> None:
    path = tmp_path / "pytorch_model.bin"
    if what == "folder":
        path.mkdir()
    with pytest.raises(StudioError, match="Missing" if what == "missing" else "is not a file"):
        load_weights(path)


def test_an_intact_file_still_loads(saved: Path) -> None:
    assert torch.equal(load_weights(saved)["w"], torch.arange(4096, dtype=torch.float32))
