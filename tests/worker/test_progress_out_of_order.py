"""Progress reports that arrive out of order (a stage's late report after the next stage
began, loading reported by a job that expected a loaded engine) leave the bar and the time
left as they would be without them."""

from __future__ import annotations

import pytest

from studio.worker.progress import PROGRESS_SCALE, ProgressTracker, StageTimes

from .test_progress_estimates import FakeClock

Report = tuple[str, int, int]


def _decode_steps(first: int, last: int) -> list[Report]:
    return [("decode", step, 10) for step in range(first, last + 1)]


def _fractions(tracker: ProgressTracker, clock: FakeClock, reports: list[Report]) -> list[float]:
    """The fraction after each report, 0.1 s apart."""
    seen = []
    for stage, step, total in reports:
        clock.now += 0.1
        tracker.update(stage, step, total)
        seen.append(tracker.fraction)
    return seen


@pytest.mark.parametrize("timed", [False, True], ids=["first job", "after a timed job"])
def test_a_late_report_of_an_ended_stage_changes_nothing(monkeypatch: pytest.MonkeyPatch, timed: bool) -> None:
    clock = FakeClock()
    monkeypatch.setattr("studio.worker.progress.time.perf_counter", clock)
    times = StageTimes()
    if timed:
        times.record("sketch", {"predict_s": 0.5, "decode_s": 1.0, "write_s": 0.5})
    predict = [("predict", step, 5) for step in range(1, 6)]
    in_order = ProgressTracker.for_engine(times, "sketch")
    expected = _fractions(in_order, clock, [*predict, *_decode_steps(1, 10)])

    clock = FakeClock()
    monkeypatch.setattr("studio.worker.progress.time.perf_counter", clock)
    tracker = ProgressTracker.for_engine(times, "sketch")
    before = _fractions(tracker, clock, [*predict, *_decode_steps(1, 3)])
    assert tracker.update("predict", 5, 5) is None  # late: predict had ended
    after = _fractions(tracker, clock, _decode_steps(4, 10))
    # the late report came between two steps 0.1 s apart: the times of the steps are those of the
    # run in order, so the bar is too (it used to jump by a quarter of the job, then stand still)
    assert [*before, *after] == pytest.approx(expected)


def test_loading_reported_after_predicting_began_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    monkeypatch.setattr("studio.worker.progress.time.perf_counter", clock)
    tracker = ProgressTracker.for_engine(StageTimes(), "sketch", loading=True)
    _fractions(tracker, clock, [("load", 1, 2), ("load", 2, 2)])
    tracker.restart_clock()
    _fractions(tracker, clock, [("predict", 1, 5), ("decode", 1, 10)])
    shown = tracker.fraction
    assert tracker.update("load", 2, 2) is None
    assert tracker.fraction == shown


def test_loading_a_job_did_not_expect_comes_before_its_stages(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine process was lost while idle after the job's tracker was made: the job
    loads the engine again. Loading is not the last stage: it used to end predict, decode
    and write at once (the bar near its end before the engine had predicted anything)."""
    clock = FakeClock()
    monkeypatch.setattr("studio.worker.progress.time.perf_counter", clock)
    times = StageTimes()
    times.record("sketch", {"predict_s": 0.5, "decode_s": 1.0, "write_s": 0.5})
    tracker = ProgressTracker.for_engine(times, "sketch", loading=False)
    updates = []
    for step in range(1, 5):
        clock.now += 0.1
        updates.append(tracker.update("load", step, 4))
    tracker.restart_clock()
    assert all(u is None or u.step < PROGRESS_SCALE // 2 for u in updates)
    assert tracker.fraction < 0.5
    clock.now += 0.1
    update = tracker.update("predict", 1, 5)
    assert update is not None and update.stage == "predict"  # predict is not taken as over
    assert tracker.fraction < 0.5
