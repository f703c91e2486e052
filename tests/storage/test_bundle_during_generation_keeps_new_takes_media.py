"""``bundle`` reads a project while another process (the window) keeps generating: a take
committed while the bundle is being made must never be in the bundle's database without its
files. The media used to be listed before the database snapshot was taken, so a take
committed in between was packed without its clip and poster, and the unpacked project said
they were missing."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from studio.core import AddTake, AddTurn, StateDeltas, Take
from studio.storage import Project, bundle
from studio.storage.bundle import export_bundle, import_bundle


def add_take(project: Project, take_id: str) -> None:
    node = project.tree.root_id
    node_id = f"n-{take_id}"
    project.apply(AddTurn(node, "Character: Qiqi; Motion: run; Background: day town", node_id=node_id))
    folder = project.take_media_dir(take_id)
    for name in ("clip.mp4", "poster.png"):
        with project.writing(f"{folder}/{name}") as tmp:
            tmp.write_bytes(f"{take_id} {name}".encode())
    project.apply(AddTake(Take(id=take_id, node_id=node_id, engine="fake", clip_path=f"{folder}/clip.mp4",
                               poster_path=f"{folder}/poster.png", deltas=StateDeltas(0, 1, 0))))


def test_a_take_committed_while_bundling_is_packed_whole_or_not_at_all(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    with Project.create(tmp_path / "p") as writer:
        add_take(writer, "t1")
        reader = Project.open(writer.path, read_only=True)
        listing = bundle._media_files
        committed: list[str] = []

        def list_then_commit(root: Path) -> list[Path]:
            files = listing(root)
            if not committed:  # the window finishes a take just then
                add_take(writer, "t2")
                committed.append("t2")
            return files

        monkeypatch.setattr(bundle, "_media_files", list_then_commit)
        try:
            out = export_bundle(reader, tmp_path / "p.zip")
        finally:
            reader.close()
    assert committed
    with zipfile.ZipFile(out) as archive:
        names = set(archive.namelist())
    assert {"media/takes/t1/clip.mp4", "media/takes/t1/poster.png"} <= names
    with import_bundle(out, tmp_path / "copy") as copy:
        missing = {take_id: copy.missing_media(take) for take_id, take in copy.tree.takes.items()
                   if copy.missing_media(take)}
        assert missing == {}, f"the bundle holds takes without their files: {missing}"
        assert not any("not in the bundle" in problem or "missing" in problem for problem in copy.problems)
        assert "t1" in copy.tree.takes
