"""Sketch engine speed: seconds per default clip (17 frames, 480 x 720), predict + decode."""

from __future__ import annotations

import statistics
import time

import numpy as np

from studio.benchmarks import BenchResult
from studio.core.instruction import parse_instruction
from studio.engines.base import GenerationContext
from studio.engines.catalog.sketch import SketchSettings
from studio.engines.sketch import SketchEngine, load_default_cast
from studio.engines.sketch.scenery import build_scene

TITLE = "Sketch engine: seconds per default clip (17 frames, 480 x 720)"
GOAL_SECONDS = 0.25

INSTRUCTIONS = (
    "Character: Qiqi; Motion: quickly flying on broomstick; Background: day sky.",
    "Character: Qiqi; Motion: smoothly fly on broomstick; Background: day countryside.",
    "Character: Qiqi; Motion: gently sit on railing; Background: day town.",
    "Character: Qiqi; Motion: gently turn head; Background: day town.",
    "Character: Qiqi; Motion: gently lie down; Background: day grass.",
    "Character: Qiqi; Motion: gently fly on broomstick; Background: night sky.",
    "Character: Qiqi; Motion: gently hold broom; Background: night street.",
    "Character: Qiqi; Motion: gently lie down; Background: night bedroom.",
    "Sosuke runs through the town at night",
    "Character: Sosuke; Motion: swim; Background: day sea.",
    "Character: Aoi; Motion: read; Background: sunset library.",
    "Character: Taro; Motion: wildly dance; Background: sunset beach; Camera: orbit",
    "Character: Yuzu; Motion: eat; Background: day bakery.",
    "Character: Qiqi; Motion: wave; Background: day park; Camera: zoom in",
    "Character: Sosuke; Motion: climb; Background: day forest.",
    "Character: Aoi; Motion: sing; Background: night rooftop; Camera: pan",
    "Character: Taro; Motion: meet people; Background: day station.",
    "Character: Yuzu; Motion: cook; Background: sunset kitchen.",
    "Character: Qiqi; Motion: sleep; Background: night bedroom.",
    "Character: Sosuke; Motion: quickly walk; Background: day shrine.",
)


SETTINGS = SketchSettings()
"""The engine's defaults: 17 frames at 480 x 720."""


def _clip_seconds(engine: SketchEngine, context: GenerationContext, text: str, seed: int,
                  cold: bool = False) -> float:
    instruction = parse_instruction(text)
    if cold:
        build_scene.cache_clear()
    start = time.perf_counter()
    prediction = engine.predict(context, instruction, SETTINGS, seed)
    engine.decode(prediction, SETTINGS, seed)
    return time.perf_counter() - start


def run(quick: bool) -> list[BenchResult]:
    engine = SketchEngine()
    engine.load()
    context = GenerationContext(cast=load_default_cast())
    texts = INSTRUCTIONS[:5] if quick else INSTRUCTIONS
    repeats = 1 if quick else 3
    for text in texts:  # warm-up: build each scene once, as a session would
        _clip_seconds(engine, context, text, 0)
    warm = [min(_clip_seconds(engine, context, text, seed) for seed in range(1, 1 + repeats)) for text in texts]
    cold = [_clip_seconds(engine, context, text, 99, cold=True) for text in texts]
    predict_times = []
    for text in texts:
        start = time.perf_counter()
        engine.predict(context, parse_instruction(text), SETTINGS, 5)
        predict_times.append(time.perf_counter() - start)

    frames = np.empty((17, 480, 720, 3), dtype=np.uint8)
    blank = np.full((480, 720, 3), 200, dtype=np.uint8)

    def floor() -> None:
        out = np.empty_like(frames)
        for i in range(17):
            out[i] = blank

    start = time.perf_counter()
    for _ in range(10):
        floor()
    floor_s = (time.perf_counter() - start) / 10

    mean = statistics.fmean(warm)
    worst = max(warm)
    mean_cold = statistics.fmean(cold)
    return [
        BenchResult("seconds per default clip (mean of best-of-3)", mean, "s", goal=f"< {GOAL_SECONDS} s",
                    met=mean < GOAL_SECONDS, baseline="same clips with the background cache cleared",
                    ratio=mean_cold / mean, note=f"{len(texts)} varied instructions; cold mean {mean_cold:.3f} s"),
        BenchResult("slowest default clip", worst, "s", goal=f"< {2 * GOAL_SECONDS} s", met=worst < 2 * GOAL_SECONDS,
                    note=texts[warm.index(worst)][:60]),
        BenchResult("frames per second (decode included)", 17 / mean, "fps", goal="> 68 fps",
                    met=17 / mean > 68, baseline="allocating + filling 17 frames only", ratio=mean / floor_s,
                    note=f"floor {floor_s * 1000:.1f} ms per clip"),
        BenchResult("predict only", statistics.fmean(predict_times) * 1000, "ms", goal="< 20 ms",
                    met=statistics.fmean(predict_times) < 0.02, note="instruction, rules, representation"),
    ]
