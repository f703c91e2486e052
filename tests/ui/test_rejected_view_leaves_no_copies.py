"""A character's views are copied into the project one at a time: when a later one is
refused (not a picture), the copies of those before it are removed at once (they stayed in
media/ until the project closed), and the dialog keeps the pictures chosen."""

from __future__ import annotations

from pathlib import Path

from PIL import Image


def _media_files(project_path: Path) -> set[Path]:
    return {path for path in (project_path / "media").rglob("*") if path.is_file()}


def _pictures(folder: Path) -> tuple[Path, Path, Path]:
    good = folder / "good_front.png"
    Image.new("RGB", (30, 40), (0, 200, 0)).save(good)
    other = folder / "good_back.png"
    Image.new("RGB", (30, 40), (0, 0, 200)).save(other)
    bad = folder / "bad_right.png"
    bad.write_text("not a picture")
    return good, other, bad


def test_add_character_with_a_refused_view_leaves_no_copies(
        make_window, sample_project: Path, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QDialogButtonBox

    from studio.ui.cast_panel import CharacterDialog

    window = make_window(sample_project)
    before = _media_files(sample_project)
    good, other, bad = _pictures(tmp_path)
    seen: dict[str, object] = {}

    def fill_and_add(dialog: CharacterDialog) -> int:
        dialog.show()
        dialog.name.setText("Tsubame")
        dialog.views.strip.set_views([good, None, other, bad])
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
        seen["open"] = dialog.isVisible()
        seen["error"] = dialog.error.text()
        seen["kept"] = dialog.images
        seen["media"] = _media_files(sample_project)
        return int(CharacterDialog.DialogCode.Rejected)

    monkeypatch.setattr(CharacterDialog, "exec", fill_and_add)
    window.workspace.cast._ask_character()
    assert seen["open"] and "bad_right.png" in str(seen["error"])
    assert seen["kept"] == [good, None, other, bad]
    assert seen["media"] == before
    assert all(m.name != "Tsubame" for m in window.session.project.tree.cast.values())


def test_set_views_with_a_refused_view_leaves_no_copies(
        make_window, sample_project: Path, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QDialogButtonBox

    from studio.ui.dialogs.reference_views import ReferenceViewsDialog

    window = make_window(sample_project)
    cast = window.workspace.cast
    cast.characters.setCurrentRow(0)
    member = cast.selected_member()
    assert member is not None
    before = _media_files(sample_project)
    good, other, bad = _pictures(tmp_path)
    seen: dict[str, object] = {}

    def choose_and_press_ok(dialog: ReferenceViewsDialog) -> int:
        dialog.show()
        dialog.editor.strip.set_views([good, None, other, bad])
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
        seen["open"] = dialog.isVisible()
        seen["kept"] = dialog.chosen()
        seen["media"] = _media_files(sample_project)
        return int(ReferenceViewsDialog.DialogCode.Rejected)

    monkeypatch.setattr(ReferenceViewsDialog, "exec", choose_and_press_ok)
    cast._ask_views()
    assert seen["open"]
    assert seen["kept"] == [good, None, other, bad]
    assert seen["media"] == before
    assert window.session.project.tree.cast[member.id].reference_images == member.reference_images


def test_a_refused_view_keeps_the_views_already_stored(make_window, sample_project: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from studio.core.errors import StudioError

    window = make_window(sample_project)
    cast = window.workspace.cast
    good, other, bad = _pictures(tmp_path)
    cast.add_character("Ren", [good, None, other])
    window.session.settle()
    ren = next(m for m in window.session.project.tree.cast.values() if m.name == "Ren")
    stored = [window.session.project.resolve(rel) for rel in ren.reference_images]
    cast.refresh(window.session.project.tree)
    before = _media_files(sample_project)
    with pytest.raises(StudioError):
        cast.set_views(ren.id, [stored[0], other, stored[1], bad])
    assert all(path.is_file() for path in stored)  # the views it has are not taken away
    assert _media_files(sample_project) == before
