"""Dimensions of AnimeGamer's three models, at the released size and at a tiny test size.

The released sizes are facts about the public checkpoints (Mistral-7B-Instruct-v0.1 with
LoRA r=32 and a vocabulary grown to 32,284; CogVideoX-2B with LoRA r=64 and AnimeGamer's
conditioning; the CogVideoX 3D VAE). A converted character folder records the sizes it
was converted with in ``model.json``, so the same engine code runs the full model on a GPU
and tiny random models on the CPU in tests. Plain data: no torch here.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields
from typing import Any

QUERY_TOKENS = 226
"""Query slots per turn = tokens of the clip representation (30 text + 196 image patches)."""
TEXT_TOKENS = 30
"""Of the 226 decoder condition tokens, the first 30 stand for T5 text, the rest for CLIP patches."""
VOCABULARY = 32284
"""Mistral's 32,000 tokens plus AnimeGamer's 284 added ones."""


@dataclass(frozen=True, slots=True)
class MLLMSize:
    """The Mistral language model with LoRA and the two resamplers."""

    hidden: int = 4096
    intermediate: int = 14336
    layers: int = 32
    heads: int = 32
    kv_heads: int = 8
    vocabulary: int = VOCABULARY
    base_vocabulary: int = 32000
    rms_eps: float = 1e-5
    rope_theta: float = 10000.0
    max_positions: int = 32768
    sliding_window: int = 4096
    lora_rank: int = 32
    lora_alpha: float = 32.0
    representation: int = 1920
    """Width of the clip representation (the decoder's hidden size)."""
    queries: int = QUERY_TOKENS

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads


@dataclass(frozen=True, slots=True)
class DecoderSize:
    """The CogVideoX-2B diffusion transformer with AnimeGamer's conditioning."""

    hidden: int = 1920
    layers: int = 30
    heads: int = 30
    time_embed: int = 512
    in_channels: int = 16
    out_channels: int = 16
    patch: int = 2
    text_tokens: int = QUERY_TOKENS
    t5_width: int = 4096
    """Input width of ``text_proj`` (T5-XXL's), used only for the unconditional branch."""
    clip_width: int = 768
    """Input width of ``ip_proj`` (the CLIP patch features), likewise."""
    clip_tokens: int = QUERY_TOKENS - TEXT_TOKENS
    lora_rank: int = 64
    lora_alpha: float = 1.0
    """SAT's LoRA scales by alpha / r with alpha = 1."""
    sample_height: int = 60
    sample_width: int = 90
    sample_frames: int = 17
    temporal_compression: int = 4
    spatial_interpolation: float = 1.875
    norm_eps: float = 1e-6

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads


@dataclass(frozen=True, slots=True)
class VAESize:
    """The CogVideoX 3D causal VAE."""

    channels: tuple[int, ...] = (128, 256, 256, 512)
    layers_per_block: int = 3
    latent_channels: int = 16
    norm_groups: int = 32
    temporal_compression: int = 4
    scaling_factor: float = 1.15258426
    spatial_compression: int = 8


@dataclass(frozen=True, slots=True)
class ModelSize:
    """All three, with a name (``full`` for the released checkpoints)."""

    name: str = "full"
    mllm: MLLMSize = field(default_factory=MLLMSize)
    decoder: DecoderSize = field(default_factory=DecoderSize)
    vae: VAESize = field(default_factory=VAESize)

    def __post_init__(self) -> None:
        if self.mllm.representation != self.decoder.hidden:
            raise ValueError(f"the MLLM's representation width {self.mllm.representation} must be the decoder's "
                             f"hidden size {self.decoder.hidden}")
        if self.decoder.hidden % 16:
            raise ValueError("the decoder's hidden size must be a multiple of 16 (3D sin-cos positions)")

    @property
    def is_full(self) -> bool:
        return self == FULL

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["vae"]["channels"] = list(self.vae.channels)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ModelSize:
        """Read what :meth:`to_json` wrote; unknown keys are an error (a file from elsewhere)."""
        try:
            for name, kind in (("mllm", MLLMSize), ("decoder", DecoderSize), ("vae", VAESize)):
                _check_complete(kind, data[name])
            vae = dict(data["vae"])
            vae["channels"] = tuple(vae["channels"])
            size = cls(name=str(data["name"]), mllm=MLLMSize(**data["mllm"]), decoder=DecoderSize(**data["decoder"]),
                       vae=VAESize(**vae))
        except KeyError as error:  # said in words: the bare key ("'size'") read as a crash
            raise ValueError(f"not an AnimeGamer size description: it has no {error.args[0]!r} entry") from None
        except TypeError as error:
            raise ValueError(f"not an AnimeGamer size description: {error}") from None
        for part in (size.mllm, size.decoder, size.vae):
            _check_numbers(part)
        return size


def _check_complete(kind: type, values: object) -> None:
    """``values`` is an object that names every field of ``kind``: a dimension left out of a
    hand-edited ``model.json`` was filled in with the released model's, and the load then
    failed on a weight's shape, far from the file's mistake."""
    if not isinstance(values, dict):
        raise TypeError(f"{kind.__name__} is {type(values).__name__}, not an object of its dimensions")
    absent = [item.name for item in fields(kind) if item.name not in values]
    if absent:
        raise TypeError(f"{kind.__name__} lacks {', '.join(absent)}")


def _check_numbers(part: MLLMSize | DecoderSize | VAESize) -> None:
    """Every dimension is a positive number of its field's kind: a hand-edited ``"hidden":
    "32"`` would otherwise fail deep inside building the model with a TypeError."""
    for item in fields(part):
        value = getattr(part, item.name)
        values = value if isinstance(value, tuple) else (value,)
        whole = item.type in ("int", "tuple[int, ...]")
        kinds: tuple[type, ...] = (int,) if whole else (int, float)
        if not values or not all(_positive(v, kinds) for v in values):
            what = "positive whole number" if whole else "positive number"
            what = f"{what}s" if isinstance(value, tuple) else f"a {what}"
            raise ValueError(f"not an AnimeGamer size description: {type(part).__name__}.{item.name} is "
                             f"{value!r}, not {what}")


def _positive(value: object, kinds: tuple[type, ...]) -> bool:
    """A finite number above 0 of ``kinds`` (``True`` is no number here)."""
    if isinstance(value, bool) or not isinstance(value, kinds):
        return False
    number = float(value)  # type: ignore[arg-type]
    return math.isfinite(number) and number > 0


FULL = ModelSize()

TINY = ModelSize(
    name="tiny",
    mllm=MLLMSize(hidden=32, intermediate=64, layers=2, heads=4, kv_heads=2, lora_rank=4, lora_alpha=4.0,
                  representation=32, max_positions=4096),
    decoder=DecoderSize(hidden=32, layers=2, heads=2, time_embed=16, t5_width=20, clip_width=12, lora_rank=4,
                        sample_height=4, sample_width=6, sample_frames=5),
    vae=VAESize(channels=(8, 16, 16, 16), layers_per_block=1, norm_groups=4),
)
"""Random test models with the released structure and names (runs on the CPU in seconds)."""
