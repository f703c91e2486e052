"""Job progress on one monotone scale, and the estimated time left.

An engine reports each stage on its own scale (prediction steps, then decoding steps that
start again from 0). The tracker maps them onto one scale for the whole job with stage
weights learned from earlier jobs of the same engine, so the bar never goes back, and
estimates the time left from both the elapsed time and earlier jobs' durations.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass

PROGRESS_SCALE = 1000
"""``step``/``total`` of job events: ``total`` is always this, ``step`` only grows."""

STAGES: tuple[str, ...] = ("predict", "decode", "write")
DEFAULT_SECONDS: Mapping[str, float] = {"predict": 0.2, "decode": 0.7, "write": 0.1}
DEFAULT_LOAD_SECONDS = 1.0
"""Weight of loading an engine in a job's bar until a load was timed."""


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


@dataclass(frozen=True, slots=True)
class ProgressUpdate:
    step: int
    total: int
    eta_s: float | None
    stage: str
    stage_step: int
    stage_total: int
    message: str = ""


class ProgressTracker:
    """Monotone progress and a non-increasing ETA for one job.

    ``stages`` lists the job's stages with their weights; for a generate job they come
    from :class:`StageTimes` (or defaults when the engine hasn't run yet).
    """

    def __init__(self, weights: Mapping[str, float], expected_total_s: float | None = None) -> None:
        total = sum(max(w, 0.0) for w in weights.values()) or 1.0
        self._starts: dict[str, float] = {}
        self._widths: dict[str, float] = {}
        acc = 0.0
        for stage, weight in weights.items():
            width = max(weight, 0.0) / total
            self._starts[stage] = acc
            self._widths[stage] = width
            acc += width
        self._expected = expected_total_s
        self._began = time.perf_counter()
        self._fraction = 0.0
        self._eta: float | None = None

    @classmethod
    def for_engine(cls, times: StageTimes, engine: str, *, loading: bool = False) -> ProgressTracker:
        """Stages weighted by earlier jobs of ``engine``; ``loading``: the engine is loaded
        first, and the bar shows it (the ETA starts when loading ends)."""
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
        """Start timing now (after the engine was loaded, which earlier jobs didn't pay)."""
        self._began = time.perf_counter()

    def update(self, stage: str, step: int, total: int, message: str = "") -> ProgressUpdate | None:
        """Record ``step`` of ``total`` in ``stage``; None if nothing visible changed."""
        start = self._starts.get(stage, self._fraction)
        width = self._widths.get(stage, 0.0)
        within = min(max(step / total, 0.0), 1.0) if total > 0 else 0.0
        fraction = min(max(start + width * within, self._fraction), 1.0)
        advanced = fraction > self._fraction
        self._fraction = fraction
        eta = self._estimate()
        if eta is not None:
            eta = eta if self._eta is None else min(eta, self._eta)
        changed = advanced or (eta is not None and self._eta is None)
        self._eta = eta
        if not changed or eta is None:
            return None
        return ProgressUpdate(
            step=int(self._fraction * PROGRESS_SCALE), total=PROGRESS_SCALE, eta_s=eta,
            stage=stage, stage_step=step, stage_total=total, message=message,
        )

    def _estimate(self) -> float | None:
        f = self._fraction
        elapsed = time.perf_counter() - self._began
        prior = None if self._expected is None else max(self._expected - elapsed, 0.0)
        if f <= 0.0:
            return prior
        extrapolated = elapsed * (1.0 - f) / f
        if prior is None:
            return extrapolated
        return (1.0 - f) * prior + f * extrapolated
