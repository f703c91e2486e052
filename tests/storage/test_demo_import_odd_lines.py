"""game_demo files with lines the authors did not write by hand: branch markers with digits
``int`` can't read or thousands of digits, and characters other than a line break that
``str.splitlines`` would split a line at. Each is reported by the line number an editor
shows, never an internal error."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.storage.demo_import import parse_demo_text, read_demo


@pytest.mark.parametrize("after", ["²", "¹²", "1" * 5000])
def test_a_branch_marker_without_a_usable_number_is_reported(after: str) -> None:
    story = parse_demo_text(f"Qiqi jumps\n## branch after {after}\nQiqi runs\n")
    assert [number for number, _reason in story.problems] == [2]
    assert "needs a turn number" in story.problems[0][1]
    assert len(story.problems[0][1]) < 200


def test_a_branch_after_a_turn_in_another_script_still_works() -> None:
    story = parse_demo_text("Qiqi jumps\n## branch after ١\nQiqi runs\n")  # Arabic-Indic one
    assert story.problems == [] and story.branches[1].after == 1


def test_line_numbers_are_those_an_editor_shows(tmp_path: Path) -> None:
    path = tmp_path / "demo.txt"
    path.write_text("Qiqi jumps\fQiqi runs\u2028Qiqi sits\nCharacter: Qiqi; Motion: ; Background: town.\n",
                    encoding="utf-8")
    problems = read_demo(path).problems
    assert [number for number, _reason in problems] == [1, 2], problems
    assert "control character" in problems[0][1]


def test_a_unicode_line_separator_inside_a_line_is_reported() -> None:
    story = parse_demo_text("Qiqi jumps\u2028Qiqi runs\nQiqi sits\n")
    assert story.problems == [(1, story.problems[0][1])] and "U+2028" in story.problems[0][1]


def test_windows_and_old_mac_line_ends_still_split_lines() -> None:
    story = parse_demo_text("Qiqi jumps\r\nQiqi runs\rQiqi sits\n")
    assert story.problems == [] and [t.number for t in story.branches[0].turns] == [1, 2, 3]
