"""Renaming a character: a refused name is said before any question, and the question counts
the turns the rename changes as the status bar does once it is made (a turn where the
character only speaks a line changes too)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.core.commands import turns_naming


def _rename(window, qtbot, to: str) -> tuple[list[str], list[str]]:  # type: ignore[no-untyped-def]
    """Rename Qiqi to ``to``: (the questions asked, the errors shown)."""
    panel = window.workspace.cast
    asked: list[str] = []
    errors: list[str] = []
    panel.confirm = lambda _title, text: asked.append(text) or True
    panel.error.connect(lambda error: errors.append(str(error)))
    panel.ask_name = lambda _current: to
    panel.select_character("Qiqi")
    panel.rename_selected()
    window.session.settle()
    qtbot.wait(50)
    return asked, errors


@pytest.mark.parametrize("blank", ["", "   ", "\t"])
def test_a_blank_name_is_refused_before_any_question(make_window, sample_project: Path, qtbot,
                                                     blank: str) -> None:
    window = make_window(sample_project)
    asked, errors = _rename(window, qtbot, blank)
    assert asked == []
    assert len(errors) == 1 and errors[0].startswith("A character needs a name.")
    assert "Qiqi" in [m.name for m in window.session.project.tree.cast.values()]


def test_the_question_and_the_status_bar_count_the_same_turns(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    tree = window.session.project.tree
    named = {n.id for n in turns_naming(tree, "Qiqi")}
    speaks_only = [n for n in tree.nodes.values() if n.id not in named
                   and any(line.speaker == "Qiqi" for line in n.story.dialogue)]
    assert named and speaks_only  # the sample has a turn where Qiqi speaks without being named
    total = len(named) + len(speaks_only)
    asked, errors = _rename(window, qtbot, "Kiki")
    assert errors == []
    assert len(asked) == 1
    assert asked[0].startswith(f"Rename Qiqi to Kiki?\n{len(named)} turns name Qiqi: ")
    assert f"Qiqi speaks in {len(speaks_only)} more turn" in asked[0]
    assert f"({total} turns change in all)" in asked[0]
    status = window.status_text()
    assert f"in {total} turns" in status, status
    after = window.session.project.tree
    assert "Kiki" in [m.name for m in after.cast.values()]
    assert all(line.speaker != "Qiqi" for n in after.nodes.values() for line in n.story.dialogue)
