"""The chart's per-character views in a story that keeps one state per branch.

In such a story (made before per-character state) every character shares the branch's one
state, so there is no line per character to draw. The drop-down still offered "Social per
character" and, chosen, kept saying so over the three stats' lines of the acting view, with
the three stats' legend and tooltip. The per-character views are now offered only where
characters have their own states, saying why not elsewhere; the view chosen comes back when
the story gives each character their own state again."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QStandardItemModel

from studio.core.commands import SetStateScope
from studio.core.state import StateScope
from studio.ui.episode.state_chart import ACTING, NO_CHARACTER_LINES_TIP, StateChart


def _offered(chart: StateChart) -> dict[str, bool]:
    model = chart.mode_box.model()
    assert isinstance(model, QStandardItemModel)
    return {str(chart.mode_box.itemData(row)): model.item(row).isEnabled() for row in range(model.rowCount())}


def test_a_shared_state_story_offers_no_per_character_view(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                             qtbot) -> None:
    window = make_window(sample_project)
    session, ws = window.session, window.workspace
    tree = ws.tree
    ws.select(tree.leaves_under(tree.root_id)[0].id, center=False)
    chart = ws.episode.chart
    chart.set_mode("social")
    qtbot.waitUntil(lambda: len(chart.character_lines()) >= 2, timeout=5000)
    assert all(_offered(chart).values())

    ws.apply(SetStateScope(StateScope.BRANCH))
    session.settle()
    qtbot.waitUntil(lambda: not chart.characters, timeout=5000)
    assert chart.mode == ACTING and chart.mode_box.currentData() == ACTING, "the drop-down says what is drawn"
    assert _offered(chart) == {ACTING: True, "stamina": False, "social": False, "entertainment": False}
    assert NO_CHARACTER_LINES_TIP in chart.mode_box.toolTip()
    last = len(chart.states) - 1
    assert chart.tooltip_text(0).startswith("Start: stamina ")
    assert chart.tooltip_text(last) == f"Turn {last}: not generated yet: no state until a take is made"

    ws.apply(SetStateScope(StateScope.CHARACTER))
    session.settle()
    qtbot.waitUntil(lambda: bool(chart.characters), timeout=5000)
    assert chart.mode == "social" and chart.mode_box.currentData() == "social", "the chosen view comes back"
    assert len(chart.character_lines()) >= 2 and all(_offered(chart).values())


def test_choosing_in_the_drop_down_picks_the_view(qtbot) -> None:  # type: ignore[no-untyped-def]
    chart = StateChart()
    qtbot.addWidget(chart)
    assert not _offered(chart)["stamina"], "no characters' states yet"
    chart.set_character_states({"Qiqi": [], "Mei": []})
    chart.mode_box.setCurrentIndex(chart.mode_box.findData("entertainment"))
    assert chart.mode == chart.chosen == "entertainment"
    chart.set_character_states({})
    assert chart.mode == ACTING and chart.chosen == "entertainment"
