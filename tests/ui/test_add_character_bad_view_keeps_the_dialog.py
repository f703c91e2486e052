"""Adding a character with a view that is not a usable picture (not an image, damaged, too
large): the Add character dialog stays open with everything entered and names the file the
author chose, not a copy made on the way."""

from __future__ import annotations

from pathlib import Path

from PIL import Image


def test_a_bad_view_is_named_and_the_dialog_keeps_what_was_entered(
        make_window, sample_project: Path, qtbot, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QDialogButtonBox

    from studio.ui.cast_panel import CharacterDialog

    window = make_window(sample_project)
    cast = window.workspace.cast
    project = window.session.project
    errors: list[object] = []
    cast.error.connect(errors.append)
    front = tmp_path / "mei_front.png"
    Image.new("RGB", (30, 40), (0, 200, 0)).save(front)
    notes = tmp_path / "mei_left.png"
    notes.write_text("not a picture")
    left = tmp_path / "mei_left_ok.png"
    Image.new("RGB", (30, 40), (200, 0, 0)).save(left)
    seen: dict[str, object] = {}

    def fill_and_add(dialog: CharacterDialog) -> int:
        dialog.show()
        dialog.name.setText("Mei")
        dialog.look["hair_color"].setText("chestnut")
        dialog.start["stamina"].setValue(40)
        dialog.views.strip.set_views([front, notes, None, None])
        add = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        add.click()
        seen["open"] = dialog.isVisible() and dialog.result() != CharacterDialog.DialogCode.Accepted
        shown = getattr(dialog, "error", None)  # the dialog's own line for a refusal
        seen["error"] = shown.text() if shown is not None and shown.isVisible() else ""
        seen["kept"] = (dialog.name.text(), dialog.look["hair_color"].text(), dialog.start["stamina"].value(),
                        dialog.images)
        dialog.views.strip.set_view(1, left)  # another picture for the left view, and Add again
        add.click()
        return dialog.result()

    monkeypatch.setattr(CharacterDialog, "exec", fill_and_add)
    cast._ask_character()
    assert seen["open"], "the dialog closed on a bad view"
    error = str(seen["error"])
    assert "mei_left.png" in error and "left view" in error, error
    assert "kamishibai-view-" not in error and "left-view.png" not in error, error
    assert seen["kept"] == ("Mei", "chestnut", 40, [front, notes, None, None])
    window.session.settle()
    mei = next(m for m in project.tree.cast.values() if m.name == "Mei")
    assert mei.params == {"hair_color": "chestnut"}
    assert [rel.split("/")[-1][:10] for rel in mei.reference_images] == ["front-view", "left-view-"]
    assert errors == []


def test_add_view_errors_name_the_chosen_file(make_window, sample_project: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from studio.core.errors import StudioError

    window = make_window(sample_project)
    damaged = tmp_path / "ren back.png"
    damaged.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    with pytest.raises(StudioError) as raised:
        window.workspace.cast.add_character("Ren", [None, None, damaged])
    assert raised.value.message.startswith("The back view: the image ren back.png is not a readable image")
    assert str(damaged) in raised.value.message and "kamishibai-view-" not in raised.value.message
