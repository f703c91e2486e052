"""Preview frames an engine sends while it decodes reach the job's progress events, from a
real engine process (the CustomX engine on tiny random weights)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("diffusers")
pytest.importorskip("transformers")

from studio.engines.config import EngineConfig
from studio.engines.customx.tiny import write_tiny_checkpoints
from studio.storage import Project
from studio.worker import EventKind, GenerationService, HostMode, JobEvent, JobStatus

from . import preview_engines
from .process_engines import registry as fake_registry

STEPS = 10
SETTINGS = {"height": 32, "width": 48, "frames": 9, "steps": STEPS, "continuation_frames": 5, "vae_tiling": False}
INSTRUCTION = "Character: Aoi; Motion: run; Background: harbour; Camera: follow."
DECODE_STEPS = STEPS + 3
"""CustomX's decode reports reading and encoding the inputs, each denoising step, then the VAE."""


def _run(service: GenerationService, project: Project, text: str,
         settings: dict[str, object] | None = None) -> tuple[str, list[JobEvent]]:
    events: list[JobEvent] = []
    lock = threading.Lock()

    def keep(event: JobEvent) -> None:
        with lock:
            events.append(event)

    service.subscribe(keep)
    service.start()
    _, job_id = service.generate(project.tree.root_id, text, settings=settings)
    assert service.wait_jobs([job_id], 240)
    with lock:
        return job_id, [event for event in events if event.job_id == job_id]


def test_an_engine_process_sends_the_newest_preview_with_every_later_progress_event(
        project: Project, tmp_path: Path) -> None:
    checkpoints = tmp_path / "checkpoints"
    write_tiny_checkpoints(checkpoints)
    registry = preview_engines.registry()
    service = GenerationService(project, registry, device=EngineConfig(checkpoints=checkpoints),
                                default_engine="customx", hosts=HostMode.PROCESS)
    try:
        job_id, events = _run(service, project, INSTRUCTION, SETTINGS)
    finally:
        service.stop(cancel_running=True, timeout=30)
    assert service.job(job_id).status is JobStatus.DONE, service.job(job_id).error
    progress = [event for event in events if event.kind is EventKind.PROGRESS]
    previews = []
    for event in progress:
        if event.preview is not None and (not previews or event.preview is not previews[-1]):
            previews.append(event.preview)
    assert len(previews) >= 2, "a few previews during the 10 denoising steps"
    for preview in previews:
        assert preview.stage == "decode" and preview.stage_total == DECODE_STEPS
        assert preview.frames.dtype.name == "uint8"
        frames, height, width, channels = preview.frames.shape
        assert 1 <= frames <= 3 and (height, width, channels) == (4, 6, 3)  # the latent's size: 32 x 48 / 8
    steps = [preview.stage_step for preview in previews]
    assert steps == sorted(steps) and len(set(steps)) == len(steps) and max(steps) < DECODE_STEPS
    first = progress.index(next(event for event in progress if event.preview is previews[0]))
    assert all(event.preview is not None for event in progress[first:]), "each later event carries the newest"
    assert progress[-1].preview is previews[-1]


def test_an_engine_without_previews_sends_none(project: Project) -> None:
    service = GenerationService(project, fake_registry(), default_engine="fake", hosts=HostMode.PROCESS)
    try:
        job_id, events = _run(service, project, "[pace]")
    finally:
        service.stop(cancel_running=True, timeout=30)
    assert service.job(job_id).status is JobStatus.DONE
    assert [event for event in events if event.kind is EventKind.PROGRESS]
    assert all(event.preview is None for event in events)

