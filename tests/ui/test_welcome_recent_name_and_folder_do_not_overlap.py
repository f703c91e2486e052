"""Welcome page QA: a recent project's name and its folder sit side by side. (QA: the folder
was drawn from the row's left edge over the name, "Qiqi at the festival" over
"/home/…/Documents", at every window size; a damaged project's row read as garbage.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRect

from studio.ui.welcome import WelcomeContent, WelcomePage


def _drawn_text(label) -> QRect:  # type: ignore[no-untyped-def]
    """Where ``label`` draws its text, in its button's coordinates."""
    width = label.fontMetrics().horizontalAdvance(label.text())
    return QRect(label.geometry().x(), label.geometry().y(), width, label.height())


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (700, 500)])
def test_names_and_folders_of_recent_projects_do_not_overlap(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                             size: tuple[int, int]) -> None:
    names = ["Qiqi at the festival", "とても長い名前のプロジェクト🌸" * 4, "قصة ليلى", "a"]
    page = WelcomePage(WelcomeContent(recent=[tmp_path / "Documents" / f"{name}.kamishibai" for name in names]))
    qtbot.addWidget(page)
    page.resize(*size)
    page.show()
    qtbot.waitExposed(page)
    qtbot.waitUntil(lambda: all(b.name_label.width() > 0 for b in page.recent_buttons), timeout=5000)
    qtbot.wait(50)  # the rows' layouts settle
    for button in page.recent_buttons:
        name, folder = button.name_label, button.folder_label
        assert name.text() and folder.text()
        assert folder.geometry().left() > name.geometry().right(), (
            f"{button.name!r}: its folder starts at {folder.geometry().left()}, inside the name "
            f"({name.geometry().left()}-{name.geometry().right()})")
        assert not _drawn_text(name).intersects(_drawn_text(folder))
        assert folder.geometry().right() <= button.width()
