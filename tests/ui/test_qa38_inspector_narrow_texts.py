"""In the inspector at its narrowest, the takes count and the state panel's "Qiqi's state"
are whole or end in "…" (the count's whole text in its tooltip): the count wrapped to three
lines inside a one-line row and was cut at top and bottom, and "Qiqi's state", right-aligned
in a place narrower than it, showed as "ate"."""

from __future__ import annotations

from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel

from studio.core import CharacterState
from studio.core.state import StateChange
from studio.ui.elided_label import ElidedLabel
from studio.ui.inspector.inspector import Inspector
from studio.ui.inspector.state_panel import StatePanel
from studio.ui.inspector.takes_view import TakesView
from studio.ui.media_cache import ClipCache
from studio.ui.window_layout import INSPECTOR_MIN

COUNT = "No takes yet · 1 being made, 2 queued"


def _readable(label: QLabel) -> bool:
    """Whether ``label``'s whole text can be read: drawn on one line in its box, or in its tooltip
    (an :class:`ElidedLabel` cut with "…" shows its whole text as its tooltip)."""
    metrics = QFontMetrics(label.font())
    whole = metrics.horizontalAdvance(label.text()) <= label.contentsRect().width() \
        and label.contentsRect().height() >= metrics.height()
    cut_with_tip = isinstance(label, ElidedLabel) and label.is_elided() and label.shown_text().endswith("…")
    return whole or label.toolTip() == label.text() or cut_with_tip


def test_the_takes_count_is_readable_at_the_inspectors_narrowest(qtbot) -> None:  # type: ignore[no-untyped-def]
    inspector = Inspector(ClipCache(), str)
    qtbot.addWidget(inspector)
    inspector.resize(INSPECTOR_MIN, 900)
    inspector.show()
    takes = inspector.takes
    takes.show()
    takes.set_pending(1, 2)
    qtbot.wait(10)
    label = takes.count_label
    assert label.text() == COUNT
    metrics = QFontMetrics(label.font())
    assert label.height() < 2 * metrics.height(), "one line, as the row beside it"
    assert label.geometry().top() >= 0 and label.geometry().bottom() < takes.height()
    assert _readable(label), (label.width(), label.toolTip())
    label.grab()  # paints


def test_the_takes_count_is_whole_where_there_is_room(qtbot) -> None:  # type: ignore[no-untyped-def]
    takes = TakesView(ClipCache(), str)
    qtbot.addWidget(takes)
    takes.resize(900, 400)
    takes.show()
    takes.set_pending(1, 2)
    qtbot.wait(10)
    assert takes.count_label.text() == COUNT
    assert QFontMetrics(takes.count_label.font()).horizontalAdvance(COUNT) <= takes.count_label.contentsRect().width()
    assert takes.count_label.toolTip() == "", "nothing hidden: no tooltip to repeat it"


def _whose(panel: StatePanel) -> list[str]:
    return [text for text, _place in panel.text_places() if text not in ("Stamina", "Social", "Fun", "Motion")
            and not text.startswith(("level", "—")) and not text[0].isdigit()]


def test_the_state_panel_never_cuts_whose_state_it_is(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = StatePanel()
    qtbot.addWidget(panel)
    panel.set_values(CharacterState(40, 50, 65), StateChange(-10, 0, 15), 4)
    panel.set_character("Qiqi")
    panel.show()
    metrics = QFontMetrics(panel.font())
    panel.resize(600, panel.height())
    assert _whose(panel) == ["Qiqi's state"]
    for width in range(600, 150, -7):
        panel.resize(width, panel.height())
        for text, place in panel.text_places():
            assert metrics.horizontalAdvance(text) <= place.width(), f"{text!r} cut at width {width}"
        whose = _whose(panel)
        assert whose in ([], ["Qiqi's state"]) or (len(whose) == 1 and whose[0].endswith("…")
                                                   and "Qiqi's state".startswith(whose[0][:-1])), whose
    panel.resize(INSPECTOR_MIN, panel.height())
    panel.grab()
