"""The Compare branches window by keyboard (Ctrl+Shift+B opens it, Tab reaches the pickers, the
buttons and the transport, Esc closes it), and pictures of it in the light and the dark
scheme, saved into test-output/ for a person to look at (the test checks they are not blank)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from studio.ui import palette
from studio.ui.theme import apply_theme
from tests.ui.branch_compare_story import generate_every_branch

OUT = Path(__file__).resolve().parents[2] / "test-output"


def _distinct_colours(image: QImage) -> int:
    step = max(1, image.width() // 60)
    return len({image.pixel(x, y) for x in range(0, image.width(), step) for y in range(0, image.height(), step)})


def test_tab_walks_the_window_and_esc_closes_it(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    ws.view.setFocus()
    qtbot.keyClick(ws.view, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    compare = ws.branch_compare
    assert compare is not None, window.status_label.text()
    qtbot.waitExposed(compare)
    compare.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is compare, timeout=5000)

    compare.left.picker.setFocus()
    walked = [QApplication.focusWidget()]
    for _ in range(5):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        walked.append(QApplication.focusWidget())
    assert walked == [compare.left.picker, compare.right.picker, compare.left.show_button,
                      compare.right.show_button, compare.play_button, compare.slider]

    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: ws.branch_compare is None, timeout=5000)


def test_pictures_of_the_window_light_and_dark(make_window, sample_project: Path, qtbot) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    style, sheet, colours, scheme = app.style().name(), app.styleSheet(), app.palette(), palette.SCHEME
    window = make_window(sample_project)
    first, _second = generate_every_branch(window, qtbot)
    ws = window.workspace
    ws.select(first, center=False)
    compare = ws.compare_branches()
    assert compare is not None
    qtbot.waitUntil(lambda: all(c.player.frame_count for c in compare.columns), timeout=20_000)
    OUT.mkdir(exist_ok=True)
    try:
        for name in ("light", "dark"):
            apply_theme(app, name)
            compare.seek(1.0)
            qtbot.waitUntil(lambda: all(c.player.view.image is not None for c in compare.columns), timeout=20_000)
            qtbot.wait(50)
            picture = compare.grab().toImage()
            assert picture.save(str(OUT / f"branch-compare-{name}.png"))
            assert _distinct_colours(picture) > 20
    finally:
        app.setStyle(style)
        app.setStyleSheet(sheet)
        app.setPalette(colours)
        palette.use_scheme(scheme)
    compare.close()
