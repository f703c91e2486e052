"""A character's name written in a turn with its accent as a character of its own
("Ame\\u0301lie", as macOS file names and some keyboards write it) looks exactly like the
cast's "Amélie". QA: the turn was played as a stranger (from the default start state, not
Amélie's), and renaming Amélie left the turn naming a character the cast no longer had. A
turn's name is matched to the cast with its accents composed one way; read back from a
reopened project."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from studio.core.commands import AddTurn, RenameCastMember, SetStartState
from studio.core.model import CastMember
from studio.core.state import CharacterState
from studio.storage import Project

COMPOSED = "Am\u00e9lie"
DECOMPOSED = "Ame\u0301lie"


def _story(tmp_path: Path) -> tuple[Path, str]:
    with Project.create(tmp_path / "story", cast=[CastMember(id="amelie", name=COMPOSED)]) as project:
        project.apply(SetStartState(COMPOSED, CharacterState(10, 20, 30)))
        project.apply(AddTurn(project.tree.root_id, f"Character: {DECOMPOSED}; Motion: run; Background: day town"))
        return project.path, project.tree.children(project.tree.root_id)[-1].id


def test_a_turn_naming_the_character_with_a_decomposed_accent_starts_from_its_start_state(tmp_path: Path) -> None:
    folder, turn = _story(tmp_path)
    with Project.open(folder) as project:
        assert project.tree.acting_character(turn) == COMPOSED
        assert project.tree.state_before(turn) == CharacterState(10, 20, 30)
        project.apply(SetStartState(COMPOSED, CharacterState(40, 40, 40)))
        assert project.tree.state_before(turn) == CharacterState(40, 40, 40)


def test_a_rename_reaches_the_turn_that_writes_the_accent_apart(tmp_path: Path) -> None:
    folder, turn = _story(tmp_path)
    with Project.open(folder) as project:
        project.apply(RenameCastMember("amelie", "Mia"))
        assert project.tree.node(turn).instruction.character == "Mia"
        assert set(project.tree.root.start_states) == {"Mia"}
        project.undo()  # the turn comes back as it was written
        assert project.tree.node(turn).instruction.raw.startswith(f"Character: {DECOMPOSED};")
        project.redo()
    with sqlite3.connect(folder / "project.db") as conn:
        (stored,) = conn.execute("SELECT instruction FROM nodes WHERE id = ?", (turn,)).fetchone()
    conn.close()
    assert stored == "Character: Mia; Motion: run; Background: day town"
