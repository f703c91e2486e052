"""Job progress on one monotone scale, and the estimated time left.

An engine reports each stage on its own scale (prediction steps, then decoding steps that
start again from 0). The tracker estimates the time the job has left: the current stage
from its own pace (its steps so far, when it has reported any), the stages still to come
from earlier jobs of the same engine, scaled by how much longer or shorter this job's
stages have been than theirs (a clip four times as large takes four times as long to
draw *and* to encode). The bar shows the share of the job's estimated duration that has
passed, so it moves with the work and agrees with the time left; it never goes back.

When nothing tells how long the current stage will take (a first job that hasn't reported
a step yet, or a stage that has run past its estimate without reporting one), the time
left is unknown (None) rather than a guess that reaches 0 s while work remains.

A first job of an engine (none of its jobs timed yet) has no time left to show until its
largest stage reported a step, yet it has work to show: loading, each prediction step.
Until the first estimate, its bar moves by the share of the work done (the stages' default
ratios, see :data:`FIRST_LOAD_SHARE`, and each stage's steps within them). The estimate
then takes over: the bar goes on from where it stands, up to the share of the job's time
that has passed when that is further, and else spreading what is left of the bar over the
time left (it never goes back, and it ends when the time left does).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

PROGRESS_SCALE = 1000
"""``step``/``total`` of job events: ``total`` is always this, ``step`` only grows."""

STAGES: tuple[str, ...] = ("predict", "decode", "write")
DEFAULT_SECONDS: Mapping[str, float] = {"predict": 0.1, "decode": 0.6, "write": 0.3}
"""Stage costs until an engine's job was timed: only their ratios matter (the job's own
pace scales them), and writing the clip costs about a third of drawing it."""
DEFAULT_LOAD_SECONDS = 1.0
"""Expected seconds of loading an engine until a load was timed."""
FIRST_LOAD_SHARE = 0.25
"""The bar's share of loading the engine until a job of it was timed, when nothing compares
loading with the stages: an engine that loads at once (the sketch) doesn't start its first
job half done, and one whose loading is most of its first job (the mini) moves while it
loads. The first estimate corrects it (see the module's docstring)."""
MIN_ETA_S = 1.0
"""The least time left shown while the job runs: "0 s left" only when it has ended."""
ETA_CHANGE_S = 0.5
"""A change of the time left worth an event of its own (the bar not having moved)."""


class StageTimes:
    """Recent stage durations per engine (exponential moving average), shared by jobs."""

    def __init__(self, smoothing: float = 0.3) -> None:
        self.smoothing = smoothing
        self._seconds: dict[str, dict[str, float]] = {}
        self._lock = threading.Lock()

    def record(self, engine: str, timings: Mapping[str, float]) -> None:
        with self._lock:
            known = self._seconds.setdefault(engine, {})
            for stage in (*STAGES, "load"):
                value = timings.get(f"{stage}_s")
                if value is None:
                    continue
                old = known.get(stage)
                known[stage] = value if old is None else old + self.smoothing * (value - old)

    def expected(self, engine: str) -> dict[str, float] | None:
        with self._lock:
            known = self._seconds.get(engine)
            if not known or any(stage not in known for stage in STAGES):
                return None
            return {stage: known[stage] for stage in STAGES}

    def load_seconds(self, engine: str) -> float | None:
        with self._lock:
            return self._seconds.get(engine, {}).get("load")


PREVIEW_MAX_FRAMES = 16
PREVIEW_MAX_SIDE = 1024
"""Preview frames past these are not passed on (an engine's mistake: a whole clip each step)."""


@dataclass(frozen=True, slots=True, eq=False)
class PreviewFrames:
    """The newest preview of a running job's clip: ``frames`` (uint8 T x H x W x 3, a numpy
    array) as the engine sent them at ``stage_step`` of ``stage_total`` of ``stage``, with
    its progress ``message``. Compared by identity: each new preview is a new object, and
    every later progress event of the job carries the newest one (a view that is given
    events in batches sees it even when it only takes a batch's last event)."""

    frames: Any
    stage: str
    stage_step: int
    stage_total: int
    message: str = ""


def preview_frames(value: object) -> Any | None:
    """``value`` if it is preview frames the window can show (uint8 T x H x W x 3, not
    empty, within :data:`PREVIEW_MAX_FRAMES` and :data:`PREVIEW_MAX_SIDE`), else None. Read
    by duck typing: this module imports no numpy."""
    shape = getattr(value, "shape", None)
    if str(getattr(value, "dtype", "")) != "uint8" or not isinstance(shape, tuple) or len(shape) != 4:
        return None
    frames, height, width, channels = (int(n) for n in shape)
    if channels != 3 or not 0 < frames <= PREVIEW_MAX_FRAMES:
        return None
    return value if 0 < height <= PREVIEW_MAX_SIDE and 0 < width <= PREVIEW_MAX_SIDE else None


@dataclass(frozen=True, slots=True)
class ProgressUpdate:
    step: int
    total: int
    eta_s: float | None
    stage: str
    stage_step: int
    stage_total: int
    message: str = ""
    preview: PreviewFrames | None = None
    """The job's newest preview so far (see :class:`PreviewFrames`), None before one came."""


@dataclass(slots=True)
class _Stage:
    expected_s: float
    began: float | None = None
    ended: float | None = None
    within: float = 0.0
    steps: int = 0
    """Reports with a step past 0: a pace is known once one arrives."""


class ProgressTracker:
    """Monotone progress and an estimated time left for one job.

    ``weights`` are the job's stages in order with their expected seconds; for a generate
    job they come from :class:`StageTimes` (``expected_total_s`` set: earlier jobs were
    timed) or :data:`DEFAULT_SECONDS` (None: only their ratios are trusted).
    """

    def __init__(self, weights: Mapping[str, float], expected_total_s: float | None = None) -> None:
        self._stages = {name: _Stage(max(seconds, 0.0)) for name, seconds in weights.items()}
        self._order = list(self._stages)
        self._timed = expected_total_s is not None
        staged = {name: seconds for name, seconds in weights.items() if name != "load"}
        self._largest = max(staged, key=lambda name: staged[name]) if staged else ""
        """The stage expected to cost the most (without timed jobs, its pace sets the scale)."""
        self._began = time.perf_counter()
        self._last = self._began
        """When the last report came (or loading ended): a stage that starts with a step
        past 0 (its first frame drawn) began there, when the stage before it ended."""
        self._current = ""
        self._fraction = 0.0
        self._eta: float | None = None
        self._shown_eta: float | None = None
        """The time left of the last update returned (small changes add up to one)."""
        self._shown_place: tuple[str, int, int] = ("", 0, 0)
        """The stage and step of the last update returned: each new step is told."""
        self._shares: dict[str, float] | None = None if self._timed else _work_shares(self._stages)
        """The bar's share of each stage until the first estimate (None: timed from the start)."""
        self._estimated = False
        """Whether a time left was known once: the work done no longer moves the bar."""
        self._anchor: tuple[float, float] | None = None
        """When the first estimate came with the bar past the share of time passed: that time
        and the bar then; the rest of the bar is spread over the time left from there."""

    @classmethod
    def for_engine(cls, times: StageTimes, engine: str, *, loading: bool = False) -> ProgressTracker:
        """Stages weighted by earlier jobs of ``engine``; ``loading``: the engine is loaded
        first, and the bar shows it."""
        expected = times.expected(engine)
        seconds = expected or dict(DEFAULT_SECONDS)
        if loading:
            seconds = {"load": times.load_seconds(engine) or DEFAULT_LOAD_SECONDS, **seconds}
        return cls(seconds, sum(expected.values()) if expected else None)

    @property
    def fraction(self) -> float:
        return self._fraction

    @property
    def eta_s(self) -> float | None:
        return self._eta

    def restart_clock(self) -> None:
        """Loading ended (the engine was loaded, or already was): the stages that follow
        are timed from now."""
        self._last = time.perf_counter()
        load = self._stages.get("load")
        if load is not None and load.ended is None:
            load.ended = self._last
            load.within = 1.0
        if self._current == "load":
            self._current = ""

    def update(self, stage: str, step: int, total: int, message: str = "", *,
               news: bool = False) -> ProgressUpdate | None:
        """Record ``step`` of ``total`` in ``stage``; None if nothing visible changed (unless
        ``news``: the report brings something else to show, a preview), or if the report is
        stale (see :meth:`_stale`)."""
        now = time.perf_counter()
        if self._stale(stage):
            return None
        if stage not in self._stages:  # a stage no estimate knows of: it costs what it takes
            self._stages[stage] = _Stage(0.0)
            # loading comes before every stage (an engine process lost while idle loads again)
            self._order.insert(0 if stage == "load" else len(self._order), stage)
        self._enter(stage, self._last)
        self._last = now
        current = self._stages[stage]
        within = min(max(step / total, 0.0), 1.0) if total > 0 else 0.0
        if within > current.within:
            current.within = within
            current.steps += 1
        left = self._time_left(now)
        old_fraction = self._fraction
        if left is not None:
            self._fraction = min(max(self._passed(now, left), self._fraction), 1.0)
            left = max(left, MIN_ETA_S)
        elif self._shares is not None and not self._estimated:
            self._fraction = min(max(self._work_done(now), self._fraction), 1.0)
        self._eta = left
        moved = int(self._fraction * PROGRESS_SCALE) > int(old_fraction * PROGRESS_SCALE)
        place = (stage, step, total)
        if not news and not moved and place == self._shown_place and not _eta_changed(self._shown_eta, left):
            return None
        self._shown_eta, self._shown_place = left, place
        return ProgressUpdate(
            step=int(self._fraction * PROGRESS_SCALE), total=PROGRESS_SCALE, eta_s=left,
            stage=stage, stage_step=step, stage_total=total, message=message,
        )

    def _passed(self, now: float, left: float) -> float:
        """The bar for ``left`` seconds still to go: the share of the job's time that has
        passed, or, after a first estimate that came with the bar further on (the work done
        moved it), the bar then with its rest spread over the time since and the time left."""
        elapsed = now - self._began
        passed = elapsed / (elapsed + left) if elapsed + left > 0 else 0.0
        if not self._estimated:
            self._estimated = True
            if self._fraction > passed:
                self._anchor = (now, self._fraction)
        if self._anchor is not None:
            began, shown = self._anchor
            since = now - began
            spread = shown + (1.0 - shown) * (since / (since + left) if since + left > 0 else 1.0)
            passed = max(passed, spread)
        return passed

    def _work_done(self, now: float) -> float:
        """The share of the work done by the stages' shares (see :func:`_work_shares`); ended
        stages count whole, the current one by its steps. Loading counts in full only once it
        has taken the seconds a load is expected to: one that was over at once (an engine with
        no weights to read) was not a quarter of the job."""
        done = 0.0
        for name, share in (self._shares or {}).items():
            stage = self._stages[name]
            if name == "load" and stage.expected_s > 0:
                began = stage.began if stage.began is not None else self._began
                ran = (stage.ended if stage.ended is not None else now) - began
                share *= min(max(ran / stage.expected_s, 0.0), 1.0)
            done += share * stage.within
        return done

    def _stale(self, stage: str) -> bool:
        """Whether a report of ``stage`` arrived out of order: the stage already ended (a
        later one began, or loading was over). Taken as news it would start the stage
        again, end the one running now at once, and the estimate would count that one's
        work as done in no time (the bar jumped ahead, then stood still)."""
        known = self._stages.get(stage)
        return known is not None and known.ended is not None and stage != self._current

    def _enter(self, stage: str, now: float) -> None:
        """``stage`` runs from ``now`` on: the stages before it ended then."""
        if stage == self._current:
            return
        upto = self._order.index(stage) if stage in self._order else len(self._order)
        for name in self._order[:upto]:
            done = self._stages[name]
            if done.ended is None:
                done.ended = now
                done.within = 1.0
        if stage:
            self._stages[stage].began = now
        self._current = stage

    def _scale(self, now: float) -> float | None:
        """How much longer this job's stages take than expected: the time they ran over the
        time expected for the part of them done, stages not begun counting as expected (a
        tiny first stage, a prediction of a few milliseconds, says little of the decoding
        to come). None when no earlier job was timed and the stage expected to cost the
        most hasn't reported a step. Loading doesn't say how large the job is; the other
        stages all grow with it."""
        staged = {name: stage for name, stage in self._stages.items() if name != "load" and stage.expected_s > 0}
        if not staged:
            return 1.0
        largest = self._stages.get(self._largest)
        if not self._timed and (largest is None or not largest.steps):
            return None
        actual = expected = 0.0
        for stage in staged.values():
            if stage.began is None:
                actual += stage.expected_s
                expected += stage.expected_s
                continue
            actual += (stage.ended if stage.ended is not None else now) - stage.began
            expected += stage.expected_s * stage.within
            if stage.ended is None:  # the part still to do, as expected
                actual += stage.expected_s * (1.0 - stage.within)
                expected += stage.expected_s * (1.0 - stage.within)
        return actual / expected if expected > 0 and actual > 0 else 1.0

    def _time_left(self, now: float) -> float | None:
        """Seconds the job still needs, or None when they can't be told yet."""
        scale = self._scale(now)
        left = 0.0
        for name, stage in self._stages.items():
            if stage.ended is not None:
                continue
            factor = 1.0 if name == "load" else scale  # its own estimate: not the job's size
            if stage.began is None:  # still to come
                if factor is None:
                    return None
                left += stage.expected_s * factor
                continue
            ran = now - stage.began
            planned = None if factor is None else stage.expected_s * factor - ran
            if not self._timed and name == self._largest:
                planned = None  # it measures the job's scale: only its own pace tells its length
            if stage.steps:  # its own pace, trusted as it covers more of the stage
                paced = ran * (1.0 - stage.within) / stage.within
                if planned is not None and planned > 0:
                    paced = stage.within * paced + (1.0 - stage.within) * planned
                left += paced
            elif planned is not None and planned > 0:
                left += planned
            else:  # past its estimate with no step to go by: unknown
                return None
        return left


def _work_shares(stages: Mapping[str, _Stage]) -> dict[str, float]:
    """Each stage's share of a bar that has no estimate to follow (they add up to 1): loading
    :data:`FIRST_LOAD_SHARE` when it is expected, the other stages the rest by their expected
    seconds (only their ratios count)."""
    staged = {name: stage.expected_s for name, stage in stages.items() if name != "load"}
    loading = "load" in stages and stages["load"].expected_s > 0
    rest = sum(staged.values())
    load_share = FIRST_LOAD_SHARE if loading and rest > 0 else (1.0 if loading else 0.0)
    shares = {name: (1.0 - load_share) * seconds / rest for name, seconds in staged.items()} if rest > 0 else {}
    if loading:
        shares["load"] = load_share
    return shares


def _eta_changed(old: float | None, new: float | None) -> bool:
    if old is None or new is None:
        return (old is None) != (new is None)
    return abs(new - old) >= ETA_CHANGE_S
