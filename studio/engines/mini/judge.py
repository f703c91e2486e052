"""The judge: a small 3-D conv net trained only on sketch clips, which reads a clip's
motion, location, character and time of day. It scores generated clips (instruction
following) and gives the feature space of the Frechet distance."""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

from studio.engines.mini.config import JudgeConfig
from studio.engines.mini.data import LOCATION_NAMES, MOTION_NAMES, TIMES, characters

HEADS = ("motion", "location", "character", "time")


def head_sizes() -> dict[str, int]:
    return {"motion": len(MOTION_NAMES), "location": len(LOCATION_NAMES), "character": len(characters()),
            "time": len(TIMES)}


def head_labels() -> dict[str, tuple[str, ...]]:
    return {"motion": MOTION_NAMES, "location": LOCATION_NAMES, "character": characters(), "time": TIMES}


@dataclass
class Reading:
    logits: dict[str, torch.Tensor]
    features: torch.Tensor


class Judge(nn.Module):
    def __init__(self, config: JudgeConfig) -> None:
        super().__init__()
        self.config = config
        layers: list[nn.Module] = []
        previous = 3
        for index, channels in enumerate(config.channels):
            stride = (1, 2, 2) if index % 2 == 0 else (2, 2, 2)
            layers += [nn.Conv3d(previous, channels, 3, stride, 1), nn.GroupNorm(8, channels), nn.GELU(),
                       nn.Conv3d(channels, channels, 3, 1, 1), nn.GroupNorm(8, channels), nn.GELU()]
            previous = channels
        self.body = nn.Sequential(*layers)
        self.heads = nn.ModuleDict({name: nn.Linear(2 * previous, size) for name, size in head_sizes().items()})

    def prepare(self, clip: torch.Tensor) -> torch.Tensor:
        """(B, 3, T, H, W) in [-1, 1] at any size -> the judge's frames and size."""
        cfg = self.config
        index = torch.linspace(0, clip.shape[2] - 1, cfg.frames, device=clip.device).round().long()
        frames = clip[:, :, index]
        b, c, t, h, w = frames.shape
        flat = frames.transpose(1, 2).reshape(b * t, c, h, w)
        flat = F.interpolate(flat.float(), size=(cfg.height, cfg.width), mode="area")
        return flat.reshape(b, t, c, cfg.height, cfg.width).transpose(1, 2)

    def forward(self, clip: torch.Tensor) -> Reading:
        x = self.body(self.prepare(clip))
        features = torch.cat([x.mean(dim=(2, 3, 4)), x.amax(dim=(2, 3, 4))], dim=1)
        return Reading({name: head(features) for name, head in self.heads.items()}, features)
