"""Unbundling onto a disk with little room (a USB stick, a nearly full laptop): a small bundle
unpacks where there is room for it and for the project to work in, and a refusal names a
need larger than the room it says there is (QA: a 0.5 MB bundle was refused on a disk with
10 MB free, "it needs 0.1 MB and the disk has 10.5 MB free": a flat 16 MB margin counted
but never said). The free space is the environment, set here by its measurement."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from studio.storage import errors as storage_errors
from studio.storage.bundle import export_bundle, import_bundle
from studio.storage.errors import DiskFullError
from tests.storage.bundle_setup import CLIP_PATH, project_with_one_take

MB = 1024 * 1024


CLIP = bytes(range(256)) * 1600
"""The take's clip: 0.4 MB, so that the project's size is told apart from its database's."""


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    with project_with_one_take(tmp_path / "source.kamishibai") as project:
        project.resolve(CLIP_PATH).write_bytes(CLIP)
        return export_bundle(project, tmp_path / "story.zip")


def test_a_small_bundle_unpacks_on_a_disk_with_ten_mb_free(bundle: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(storage_errors, "free_bytes", lambda folder: 10 * MB)
    with import_bundle(bundle, tmp_path / "copy.kamishibai") as project:
        assert project.resolve(CLIP_PATH).read_bytes() == CLIP
        assert "n1" in project.tree.nodes


def test_a_refusal_names_more_than_the_room_there_is(bundle: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(storage_errors, "free_bytes", lambda folder: 300 * 1024)  # less than its database needs
    with pytest.raises(DiskFullError) as refused:
        import_bundle(bundle, tmp_path / "copy.kamishibai")
    message = refused.value.message
    figures = re.search(r"needs ([\d.,]+) MB free .* has ([\d.,]+) MB free", message)
    assert figures is not None, message
    needed, free = (float(value.replace(",", "")) for value in figures.groups())
    assert needed > free, message
    with zipfile.ZipFile(bundle) as archive:  # the whole project, not its database alone
        files = sum(info.file_size for info in archive.infolist() if info.filename != "kamishibai-bundle.json")
    assert f"({files / 1e6:,.1f} MB of files" in message, message
    assert "Nothing was unpacked" in refused.value.hint
    assert not (tmp_path / "copy.kamishibai").exists()
