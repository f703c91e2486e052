"""One open project in the window: the project, its generation service and the Qt bridges.

The generation service is optional: if ``studio.worker`` can't be imported (or fails to
start) the studio still opens, edits and plays; generating says why it can't.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject

from studio.core.errors import StudioError
from studio.engines.base import EngineVocabulary
from studio.storage import Project
from studio.ui.job_tracker import JobTracker
from studio.ui.qt_bridge import DocumentBridge, JobEventBridge
from studio.ui.services import AppServices
from studio.ui.settings import StudioSettings

if TYPE_CHECKING:
    from studio.worker import GenerationService

log = logging.getLogger(__name__)


class ProjectSession(QObject):
    def __init__(self, project: Project, settings: StudioSettings, services: AppServices,
                 parent: QObject | None = None, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """``loop``: the GUI's asyncio (qasync) loop; job events are then read as an async stream."""
        super().__init__(parent)
        self.loop = loop
        self.project = project
        self.settings = settings
        self.bridge = DocumentBridge(project.document, self)
        self.tracker = JobTracker(self)
        self.service: GenerationService | None = None
        self.service_error = ""
        self.events: JobEventBridge | None = None
        self.services = services
        self.registry = services.registry
        self._start_service()

    def _start_service(self) -> None:
        from studio.worker import GenerationService, HostMode  # numpy and friends: not before a project opens

        engine = self.settings.engine or self.services.default_engine
        if engine not in self.registry.names() and self.registry.names():
            engine = self.registry.names()[0]
        try:
            configs = self.services.device_configs(self.settings.devices, self.settings.device,
                                                   self.settings.checkpoint_dirs())
            self.service = GenerationService(self.project, self.registry, devices=configs,
                                             default_engine=engine, auto_requeue=self.settings.auto_requeue,
                                             hosts=HostMode(self.services.engine_host))
        except StudioError as error:
            self.service_error = error.message
            return
        if self.loop is not None:
            self.events = JobEventBridge.reading(self.service.events(), self.loop, self)
        else:
            self.events = JobEventBridge(self.service.subscribe, self)
        self.events.job_event.connect(self.tracker.on_event)
        self.service.set_reroll_selects(self.settings.reroll_selects)
        for job in self.service.jobs():
            self.tracker.on_event(_Synthetic(job))
        self.service.start()

    @property
    def path(self) -> Path:
        return self.project.path

    @property
    def engine(self) -> str:
        """The engine new takes use."""
        name = self.settings.engine
        return name if name in self.registry else self.services.default_engine

    def engine_vocabulary(self) -> EngineVocabulary:
        """What the current engine understands (from its catalogue entry: nothing is imported)."""
        return self.registry.vocabulary(self.engine) if self.engine in self.registry else EngineVocabulary()

    def job_settings(self, engine: str | None = None) -> dict[str, Any]:
        """The settings the user changed for ``engine`` (default: the current one)."""
        return self.settings.engine_values(engine or self.engine)

    def require_service(self) -> Any:
        if self.service is None:
            raise StudioError(self.service_error or "Generation is not available.",
                              hint="Install the studio with its engines, then reopen the project.")
        return self.service

    def active_jobs(self) -> list[Any]:
        if self.service is None:
            return []
        return [j for j in self.service.jobs() if str(getattr(j.status, "value", j.status)) in ("queued", "running")]

    def close(self, policy: str = "keep") -> None:
        """Stop the worker: ``cancel`` cancels every job; ``keep`` leaves queued jobs queued."""
        if self.service is not None:
            if policy == "cancel":
                for job in self.active_jobs():
                    try:
                        self.service.cancel(job.id)
                    except StudioError:
                        pass
            else:
                self.service.pause()
            self.service.stop(cancel_running=policy == "cancel", timeout=15)
        if self.events is not None:
            self.events.close()
        self.bridge.close()
        self.project.close()


class _Synthetic:
    """A 'queued' or 'started' event for a job found in the queue when the project opens."""

    def __init__(self, job: Any) -> None:
        status = str(getattr(job.status, "value", job.status))
        self.kind = "started" if status == "running" else ("queued" if status == "queued" else "updated")
        self.job = job
        self.job_id = job.id
        self.node_id = job.node_id
        self.step, self.total, self.eta_s = 0, 0, None
        self.message = self.hint = ""

