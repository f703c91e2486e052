"""Preview frames the window could not show (an engine's mistake) are not passed on to
the job's events, and the job goes on as it would without them."""

from __future__ import annotations

import threading

import numpy as np

from studio.core.progress import Progress, never_cancelled, no_progress
from studio.storage import Project
from studio.worker import EventKind, GenerationService, HostMode, JobEvent, JobStatus

from .fake_engine import FakeEngine, FakeScript, fake_registry


def _run(service: GenerationService, project: Project, text: str) -> tuple[str, list[JobEvent]]:
    events: list[JobEvent] = []
    lock = threading.Lock()

    def keep(event: JobEvent) -> None:
        with lock:
            events.append(event)

    service.subscribe(keep)
    service.start()
    _, job_id = service.generate(project.tree.root_id, text)
    assert service.wait_jobs([job_id], 60)
    with lock:
        return job_id, [event for event in events if event.job_id == job_id]


def test_frames_the_window_cannot_show_are_dropped_and_the_job_goes_on(project: Project) -> None:
    """An engine's mistaken previews (floats, a missing colour axis, a whole large clip) are
    not passed on; the job ends as it would without them."""
    bad = [np.zeros((2, 4, 6, 3), np.float32), np.zeros((4, 6, 3), np.uint8),
           np.zeros((2, 2048, 8, 3), np.uint8), "frames"]

    class Misbehaving(FakeEngine):
        def decode(self, prediction, settings, seed, progress=no_progress, cancelled=never_cancelled):  # type: ignore[no-untyped-def]
            for step, preview in enumerate(bad, start=1):
                progress(Progress(step, len(bad) + 1, f"step {step}", preview=preview))
            return super().decode(prediction, settings, seed, progress, cancelled)

    script = FakeScript()
    registry = fake_registry(script, "fake")
    info = registry.info("fake")
    registry.register(info, lambda config: Misbehaving(config, script, info))
    service = GenerationService(project, registry, default_engine="fake", hosts=HostMode.IN_PROCESS)
    try:
        job_id, events = _run(service, project, "one")
    finally:
        service.stop(cancel_running=True, timeout=30)
    assert service.job(job_id).status is JobStatus.DONE
    assert [event for event in events if event.kind is EventKind.PROGRESS and event.stage == "decode"]
    assert all(event.preview is None for event in events)
