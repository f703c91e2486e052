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
    def from_json(cls, data: object) -> ModelSize:
        """Read what :meth:`to_json` wrote. Every dimension must be there, a number of its
        field's kind (a ValueError naming the field otherwise): a hand-edited ``model.json``
        with ``"heads": "2"`` or a dimension left out failed deep inside building the model
        (a TypeError about string formatting, or a weight "of the wrong shape")."""
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            raise ValueError("not a CustomX size description: it needs a name and the transformer's, the VAE's and "
                             "the text encoders' dimensions")
        return cls(name=data["name"], transformer=_part(TransformerSize, data.get("transformer")),
                   vae=_part(VaeSize, data.get("vae")), text=_part(TextSize, data.get("text")))


ZERO_ALLOWED = frozenset({"vocab", "clip_vocab", "crop_start", "skip_layers"})
"""Dimensions where 0 means something (the tokenizer's vocabulary; none cropped or skipped)."""


def _part(kind: type[Any], values: object) -> Any:
    """``kind`` built from ``values``, each field checked (see :meth:`ModelSize.from_json`)."""
    import math
    from dataclasses import fields

    if not isinstance(values, dict):
        raise ValueError(f"not a CustomX size description: {kind.__name__} is {type(values).__name__}, not an "
                         "object of its dimensions")
    names = {item.name for item in fields(kind)}
    unknown = sorted(set(values) - names)
    absent = sorted(names - set(values))
    if unknown or absent:
        what = "; ".join(part for part in (f"has unknown {', '.join(unknown)}" if unknown else "",
                                           f"lacks {', '.join(absent)}" if absent else "") if part)
        raise ValueError(f"not a CustomX size description: {kind.__name__} {what}")
    checked: dict[str, Any] = {}
    for item in fields(kind):
        value = values[item.name]
        kind_name = str(item.type)
        whole = "int" in kind_name
        several = kind_name.startswith("tuple")
        items = value if isinstance(value, list) else [value]
        least = 0 if item.name in ZERO_ALLOWED else 1e-300
        good = (isinstance(value, list) == several and bool(items) and all(
            not isinstance(v, bool) and isinstance(v, int if whole else (int, float)) and math.isfinite(v)
            and v >= least for v in items))
        if several and kind_name.count("int") > 1 and good:  # a fixed-length tuple (the rotary axes)
            good = len(items) == kind_name.count("int")
        if not good:
            sign = "0 or more" if item.name in ZERO_ALLOWED else "positive"
            number = f"{sign} {'whole number' if whole else 'number'}"
            wanted = f"{number}s" if several else f"a {number}"
            raise ValueError(f"not a CustomX size description: {kind.__name__}.{item.name} is {value!r}, not "
                             f"{wanted}")
        checked[item.name] = tuple(value) if several else value
    return kind(**checked)


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
