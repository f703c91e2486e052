"""The job's bar and time left follow the work: stages weighted by what they cost, the
clip's encoding reported frame by frame, and no "0 s left" while work remains."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from studio.engines.base import Clip, Prediction
from studio.storage import Project
from studio.worker import EventKind, GenerationService, HostMode, JobEvent
from studio.worker import progress as progress_module
from studio.worker.progress import ProgressTracker, StageTimes
from studio.worker.results import write_media_files

POSTER_FRAMES = 8  # the poster's share of the write, in frames (as the worker counts it)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _run_job(tracker: ProgressTracker, clock: FakeClock, decode_s: float, write_s: float,
             frames: int) -> list[tuple[float, float, float | None]]:
    """A sketch-like job: a prediction of milliseconds, ``frames`` frames drawn, then the
    same frames encoded; (time, fraction, eta) after each report."""
    seen: list[tuple[float, float, float | None]] = []
    start = clock.now

    def report(stage: str, step: int, total: int) -> None:
        tracker.update(stage, step, total)
        seen.append((clock.now - start, tracker.fraction, tracker.eta_s))

    for step in range(4):
        clock.now += 0.001
        report("predict", step, 3)
    for frame in range(1, frames + 1):
        clock.now += decode_s / frames
        report("decode", frame, frames)
    total = frames + POSTER_FRAMES
    report("write", 0, total)
    for done in range(1, total + 1):
        clock.now += write_s / total
        report("write", done, total)
    return seen


@pytest.mark.parametrize("earlier_job", [False, True], ids=["first job", "after a smaller job"])
def test_tracker_fraction_and_eta_follow_a_long_job(monkeypatch: pytest.MonkeyPatch, earlier_job: bool) -> None:
    clock = FakeClock()
    monkeypatch.setattr(progress_module.time, "perf_counter", clock)
    times = StageTimes()
    if earlier_job:  # a small clip timed before: its stages were 40 times shorter
        times.record("sketch", {"predict_s": 0.001, "decode_s": 0.5, "write_s": 0.25})
    tracker = ProgressTracker.for_engine(times, "sketch")
    seen = _run_job(tracker, clock, decode_s=20.0, write_s=10.0, frames=240)
    duration = seen[-1][0]
    fractions = [f for _, f, _ in seen]
    assert fractions == sorted(fractions)
    at_half = max(f for t, f, _ in seen if t <= duration / 2)
    assert 0.35 <= at_half <= 0.65
    for t, _, eta in seen:
        left = duration - t
        if left > 1.0:
            assert eta is None or eta >= 1.0  # never "0 s left" while work remains
        if t > 2.0 and left > 1.0:  # once a tenth of the drawing is done: within half of the truth
            assert eta is not None and 0.5 * left <= eta <= 1.5 * left, (t, eta, left)


def test_tracker_hides_the_eta_of_a_stage_that_runs_past_its_estimate(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    monkeypatch.setattr(progress_module.time, "perf_counter", clock)
    times = StageTimes()
    times.record("slow", {"predict_s": 1.0, "decode_s": 1.0, "write_s": 1.0})
    tracker = ProgressTracker.for_engine(times, "slow")
    update = tracker.update("decode", 0, 1)
    assert update is not None and update.eta_s is not None and update.eta_s >= 1.0
    clock.now += 5.0  # one step, far past the second it was expected to take
    update = tracker.update("decode", 0, 1)
    assert update is not None and update.eta_s is None


def test_write_media_files_reports_the_clip_frame_by_frame(tmp_path: Path) -> None:
    frames = np.zeros((60, 32, 48, 3), dtype=np.uint8)
    frames[:, :, :, 0] = np.arange(60, dtype=np.uint8)[:, None, None] * 4
    prediction = Prediction(deltas=None, motion_level=1, representation=np.zeros((2, 3), np.float32))  # type: ignore[arg-type]
    calls: list[tuple[int, int]] = []
    write_media_files(tmp_path, "media/takes/t1", prediction, Clip(frames=frames, fps=8.0),
                      step=lambda done, total: calls.append((done, total)))
    totals = {t for _, t in calls}
    assert len(totals) == 1 and min(totals) >= 60
    total = calls[-1][1]
    done = [d for d, _ in calls]
    assert done == sorted(done) and done[-1] == total
    assert len(set(done)) >= 30  # the encoding moves the bar, not one step per file


def test_a_large_sketch_job_reports_progress_spread_over_its_duration(tmp_path: Path) -> None:
    """A real sketch job (about 2 s here, drawn and encoded frame by frame): the bar at half
    the job's time is near the middle, and the time left is never 0 before the end."""
    from studio.composition import default_registry

    project = Project.create(tmp_path / "story")
    service = GenerationService(project, default_registry(), default_engine="sketch", hosts=HostMode.IN_PROCESS)
    seen: list[tuple[float, JobEvent]] = []
    service.subscribe(lambda event: seen.append((time.perf_counter(), event))
                      if isinstance(event, JobEvent) else None)
    service.start()
    try:
        frames = 48
        _, job_id = service.generate(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town.",
                                     seed=3, settings={"width": 800, "height": 800, "frames": frames})
        assert service.wait_jobs([job_id], 60)
    finally:
        service.stop(cancel_running=True, timeout=10)
        project.close()
    events = [(t, e) for t, e in seen if e.job_id == job_id]
    began = next(t for t, e in events if e.kind is EventKind.STARTED)
    ended = next(t for t, e in events if e.kind is EventKind.FINISHED)
    progress = [(t - began, e) for t, e in events if e.kind is EventKind.PROGRESS]
    steps = [e.step for _, e in progress]
    assert steps == sorted(steps)
    # the work is reported as it is done: every frame drawn and (nearly) every frame encoded
    assert sum(1 for _, e in progress if e.stage == "decode") >= frames
    assert len({e.stage_step for _, e in progress if e.stage == "write"}) >= frames // 2
    duration = ended - began
    at_half = max((e.fraction for t, e in progress if t <= duration / 2), default=0.0)
    assert 0.2 <= at_half <= 0.8, [(round(t, 2), e.stage, round(e.fraction, 2), e.eta_s) for t, e in progress]
    for t, e in progress:
        if duration - t > 1.0:
            assert e.eta_s is None or e.eta_s >= 1.0, (round(t, 2), e.stage, e.eta_s)
    assert any(e.eta_s is not None for _, e in progress)
