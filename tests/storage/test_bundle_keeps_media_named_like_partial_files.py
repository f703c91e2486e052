"""A bundle left out every media file with ".part" anywhere in its name, taking a user's
``my.party.png`` (a location's picture) for a half-written file: the unbundled project then
missed it. Only the studio's own half-written files (``.NAME.XXXXXXXX.part.EXT``) are left out."""

from __future__ import annotations

import zipfile
from pathlib import Path

from studio.core.commands import AddLocation
from studio.core.model import Location
from studio.storage.atomic import temp_path_for
from studio.storage.bundle import export_bundle, import_bundle
from tests.storage.bundle_setup import CLIP_PATH, project_with_one_take


def test_a_picture_named_like_a_part_file_travels_in_the_bundle(tmp_path: Path) -> None:
    with project_with_one_take(tmp_path / "story") as project:
        picture = project.path / "media" / "my.party.png"
        picture.write_bytes(b"a party")
        project.apply(AddLocation(Location(id="l", name="Party", kind="image", image_path="media/my.party.png")))
        (project.path / "media" / "notes.part").write_bytes(b"a user's file too")
        half_written = temp_path_for(project.path / CLIP_PATH)
        half_written.write_bytes(b"half a clip")
        bundle = export_bundle(project, tmp_path / "story.zip")
    names = set(zipfile.ZipFile(bundle).namelist())
    assert {"media/my.party.png", "media/notes.part", CLIP_PATH} <= names
    assert half_written.relative_to(tmp_path / "story.kamishibai").as_posix() not in names
    with import_bundle(bundle, tmp_path / "copy") as copy:
        assert (copy.path / "media" / "my.party.png").read_bytes() == b"a party"
        assert not any("my.party.png" in problem for problem in copy.problems)
