"""SIGKILL of the engine process with the window open: during predict, during decode and
during the media write. The window stays up, the queue panel, the status bar and the card
say why the job failed, no take row of the project's SQLite file points at missing media,
and the next job runs on a fresh engine process.

Each stage is killed ``KAMISHIBAI_CRASH_REPEATS`` times (10 by default, about 20 s for
the three stages on two cores; set it lower for a quick run).
"""

from __future__ import annotations

import os
import signal
import sqlite3
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from studio.core.commands import AddTurn
from studio.core.model import new_id
from studio.storage import DB_NAME, Project
from studio.storage.media import read_clip
from studio.worker.events import EventKind, JobEvent

REPEATS = int(os.environ.get("KAMISHIBAI_CRASH_REPEATS", "10"))
TIMEOUT_MS = 120_000
LINE = "Character: Qiqi; Motion: walk; Background: day town."


def _process_registry():  # type: ignore[no-untyped-def]
    # tests/ is on sys.path (pytest puts it there), and the engine process is handed the
    # parent's sys.path: it rebuilds this registry by the module's name.
    from worker.process_engines import registry

    return registry()


class Killer:
    """Kills the engine process (SIGKILL) when an armed job first reports ``stage``.
    Runs on the device worker's thread, as the service's events do."""

    def __init__(self, service, stage: str) -> None:  # type: ignore[no-untyped-def]
        self.service = service
        self.stage = stage
        self.killed: list[int] = []
        self.armed = threading.Event()

    def __call__(self, event: JobEvent) -> None:
        if not self.armed.is_set() or event.kind is not EventKind.PROGRESS or event.stage != self.stage:
            return
        pid = self.service.engine_pids()[0]
        if pid is not None:
            self.armed.clear()
            os.kill(pid, signal.SIGKILL)
            self.killed.append(pid)


def _crash_project(folder: Path, instruction: str, count: int) -> tuple[Path, list[str], str]:
    """A project with ``count`` turns that the engine works on slowly at the stage to kill,
    and one ordinary turn; all under the start, so that no turn waits for another."""
    project = Project.create(folder / "crash")
    root = project.tree.root_id
    doomed = []
    for _ in range(count):
        node = new_id()
        project.apply(AddTurn(root, f"{LINE} {instruction}", node_id=node))
        doomed.append(node)
    fine = new_id()
    project.apply(AddTurn(root, LINE, node_id=fine))
    path = project.path
    project.close()
    return path, doomed, fine


def _take_rows(project_path: Path) -> list[sqlite3.Row]:
    """Every take row, read from the project's SQLite file by a separate connection."""
    connection = sqlite3.connect(f"file:{project_path / DB_NAME}?mode=ro", uri=True)
    connection.row_factory = sqlite3.Row
    try:
        return list(connection.execute(
            "SELECT id, node_id, status, error, clip_path, poster_path, representation_path FROM takes"))
    finally:
        connection.close()


def _missing_media(project_path: Path) -> list[tuple[str, str]]:
    return [(row["id"], rel) for row in _take_rows(project_path)
            for rel in (row["clip_path"], row["poster_path"], row["representation_path"])
            if rel and not (project_path / rel).is_file()]


def _queue_item(queue, job_id: str):  # type: ignore[no-untyped-def]
    for index in range(queue.list.topLevelItemCount()):
        item = queue.list.topLevelItem(index)
        if item.data(0, Qt.ItemDataRole.UserRole) == job_id:
            return item
    return None


@pytest.mark.slow
@pytest.mark.parametrize(("stage", "words", "instruction"), [
    ("predict", "during predict", "[hold-predict]"),
    ("decode", "during decode", "[hold-decode]"),
    ("write", "during the media write", "[big]"),
])
def test_sigkill_of_the_engine_process_with_the_window_open(make_window, settings, tmp_path: Path, qtbot,
                                                             stage: str, words: str, instruction: str) -> None:
    settings.engine = "fake"
    path, doomed, fine = _crash_project(tmp_path, instruction, REPEATS)
    window = make_window(path, registry_override=_process_registry())
    ws = window.workspace
    session = window.session
    service = session.service
    assert service is not None and service.engine_pids() == [None]  # no engine process yet
    killer = Killer(service, stage)
    service.subscribe(killer)
    reason = f"The engine process exited with signal 9 (SIGKILL) {words}."

    for attempt, node in enumerate(doomed):
        ws.select(node)
        killer.armed.set()
        window.actions_.reroll.trigger()  # the window's own action, through the writer
        qtbot.waitUntil(lambda node=node: (view := session.tracker.for_node(node)) is not None
                        and view.status == "failed", timeout=TIMEOUT_MS)
        assert len(killer.killed) == attempt + 1, "the job failed before the engine process was killed"
        view = session.tracker.for_node(node)
        assert view is not None and view.error == reason

        # The window is up and its views say why.
        assert window.isVisible() and window.session is session
        qtbot.waitUntil(lambda shown=attempt + 1: ws.queue.list.topLevelItemCount() >= shown, timeout=TIMEOUT_MS)
        qtbot.waitUntil(lambda view=view: (item := _queue_item(ws.queue, view.job_id)) is not None
                        and item.text(1) == "failed", timeout=TIMEOUT_MS)
        item = _queue_item(ws.queue, view.job_id)
        name, why = item.toolTip(0).split("\n", 1)  # the job's whole name, then why it failed
        assert name.startswith("Generate turn 1 · ") and why.startswith(reason)
        ws.queue.select_job(view.job_id)
        assert reason in ws.queue.detail.text()
        assert window.status_label.text().startswith(f"Generation failed: {reason}")
        qtbot.waitUntil(lambda node=node: node in ws.scene.cards and ws.scene.cards[node].summary.error == reason,
                        timeout=TIMEOUT_MS)
        qtbot.waitUntil(lambda: bool(ws.inspector.takes.tiles), timeout=TIMEOUT_MS)  # the inspector shows the take
        assert ws.inspector.takes.tiles[-1].player.view.message == (
            f"Generation failed: {reason}\nRe-roll (R) to try again.")

        # The project's SQLite file: the take failed, kept no media, and no take points at a missing file.
        job = service.job(view.job_id)
        rows = {row["id"]: row for row in _take_rows(path)}
        row = rows[job.take_id]
        assert row["status"] == "failed" and row["node_id"] == node and row["error"] == reason
        assert (row["clip_path"], row["poster_path"], row["representation_path"]) == ("", "", "")
        assert _missing_media(path) == []

    assert len(set(killer.killed)) == REPEATS  # every kill hit a fresh engine process

    # The next job runs, on a fresh engine process, and leaves a clip that reads back.
    ws.select(fine)
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: any(t.status.value == "done" for t in session.project.tree.takes_of(fine)),
                    timeout=TIMEOUT_MS)
    take = next(t for t in session.project.tree.takes_of(fine) if t.status.value == "done")
    assert take.conditioning["pid"] not in killer.killed
    assert service.engine_pids() == [take.conditioning["pid"]]
    frames, _fps = read_clip(path / take.clip_path)
    assert len(frames) > 0
    assert _missing_media(path) == []
    assert window.isVisible()
