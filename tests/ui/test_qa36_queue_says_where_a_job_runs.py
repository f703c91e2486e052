"""The window's queue says where a running job runs (its device) and how far it has got, in
the line's tooltip and in the detail under the list when it is selected (the dock is narrow:
no column for it). The real worker with the sketch engine; the job is held mid-run."""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import Qt

from studio.composition import default_registry
from studio.core.commands import AddTurn
from studio.storage import Project
from studio.ui.job_tracker import JobTracker
from studio.ui.queue_panel import QueuePanel
from studio.worker import EventKind, GenerationService, HostMode, JobEvent, JobStatus

WAIT_MS = 60_000


def test_the_running_line_says_which_device_runs_it(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    project = Project.create(tmp_path / "story")
    project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town."))
    service = GenerationService(project, default_registry(), devices=["cuda:1"], default_engine="sketch",
                                hosts=HostMode.IN_PROCESS)
    release = threading.Event()
    held: list[str] = []

    def hold(event: JobEvent) -> None:
        if event.kind is EventKind.PROGRESS and event.fraction > 0 and not held:
            held.append(event.job_id)
            release.wait(WAIT_MS / 1000)

    service.subscribe(hold)
    panel = QueuePanel(JobTracker(), lambda job: f"Generate {job.id}")
    qtbot.addWidget(panel)
    panel.set_service(service)
    leaf = next(node.id for node in project.tree.nodes.values() if not node.is_root)
    (job_id,) = service.fill(leaf)
    service.start()
    try:
        qtbot.waitUntil(lambda: bool(held), timeout=WAIT_MS)
        panel.refresh()
        item = panel.list.topLevelItem(0)
        assert item is not None and item.data(0, Qt.ItemDataRole.UserRole) == job_id
        assert item.text(1) == "running"
        percent = f"{service.job(job_id).progress * 100:.0f}%"
        assert item.text(2).startswith(percent)
        for column in (0, 1, 2):  # wherever the pointer rests on the line
            assert item.toolTip(column).splitlines() == [f"Generate {job_id}", f"Runs on cuda:1 · {item.text(2)}"]
        panel.select_job(job_id)
        assert panel.detail.text().endswith(" · runs on cuda:1")
    finally:
        release.set()
    try:
        assert service.wait_jobs([job_id], WAIT_MS / 1000)
        assert service.job(job_id).status is JobStatus.DONE
        panel.refresh()
        item = panel.list.topLevelItem(0)
        assert item is not None and item.text(1) == "done"
        assert "Runs on" not in item.toolTip(0) and "runs on" not in panel.detail.text()  # it ran; it runs nowhere now
    finally:
        service.stop(timeout=30)
        project.close()
