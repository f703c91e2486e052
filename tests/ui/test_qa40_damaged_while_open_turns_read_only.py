"""A project whose database is damaged while it is open: the first change that can't be
saved turns the window read-only, saying so plainly (no backups named that are not there),
and File › Save a copy… saves the story the window holds, with its clips, to a new,
healthy project, which opens for editing.

Before, every edit and re-roll was refused one by one with SQLite's words and a hint naming
backups that did not exist, the window stayed editable, and Save a copy… refused with SQLite's
integrity report. The damage here is real: bytes overwritten in the middle of project.db."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.ui.conftest import damage_database


def _integrity(db: Path) -> str:
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        connection.close()


def test_a_database_damaged_while_open_turns_the_window_read_only_and_a_copy_saves_the_story(
        make_window, sample_project: Path, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from tests.ui.conftest import generate_first_branch

    window = make_window(sample_project)
    leaf = generate_first_branch(window, qtbot)
    window.close_project("cancel")  # its changes all in project.db (closing empties the WAL file)
    assert window.open_project(sample_project), window.last_error
    session, ws = window.session, window.workspace
    held = session.project.tree
    name = session.project.name
    clips = {take.id: (sample_project / take.clip_path).read_bytes()
             for take in held.takes.values() if take.clip_path}
    assert clips, "the branch made no clips"
    turn = held.path_to(leaf)[1].id
    ws.select(turn, center=False)

    damage_database(sample_project / "project.db")
    editor = ws.inspector.editor
    editor.motion.setText("jumps over the fence")
    editor.save_button.click()
    qtbot.waitUntil(lambda: session.read_only is not None, timeout=10_000)

    reason = session.read_only
    assert reason.damaged
    line = ws.read_only_bar.label.text()
    assert "project.db of sample.kamishibai is damaged" in line and "Save a copy" in line, line
    assert ws.read_only_bar.isVisible()
    said = f"{window.last_error.message} {window.last_error.hint}"
    assert "read-only" in said and "bak-" not in said and "btree" not in said, said
    assert editor.motion.isReadOnly()
    for action in (window.actions_.generate, window.actions_.reroll, window.actions_.new_turn,
                   window.actions_.delete, window.actions_.undo):
        assert not action.isEnabled(), action.text()
    assert window.actions_.save_copy.isEnabled()
    assert "(read-only)" in window.windowTitle()

    lost_take, lost_rel = next((t.id, t.clip_path) for t in held.takes.values() if t.clip_path)
    (sample_project / lost_rel).unlink()  # a clip that can no longer be read: left out, and named
    del clips[lost_take]

    dest = tmp_path / "rescued.kamishibai"
    assert window.save_copy_to(dest)
    qtbot.waitUntil(lambda: window.session is not None and window.session.path == dest, timeout=30_000)
    copy = window.session.project
    assert window.session.read_only is None
    assert copy.name == name  # the story keeps its name
    assert set(copy.tree.nodes) == set(held.nodes)
    assert set(copy.tree.takes) == set(held.takes)
    assert copy.tree.node(turn).instruction == held.node(turn).instruction
    assert _integrity(dest / "project.db") == "ok"
    for take_id, data in clips.items():
        assert (dest / copy.tree.takes[take_id].clip_path).read_bytes() == data
    assert "from the story the window held" in window.last_error.message
    assert f"1 media file could not be read and is missing from it ({lost_rel})" in window.last_error.message
    assert not (dest / lost_rel).exists()


def test_the_read_only_line_names_only_backups_that_are_there(sample_project: Path) -> None:
    from studio.ui.damaged_project import damaged_reason

    assert "bak-" not in damaged_reason(sample_project).todo
    (sample_project / "project.db.bak-v3").write_bytes((sample_project / "project.db").read_bytes())
    assert "project.db.bak-v3" in damaged_reason(sample_project).todo


def test_a_generation_whose_take_cant_be_saved_turns_the_window_read_only(
        make_window, sample_project: Path, settings, registry, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The database damaged while a generation runs: the take can't be saved when it ends, and
    the window turns read-only then, as for an edit (before, only the job failed)."""
    from tests.ui.conftest import fake_engine_window, generate_a_held_turn

    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    session, ws = window.session, window.workspace
    generate_a_held_turn(window, "Qiqi waves [block]")
    try:
        assert script.started.wait(30)
        session.settle()
        session.writer.call(lambda: session.project.database.execute("PRAGMA wal_checkpoint(TRUNCATE)"))
        damage_database(sample_project / "project.db")
    finally:
        script.release.set()
    qtbot.waitUntil(lambda: session.read_only is not None, timeout=30_000)
    assert session.read_only.damaged
    assert ws.read_only_bar is not None and ws.read_only_bar.isVisible()
    assert not window.actions_.generate.isEnabled()
    assert "read-only" in window.last_error.message
