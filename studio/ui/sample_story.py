"""The sample story, opened from the welcome page with its clips already generated.

It is the project ``make run`` builds in ``projects/`` of a source checkout when there is
one; otherwise the user's own copy in the data folder, built there the first time: the
default cast and world, the sample story's two branches, and every turn generated with
the default engine (a progress dialog shows it) before the project opens.
"""

from __future__ import annotations

import errno
import logging
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal

from studio.core.errors import StudioError
from studio.storage import Project
from studio.storage.errors import Problem, classify_errno
from studio.storage.project import PROJECT_SUFFIX, project_damage, remove_project_folder
from studio.ui.resources import repo_projects_dir

if TYPE_CHECKING:
    from studio.ui.services import AppServices
    from studio.worker import GenerationService

log = logging.getLogger(__name__)

SAMPLE_FOLDER = "Sample.kamishibai"
POLL_MS = 100


def shipped_sample() -> Path | None:
    """A sample project in ``projects/`` of the source checkout (``make run`` builds one); a
    damaged one (a build cut short, a file that took its name) is passed over, so that the
    welcome page opens (or builds) the user's own rather than refuse every time."""
    folder = repo_projects_dir()
    if not folder.is_dir():
        return None
    preferred = folder / "sample.kamishibai"
    others = sorted(p for p in folder.glob("*.kamishibai") if p != preferred)
    return next((p for p in (preferred, *others) if (p / "project.db").is_file() and not project_damage(p)), None)


def user_sample(projects_dir: Path) -> Path:
    return projects_dir / SAMPLE_FOLDER


def build_problem(path: Path, error: StudioError | OSError) -> str:
    """Why the sample could not be built at ``path``, naming the folder that stopped it and
    what to do (the welcome page says it): the user's data folder may be read-only (a home
    that can't be written) or on a full disk, where Python's own words named neither."""
    if isinstance(error, StudioError):
        return f"Could not build the sample story in {path}: {error.message} {error.hint}".strip()
    blocked = Path(error.filename) if error.filename else path.parent
    problem = classify_errno(error.errno)
    if problem is Problem.FULL:
        todo = f"Free some space on the disk that holds {blocked}, then open the sample again."
    elif problem is Problem.READ_ONLY:
        todo = (f"Make {blocked.parent} writable (or, on Linux, set XDG_DATA_HOME to a folder you can write in), "
                "then open the sample again. New project… still works in a folder you can write in.")
    else:
        todo = "Check that folder, then open the sample again."
    return (f"Could not build the sample story in {path}: {blocked} could not be made or changed "
            f"({error.strerror or error}). Nothing was made. {todo}")


MAX_ASIDE_NAMES = 100


def move_aside_if_damaged(path: Path) -> Path | None:
    """Rename a damaged sample at ``path`` (a build cut short by a crash or a full disk, a
    database that is not one) to ``Sample.damaged-DATE.kamishibai`` beside it, so that a new
    one can be built there: where it was, "Open the sample story" failed every time with
    advice about a name the user never chose. Nothing is deleted. Returns where it went
    (None: nothing damaged was there); raises OSError when it can't be moved."""
    damage = project_damage(path)
    if not damage:
        return None
    base = f"{path.name.removesuffix(PROJECT_SUFFIX)}.damaged-{time.strftime('%Y-%m-%d')}"
    for number in range(1, MAX_ASIDE_NAMES + 1):
        aside = path.with_name(f"{base}{'' if number == 1 else f'-{number}'}{PROJECT_SUFFIX}")
        if not os.path.lexists(aside):
            os.rename(path, aside)
            log.warning("the sample story at %s was damaged (%s): moved aside to %s", path, damage, aside)
            return aside
    raise OSError(errno.EEXIST, f"{MAX_ASIDE_NAMES} names to move the damaged sample aside to are taken", str(path))


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
        self.set_aside: Path | None = None
        """Where a damaged sample found at ``path`` was moved before building (None: none was)."""
        self._ours = False
        """Whether this build makes the folder at ``path``: only then does giving up remove it
        (a folder there before, damaged or not, that could not be set aside is never touched)."""
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    def start(self) -> None:
        from studio.worker import GenerationService, HostMode

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.set_aside = move_aside_if_damaged(self.path)
            self._ours = not os.path.lexists(self.path)
            self.project = self.services.create_sample_project(self.path)
            self.service = GenerationService(self.project, self.services.registry, default_engine=self.engine,
                                             hosts=HostMode(self.services.engine_host))
        except (StudioError, OSError) as error:
            self._abandon()
            self.failed.emit(build_problem(self.path, error))
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
        if self._ours:
            remove_project_folder(Path(self.path))
