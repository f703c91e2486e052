"""The video decoder network a config names (``decoder.kind``): the DiT or the U-Net."""

from __future__ import annotations

from studio.engines.mini.config import ModelConfig
from studio.engines.mini.decoder import VideoDiT
from studio.engines.mini.unet import VideoUNet

DecoderNet = VideoDiT | VideoUNet
KINDS: dict[str, type[VideoDiT] | type[VideoUNet]] = {"dit": VideoDiT, "unet": VideoUNet}


def build_decoder(config: ModelConfig) -> DecoderNet:
    """A new decoder of the config's kind (random weights)."""
    kind = config.decoder.kind
    if kind not in KINDS:
        raise ValueError(f"unknown decoder kind {kind!r} ({', '.join(KINDS)})")
    return KINDS[kind](config)
