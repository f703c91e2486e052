"""The sample story, opened from the welcome page with its clips already generated.

It is the project ``make run`` builds in ``projects/`` of a source checkout when there is
one; otherwise the user's own copy in the data folder, built there the first time: the
default cast and world, the sample story's two branches, and every turn generated with
the default engine (a progress dialog shows it) before the project opens.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal

from studio.core.errors import StudioError
from studio.storage import Project
from studio.storage.project import remove_project_folder
from studio.ui.resources import repo_projects_dir

if TYPE_CHECKING:
    from studio.ui.services import AppServices
    from studio.worker import GenerationService

log = logging.getLogger(__name__)

SAMPLE_FOLDER = "Sample.kamishibai"
POLL_MS = 100


def shipped_sample() -> Path | None:
    """A sample project in ``projects/`` of the source checkout (``make run`` builds one)."""
    folder = repo_projects_dir()
    if not folder.is_dir():
        return None
    preferred = folder / "sample.kamishibai"
    if (preferred / "project.db").is_file():
        return preferred
    found = sorted(p for p in folder.glob("*.kamishibai") if (p / "project.db").is_file())
    return found[0] if found else None


def user_sample(projects_dir: Path) -> Path:
    return projects_dir / SAMPLE_FOLDER




class SampleBuilder(QObject):
    """Builds the sample project at ``path`` and generates every turn, without blocking the
    window; ``progress(done, total)`` while it works, then ``finished(path)``, or
    ``failed(message)``. :meth:`cancel` stops it and removes the half-built folder."""

    progress = Signal(int, int)
    finished = Signal(Path)
    failed = Signal(str)

    def __init__(self, path: Path, services: AppServices, engine: str, job_settings: dict[str, Any] | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.services = services
        self.engine = engine
        self.job_settings = job_settings
        self.project: Project | None = None
        self.service: GenerationService | None = None
        self.total = 0
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    def start(self) -> None:
        from studio.worker import GenerationService, HostMode

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.project = self.services.create_sample_project(self.path)
            self.service = GenerationService(self.project, self.services.registry, default_engine=self.engine,
                                             hosts=HostMode(self.services.engine_host))
        except (StudioError, OSError) as error:
            self._abandon()
            self.failed.emit(f"Could not build the sample story in {self.path}: {error}")
            return
        tree = self.project.tree
        for leaf in tree.leaves_under(tree.root_id):
            if not leaf.is_root:
                self.service.fill(leaf.id, engine=self.engine, settings=self.job_settings)
        self.total = len(self.service.jobs())
        self.service.start()
        self.progress.emit(0, self.total)
        self._timer.start()

    def _poll(self) -> None:
        service = self.service
        if service is None:
            return
        jobs = service.jobs(include_finished=True)
        self.progress.emit(sum(1 for job in jobs if job.finished), self.total)
        if not service.wait_idle(timeout=0):
            return
        self._timer.stop()
        failed = [job for job in jobs if job.status.value == "failed"]
        service.stop()
        if not failed:
            service.clear_finished()  # the sample opens with an empty queue
        self._close()
        if failed:
            log.warning("sample story: %d turn(s) failed: %s", len(failed), failed[0].error)
        self.finished.emit(self.path)

    def cancel(self) -> None:
        self._timer.stop()
        if self.service is not None:
            self.service.stop(cancel_running=True)
        self._abandon()

    def _close(self) -> None:
        if self.project is not None:
            self.project.close()
        self.project = None
        self.service = None

    def _abandon(self) -> None:
        self._close()
        remove_project_folder(Path(self.path))
