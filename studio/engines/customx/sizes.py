"""The dimensions of CustomX's models: the released ones and a tiny random configuration.

They are written to ``model.json`` by the converter (or the tiny writer) and read back by
the engine, so the same code runs the 12.5B transformer on a GPU and a model of a few
thousand parameters in tests.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

VIEWS = ("front", "left", "back", "right")
"""The reference views of a character, in the order of their latent frames (t = -1 .. -4)."""


@dataclass(frozen=True, slots=True)
class TransformerSize:
    in_channels: int = 16
    heads: int = 24
    head_dim: int = 128
    double_layers: int = 20
    single_layers: int = 40
    refiner_layers: int = 2
    patch: int = 2
    text_dim: int = 4096
    pooled_dim: int = 768
    rope_axes: tuple[int, int, int] = (16, 56, 56)
    rope_theta: float = 256.0

    @property
    def hidden(self) -> int:
        return self.heads * self.head_dim


@dataclass(frozen=True, slots=True)
class VaeSize:
    latent_channels: int = 16
    block_out_channels: tuple[int, ...] = (128, 256, 512, 512)
    layers_per_block: int = 2
    norm_groups: int = 32
    scaling_factor: float = 0.476986
    spatial: int = 8
    temporal: int = 4


@dataclass(frozen=True, slots=True)
class TextSize:
    """LLaVA-Llama-3-8B (language model, CLIP-L/336 vision tower, projector) and CLIP-L's text model."""

    vocab: int = 128320
    hidden: int = 4096
    intermediate: int = 14336
    layers: int = 32
    heads: int = 32
    kv_heads: int = 8
    rope_theta: float = 500000.0
    vision_hidden: int = 1024
    vision_intermediate: int = 4096
    vision_layers: int = 24
    vision_heads: int = 16
    image_size: int = 336
    patch: int = 14
    clip_vocab: int = 49408
    clip_hidden: int = 768
    clip_intermediate: int = 3072
    clip_layers: int = 12
    clip_heads: int = 12
    clip_positions: int = 77
    max_length: int = 256
    """Prompt tokens before each ``<image>`` becomes the image's tokens."""
    crop_start: int = 95
    """Tokens of the template's system part, dropped after encoding."""
    skip_layers: int = 2
    """Hidden state used: the third from last (2 layers skipped)."""

    @property
    def image_tokens(self) -> int:
        return (self.image_size // self.patch) ** 2


@dataclass(frozen=True, slots=True)
class ModelSize:
    name: str = "released"
    transformer: TransformerSize = field(default_factory=TransformerSize)
    vae: VaeSize = field(default_factory=VaeSize)
    text: TextSize = field(default_factory=TextSize)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ModelSize:
        def tuples(values: dict[str, Any]) -> dict[str, Any]:
            return {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}

        return cls(name=str(data["name"]), transformer=TransformerSize(**tuples(data["transformer"])),
                   vae=VaeSize(**tuples(data["vae"])), text=TextSize(**tuples(data["text"])))


RELEASED = ModelSize()
TINY = ModelSize(
    name="tiny",
    transformer=TransformerSize(in_channels=4, heads=2, head_dim=16, double_layers=1, single_layers=2,
                                refiner_layers=1, text_dim=32, pooled_dim=16, rope_axes=(4, 6, 6)),
    vae=VaeSize(latent_channels=4, block_out_channels=(8, 8, 8, 8), layers_per_block=1, norm_groups=4),
    text=TextSize(vocab=0, hidden=32, intermediate=64, layers=3, heads=4, kv_heads=2, vision_hidden=16,
                  vision_intermediate=32, vision_layers=2, vision_heads=2, image_size=32, patch=8, clip_vocab=0,
                  clip_hidden=16, clip_intermediate=32, clip_layers=2, clip_heads=2, max_length=160, crop_start=0),
)
"""vocab 0: the tokenizer's size; crop_start 0: counted from the tokenizer (see ``tiny``)."""
