"""The real window, driven like a user: write a turn, generate, re-roll, compare takes,
switch takes (children go stale), undo, delete, cancel a queued job."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.ui.node_summary import CardStatus
from tests.ui.conftest import fake_engine_window
from tests.ui.keys import press_story_key as _press

TIMEOUT_MS = 60_000


def _done_takes(project, node_id: str) -> list:  # type: ignore[no-untyped-def]
    return [t for t in project.tree.takes_of(node_id) if t.status.value == "done"]


def _write_turn(window, qtbot, character: str, motion: str, background: str, time: str = "day") -> None:  # type: ignore[no-untyped-def]
    """Enter on the selected card, fill the fields, Ctrl+Enter."""
    ws = window.workspace
    _press(window, qtbot, Qt.Key.Key_Return)
    editor = ws.inspector.editor
    assert ws.inspector.draft_parent is not None
    for field, value in ((editor.character, character), (editor.motion, motion), (editor.background, background)):
        field.clear()
        qtbot.keyClicks(field, value)
    editor.time.setCurrentText(time)
    qtbot.keyClick(editor.motion, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)


def test_generate_reroll_compare_select_undo_delete(make_window, tmp_path: Path, qtbot) -> None:
    window = make_window()
    assert window.new_project(tmp_path / "story"), window.last_error
    ws = window.workspace
    project = window.session.project
    root = project.tree.root_id

    # -- write and generate the first turn ------------------------------------------------
    _write_turn(window, qtbot, "Qiqi", "gently sit on railing", "town")
    assert ws.inspector.editor.text() == "Character: Qiqi; Motion: gently sit on railing; Background: day town."
    qtbot.waitUntil(lambda: len(project.tree.nodes) == 2 and ws.current_id != root)  # the new turn is selected
    first = ws.current_id
    assert project.tree.nodes[first].parent_id == root
    assert project.tree.nodes[first].instruction.raw.startswith("Character: Qiqi; Motion: gently sit on railing")
    qtbot.waitUntil(lambda: first in ws.scene.cards and ws.scene.cards[first].summary.status is CardStatus.DONE,
                    timeout=TIMEOUT_MS)
    card = ws.scene.cards[first]
    assert card.summary.poster_path and card.summary.clip_path
    qtbot.waitUntil(lambda: ws.scene.poster(card.summary.poster_path) is not None, timeout=10_000)
    take = project.tree.selected_take(first)
    assert card.summary.motion_level == take.motion_level
    assert card.summary.state == project.tree.state_of(first)  # the bars show the node's state
    image = ws.view.grab().toImage()
    assert not image.isNull()

    # -- re-roll with R and compare the two takes side by side ----------------------------
    ws.select(first)
    _press(window, qtbot, Qt.Key.Key_R)
    qtbot.waitUntil(lambda: len(window.session.service.jobs(include_finished=True)) == 2)  # R queues a re-roll
    qtbot.waitUntil(lambda: len(_done_takes(project, first)) == 2, timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 2, timeout=10_000)
    tiles = ws.inspector.takes.tiles
    qtbot.waitUntil(lambda: all(t.player.frame_count > 0 for t in ws.inspector.takes.tiles), timeout=20_000)
    assert all(t.player.playing for t in ws.inspector.takes.tiles)
    assert tiles[0].take.seed != tiles[1].take.seed
    first_take, second_take = _done_takes(project, first)
    assert project.tree.nodes[first].selected_take_id == second_take.id  # a new take becomes the selected one

    # -- a child turn, generated from the second take --------------------------------------
    _write_turn(window, qtbot, "Qiqi", "happily eat bread", "bakery")
    qtbot.waitUntil(lambda: len(project.tree.nodes) == 3 and ws.current_id != first)
    child = ws.current_id
    qtbot.waitUntil(lambda: len(_done_takes(project, child)) == 1, timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: ws.scene.status(child) is CardStatus.DONE)

    # -- pick the other take of the first turn: the child is now stale ---------------------
    ws.select(first)
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 2)
    tile = next(t for t in ws.inspector.takes.tiles if t.take.id == first_take.id)
    qtbot.mouseClick(tile.use_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: project.tree.nodes[first].selected_take_id == first_take.id)
    qtbot.waitUntil(lambda: ws.scene.status(child) is CardStatus.STALE)
    qtbot.waitUntil(lambda: window.actions_.undo.text() == "&Undo Select take")

    # -- undo brings the second take back and the child is fresh again --------------------
    window.actions_.undo.trigger()
    qtbot.waitUntil(lambda: project.tree.nodes[first].selected_take_id == second_take.id)
    qtbot.waitUntil(lambda: ws.scene.status(child) is CardStatus.DONE)

    # -- delete the first turn's subtree (it has takes: the window asks, we say yes) ---------
    asked: list[str] = []
    window.confirm = lambda title, text: asked.append(text) or True  # type: ignore[method-assign]
    ws.select(first)
    _press(window, qtbot, Qt.Key.Key_Delete)
    assert asked and "take" in asked[0]
    qtbot.waitUntil(lambda: set(ws.scene.cells) == {root} and set(ws.scene.cards) == {root})
    assert ws.current_id == root
    window.actions_.undo.trigger()  # and it comes back
    qtbot.waitUntil(lambda: len(ws.scene.cells) == 3)


def test_cancel_a_queued_job_from_the_queue_panel(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    service = window.session.service
    service.pause()  # nothing starts: every job stays queued
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0]
    ws.select(leaf.id)
    window.actions_.fill.trigger()
    qtbot.waitUntil(lambda: ws.queue.list.topLevelItemCount() == 5)
    queued = [j for j in service.jobs() if j.status.value == "queued"]
    assert len(queued) == 5
    last = queued[-1]
    ws.queue.select_job(last.id)
    assert ws.queue.cancel_button.isEnabled()
    qtbot.mouseClick(ws.queue.cancel_button, Qt.MouseButton.LeftButton)  # runs on the writer thread
    qtbot.waitUntil(lambda: service.job(last.id).status.value == "cancelled")
    # reorder: the new last job moves up one place
    still = [j.id for j in service.jobs() if j.status.value == "queued"]
    ws.queue.select_job(still[0])  # the next to run can't run earlier
    assert not ws.queue.up_button.isEnabled() and ws.queue.down_button.isEnabled()
    ws.queue.select_job(still[-1])  # nor the last later
    assert ws.queue.up_button.isEnabled() and not ws.queue.down_button.isEnabled()
    qtbot.mouseClick(ws.queue.up_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: [j.id for j in service.jobs() if j.status.value == "queued"].index(still[-1])
                    == len(still) - 2)
    assert ws.queue.selected_job_id() == still[-1]  # the moved job stays selected
    qtbot.waitUntil(ws.queue.down_button.isEnabled)  # no longer the last
    qtbot.waitUntil(lambda: ws.queue.summary.text() == "0 running · 4 queued")


def test_failed_generation_shows_message_and_hint(make_window, sample_project: Path, qtbot, settings,
                                                  registry) -> None:
    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    ws = window.workspace
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    script.fail_on.add(tree.node(first).instruction.raw)
    ws.select(first)
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: "generation failed" in window.status_label.text().lower(), timeout=TIMEOUT_MS)
    assert "the fake engine was told to fail" in window.status_label.text()
    failed = [t for t in window.session.project.tree.takes_of(first) if t.status.value == "failed"]
    assert failed and "told to fail" in failed[0].error


def _crash_with_a_running_job(path: Path) -> tuple[str, int]:
    """Queue a job, then leave it 'running' for a process that no longer exists."""
    import socket

    from studio.composition import default_registry
    from studio.storage import Project
    from studio.worker import GenerationService

    project = Project.open(path)
    service = GenerationService(project, default_registry())
    first = project.tree.child_ids(project.tree.root_id)[0]
    job_id = service.reroll(first, seed=4242, settings={"width": 160, "height": 112, "frames": 4})
    with project.database.transaction() as conn:
        conn.execute("UPDATE jobs SET status='running', owner=? WHERE id=?",
                     (f"{socket.gethostname()}:{2**22 + 4321}", job_id))
    project.close()
    return job_id, 4242


def test_interrupted_jobs_are_shown_and_run_again_on_request(make_window, sample_project: Path, qtbot) -> None:
    job_id, seed = _crash_with_a_running_job(sample_project)
    window = make_window(sample_project)
    ws = window.workspace
    service = window.session.service
    assert service.job(job_id).status.value == "interrupted"
    qtbot.waitUntil(lambda: ws.queue.list.topLevelItemCount() >= 1)
    ws.queue.select_job(job_id)
    assert ws.queue.retry_button.isEnabled()
    qtbot.mouseClick(ws.queue.retry_button, Qt.MouseButton.LeftButton)
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    qtbot.waitUntil(lambda: any(t.status.value == "done" for t in window.session.project.tree.takes_of(first)),
                    timeout=TIMEOUT_MS)
    assert window.session.project.tree.selected_take(first).seed == seed  # the same generation, resumed


def test_interrupted_jobs_run_again_by_themselves_when_the_setting_says_so(make_window, sample_project: Path,
                                                                            qtbot, settings) -> None:
    _job_id, seed = _crash_with_a_running_job(sample_project)
    settings.auto_requeue = True
    window = make_window(sample_project)
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    qtbot.waitUntil(lambda: any(t.status.value == "done" for t in window.session.project.tree.takes_of(first)),
                    timeout=TIMEOUT_MS)
    assert window.session.project.tree.selected_take(first).seed == seed
