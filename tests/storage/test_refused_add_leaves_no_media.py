"""Adding a character copies its views into media/ before the edit that names them is
applied. When the add was refused (a later view rejected, the name already taken), the views
already copied stayed behind, named by nothing. Now a refused add leaves nothing behind, and
the sweep made on opening removes only imported files that nothing names."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from PIL import Image

from studio.core.commands import AddCastMember, AddLocation, CommandError, RemoveCastMember
from studio.core.model import CastMember, Location
from studio.storage import Project
from studio.storage.media_import import ImageImportError, import_image, import_images
from studio.storage.unused_media import UNUSED_MIN_AGE_S


def picture(path: Path, colour: str = "red") -> Path:
    Image.new("RGB", (8, 8), colour).save(path)
    return path


def imported(project: Project) -> list[str]:
    media = project.path / "media"
    return sorted(p.relative_to(project.path).as_posix() for p in media.rglob("*") if p.is_file())


def age(project: Project, rels: list[str], seconds: float = UNUSED_MIN_AGE_S + 60) -> None:
    then = time.time() - seconds
    for rel in rels:
        os.utime(project.path / rel, (then, then))


def test_a_rejected_view_takes_the_views_copied_before_it_away(project: Project, tmp_path: Path) -> None:
    good = [picture(tmp_path / "front.png"), picture(tmp_path / "left.png", "blue")]
    bad = tmp_path / "back.png"
    bad.write_text("not a picture")
    with pytest.raises(ImageImportError):
        import_images(project, [*good, bad], "characters")
    assert imported(project) == []


def test_a_refused_add_removes_the_views_copied_for_it(project: Project, tmp_path: Path) -> None:
    project.apply(AddCastMember(CastMember(id="m1", name="Qiqi")))
    views = import_images(project, [picture(tmp_path / "front.png"), picture(tmp_path / "left.png")])
    assert len(imported(project)) == 2
    with pytest.raises(CommandError, match="already exists"):
        project.apply(AddCastMember(CastMember(id="m2", name="qiqi", reference_images=tuple(views))))
    assert imported(project) == []
    assert "m2" not in project.tree.cast


def test_views_of_an_added_character_stay_through_undo_redo_and_reopening(project: Project, tmp_path: Path) -> None:
    views = import_images(project, [picture(tmp_path / "front.png")])
    project.apply(AddCastMember(CastMember(id="m1", name="Mei", reference_images=tuple(views))))
    project.undo()
    project.redo()
    assert project.tree.cast["m1"].reference_images == tuple(views)
    project.apply(AddLocation(Location(id="l1", name="Town")))
    with pytest.raises(CommandError):  # a refused edit naming a claimed view removes nothing
        project.apply(AddLocation(Location(id="l2", name="town", kind="image", image_path=views[0])))
    path = project.path
    project.close()
    age(Project.open(path, read_only=True), views)
    with Project.open(path) as again:
        assert imported(again) == views
        assert not any("imported picture" in p for p in again.problems)


def test_an_import_never_named_goes_when_the_project_closes(project: Project, tmp_path: Path) -> None:
    import_image(project, picture(tmp_path / "spare.png"), "characters")
    assert len(imported(project)) == 1
    project.close()
    assert imported(project) == []


def test_opening_removes_only_old_imports_that_nothing_names(project: Project, tmp_path: Path) -> None:
    kept = import_images(project, [picture(tmp_path / "front.png")])
    place = import_image(project, picture(tmp_path / "town.png"), "locations")
    project.apply(AddCastMember(CastMember(id="m1", name="Mei", reference_images=(f"./{kept[0]}",))))
    project.apply(AddLocation(Location(id="l1", name="Town", kind="image", image_path=place.replace("/", "//"))))
    gone = import_image(project, picture(tmp_path / "gone.png"), "characters")
    project.apply(AddCastMember(CastMember(id="m2", name="Yu", reference_images=(gone,))))
    project.apply(RemoveCastMember("m2"))  # the character is removed; its view is named by nothing
    path = project.path
    project.close()
    chars = path / "media" / "characters"
    own = picture(chars / "my-sketch.png")  # the user's own file: not an import's name
    young = picture(chars / "fresh-0123456789.png")
    old = picture(chars / "old-abcdef0123.png")
    os.symlink(path / kept[0], chars / "link-0000000000.png")
    age(project, [kept[0], place, gone, "media/characters/old-abcdef0123.png", "media/characters/my-sketch.png"])
    os.utime(young, None)
    with Project.open(path) as again:
        left = imported(again)
        assert kept[0] in left and place in left
        assert (chars / "link-0000000000.png").is_symlink() and own.exists() and young.exists()
        assert gone not in left and not old.exists()
        assert any("removed 2 imported picture(s)" in p for p in again.problems)


def test_a_read_only_project_refuses_an_import(project: Project, tmp_path: Path) -> None:
    with Project.open(project.path, read_only=True) as reader, pytest.raises(ImageImportError, match="read-only"):
        import_image(reader, picture(tmp_path / "front.png"), "characters")
    assert imported(project) == []
