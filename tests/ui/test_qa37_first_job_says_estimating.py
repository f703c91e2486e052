"""A first job of an engine (nothing has timed it yet) has no time left to show until
decoding's pace is known: its queue line says "estimating…" under the percentage meanwhile
(it showed a bare percentage), the selected job's detail says what the engine is doing
("loading the sketch engine"), and the time left replaces "estimating…" once known. The
real window, its services and the sketch engine; the worker is held at chosen events."""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import Qt

from studio.ui.queue_lines import ESTIMATING
from studio.worker import EventKind, JobEvent

WAIT_S = 60.0


class Holds:
    """Holds the worker's thread at the first progress event that ``wanted`` accepts, until
    :meth:`release` (the window meanwhile shows that event)."""

    def __init__(self) -> None:
        self.wanted: list[tuple[str, object]] = []
        self.held: dict[str, JobEvent] = {}
        self._go: dict[str, threading.Event] = {}

    def at(self, name: str, test) -> None:  # type: ignore[no-untyped-def]
        self._go[name] = threading.Event()
        self.wanted.append((name, test))

    def __call__(self, event: JobEvent) -> None:
        if event.kind is not EventKind.PROGRESS:
            return
        for name, test in list(self.wanted):
            if test(event):  # type: ignore[operator]
                self.wanted.remove((name, test))
                self.held[name] = event
                self._go[name].wait(WAIT_S)
                return

    def release(self) -> None:
        for go in self._go.values():
            go.set()


def _line(window, job_id: str):  # type: ignore[no-untyped-def]
    queue = window.workspace.queue.list
    items = [queue.topLevelItem(i) for i in range(queue.topLevelItemCount())]
    return next((item for item in items if item.data(0, Qt.ItemDataRole.UserRole) == job_id), None)


def test_a_first_jobs_line_says_estimating_then_its_time_left(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                              qtbot) -> None:
    window = make_window(sample_project)
    service = window.session.service
    assert service is not None
    holds = Holds()
    holds.at("loading", lambda e: e.eta_s is None and e.message.startswith("loading the sketch engine"))
    holds.at("timed", lambda e: e.eta_s is not None and e.stage == "decode")
    unsubscribe = service.subscribe(holds)
    tree = window.session.project.tree
    turn = next(node.id for node in tree.children(tree.root_id))
    window.workspace.select(turn, center=False)
    try:
        window.actions_.generate.trigger()
        qtbot.waitUntil(lambda: "loading" in holds.held, timeout=int(WAIT_S * 1000))
        job_id = holds.held["loading"].job_id
        qtbot.waitUntil(lambda: _line(window, job_id) is not None and _line(window, job_id).text(1) == "running",
                        timeout=5_000)
        line = _line(window, job_id)
        percent = f"{holds.held['loading'].fraction * 100:.0f}%"
        qtbot.waitUntil(lambda: line.text(2) == f"{percent} · {ESTIMATING}", timeout=5_000)
        assert line.toolTip(2).endswith(f"{percent} · {ESTIMATING}")
        window.workspace.queue.select_job(job_id)
        detail = window.workspace.queue.detail.text()
        assert " · loading the sketch engine" in detail, detail
        holds._go["loading"].set()
        qtbot.waitUntil(lambda: "timed" in holds.held, timeout=int(WAIT_S * 1000))
        timed = holds.held["timed"]
        qtbot.waitUntil(lambda: line.text(2).endswith(" left"), timeout=5_000)
        assert ESTIMATING not in line.text(2)
        assert line.text(2) == f"{timed.fraction * 100:.0f}% · {timed.eta_s:.0f} s left"
        assert " · frame " in window.workspace.queue.detail.text()  # decoding: what the engine does now
    finally:
        holds.release()
        unsubscribe()
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=int(WAIT_S * 1000))
    (take,) = window.session.project.tree.takes_of(turn)
    assert take.status.value == "done", take.error
    assert window.session.project.resolve(take.clip_path).is_file()


def test_a_known_time_left_holds_through_the_prediction_event(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A timed engine's job knows its time left from the start; the prediction's event (it
    carries no progress) left the line "estimating…" until decoding's next step. Real events
    of a second sketch job, fed to the window's tracker in order."""
    from studio.composition import default_registry
    from studio.core.commands import AddTurn
    from studio.storage import Project
    from studio.ui.job_tracker import JobTracker
    from studio.ui.queue_panel import QueuePanel
    from studio.worker import GenerationService, HostMode

    project = Project.create(tmp_path / "story")
    project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town."))
    service = GenerationService(project, default_registry(), default_engine="sketch", hosts=HostMode.IN_PROCESS)
    events: list[JobEvent] = []
    service.subscribe(events.append)
    leaf = next(node.id for node in project.tree.nodes.values() if not node.is_root)
    settings = {"width": 160, "height": 112, "frames": 6}
    service.start()
    try:
        (first,) = service.fill(leaf, engine="sketch", settings=settings)
        assert service.wait_jobs([first], WAIT_S)
        second = service.reroll(leaf, engine="sketch", settings=settings)
        assert service.wait_jobs([second], WAIT_S)
        tracker = JobTracker()
        panel = QueuePanel(tracker, lambda job: f"job {job.id}")
        qtbot.addWidget(panel)
        mine = [event for event in events if event.job_id == second]
        assert any(event.kind is EventKind.PREDICTED for event in mine)
        known = False
        for event in mine:
            tracker.on_event(event)
            view = tracker.job(second)
            if view is None or view.status != "running":
                continue
            known = known or view.eta_s is not None
            if known:  # once told, never "estimating…" again while it runs
                assert view.eta_s is not None, event.kind
        assert known
    finally:
        service.stop(timeout=30)
        project.close()
