"""A sheet panel's heading with a character's name too long for its line ("Turn 1 · <a name
of 150 letters> · 3.5 s"): the line was cut at its last word that fitted, so it read
"Turn 1 ·…", the name and the duration both gone; the state's label "<NAME> STATE" lost
"STATE". Now the name alone is shortened."""

from __future__ import annotations

from dataclasses import replace

import pytest

from studio.export.storyboard import Measure, TextStyle, set_panel_text

from .test_panel_text_fit import assert_inside, layout_of, make_turn, metrics  # noqa: F401 - a fixture

LONG_NAME = "Averyveryverylongcharactername" * 5


@pytest.mark.parametrize("panels", [1, 2, 3])
@pytest.mark.parametrize("name", [LONG_NAME, f"Princess {LONG_NAME} the Third"])
def test_a_long_name_is_cut_and_the_duration_stays(metrics: Measure, panels: int, name: str) -> None:  # noqa: F811
    turn = make_turn()
    turn = replace(turn, character=name, story=replace(turn.story, duration=3.5))
    columns = layout_of(panels)
    lines, _size = set_panel_text(columns, turn, metrics)
    heading = lines[0]
    assert heading.style is TextStyle.BOLD
    assert heading.text.startswith(f"Turn 1 · {name[:5]}"), heading.text
    assert heading.text.endswith("\u2026 · 3.5 s"), heading.text
    assert_inside(lines, columns, metrics)


def test_a_name_that_fits_is_whole(metrics: Measure) -> None:  # noqa: F811
    turn = make_turn()
    turn = replace(turn, story=replace(turn.story, duration=2.0))
    lines, _size = set_panel_text(layout_of(3), turn, metrics)
    assert lines[0].text == "Turn 1 · Qiqi · 2 s"


@pytest.mark.parametrize("panels", [1, 2, 3])
def test_a_long_name_keeps_its_state_label_saying_state(metrics: Measure, panels: int) -> None:  # noqa: F811
    """The state's label ("QIQI STATE") was cut the same way: "AVERYVERY…", no longer saying
    what the block is."""
    turn = replace(make_turn(), character=LONG_NAME)
    columns = layout_of(panels)
    lines, _size = set_panel_text(columns, turn, metrics)
    labels = [line.text for line in lines[1:] if line.style is TextStyle.BOLD]
    assert labels[-1].startswith(LONG_NAME.upper()[:5]) and labels[-1].endswith("\u2026 STATE"), labels
    assert_inside(lines, columns, metrics)


def test_a_state_label_that_fits_is_whole(metrics: Measure) -> None:  # noqa: F811
    lines, _size = set_panel_text(layout_of(3), make_turn(), metrics)
    assert "QIQI STATE" in [line.text for line in lines]
    lines, _size = set_panel_text(layout_of(3), replace(make_turn(), character=""), metrics)
    assert "STATE" in [line.text for line in lines]
