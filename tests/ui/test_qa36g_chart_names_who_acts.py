"""In a branch where Qiqi and Yuzu take turns, the acting view's line runs from one
character's state to the other's, and hovering a turn said "Turn 3: stamina 45, social 60,
fun 50" without saying whose state that is. Given who acts at each turn, the tooltip names
the actor (in the per-character views too, where every character's value is listed)."""

from __future__ import annotations

from pathlib import Path

from studio.ui.episode.state_chart import StateChart


def test_the_tooltip_names_the_character_acting_at_each_turn(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                             qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    tree = ws.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.select(leaf, center=False)
    branch = [node.id for node in tree.path_to(leaf)]
    actors = ["", *(tree.acting_character(node_id) for node_id in branch[1:])]
    assert len({name for name in actors if name}) >= 2, "the sample's branch has turns by two characters"
    chart = StateChart()
    qtbot.addWidget(chart)
    chart.set_states([tree.state_of(node_id) for node_id in branch], len(branch) - 1)
    assert chart.tooltip_text(1).startswith("Turn 1: stamina "), "no names given: as before"
    chart.set_actors(actors)
    for index in range(1, len(branch)):
        state = tree.state_of(branch[index])
        assert chart.tooltip_text(index) == (f"Turn {index} · \u2068{actors[index]}\u2069: stamina {state.stamina}, "
                                             f"social {state.social}, fun {state.entertainment}")
    assert chart.tooltip_text(0).startswith("Start: "), "nobody acts at the start"

    chart.set_character_states(ws.episode.chart.characters)
    chart.set_mode("social")
    other = next(i for i in range(1, len(branch)) if actors[i] != actors[1])
    tip = chart.tooltip_text(other)
    assert tip.startswith(f"Turn {other} (\u2068{actors[other]}\u2069 acts) · Social: ")
    assert all(f"\u2068{name}\u2069 " in tip for name in chart.characters)
