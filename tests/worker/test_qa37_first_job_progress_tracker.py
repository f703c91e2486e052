"""The bar of an engine's first job (no earlier job timed) moves as the work is done:
loading, each prediction step, each decoding step. It never goes back, the time left stays
unknown until the decoding's pace tells it, and the estimate takes over without a jump back
and without a jump past the share of the job's time that has passed."""

from __future__ import annotations

import itertools

import pytest

from studio.worker import progress as progress_module
from studio.worker.progress import FIRST_LOAD_SHARE, PROGRESS_SCALE, ProgressTracker, StageTimes

from .test_progress_estimates import FakeClock

Seen = tuple[str, int, float, float | None, float]
"""After each report: its stage and step, the fraction, the time left, the clock (from 100 s)."""


def _report(tracker: ProgressTracker, clock: FakeClock, seen: list[Seen], seconds: float,
            stage: str, step: int, total: int) -> None:
    clock.now += seconds
    tracker.update(stage, step, total)
    seen.append((stage, step, tracker.fraction, tracker.eta_s, clock.now))


def _mini_like_job(tracker: ProgressTracker, clock: FakeClock, *, load_step_s: float, predict_step_s: float,
                   decode_step_s: float, write_s: float) -> list[Seen]:
    """A mini-like first turn: 6 loading steps, 5 prediction steps, 5 denoising steps, then the
    clip written frame by frame (25 steps)."""
    seen: list[Seen] = []
    for step in range(1, 7):
        _report(tracker, clock, seen, load_step_s, "load", step, 6)
    tracker.restart_clock()
    for step in range(1, 6):
        _report(tracker, clock, seen, predict_step_s, "predict", step, 5)
    for step in range(1, 6):
        _report(tracker, clock, seen, decode_step_s, "decode", step, 5)
    _report(tracker, clock, seen, 0.0, "write", 0, 25)
    for step in range(1, 26):
        _report(tracker, clock, seen, write_s / 25, "write", step, 25)
    return seen


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(progress_module.time, "perf_counter", fake)
    return fake


def test_a_first_job_moves_with_each_step_before_its_time_left_is_known(clock: FakeClock) -> None:
    tracker = ProgressTracker.for_engine(StageTimes(), "mini", loading=True)
    seen = _mini_like_job(tracker, clock, load_step_s=0.5, predict_step_s=0.05, decode_step_s=0.4, write_s=0.6)
    fractions = [f for _, _, f, _, _ in seen]
    assert fractions == sorted(fractions)  # never back
    before_write = [(stage, f) for stage, _, f, _, _ in seen if stage != "write"]
    # every step of loading, prediction and decoding moves the bar (it used to stay at 0 until decoding)
    assert all(later > earlier for (_, earlier), (_, later) in itertools.pairwise(before_write))
    assert fractions[0] > 0
    # loading (3 s, more than a load is expected to take) fills its share; prediction adds its own
    load_end = next(f for stage, step, f, _, _ in seen if stage == "load" and step == 6)
    assert load_end == pytest.approx(FIRST_LOAD_SHARE)
    # no made-up time left before the decoding reported a step; told from then on
    assert all(eta is None for stage, _, _, eta, _ in seen if stage in ("load", "predict"))
    assert all(eta is not None and eta >= 1.0 for stage, _, _, eta, _ in seen if stage in ("decode", "write"))
    assert fractions[-1] == 1.0


def test_the_first_estimate_goes_to_the_time_passed_and_no_further(clock: FakeClock) -> None:
    """Loading took most of the time (the mini on a CPU): when the decoding's pace is known the
    bar moves up to the share of the job's time that has passed, which agrees with the time left."""
    tracker = ProgressTracker.for_engine(StageTimes(), "mini", loading=True)
    began = clock.now
    seen = _mini_like_job(tracker, clock, load_step_s=1.5, predict_step_s=0.05, decode_step_s=1.0, write_s=2.0)
    provisional = next(f for stage, step, f, _, _ in seen if stage == "predict" and step == 5)
    first = next(i for i, (_, _, _, eta, _) in enumerate(seen) if eta is not None)
    assert seen[first][:2] == ("decode", 1)
    _, _, fraction, eta, now = seen[first]
    assert eta is not None and eta > 1.0
    elapsed = now - began  # 9 s of loading, 0.25 s of prediction, 1 s of decoding
    assert elapsed == pytest.approx(6 * 1.5 + 5 * 0.05 + 1.0)
    assert fraction > provisional
    assert fraction == pytest.approx(elapsed / (elapsed + eta))
    # from then on the bar is the share of time passed (or holds where the time left grew)
    for (_, _, earlier, _, _), (_, _, fraction, eta, now) in zip(seen[first:], seen[first + 1:], strict=False):
        if eta is not None and eta > 1.0:
            elapsed = now - began
            assert fraction == pytest.approx(max(earlier, elapsed / (elapsed + eta)))
    assert seen[-1][2] == 1.0


def test_a_bar_ahead_of_the_time_passed_holds_then_spreads_its_rest_over_the_time_left(clock: FakeClock) -> None:
    """Quick loading and prediction, slow decoding: the work done put the bar further than the
    share of time passed. The first estimate doesn't take it back; the bar then covers what is
    left of it as the time left runs out, and is full only at the end."""
    tracker = ProgressTracker.for_engine(StageTimes(), "mini", loading=True)
    began = clock.now
    seen = _mini_like_job(tracker, clock, load_step_s=0.2, predict_step_s=0.01, decode_step_s=20.0, write_s=40.0)
    fractions = [f for _, _, f, _, _ in seen]
    assert fractions == sorted(fractions)
    first = next(i for i, (_, _, _, eta, _) in enumerate(seen) if eta is not None)
    held, took_over = seen[first - 1][2], seen[first][4]
    assert seen[first][:2] == ("decode", 1)
    assert seen[first][2] == pytest.approx(held)  # no jump at the takeover, neither way
    first_eta = seen[first][3]
    assert first_eta is not None
    passed = (took_over - began) / (took_over - began + first_eta)
    assert held > passed + 0.1  # the work done had put the bar ahead of the time passed
    # from then on the rest of the bar shrinks with the time left (or holds where it grew)
    for (_, _, earlier, _, _), (_, _, fraction, eta, now) in zip(seen[first:], seen[first + 1:], strict=False):
        if eta is not None and eta > 1.0:
            since = now - took_over
            spread = held + (1.0 - held) * since / (since + eta)
            elapsed = now - began
            assert fraction == pytest.approx(max(earlier, spread, elapsed / (elapsed + eta)))
    decode_2 = next(f for stage, step, f, _, _ in seen if stage == "decode" and step == 2)
    write_half = next(f for stage, step, f, _, _ in seen if stage == "write" and step == 12)
    assert held < decode_2 < write_half < 1.0
    assert fractions[-1] == 1.0


def test_loading_that_is_over_at_once_does_not_fill_its_share(clock: FakeClock) -> None:
    """An engine with nothing to load (the sketch says "ready" at once) doesn't start its
    first job a quarter done; a load of seconds counts its steps."""
    quick = ProgressTracker.for_engine(StageTimes(), "sketch", loading=True)
    clock.now += 0.001
    update = quick.update("load", 1, 1)
    assert quick.fraction < 0.01 and (update is None or update.step < 10)
    quick.restart_clock()
    clock.now += 0.01
    quick.update("predict", 1, 3)
    assert 0 < quick.fraction < 0.1

    slow = ProgressTracker.for_engine(StageTimes(), "sketch", loading=True)
    steps = []
    for step in range(1, 5):
        clock.now += 0.5
        update = slow.update("load", step, 4)
        assert update is not None and update.eta_s is None
        steps.append(update.step)
    assert steps == sorted(set(steps)) and steps[-1] == int(FIRST_LOAD_SHARE * PROGRESS_SCALE)


def test_a_timed_job_follows_its_time_share_from_the_start(clock: FakeClock) -> None:
    """Once an engine's job was timed nothing changes: the bar is the share of the job's time
    that has passed, from the first report on."""
    times = StageTimes()
    times.record("mini", {"load_s": 3.0, "predict_s": 0.2, "decode_s": 2.0, "write_s": 0.6})
    tracker = ProgressTracker.for_engine(times, "mini", loading=True)
    began = clock.now
    for stage, steps, seconds in (("load", 6, 0.5), ("predict", 5, 0.04), ("decode", 5, 0.4)):
        for step in range(1, steps + 1):
            clock.now += seconds
            tracker.update(stage, step, steps)
            eta = tracker.eta_s
            assert eta is not None
            if eta > 1.0:
                elapsed = clock.now - began
                assert tracker.fraction == pytest.approx(elapsed / (elapsed + eta))
        if stage == "load":
            tracker.restart_clock()
