"""What a seed changes in a sketch take that an author can see.

Two takes of one instruction should differ the way two drawings of one storyboard panel
do, not only in noise: the timing of the pose (a quicker or a lazier rhythm, an action
that starts a beat later), the framing of the shot (wide, medium or close) and a few small
props dressing the ground (a flower, a stone, a leaf, a lantern, a bird). All of it is
drawn from the seed alone and stored in the prediction's conditioning, so one seed always
gives one picture and a take made before these existed renders as it did.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

TEMPO_RANGE = (0.75, 1.3)
"""Speed factor of a looping pose (walk cycles, waving...)."""
LEAD_RANGE = (0.0, 0.2)
"""Share of the clip a one-shot action waits before it starts."""
FRAMINGS: tuple[float, ...] = (1.0, 1.12, 1.25)
"""Shot sizes as a zoom factor: wide, medium, close."""
MAX_SHOT = 1.75
"""The closest shot a clip may start on: a close framing zoomed in, carried on in the same place
(stored as ``shot``; ``framing`` keeps the seed's own choice)."""
MAX_PROPS = 3
PROP_X_RANGE = (-0.48, 0.48)
"""Where a prop stands, in frame widths from the centre of the first frame."""


class SmallProp(StrEnum):
    FLOWER = "flower"
    STONE = "stone"
    LEAF = "leaf"
    LANTERN = "lantern"
    BIRD = "bird"


@dataclass(frozen=True, slots=True)
class PropPlacement:
    kind: SmallProp
    x: float
    """Frame widths from the centre of the first frame."""
    size: float
    """Relative size, about 0.7..1.3."""

    def to_params(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "x": self.x, "size": self.size}


@dataclass(frozen=True, slots=True)
class TakeVariation:
    tempo: float = 1.0
    lead: float = 0.0
    framing: float = 1.0
    props: tuple[PropPlacement, ...] = ()

    def to_conditioning(self) -> dict[str, Any]:
        return {"tempo": self.tempo, "lead": self.lead, "framing": self.framing,
                "props": [p.to_params() for p in self.props]}


def _rng(seed: int) -> random.Random:
    digest = hashlib.sha256(f"{int(seed)}:take-variation".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def variation_for(seed: int, *, indoor: bool = False, sky: bool = False) -> TakeVariation:
    """The seed's variation; ``sky`` scenes get no ground props, rooms get no birds."""
    rng = _rng(seed)
    tempo = round(rng.uniform(*TEMPO_RANGE), 4)
    lead = round(rng.uniform(*LEAD_RANGE), 4)
    framing = rng.choice(FRAMINGS)
    count = rng.randint(0, MAX_PROPS)
    kinds = [k for k in SmallProp if not (indoor and k is SmallProp.BIRD)]
    props = tuple(
        PropPlacement(rng.choice(kinds), round(rng.uniform(*PROP_X_RANGE), 4), round(rng.uniform(0.7, 1.3), 3))
        for _ in range(count))
    return TakeVariation(tempo, lead, framing, () if sky else props)


def variation_from(cond: Mapping[str, Any]) -> TakeVariation:
    """Read a variation back from stored conditioning; missing or bad values mean none."""
    def number(key: str, default: float, low: float, high: float) -> float:
        try:
            value = float(cond.get(key, default))
        except (TypeError, ValueError):
            return default
        return min(high, max(low, value)) if value == value else default

    props: list[PropPlacement] = []
    raw = cond.get("props", ())
    if isinstance(raw, list | tuple):
        for item in raw[:MAX_PROPS]:
            if not isinstance(item, Mapping):
                continue
            try:
                kind = SmallProp(str(item.get("kind", "")))
                x = min(1.0, max(-1.0, float(item.get("x", 0.0))))
                size = min(2.0, max(0.3, float(item.get("size", 1.0))))
            except (TypeError, ValueError):
                continue
            props.append(PropPlacement(kind, x, size))
    return TakeVariation(number("tempo", 1.0, 0.5, 2.0), number("lead", 0.0, 0.0, 0.5),
                         number("framing", 1.0, 1.0, 1.5), tuple(props))
