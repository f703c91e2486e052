"""The reference-view editor with a user's odd files: a phone's sideways-stored portrait photo
is shown upright, a name that merely contains a side ("bright", "backpack") is not put in
that slot, and a file that can't be shown as a picture is named in the editor's note."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from studio.ui.dialogs.reference_views import VIEWS, ViewsEditor, picture, place_views, side_of, views_note


def _phone_photo(path: Path) -> None:
    """Stored 60 wide x 40 tall, EXIF orientation 6: a portrait 40 x 60 with the stored left
    edge (yellow) on top."""
    stored = Image.new("RGB", (60, 40), (0, 0, 255))
    stored.paste((255, 255, 0), (0, 0, 12, 40))
    exif = stored.getexif()
    exif[0x0112] = 6
    stored.save(path, exif=exif.tobytes(), quality=95)


def test_a_phone_portrait_is_shown_upright(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "IMG_0001.jpg"
    _phone_photo(path)
    shown = picture(path).toImage()
    assert shown.width() < shown.height(), "a portrait"
    top, bottom = shown.pixelColor(shown.width() // 2, 1), shown.pixelColor(shown.width() // 2, shown.height() - 2)
    assert top.red() > 200 and top.green() > 200 and top.blue() < 60, top.name()
    assert bottom.blue() > 200 and bottom.red() < 60, bottom.name()


def test_a_name_that_only_contains_a_side_fills_the_next_empty_slot() -> None:
    assert [side_of(Path(n)) for n in ("bright.png", "backpack.png", "cleft.png")] == [None, None, None]
    assert [side_of(Path(n)) for n in ("MeiBack.png", "mei_left.png", "right-view-9f.png")] == [2, 1, 3]
    files = [Path("bright.png"), Path("MeiBack.png"), Path("backpack.png")]
    assert place_views(files) == [Path("bright.png"), Path("backpack.png"), Path("MeiBack.png"), None]


def test_the_note_names_a_view_that_cannot_be_shown(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    editor = ViewsEditor()
    qtbot.addWidget(editor)
    files = []
    for side in VIEWS:
        path = tmp_path / f"mei_{side}.png"
        Image.new("RGB", (30, 40), (90, 140, 200)).save(path)
        files.append(path)
    files[2].write_text("a note saved under the wrong name")
    editor.ask_files = lambda parent: [str(f) for f in files]
    editor.several.click()
    assert editor.strip.chosen() == files
    assert editor.strip.unreadable() == [2]
    assert "The back view can't be read as a picture" in editor.note.text(), editor.note.text()
    assert "can't be read" in editor.strip.pictures[2].toolTip()
    files[2].unlink()
    Image.new("RGB", (30, 40), (90, 140, 200)).save(files[2])
    editor.strip.set_view(2, files[2])
    assert editor.strip.unreadable() == [] and "can't be read" not in editor.note.text()


def test_two_files_naming_one_side_both_stay() -> None:
    placed = place_views([Path("a_back.png"), Path("b_back.png")])
    assert placed == [Path("b_back.png"), None, Path("a_back.png"), None], "the second fills an empty slot"


def test_more_than_four_pictures_are_not_called_n_of_4() -> None:
    note = views_note(5)
    assert "5 of 4" not in note and "5 reference pictures" in note and "exactly four" in note
