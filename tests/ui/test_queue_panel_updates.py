"""The queue panel follows the queue by touching only the lines that changed: a job that
ends moves one line, a progress step rewrites one cell, and the selection stays put."""

from __future__ import annotations

from dataclasses import dataclass, replace

from PySide6.QtCore import Qt

from studio.ui.job_tracker import JobTracker
from studio.ui.queue_panel import QueuePanel
from studio.worker.events import JobStatus


@dataclass(frozen=True)
class StubJob:
    id: str
    status: JobStatus
    progress: float = 0.0
    eta_s: float | None = None
    error: str = ""
    hint: str = ""
    node_id: str = ""
    engine: str = "fake"
    seed: int = 7

    @property
    def finished(self) -> bool:
        return self.status not in (JobStatus.QUEUED, JobStatus.RUNNING)


class StubService:
    """The two calls the panel makes: the queue in display order, and one job."""

    def __init__(self, jobs: list[StubJob]) -> None:
        self.queue = jobs

    def jobs(self, include_finished: bool = False) -> list[StubJob]:
        return [j for j in self.queue if include_finished or not j.finished]

    def job(self, job_id: str) -> StubJob:
        return next(j for j in self.queue if j.id == job_id)

    def blocked(self) -> dict[str, StubJob]:
        return {}

    def unrunnable_engines(self) -> dict[str, list[str]]:
        return {}


def _lines(panel: QueuePanel) -> list[tuple[str, str, str]]:
    items = [panel.list.topLevelItem(i) for i in range(panel.list.topLevelItemCount())]
    return [(item.data(0, Qt.ItemDataRole.UserRole), item.text(1), item.text(2)) for item in items]


def _item(panel: QueuePanel, job_id: str):  # type: ignore[no-untyped-def]
    items = [panel.list.topLevelItem(i) for i in range(panel.list.topLevelItemCount())]
    return next(item for item in items if item.data(0, Qt.ItemDataRole.UserRole) == job_id)


def test_the_list_follows_the_queue_and_keeps_unchanged_lines(qtbot) -> None:
    tracker = JobTracker()
    panel = QueuePanel(tracker, lambda job: f"job {job.id}")
    qtbot.addWidget(panel)
    jobs = [StubJob("a", JobStatus.RUNNING, 0.25), StubJob("b", JobStatus.QUEUED), StubJob("c", JobStatus.QUEUED)]
    service = StubService(jobs)
    panel.set_service(service)
    assert _lines(panel) == [("a", "running", "25% · estimating…"), ("b", "queued", ""), ("c", "queued", "")]
    b_line, c_line = _item(panel, "b"), _item(panel, "c")
    panel.select_job("c")

    # "a" ends: it moves below the active jobs (finished jobs come last, newest first).
    service.queue = [replace(jobs[0], status=JobStatus.DONE), replace(jobs[1], status=JobStatus.RUNNING,
                                                                      progress=0.5), jobs[2]]
    panel.refresh()
    assert _lines(panel) == [("b", "running", "50% · estimating…"), ("c", "queued", ""), ("a", "done", "")]
    assert _item(panel, "b") is b_line and _item(panel, "c") is c_line  # the same lines, not rebuilt
    assert panel.selected_job_id() == "c"

    # "c" runs earlier than "b"'s successor "d", a failure shows its reason, "b" is forgotten.
    service.queue = [StubJob("d", JobStatus.QUEUED), StubJob("c", JobStatus.QUEUED),
                     StubJob("e", JobStatus.FAILED, error="the engine process exited", hint="retry it"),
                     replace(jobs[0], status=JobStatus.DONE)]
    service.queue = [service.queue[1], service.queue[0], *service.queue[2:]]
    panel.refresh()
    assert _lines(panel) == [("c", "queued", ""), ("d", "queued", ""), ("a", "done", ""), ("e", "failed", "")]
    assert _item(panel, "c") is c_line
    # the whole name first: the line shows two lines of it at most
    assert _item(panel, "e").toolTip(0) == "job e\nthe engine process exited\nHint: retry it"
    assert panel.selected_job_id() == "c"
    assert panel.summary.text() == "0 running · 2 queued"


def test_status_and_progress_columns_grow_to_fit_their_widest_text(qtbot) -> None:
    tracker = JobTracker()
    panel = QueuePanel(tracker, lambda job: f"job {job.id}")
    qtbot.addWidget(panel)
    panel.resize(420, 500)
    panel.show()
    service = StubService([StubJob("a", JobStatus.RUNNING, 0.1, eta_s=5.0), StubJob("b", JobStatus.QUEUED)])
    panel.set_service(service)
    header = panel.list.header()
    narrow = header.sectionSize(2)
    service.queue = [StubJob("a", JobStatus.RUNNING, 0.5, eta_s=1800.0), StubJob("b", JobStatus.INTERRUPTED)]
    panel.refresh()
    assert header.sectionSize(2) > narrow  # "50% · 30 min left" needs more room than "10% · 5 s left"
    for column in (1, 2):  # never cut
        assert header.sectionSize(column) >= panel.list.sizeHintForColumn(column)


def test_queue_actions_and_export_do_not_wait_for_the_writer(make_window, sample_project, qtbot,
                                                              tmp_path) -> None:  # type: ignore[no-untyped-def]
    """While the writer thread is busy, Cancel and Export return at once (the window keeps
    drawing); they take effect when the writer gets to them, and a refused one says why."""
    import threading

    from studio.export import ExportOptions

    window = make_window(sample_project)
    ws = window.workspace
    session = window.session
    service = session.service
    service.pause()  # jobs stay queued
    tree = session.project.tree
    ws.select(tree.leaves_under(tree.root_id)[0].id)
    window.actions_.fill.trigger()
    qtbot.waitUntil(lambda: ws.queue.list.topLevelItemCount() == 5)
    last = [j for j in service.jobs() if j.status.value == "queued"][-1]

    release = threading.Event()
    session.submit(lambda: release.wait(30))  # the writer is busy until released
    ws.queue.select_job(last.id)
    qtbot.mouseClick(ws.queue.cancel_button, Qt.MouseButton.LeftButton)
    queued: list[str] = []
    ws.queue_export(tmp_path / "episode.mp4", ExportOptions(crossfade=0.0), "mp4", then=queued.append)
    # Nothing waited for the writer: the job is still queued, the export not yet looked at.
    assert service.job(last.id).status.value == "queued" and queued == [] and window.last_error is None
    release.set()
    qtbot.waitUntil(lambda: service.job(last.id).status.value == "cancelled")
    # This branch has no clips yet: the export is refused, and the window says why.
    qtbot.waitUntil(lambda: window.last_error is not None)
    assert "can't be exported" in window.last_error.message and queued == []
