"""Welcome page QA: a recent project with a very long name leaves its folder room and is
elided (it was cut off mid-letter, and its folder squeezed to "/t…r_"); a folder name holding
a line break is shown on one line in the row's single line."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.ui.welcome import RecentButton, WelcomeContent, WelcomePage


def _fits(label) -> bool:  # type: ignore[no-untyped-def]
    return bool(label.fontMetrics().horizontalAdvance(label.text()) <= label.width())


def test_a_long_name_is_elided_and_leaves_its_folder_room(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    name = " ".join(["My wonderful story about Qiqi"] * 4)
    folder = tmp_path / ("a_very_long_folder_name_" * 4)
    short = tmp_path / "Story.kamishibai"
    page = WelcomePage(WelcomeContent(recent=[folder / f"{name}.kamishibai", short]))
    qtbot.addWidget(page)
    page.resize(1280, 720)
    page.show()
    qtbot.waitExposed(page)
    long_button, short_button = page.recent_buttons
    qtbot.waitUntil(lambda: long_button.name_label.width() > 0, timeout=5000)
    assert "…" in long_button.name_label.text() and _fits(long_button.name_label)
    assert long_button.name_label.text().startswith("My wonderful") and long_button.name_label.text().endswith("Qiqi")
    assert long_button.folder_label.width() >= long_button.width() // 4, "the folder was squeezed out"
    assert _fits(long_button.folder_label)
    assert short_button.name_label.text() == "Story", "a name that fits was elided"
    assert long_button.toolTip() == str(folder / f"{name}.kamishibai")


def test_a_line_break_in_a_folder_name_stays_on_the_row(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    button = RecentButton(tmp_path / "two\nlines" / "first\nturn.kamishibai")
    qtbot.addWidget(button)
    button.resize(600, 30)
    button.show()
    qtbot.waitExposed(button)
    assert button.name_label.text() == "first turn"
    assert "\n" not in button.folder_label.text() and "two lines" in button.folder_label.text()
    clicked: list[bool] = []
    button.clicked.connect(lambda: clicked.append(True))
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert clicked, "the row no longer opens the project"
