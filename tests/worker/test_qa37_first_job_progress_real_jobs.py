"""A real first job of an engine (a fresh service: no earlier job timed) moves its bar before
its time left can be told: with each prediction step of the sketch, and with each loading
and prediction step of the mini engine (random tiny weights). The bar never goes back, no
time left is made up before the decoding's pace is known, and the clip is written and
readable at the end."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.media import read_clip
from studio.worker import EventKind, GenerationService, HostMode, JobEvent, JobStatus

INSTRUCTION = "Character: Qiqi; Motion: jump; Background: day town."


def _first_job(project: Project, service: GenerationService, settings: dict[str, object]) -> list[JobEvent]:
    """Run one job on ``service`` (not started yet) and return its progress events."""
    seen: list[JobEvent] = []
    service.subscribe(lambda event: seen.append(event) if isinstance(event, JobEvent) else None)
    service.start()
    try:
        _, job_id = service.generate(project.tree.root_id, INSTRUCTION, seed=3, settings=settings)
        assert service.wait_jobs([job_id], 240)
        job = service.job(job_id)
        assert job.status is JobStatus.DONE, (job.error, job.hint)
        take = project.tree.takes[job.take_id]
        frames, _ = read_clip(project.path / take.clip_path)
        assert len(frames) > 0
    finally:
        service.stop(cancel_running=True, timeout=30)
    events = [e for e in seen if e.job_id == job_id]
    finished = next(e for e in events if e.kind is EventKind.FINISHED)
    assert finished.step == finished.total
    return [e for e in events if e.kind is EventKind.PROGRESS]


def _check_monotone_and_honest(progress: list[JobEvent]) -> list[JobEvent]:
    """The bar never goes back, and shows no time left before the decoding reported a step;
    returns the events before the first time left."""
    steps = [e.step for e in progress]
    assert steps == sorted(steps), [(e.stage, e.stage_step, e.step) for e in progress]
    first_eta = next(i for i, e in enumerate(progress) if e.eta_s is not None)
    assert progress[first_eta].stage == "decode" and progress[first_eta].stage_step > 0
    assert all(e.eta_s is None or e.eta_s >= 1.0 for e in progress)
    return progress[:first_eta]


def test_a_first_sketch_job_moves_with_its_prediction(tmp_path: Path) -> None:
    from studio.composition import default_registry

    project = Project.create(tmp_path / "story")
    try:
        service = GenerationService(project, default_registry(), default_engine="sketch", hosts=HostMode.IN_PROCESS)
        progress = _first_job(project, service, {"frames": 12})
    finally:
        project.close()
    unknown = _check_monotone_and_honest(progress)
    predicting = [e.step for e in unknown if e.stage == "predict"]
    # each prediction step moves the bar (it stood at 0 until the first frame was drawn)
    assert len(set(predicting)) >= 3 and predicting[-1] > 0
    before_clip = sorted({e.step for e in progress if e.stage != "write"})
    assert len(before_clip) >= 8


def test_a_first_mini_job_moves_while_it_loads_and_predicts(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    pytest.importorskip("diffusers")
    from studio.composition import default_registry
    from studio.engines.config import EngineConfig
    from studio.engines.mini.tiny import write_tiny_checkpoint

    checkpoints = tmp_path / "checkpoints"
    write_tiny_checkpoint(checkpoints / "mini")
    config = dataclasses.replace(EngineConfig.parse("cpu"), checkpoints=checkpoints, threads=1)
    project = Project.create(tmp_path / "story")
    try:
        service = GenerationService(project, default_registry(), device=config, default_engine="mini",
                                    hosts=HostMode.IN_PROCESS)
        began = time.perf_counter()
        progress = _first_job(project, service, {"steps": 4})
        assert time.perf_counter() - began < 240
    finally:
        project.close()
    unknown = _check_monotone_and_honest(progress)
    stages = [e.stage for e in unknown]
    assert "load" in stages and "predict" in stages  # a first job loads the engine
    # said at once, before the engine's libraries are imported (seconds with torch)
    assert progress[0].stage == "load" and progress[0].message == "loading the mini engine"
    loading = [e.step for e in unknown if e.stage == "load"]
    predicting = [e.step for e in unknown if e.stage == "predict"]
    assert loading[-1] > 0  # loading moved the bar
    assert len(set(predicting)) >= 4 and min(predicting) > 0  # so did each prediction step
    decoding = sorted({e.step for e in progress if e.stage == "decode"})
    assert len(decoding) >= 4  # each denoising step (4, then the decoded clip)
    before_clip = sorted({e.step for e in progress if e.stage != "write"})
    assert len(before_clip) >= 10
