"""The engines' preview helpers: the latent-to-RGB fit recovers a decoder's linear colours,
from a decoded block latent and from decoded clips, and the pacer sends a preview every few
steps, about once a second of denoising at most, never on the last step."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from studio.engines.latent_preview import (  # noqa: E402
    ColourFit,
    LatentToRGB,
    PreviewPacer,
    fit_to_decoder,
)

CHANNELS, SCALE = 5, 4


def _linear_decoder(weights: torch.Tensor, bias: torch.Tensor):  # type: ignore[no-untyped-def]
    """A decoder whose colours are a known linear map of the channels (each latent pixel
    becomes SCALE x SCALE pixels), as uint8 frames."""
    def decode(latents: torch.Tensor) -> np.ndarray:  # 1 x C x T x h x w
        rgb = torch.einsum("cthw,cr->thwr", latents[0].float(), weights) + bias
        big = rgb.repeat_interleave(SCALE, dim=1).repeat_interleave(SCALE, dim=2)
        return ((big.clamp(-1, 1) + 1) * 127.5).round().to(torch.uint8).numpy()
    return decode


def _known() -> tuple[torch.Tensor, torch.Tensor]:
    generator = torch.Generator().manual_seed(3)
    return 0.2 * torch.randn(CHANNELS, 3, generator=generator), torch.tensor([0.1, -0.2, 0.05])


def test_the_fit_to_a_decoded_block_latent_recovers_the_decoders_colours() -> None:
    weights, bias = _known()
    fitted = fit_to_decoder(_linear_decoder(weights, bias), CHANNELS, SCALE, torch.device("cpu")).solve()
    torch.testing.assert_close(fitted.factors, weights, atol=0.02, rtol=0)
    torch.testing.assert_close(fitted.bias, bias, atol=0.02, rtol=0)


def test_a_decoded_clip_refines_the_fit_towards_what_the_decoder_draws() -> None:
    weights, bias = _known()
    decode = _linear_decoder(weights, bias)
    fit = ColourFit(CHANNELS)  # no block fit: the clip alone must teach it
    latents = 0.8 * torch.randn(CHANNELS, 3, 6, 8, generator=torch.Generator().manual_seed(1))
    frames = decode(latents[None])  # 3 latent frames, one frame each here (temporal 1)
    fit.add_clip(latents, frames, temporal=1)
    fitted = fit.solve()
    torch.testing.assert_close(fitted.factors, weights, atol=0.02, rtol=0)
    preview = fitted.frames(latents)
    assert preview.dtype == np.uint8 and preview.shape == (3, 6, 8, 3)
    pooled = frames[:, ::SCALE, ::SCALE].astype(int)
    assert np.abs(preview.astype(int) - pooled).max() <= 6


def test_a_preview_shows_the_first_middle_and_last_latent_frames() -> None:
    identity = LatentToRGB.of([[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]], [0.0, 0.0, 0.0])
    latents = torch.zeros(3, 5, 2, 2)
    for t in range(5):
        latents[0, t] = -1.0 + t * 0.5  # red grows with the frame
    frames = identity.frames(latents)
    assert frames.shape == (3, 2, 2, 3)
    assert [int(frames[i, 0, 0, 0]) for i in range(3)] == [0, 128, 255]


class Clock:
    """Seconds that pass only when a test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _due(steps: int, seconds_per_step: float) -> list[int]:
    clock = Clock()
    pacer = PreviewPacer(steps, clock)
    sent = []
    for index in range(steps):
        clock.now += seconds_per_step
        if pacer.due(index):
            sent.append(index)
    return sent


def test_previews_come_about_once_a_second_and_never_every_step() -> None:
    assert _due(50, 0.2) == list(range(4, 49, 5))  # AnimeGamer's pace: every 5 steps, once a second
    assert _due(50, 2.3) == list(range(1, 49, 2))  # CustomX's: a step is 2.3 s, every other step
    fast = _due(50, 0.001)  # many fast steps: a few previews only
    assert fast == [11, 23, 35, 47]
    assert _due(2, 0.01) == [0]  # a clip of two steps still shows one
    assert _due(1, 0.01) == []  # the clip itself comes next
