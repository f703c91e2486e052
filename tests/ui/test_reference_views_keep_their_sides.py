"""A character with some of its four views: the Reference views dialog shows each stored view
on its own side (as the panel does), so a view added there keeps the others."""

from __future__ import annotations

from pathlib import Path

from PIL import Image


def _picture(path: Path, color: tuple[int, int, int]) -> Path:
    Image.new("RGB", (30, 40), color).save(path)
    return path


def test_the_views_dialog_shows_back_and_right_on_their_sides_and_adding_front_keeps_them(
        make_window, sample_project: Path, qtbot, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QDialogButtonBox

    from studio.ui.dialogs.reference_views import ReferenceViewsDialog

    window = make_window(sample_project)
    cast = window.workspace.cast
    project = window.session.project
    back, right = _picture(tmp_path / "b.png", (200, 0, 0)), _picture(tmp_path / "r.png", (0, 0, 200))
    front = _picture(tmp_path / "f.png", (0, 200, 0))
    cast.add_character("Sora", [None, None, back, right])
    window.session.settle()
    qtbot.waitUntil(lambda: any(cast.characters.item(i).text() == "Sora" for i in range(cast.characters.count())))
    cast.select_character("Sora")
    assert [label.pixmap().isNull() for label in cast.view_strip.pictures] == [True, True, False, False]
    shown: list[list[str | None]] = []

    def add_front(dialog: ReferenceViewsDialog) -> int:
        shown.append([path.name[:10] if path is not None else None for path in dialog.chosen()])
        dialog.editor.strip.ask_file = lambda parent, title: str(front)
        dialog.editor.strip.choose_buttons[0].click()  # the front view
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
        return dialog.result()

    monkeypatch.setattr(ReferenceViewsDialog, "exec", add_front)
    cast.views_button.click()
    assert shown == [[None, None, "back-view-", "right-view"]]
    window.session.settle()
    sora = next(m for m in project.tree.cast.values() if m.name == "Sora")
    assert [rel.split("/")[-1][:10] for rel in sora.reference_images] == ["front-view", "back-view-", "right-view"]
    qtbot.waitUntil(lambda: [label.pixmap().isNull() for label in cast.view_strip.pictures]
                    == [False, True, False, False])
