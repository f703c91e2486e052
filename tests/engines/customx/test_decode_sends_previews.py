"""CustomX's decode sends a few previews of the clip while it denoises (on tiny random
weights): small uint8 frames, not every step, that leave the clip as it was; the sampler's
estimate of the clean latents is exact for a model that knows them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")
pytest.importorskip("transformers")

from studio.core.instruction import parse_instruction  # noqa: E402
from studio.core.progress import Progress  # noqa: E402
from studio.engines.base import EngineConfig, GenerationContext  # noqa: E402
from studio.engines.catalog.customx import INFO, TEST_INFO  # noqa: E402
from studio.engines.customx.engine import CustomXEngine  # noqa: E402
from studio.engines.customx.sampler import Estimate, SamplerOptions, sample  # noqa: E402
from studio.engines.customx.tiny import write_tiny_checkpoints  # noqa: E402

STEPS = 12
SETTINGS = {"height": 32, "width": 48, "frames": 9, "steps": STEPS, "continuation_frames": 5, "vae_tiling": False}
LINE = "Character: Aoi; Motion: run; Background: harbour; Camera: follow."


def test_the_engine_declares_preview_frames() -> None:
    assert INFO.capabilities.preview_frames and TEST_INFO.capabilities.preview_frames


def test_decode_sends_a_few_small_previews_that_leave_the_clip_unchanged(tmp_path: Path) -> None:
    write_tiny_checkpoints(tmp_path)
    engine = CustomXEngine(EngineConfig(checkpoints=tmp_path), info=TEST_INFO)
    engine.load()
    settings = TEST_INFO.settings.from_values(SETTINGS)
    prediction = engine.predict(GenerationContext(), parse_instruction(LINE), settings, 0)
    plain = engine.decode(prediction, settings, 3).frames
    reports: list[Progress] = []
    clip = engine.decode(prediction, settings, 3, reports.append)
    np.testing.assert_array_equal(clip.frames, plain)
    previews = [report for report in reports if report.preview is not None]
    assert 2 <= len(previews) <= STEPS // 2, "a few previews, never one every step"
    for report in previews:
        frames = report.preview
        assert isinstance(frames, np.ndarray) and frames.dtype == np.uint8
        assert frames.shape == (3, 4, 6, 3)  # 3 latent frames at the latent's size (32 x 48 / 8)
        assert report.step < report.total and report.message.startswith("denoising")


def test_the_estimate_of_each_step_is_the_clean_latents_a_model_knows() -> None:
    torch.manual_seed(0)
    clean = torch.randn(1, 4, 3, 4, 6)

    def denoise(x: torch.Tensor, t: torch.Tensor, reuse: bool) -> torch.Tensor:
        sigma = t[0] / 1000.0  # flow matching: x = (1 - s) clean + s noise, v = noise - clean
        return (x - clean) / sigma

    estimates: list[torch.Tensor] = []

    def on_step(index: int, estimate: Estimate) -> None:
        estimates.append(estimate())

    sample(denoise, torch.randn(1, 4, 3, 4, 6), SamplerOptions(steps=4, guidance=1.0), on_step=on_step)
    assert len(estimates) == 4
    for estimate in estimates:
        torch.testing.assert_close(estimate, clean, atol=1e-4, rtol=1e-4)

    keep = torch.randn(1, 4, 1, 4, 6)  # a continued clip: its carried frame is known as it is
    estimates.clear()
    sample(denoise, torch.randn(1, 4, 3, 4, 6), SamplerOptions(steps=4, guidance=1.0), keep, on_step)
    for estimate in estimates:
        torch.testing.assert_close(estimate[:, :, :1], keep)
        torch.testing.assert_close(estimate[:, :, 1:], clean[:, :, 1:], atol=1e-4, rtol=1e-4)
