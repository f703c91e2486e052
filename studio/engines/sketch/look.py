"""How a character looks: colours, hair style, outfit and accessory, from cast parameters.

A cast member's ``params`` may be incomplete or wrong (hand-edited JSON, another tool's
fields); every bad value falls back to a default with a warning. A name that is not in
the cast gets a look derived from a hash of the name, so the same stranger always looks
the same.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from PIL import ImageColor

RGB = tuple[int, int, int]


class HairStyle(StrEnum):
    BOB = "bob"
    TWIN_TAILS = "twin_tails"
    PONYTAIL = "ponytail"
    SPIKY = "spiky"
    LONG = "long"
    SHORT = "short"


class OutfitStyle(StrEnum):
    DRESS = "dress"
    SHIRT = "shirt"


class Accessory(StrEnum):
    NONE = "none"
    BOW = "bow"
    HAT = "hat"
    BROOM = "broom"
    GLASSES = "glasses"
    SCARF = "scarf"


@dataclass(frozen=True, slots=True)
class Look:
    """Everything the figure painter needs about a character's appearance."""

    hair_color: RGB = (60, 45, 60)
    hair_style: HairStyle = HairStyle.BOB
    eye_color: RGB = (90, 60, 50)
    skin_color: RGB = (255, 226, 206)
    outfit_color: RGB = (70, 90, 160)
    outfit_accent: RGB = (230, 80, 90)
    outfit_style: OutfitStyle = OutfitStyle.DRESS
    accessory: Accessory = Accessory.NONE

    def to_params(self) -> dict[str, Any]:
        """JSON-friendly params (hex colours), the inverse of :func:`look_from_params`."""
        out: dict[str, Any] = {}
        for key, value in asdict(self).items():
            out[key] = to_hex(value) if isinstance(value, tuple) else str(value)
        return out


DEFAULT_LOOK = Look()

_SKINS: tuple[RGB, ...] = ((255, 229, 210), (250, 214, 186), (236, 190, 150), (198, 146, 110), (150, 104, 76))
_HAIRS: tuple[RGB, ...] = (
    (40, 32, 44), (92, 58, 40), (214, 170, 90), (230, 120, 160), (90, 150, 200), (200, 80, 60),
    (240, 236, 226), (120, 90, 170), (60, 130, 100), (250, 190, 80),
)
_EYES: tuple[RGB, ...] = ((70, 50, 40), (50, 110, 170), (60, 140, 80), (160, 60, 80), (120, 80, 170), (200, 140, 40))
_OUTFITS: tuple[RGB, ...] = (
    (60, 60, 110), (240, 240, 235), (230, 110, 120), (90, 160, 120), (250, 200, 90), (110, 150, 220),
    (170, 110, 200), (240, 150, 80),
)


def to_hex(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def parse_color(value: object) -> RGB | None:
    """A colour from '#rrggbb', '#rgb', a CSS name or an [r, g, b] list; None when unusable."""
    if isinstance(value, (list, tuple)) and len(value) >= 3:
        try:
            parts = [int(v) for v in value[:3]]
        except (TypeError, ValueError):
            return None
        if all(0 <= p <= 255 for p in parts):
            return parts[0], parts[1], parts[2]
        return None
    if isinstance(value, str) and value.strip():
        try:
            rgb = ImageColor.getrgb(value.strip())
        except ValueError:
            return None
        return rgb[0], rgb[1], rgb[2]
    return None


def _enum_value(enum: type[StrEnum], value: object) -> StrEnum | None:
    if not isinstance(value, str):
        return None
    key = value.strip().lower().replace("-", "_").replace(" ", "_")
    key = {"twintails": "twin_tails", "twin_tail": "twin_tails", "pony_tail": "ponytail", "pony": "ponytail",
           "spikes": "spiky", "": "none", "witch_hat": "hat", "ribbon": "bow", "big_red_bow": "bow",
           "shirt_shorts": "shirt", "shorts": "shirt", "skirt": "dress"}.get(key, key)
    try:
        return enum(key)
    except ValueError:
        return None


def look_from_params(params: Mapping[str, Any], name: str = "", base: Look = DEFAULT_LOOK) -> tuple[Look, list[str]]:
    """Build a look from cast params; unknown or invalid values keep ``base``'s and warn."""
    warnings: list[str] = []
    values: dict[str, Any] = {}
    who = f" for '{name}'" if name else ""
    for key in ("hair_color", "eye_color", "skin_color", "outfit_color", "outfit_accent"):
        if key in params and params[key] not in (None, ""):
            rgb = parse_color(params[key])
            if rgb is None:
                warnings.append(f"{key} {params[key]!r}{who} is not a colour; drawn as {to_hex(getattr(base, key))}")
            else:
                values[key] = rgb
    for key, enum in (("hair_style", HairStyle), ("outfit_style", OutfitStyle), ("accessory", Accessory)):
        if key in params and params[key] not in (None,):
            parsed = _enum_value(enum, params[key])
            if parsed is None:
                fallback = getattr(base, key)
                warnings.append(f"{key} {params[key]!r}{who} unknown, shown as '{fallback}'")
            else:
                values[key] = parsed
    fields = {**asdict(base), **values}
    return Look(**fields), warnings


def generated_look(name: str) -> Look:
    """A deterministic look for a name nobody described (same name, same look)."""
    digest = hashlib.sha256(name.strip().lower().encode("utf-8")).digest()
    styles = list(HairStyle)
    accessories = [Accessory.NONE, Accessory.BOW, Accessory.HAT, Accessory.GLASSES, Accessory.SCARF]
    return Look(
        hair_color=_HAIRS[digest[0] % len(_HAIRS)],
        hair_style=styles[digest[1] % len(styles)],
        eye_color=_EYES[digest[2] % len(_EYES)],
        skin_color=_SKINS[digest[3] % len(_SKINS)],
        outfit_color=_OUTFITS[digest[4] % len(_OUTFITS)],
        outfit_accent=_OUTFITS[(digest[4] + 1 + digest[5] % (len(_OUTFITS) - 1)) % len(_OUTFITS)],
        outfit_style=OutfitStyle.DRESS if digest[6] % 2 else OutfitStyle.SHIRT,
        accessory=accessories[digest[7] % len(accessories)],
    )
