"""The state chart's "per character" view draws one line per character for one stat, but
hovering a turn named the acting character's three stats (not the values drawn there, nor
whose). It now names each character with the value of the stat the view shows."""

from __future__ import annotations

from pathlib import Path

from tests.ui.conftest import generate_first_branch


def test_the_per_character_tooltip_gives_the_lines_values(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    tree = ws.tree
    leaf = generate_first_branch(window, qtbot)  # a turn without a take has no state to name
    ws.select(leaf, center=False)
    chart = ws.episode.chart
    last = len(chart.states) - 1
    acting = chart.states[last]
    actor = tree.acting_character(leaf)  # whose state the acting view shows there
    assert chart.tooltip_text(last) == (f"Turn {last} · \u2068{actor}\u2069: stamina {acting.stamina}, "
                                        f"social {acting.social}, fun {acting.entertainment}")
    chart.set_mode("social")
    assert len(chart.characters) >= 2
    # each name isolated, so that a right-to-left name does not take the number after it
    expected = ", ".join(f"\u2068{name}\u2069 {states[last].social}" for name, states in chart.characters.items())
    assert chart.tooltip_text(last) == f"Turn {last} (\u2068{actor}\u2069 acts) · Social: {expected}"
    assert chart.tooltip_text(0).startswith("Start · Social: ")
