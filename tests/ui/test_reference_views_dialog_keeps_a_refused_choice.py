"""Reference views… with a picture that can't be used (not an image): the dialog stays open
with the views chosen and says why, in its own line, naming the author's file (it closed,
and the choices made in it were lost); a good picture then stores the views."""

from __future__ import annotations

from pathlib import Path

from PIL import Image


def test_a_refused_view_keeps_the_dialog_and_its_choices(make_window, sample_project: Path, tmp_path: Path,
                                                         monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QDialogButtonBox

    from studio.ui.dialogs.reference_views import ReferenceViewsDialog

    window = make_window(sample_project)
    cast = window.workspace.cast
    project = window.session.project
    cast.characters.setCurrentRow(0)
    assert cast.selected_member() is not None
    member = cast.selected_member()
    errors: list[object] = []
    cast.error.connect(errors.append)
    back = tmp_path / "back_ok.png"
    Image.new("RGB", (30, 40), (0, 0, 200)).save(back)
    notes = tmp_path / "left_notes.png"
    notes.write_text("not a picture")
    left = tmp_path / "left_ok.png"
    Image.new("RGB", (30, 40), (200, 0, 0)).save(left)
    seen: dict[str, object] = {}

    def choose_and_press_ok(dialog: ReferenceViewsDialog) -> int:
        dialog.show()
        dialog.editor.strip.set_views([None, notes, back, None])
        ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        ok.click()
        seen["open"] = dialog.isVisible() and dialog.result() != ReferenceViewsDialog.DialogCode.Accepted
        seen["error"] = dialog.error.text() if dialog.error.isVisible() else ""
        seen["kept"] = dialog.chosen()
        dialog.editor.strip.set_view(1, left)
        ok.click()
        seen["closed"] = not dialog.isVisible()
        return dialog.result()

    monkeypatch.setattr(ReferenceViewsDialog, "exec", choose_and_press_ok)
    cast._ask_views()
    assert seen["open"], "the dialog closed on a picture it could not use"
    assert "left_notes.png" in str(seen["error"]) and "left view" in str(seen["error"]), seen["error"]
    assert seen["kept"] == [None, notes, back, None]
    assert seen["closed"]
    window.session.settle()
    views = project.tree.cast[member.id].reference_images
    assert [rel.split("/")[-1][:9] for rel in views] == ["left-view", "back-view"]
    assert errors == []
