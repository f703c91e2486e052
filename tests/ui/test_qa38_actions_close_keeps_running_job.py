"""Closing with a job running: the window is not held while it stops, and a job the user kept
("Keep for next time") runs again when the project opens, like the queued ones.

The window's thread waited for the running job to stop (1.4 s with the mini engine), and the
job came back "interrupted", to be retried by hand."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from studio.ui.session import wait_for_close


def _statuses(project: Path) -> dict[str, str]:
    with sqlite3.connect(project / "project.db") as db:
        return {str(row[0]): str(row[1]) for row in db.execute("select id, status from jobs")}


def _running_window(make_window, settings, sample_project: Path, qtbot):  # type: ignore[no-untyped-def]
    settings.set_engine_values("sketch", {"frames": 240, "width": 1280, "height": 720})  # a job of many seconds
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    ws.select(first, center=False)
    ws.reroll(first)
    qtbot.waitUntil(lambda: any(j.status.value == "running" for j in window.session.active_jobs()), timeout=30_000)
    job_id = next(j.id for j in window.session.active_jobs() if j.status.value == "running")
    return window, job_id


def _slow_to_stop(service, seconds: float) -> None:  # type: ignore[no-untyped-def]
    """The worker takes ``seconds`` to stop, as an engine in a long step does."""
    real = service.stop
    ready = time.monotonic() + seconds

    def stop(*args, timeout=None, **kwargs):  # type: ignore[no-untyped-def]
        left = ready - time.monotonic()
        if timeout is not None and left > timeout:
            time.sleep(timeout)
            return False
        time.sleep(max(0.0, left))
        return real(*args, timeout=timeout, **kwargs)

    service.stop = stop


def test_keep_queues_the_running_job_again_for_next_time(make_window, settings, sample_project: Path,
                                                         qtbot) -> None:
    window, job_id = _running_window(make_window, settings, sample_project, qtbot)
    assert window.close_project("keep")
    assert wait_for_close(sample_project)
    assert _statuses(sample_project)[job_id] == "queued"
    settings.set_engine_values("sketch", {"frames": 6, "width": 160, "height": 112})
    assert window.open_project(sample_project), window.last_error
    assert window.session.read_only is None
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    qtbot.waitUntil(lambda: any(t.status.value == "done" for t in window.session.project.tree.takes_of(first)),
                    timeout=120_000)
    # the take lands in the tree a moment before the job's row says done: wait for the row
    qtbot.waitUntil(lambda: _statuses(sample_project)[job_id] == "done", timeout=30_000)


def test_closing_does_not_wait_for_a_slow_stop_on_the_windows_thread(make_window, settings, sample_project: Path,
                                                                     qtbot) -> None:
    window, job_id = _running_window(make_window, settings, sample_project, qtbot)
    _slow_to_stop(window.session.service, 2.0)
    started = time.monotonic()
    assert window.close_project("keep")
    assert time.monotonic() - started < 1.0, "the window's thread was held while the job stopped"
    assert window.session is None
    assert wait_for_close(sample_project)
    assert _statuses(sample_project)[job_id] == "queued"
    from studio.storage import Project

    with Project.open(sample_project):  # closed, its lock released
        pass


def test_reopening_while_it_closes_waits_and_opens_for_editing(make_window, settings, sample_project: Path,
                                                               qtbot) -> None:
    window, job_id = _running_window(make_window, settings, sample_project, qtbot)
    _slow_to_stop(window.session.service, 1.0)
    assert window.close_project("keep")
    assert window.open_project(sample_project), window.last_error
    assert window.session.read_only is None, "not taken for a project another studio holds"
    assert job_id in {j.id for j in window.session.active_jobs()}


def test_cancel_still_cancels_the_running_job(make_window, settings, sample_project: Path, qtbot) -> None:
    window, job_id = _running_window(make_window, settings, sample_project, qtbot)
    assert window.close_project("cancel")
    assert wait_for_close(sample_project)
    assert _statuses(sample_project)[job_id] == "cancelled"


@pytest.fixture(autouse=True)
def _no_close_left_behind() -> object:
    yield None
    assert wait_for_close(), "a project was still closing"
    assert not [t for t in threading.enumerate() if t.name.startswith("close-")]
