"""Zips that are no bundle are told as what they are, and a bundled project goes on.

A project folder zipped by hand (the zip tool of the desktop, ``zip -r``) and a zip of
something else entirely were refused for their first entry ("unexpected entry
'story.kamishibai/'") with the hint to ask for the bundle again. A character's reference
picture outside the project was said to be "not in the bundle", as if the bundle had lost it.
"""

from __future__ import annotations

import json
import os
import sqlite3
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from studio.cli import main
from studio.core import AddCastMember, CastMember
from studio.core.commands import AddLocation
from studio.core.model import Location, new_id
from studio.storage import Project
from studio.storage.bundle import BundleError, export_bundle, import_bundle
from studio.storage.media_import import import_image, import_images
from tests.storage.bundle_setup import project_with_one_take, relist


def _zip_folder(folder: Path, out: Path, *, under: str) -> Path:
    """``folder`` zipped as a zip tool does, its files under ``under`` (``""``: at the top)."""
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, f"{under}{path.relative_to(folder).as_posix()}")
    return out


def _refused(bundle: Path, tmp_path: Path, *needles: str) -> BundleError:
    before = sorted(os.listdir(tmp_path))
    with pytest.raises(BundleError) as caught:
        import_bundle(bundle, tmp_path / "copy")
    text = f"{caught.value}\n{caught.value.hint}"
    assert all(needle in text for needle in needles), text
    assert "unexpected entry" not in text and "Ask for the bundle again" not in text, text
    assert sorted(os.listdir(tmp_path)) == before  # no project, no work folder left
    return caught.value


def test_a_project_folder_zipped_by_hand_is_named_so(tmp_path: Path) -> None:
    project_with_one_take(tmp_path / "story").close()
    bundle = _zip_folder(tmp_path / "story.kamishibai", tmp_path / "story.zip", under="story.kamishibai/")
    _refused(bundle, tmp_path, "is not a bundle", "zip of the project folder 'story.kamishibai' made by hand",
             "open the project folder it holds")


def test_a_project_s_files_zipped_by_hand_are_named_so(tmp_path: Path) -> None:
    project = project_with_one_take(tmp_path / "story")  # open: its -wal file is there
    try:
        bundle = _zip_folder(project.path, tmp_path / "files.zip", under="")
    finally:
        project.close()
    _refused(bundle, tmp_path, "is not a bundle", "project.db-wal", "new, empty folder NAME.kamishibai")


def test_a_zip_of_something_else_names_what_it_holds(tmp_path: Path) -> None:
    other = tmp_path / "photos.zip"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("holiday/beach.jpg", b"not a bundle")
        archive.writestr("../outside.txt", b"nor this")
    _refused(other, tmp_path, "is not a Kamishibai bundle", "neither kamishibai-bundle.json nor project.db",
             "holiday/beach.jpg", "made by `kamishibai bundle`")
    assert not (tmp_path.parent / "outside.txt").exists()


def test_a_reference_picture_outside_the_project_is_not_called_lost(tmp_path: Path) -> None:
    project_with_one_take(tmp_path / "story").close()
    with Project.open(tmp_path / "story.kamishibai", read_only=True) as project:
        bundle = export_bundle(project, tmp_path / "story.zip")
    with zipfile.ZipFile(bundle) as archive:
        items = [(info, archive.read(info)) for info in archive.infolist()]
    database = tmp_path / "edited.db"
    database.write_bytes(dict((info.filename, data) for info, data in items)["project.db"])
    with sqlite3.connect(database) as conn:  # as another program wrote it
        conn.execute("INSERT INTO cast_members (id, name, params, reference_images) VALUES (?, ?, '{}', ?)",
                     ("c9", "Mika", json.dumps(["/etc/hostname", "../secret.png"])))
    conn.close()
    with zipfile.ZipFile(bundle, "w") as archive:
        for info, data in items:
            archive.writestr(info, database.read_bytes() if info.filename == "project.db" else data)
    with import_bundle(relist(bundle), tmp_path / "copy") as copy:
        notes = [note for note in copy.problems if "hostname" in note or "secret" in note]
    assert len(notes) == 2 and all("not in the bundle" not in note for note in notes), copy.problems
    assert notes[0].startswith("character 'Mika', reference picture 1: Refused the absolute path"), notes
    assert notes[1].startswith("character 'Mika', reference picture 2: Refused the path '../secret.png'"), notes
    assert all(note.endswith("It is not used.") for note in notes), notes
    assert not (tmp_path / "copy.kamishibai" / "etc").exists()


def _picture(path: Path, colour: tuple[int, int, int]) -> Path:
    Image.new("RGB", (64, 48), colour).save(path)
    return path


def _play(folder: Path, text: str, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["play", str(folder), text, "--json", "--setting", "frames=4", "--setting", "width=96",
                 "--setting", "height=64"]) == 0
    result: dict[str, object] = json.loads(capsys.readouterr().out)
    return result


def test_an_unbundled_project_keeps_its_pictures_plays_on_and_exports(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Project.create(tmp_path / "story") as project:
        place = import_image(project, _picture(tmp_path / "harbour.png", (20, 120, 200)), "locations")
        project.apply(AddLocation(Location(id=new_id(), name="harbour", kind="image", image_path=place)))
        views = import_images(project, [_picture(tmp_path / "mika.png", (200, 30, 40))])
        project.apply(AddCastMember(CastMember(id=new_id(), name="Mika", reference_images=tuple(views))))
    original = tmp_path / "story.kamishibai"
    first = _play(original, "Character: Mika; Motion: run; Background: day harbour.", capsys)
    second = _play(original, "Character: Mika; Motion: jump; Background: night harbour.", capsys)
    assert main(["bundle", str(original), str(tmp_path / "story.zip")]) == 0
    assert main(["unbundle", str(tmp_path / "story.zip"), str(tmp_path / "copy")]) == 0
    copy = tmp_path / "copy.kamishibai"
    for rel in (place, *views):
        assert (copy / rel).read_bytes() == (original / rel).read_bytes()
    capsys.readouterr()
    third = _play(copy, "Character: Mika; Motion: wave; Background: day harbour.", capsys)
    with Project.open(copy, read_only=True) as reopened:
        tree = reopened.tree
        assert tree.node(str(third["node"])).parent_id == second["node"]  # on from the last turn
        assert [m.reference_images for m in tree.cast.values() if m.name == "Mika"] == [tuple(views)]
        assert {first["node"], second["node"], third["node"]} <= set(tree.nodes)
    out = tmp_path / "episode.mp4"
    assert main(["export", str(copy), "--out", str(out)]) == 0
    from studio.storage.ffmpeg import probe  # the episode as a player reads it

    assert probe(out).frames >= 3 * 4, probe(out)
