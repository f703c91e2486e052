"""Schema v3 (story fields, per-character state): old projects open with their meaning kept."""

from __future__ import annotations

import logging
import sqlite3
import zipfile
from pathlib import Path

import pytest

from studio.core import AddDialogueLine, CharacterState, DialogueLine, SetDuration, SetStartState, StateScope
from studio.core.commands import SetNarration, SetShotNotes
from studio.storage import Project
from studio.storage.database import read_version
from studio.storage.schema import MIGRATIONS, schema_version
from studio.storage.schema_check import compare

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "project-v0.1.0.zip"


def _unpack(tmp_path: Path) -> Path:
    with zipfile.ZipFile(FIXTURE) as archive:
        archive.extractall(tmp_path)
    return tmp_path / "v1-story.kamishibai"


def _fold_by_branch(db: Path) -> dict[str, tuple[int, int, int]]:
    """The states as release 0.1.0 computed them (one state down each branch), from the rows."""
    conn = sqlite3.connect(db)
    try:
        nodes = {i: (p, s) for i, p, s in conn.execute("SELECT id, parent_id, selected_take_id FROM nodes")}
        deltas = {i: (a, b, c) for i, a, b, c in conn.execute(
            "SELECT id, d_stamina, d_social, d_entertainment FROM takes")}
    finally:
        conn.close()
    out: dict[str, tuple[int, int, int]] = {}
    for node_id in nodes:
        path = []
        current: str | None = node_id
        while current is not None:
            path.append(current)
            current = nodes[current][0]
        state = [50, 50, 50]
        for step in reversed(path[:-1]):
            take = nodes[step][1]
            if take:
                state = [max(0, min(100, v + 5 * d)) for v, d in zip(state, deltas[take], strict=True)]
        out[node_id] = (state[0], state[1], state[2])
    return out


def test_the_v010_project_opens_with_the_states_it_was_made_with(tmp_path: Path) -> None:
    path = _unpack(tmp_path)
    db = path / "project.db"
    assert read_version(db) == 2
    before = _fold_by_branch(db)
    with Project.open(path, read_only=True) as reader:  # read as it is: not upgraded
        assert reader.tree.state_scope is StateScope.BRANCH
        assert {n: tuple(reader.tree.state_of(n).as_dict().values()) for n in reader.tree.nodes} == before
    assert read_version(db) == 2
    assert not (path / "project.db.bak-v2").exists()
    with Project.open(path) as project:
        tree = project.tree
        assert tree.state_scope is StateScope.BRANCH
        assert {n: tuple(tree.state_of(n).as_dict().values()) for n in tree.nodes} == before
        assert all(node.story.is_empty for node in tree.nodes.values())
        assert len({tree.acting_character(n) for n in tree.nodes if n != tree.root_id}) == 2
    assert read_version(db) == schema_version()
    assert (path / "project.db.bak-v2").exists()
    conn = sqlite3.connect(db)
    try:
        assert compare(conn, MIGRATIONS).empty  # the upgraded file passes the schema check
    finally:
        conn.close()


def test_story_fields_and_start_states_survive_reopening(tmp_path: Path) -> None:
    with Project.create(tmp_path / "p") as project:
        assert project.tree.state_scope is StateScope.CHARACTER
        from studio.core import AddTurn

        project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: town", node_id="a"))
        project.apply(AddDialogueLine("a", "Qiqi", "Ça va? 「はい」"))
        project.apply(SetNarration("a", "Line one.\nLine two."))
        project.apply(SetDuration("a", 4.5))
        project.apply(SetShotNotes("a", "pan left"))
        project.apply(SetStartState("Mei", CharacterState(5, 6, 7)))
        expected = project.tree.node("a").story
        path = project.path
    with Project.open(path, read_only=True) as again:
        assert again.tree.node("a").story == expected
        assert again.tree.node("a").story.dialogue == (DialogueLine("Qiqi", "Ça va? 「はい」"),)
        assert dict(again.tree.root.start_states) == {"Mei": CharacterState(5, 6, 7)}
        assert again.tree.state_scope is StateScope.CHARACTER


def test_an_upgrade_never_overwrites_an_existing_backup(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """QA: upgrading a schema-2 project replaced a project.db.bak-v2 already there."""
    path = _unpack(tmp_path)
    mine = b"my own notes, not a database"
    (path / "project.db.bak-v2").write_bytes(mine)
    (path / "project.db.bak-v2.1").symlink_to(tmp_path / "nowhere")  # taken too, even dangling
    before = (path / "project.db").read_bytes()
    with caplog.at_level(logging.INFO, logger="studio.storage.database"), Project.open(path) as project:
        assert project.database.backup == path / "project.db.bak-v2.2"
    assert (path / "project.db.bak-v2").read_bytes() == mine
    assert not (tmp_path / "nowhere").exists()
    assert (path / "project.db.bak-v2.2").read_bytes()[:16] == b"SQLite format 3\x00"
    assert read_version(path / "project.db.bak-v2.2") == 2
    assert len(before) > 0 and read_version(path / "project.db") == schema_version()
    said = [r for r in caplog.records if "project.db.bak-v2.2" in r.getMessage()]
    assert said and said[0].levelno == logging.WARNING and "project.db.bak-v2 was kept" in said[0].getMessage()
    assert not list(path.glob(".*.part"))


def test_an_upgrade_without_a_backup_there_writes_the_usual_name(tmp_path: Path) -> None:
    path = _unpack(tmp_path)
    with Project.open(path) as project:
        assert project.database.backup == path / "project.db.bak-v2"
    with Project.open(path) as again:  # nothing to upgrade: no new backup
        assert again.database.backup is None
    assert sorted(p.name for p in path.glob("project.db.bak-*")) == ["project.db.bak-v2"]
