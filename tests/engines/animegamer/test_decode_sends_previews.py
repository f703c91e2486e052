"""AnimeGamer's decode sends a few previews of the clip while it denoises (on tiny random
weights): small uint8 frames, not every step, that leave the clip as it was, and that look
like the clips the model draws once it has drawn one."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from studio.core.instruction import parse_instruction
from studio.core.progress import Progress
from studio.engines.animegamer.engine import AnimeGamerEngine
from studio.engines.base import GenerationContext
from studio.engines.catalog.animegamer import INFO, TEST_INFO, AnimeGamerSettings
from studio.engines.config import EngineConfig

STEPS = 12
SETTINGS = {"height": 32, "width": 48, "frames": 9, "steps": STEPS}
LINE = "Character: Qiqi; Motion: gently sit on railing; Background: day town."


def test_the_engine_declares_preview_frames() -> None:
    assert INFO.capabilities.preview_frames and TEST_INFO.capabilities.preview_frames


def test_decode_sends_a_few_small_previews_that_leave_the_clip_unchanged(tiny: Path) -> None:
    engine = AnimeGamerEngine(EngineConfig(checkpoints=tiny), info=TEST_INFO)
    engine.load()
    settings = AnimeGamerSettings.from_values(SETTINGS)
    prediction = engine.predict(GenerationContext(), parse_instruction(LINE), settings, 3)
    plain = engine.decode(prediction, settings, 5).frames
    reports: list[Progress] = []
    clip = engine.decode(prediction, settings, 5, reports.append)
    np.testing.assert_array_equal(clip.frames, plain)
    previews = [report for report in reports if report.preview is not None]
    assert 2 <= len(previews) <= STEPS // 2, "a few previews, never one every step"
    for report in previews:
        frames = report.preview
        assert isinstance(frames, np.ndarray) and frames.dtype == np.uint8
        # the first, middle and last of the 3 latent frames, at the latent's size (32 x 48 / 8)
        assert frames.shape == (3, 4, 6, 3)
        assert report.step < report.total and report.message.startswith("denoising")


def test_once_a_clip_was_drawn_the_previews_take_its_colours(tiny: Path) -> None:
    engine = AnimeGamerEngine(EngineConfig(checkpoints=tiny), info=TEST_INFO)
    engine.load()
    settings = AnimeGamerSettings.from_values(SETTINGS)
    prediction = engine.predict(GenerationContext(), parse_instruction(LINE), settings, 3)
    first: list[Progress] = []
    clip = engine.decode(prediction, settings, 5, first.append)
    again: list[Progress] = []
    engine.decode(prediction, settings, 5, again.append)
    colour = clip.frames.reshape(-1, 3).mean(axis=0)

    def error(reports: list[Progress]) -> float:
        last = [report.preview for report in reports if report.preview is not None][-1]
        assert isinstance(last, np.ndarray)
        return float(np.abs(last.reshape(-1, 3).mean(axis=0) - colour).max())

    assert error(again) < error(first) and error(again) < 20, "the same clip's preview, after learning from it"
