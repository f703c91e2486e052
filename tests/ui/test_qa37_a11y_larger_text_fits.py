"""With the application's text one and a half times as large (a desktop's text scale), the
inspector's main fields still show their words whole, in the studio's own theme: each label of the instruction's and the
story's fields, the state panel's labels and values (Stamina, Social, Fun, "100  (+25)",
the motion level) and at least two lines of the narration, shot notes and notes boxes.

Before, the state panel drew its texts in rows 20 pixels high and columns 58 and 70 pixels
wide whatever the font: at 1.5x, "Stamina" needed 74 x 21 pixels and had 58 x 20, and the
values were cut too; and the theme's stylesheet set every widget's text to 9 pt, so a larger
application font changed nothing at all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication, QLabel, QPlainTextEdit

from studio.core.state import CharacterState, StateChange
from studio.ui.inspector.state_panel import WIDEST_VALUE, StatePanel
from studio.ui.theme import DESIGN_POINT_SIZE, apply_theme

SCALE = 1.5


@pytest.fixture
def larger_text(tmp_path: Path) -> Iterator[QFont]:
    """The studio's theme, and the application's font at 1.5x, for the test; the look and
    the font of before afterwards."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    before = (app.font(), app.styleSheet(), app.palette(), app.style().name())
    apply_theme(app, "dark", tmp_path / "theme")
    larger = QFont(before[0])
    larger.setPointSizeF(DESIGN_POINT_SIZE * SCALE)
    app.setFont(larger)
    yield larger
    app.setStyleSheet(before[1])
    app.setFont(before[0])
    app.setPalette(before[2])
    app.setStyle(before[3])


def test_the_themes_text_sizes_follow_the_application_font(qtbot, larger_text: QFont) -> None:  # type: ignore[no-untyped-def]
    """The stylesheet's sizes (9 pt for every widget) won over the application's font: a
    larger desktop font left the studio's text as small as before."""
    label = QLabel("Stamina")
    title = QLabel("Turn 3")
    title.setObjectName("inspectorTitle")  # 13 pt in the stylesheet
    for widget in (label, title):
        qtbot.addWidget(widget)
        widget.show()
    assert label.font().pointSizeF() == pytest.approx(DESIGN_POINT_SIZE * SCALE, abs=0.01)
    assert title.font().pointSizeF() == pytest.approx(13 * SCALE, abs=0.01)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    again = QFont(larger_text)
    again.setPointSizeF(DESIGN_POINT_SIZE * 2)  # changed while the studio runs: followed too
    app.setFont(again)
    fresh = QLabel("Social")
    qtbot.addWidget(fresh)
    fresh.show()
    assert fresh.font().pointSizeF() == pytest.approx(DESIGN_POINT_SIZE * 2, abs=0.01)


def _cut_texts(panel: StatePanel) -> list[str]:
    metrics = QFontMetrics(panel.font())
    cut = []
    for text, place in panel.text_places():
        if metrics.horizontalAdvance(text) > place.width() or metrics.height() > place.height():
            cut.append(f"{text!r} needs {metrics.horizontalAdvance(text)}x{metrics.height()}, has "
                       f"{place.width():.0f}x{place.height():.0f}")
        if place.bottom() > panel.height():
            cut.append(f"{text!r} below the panel's bottom ({place.bottom():.0f} > {panel.height()})")
    return cut


def test_the_state_panel_fits_its_texts_at_a_larger_font(qtbot, larger_text: QFont) -> None:  # type: ignore[no-untyped-def]
    panel = StatePanel()
    qtbot.addWidget(panel)
    panel.resize(360, panel.sizeHint().height())
    panel.set_values(CharacterState(100, 45, 0), StateChange(25, -10, -5), 5)
    panel.set_character("Qiqi")
    panel.show()
    qtbot.waitExposed(panel)
    assert panel.font().pointSizeF() == pytest.approx(larger_text.pointSizeF())
    assert _cut_texts(panel) == []
    assert any(text == "100  (+25)" for text, _ in panel.text_places()) and WIDEST_VALUE == "100  (+25)"


def test_the_state_panel_follows_a_font_changed_while_it_shows(qtbot, larger_text: QFont) -> None:  # type: ignore[no-untyped-def]
    panel = StatePanel()
    qtbot.addWidget(panel)
    panel.set_values(CharacterState(40, 50, 60), StateChange(-10, 0, 5), 3)
    panel.show()
    small = panel.height()
    font = QFont(panel.font())
    font.setPointSizeF(font.pointSizeF() * 2)
    panel.setFont(font)
    assert panel.height() > small
    assert _cut_texts(panel) == []


def test_the_inspectors_fields_keep_their_words_at_a_larger_font(  # type: ignore[no-untyped-def]
        larger_text: QFont, make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    window.resize(1400, 900)
    ws = window.workspace
    tree = ws.tree
    spoken = next(node.id for node in tree.nodes.values() if node.story.dialogue)
    ws.select(spoken, center=False)
    ins = ws.inspector
    qtbot.waitUntil(lambda: bool(ins.story.rows), timeout=5000)
    qtbot.wait(100)
    cut = []
    for label in ins.findChildren(QLabel):
        if not label.isVisible() or not label.text() or label.wordWrap():
            continue
        hint = label.sizeHint()
        if hint.width() > label.width() or hint.height() > label.height():
            cut.append(f"label {label.text()!r}: {label.size().toTuple()} < {hint.toTuple()}")
    for box in (ins.story.narration, ins.story.shot_notes, ins.notes):
        assert isinstance(box, QPlainTextEdit)
        lines = box.viewport().height() / QFontMetrics(box.font()).lineSpacing()
        if lines < 2:
            cut.append(f"{box.accessibleName() or box.placeholderText()!r} shows {lines:.1f} lines")
    state = ins.state
    assert isinstance(state, StatePanel)
    cut += [f"state panel: {line}" for line in _cut_texts(state)]
    assert cut == []
