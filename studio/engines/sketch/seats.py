"""Seats a sitting character sits on: the words that name one, and drawing it under the hip.

"Qiqi sits on a bench" keeps the motion ``sit`` (the vocabulary maps "sit bench" onto it);
the seat word only decides what is drawn under her: a bench, a chair, a sofa, a stool or a
swing, with her hips on its seat (:data:`~studio.engines.sketch.poses.SEAT_TOP`) and her legs
hanging. Motions a person does seated ("eats lunch on a bench", "reads on the sofa") sit on
the seat named too, doing the motion with the upper body; the motion keeps its name. Seats are
drawn in figure units around the sitter's hip, behind the figure, in the scene's light.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise
from typing import Any

from PIL import Image, ImageDraw

from studio.engines.sketch.poses import SEAT_TOP
from studio.engines.sketch.text import tokenise


class Seat(StrEnum):
    BENCH = "bench"
    CHAIR = "chair"
    SOFA = "sofa"
    STOOL = "stool"
    SWING = "swing"


SEAT_WORDS: dict[str, Seat | None] = {
    "bench": Seat.BENCH, "benches": Seat.BENCH, "chair": Seat.CHAIR, "chairs": Seat.CHAIR,
    "armchair": Seat.CHAIR, "armchairs": Seat.CHAIR, "sofa": Seat.SOFA, "sofas": Seat.SOFA, "couch": Seat.SOFA,
    "couches": Seat.SOFA, "settee": Seat.SOFA, "stool": Seat.STOOL, "stools": Seat.STOOL, "swing": Seat.SWING,
    "swings": Seat.SWING, "seat": None, "seats": None,
}
"""Words that name a seat; None ("a seat", "takes a seat") is the place's usual one."""

SEATED_ANIMS = frozenset({
    "idle", "turn_head", "look_around", "wave", "talk", "meet", "laugh", "cry", "sing", "play", "eat", "drink",
    "read", "write", "think", "pray", "shiver", "clap", "nod", "bow", "shout", "point", "sulk", "stretch",
})
"""Anims done seated when the instruction names a seat ("eats lunch on a bench"): the upper body
does the motion, the legs hang from the seat. The others (walking, running, jumping, dancing,
spinning, swimming, climbing, cooking, sweeping, hugging, kicking, punching, throwing, catching,
falling, lying down, sleeping...) can't be done seated: they stand, and no seat is drawn."""

STANDING_WORDS = frozenset({"stand", "stands", "standing", "stood"})
"""Words that say the character stands ("stands on a chair and waves"): no seat then."""

OFF_THE_SEAT_WORDS = frozenset({"floor", "ground", "grass", "sand", "rise", "rises", "rising"})
"""Words that take the character off the seat the previous turn left them on ("sits on the
floor", "rises and waves"); so do :data:`STANDING_WORDS` and "gets up"."""
GET_WORDS = frozenset({"get", "gets", "getting", "got"})
"""Words that say the character gets off the seat when "up" follows them ("gets up and waves")."""

WIDE = frozenset({Seat.BENCH, Seat.SOFA})
"""Seats wide enough for two: a friend sitting with the character shares it."""

MAX_STANDING = 8
"""Seats a place keeps (the latest ones): a scene full of benches is not what anyone asked for."""


@dataclass(frozen=True, slots=True)
class StandingSeat:
    """A seat an earlier turn in this place sat on, left standing where it was."""

    seat: Seat
    hips: tuple[float, ...]
    """Where the sitters' hips were (frame widths from the centre of the clip's first frame, as a
    character's ``start_x``): one for a chair, stool or swing; one or two on a bench or a sofa."""

    def to_params(self) -> dict[str, Any]:
        return {"seat": self.seat.value, "hips": [round(x, 6) for x in self.hips]}

    def moved(self, shift: float) -> StandingSeat:
        """The seat seen from a clip whose frame starts ``shift`` frame widths further along."""
        return StandingSeat(self.seat, tuple(round(x - shift, 6) for x in self.hips))


def standing_seats(raw: Any) -> tuple[StandingSeat, ...]:
    """Stored seats (a list of ``{"seat": "bench", "hips": [0.1]}``); anything unusable is left out."""
    if not isinstance(raw, list | tuple):
        return ()
    out: list[StandingSeat] = []
    for item in raw[-MAX_STANDING:]:
        if not isinstance(item, dict) or item.get("seat") not in {s.value for s in Seat}:
            continue
        hips = item.get("hips")
        if not isinstance(hips, list | tuple) or not 1 <= len(hips) <= 2:
            continue
        try:
            xs = tuple(float(x) for x in hips)
        except (TypeError, ValueError):
            continue
        if all(math.isfinite(x) and abs(x) < 1e6 for x in xs):
            out.append(StandingSeat(Seat(item["seat"]), xs))
    return tuple(out)


Tint = tuple[float, float, float]
RGB = tuple[int, int, int]


def can_sit_for(anim: str) -> bool:
    """Whether ``anim`` sits on a seat the instruction names: sitting itself, and the motions
    done seated (:data:`SEATED_ANIMS`)."""
    return anim == "sit" or anim in SEATED_ANIMS


def seat_named(texts: Sequence[str], indoor: bool) -> Seat | None:
    """The seat the first seat word in ``texts`` names; a plain "seat" is a chair indoors and a
    bench outdoors. None when no seat is named (the character sits on the ground), and when the
    text says the character stands."""
    words = [word for text in texts for word in tokenise(text)]
    if STANDING_WORDS.intersection(words):
        return None
    for text in texts:
        for word in tokenise(text):
            if word in SEAT_WORDS:
                return SEAT_WORDS[word] or (Seat.CHAIR if indoor else Seat.BENCH)
    return None


def stays_seated(texts: Sequence[str]) -> bool:
    """Whether a turn that names no seat stays on the one the previous turn left the character
    sitting on: not when the text says the character stands, gets up or is on the ground."""
    for text in texts:
        words = tokenise(text)
        if STANDING_WORDS.intersection(words) or OFF_THE_SEAT_WORDS.intersection(words):
            return False
        if any(word in GET_WORDS and after == "up" for word, after in pairwise(words)):
            return False
    return True


def _lit(rgb: RGB, tint: Tint) -> RGB:
    """``rgb`` in the scene's light (the same multiplication as the scenery's colours)."""
    return min(255, int(rgb[0] * tint[0])), min(255, int(rgb[1] * tint[1])), min(255, int(rgb[2] * tint[2]))


def draw_seat(img: Image.Image, seat: Seat, hips: Sequence[tuple[float, int]], ground_y: float, unit: float,
              tint: Tint) -> None:
    """Draw ``seat`` on ``img`` (in place) under sitters whose hips are at the given (x pixel,
    facing): one wide seat under all of them (a bench, a sofa) or one seat each."""
    if not hips:
        return
    draw = ImageDraw.Draw(img)
    top = ground_y - SEAT_TOP * unit
    if seat in WIDE:
        xs = [x for x, _ in hips]
        left, right = min(xs) - 0.42 * unit, max(xs) + 0.42 * unit
        (_bench if seat == Seat.BENCH else _sofa)(draw, left, right, top, ground_y, unit, tint)
        return
    for x, facing in hips:
        {Seat.CHAIR: _chair, Seat.STOOL: _stool, Seat.SWING: _swing}[seat](draw, x, facing, top, ground_y, unit,
                                                                            tint)


def _w(unit: float, k: float) -> int:
    return max(1, round(k * unit))


def _bench(draw: ImageDraw.ImageDraw, left: float, right: float, top: float, ground: float, u: float,
           tint: Tint) -> None:
    """A park bench seen from the front: iron legs, a slatted seat and a backrest behind the sitters."""
    wood, dark, iron = _lit((176, 116, 72), tint), _lit((120, 76, 46), tint), _lit((64, 64, 72), tint)
    for lx in (left + 0.06 * u, right - 0.1 * u):
        draw.rectangle([lx, top - 0.3 * u, lx + 0.04 * u, ground], fill=iron)
    for k in (0.14, 0.24):
        draw.rounded_rectangle([left, top - (k + 0.05) * u, right, top - k * u], radius=_w(u, 0.015), fill=wood,
                               outline=dark)
    draw.rounded_rectangle([left - 0.03 * u, top - 0.01 * u, right + 0.03 * u, top + 0.05 * u], radius=_w(u, 0.02),
                           fill=wood, outline=dark)


def _sofa(draw: ImageDraw.ImageDraw, left: float, right: float, top: float, ground: float, u: float,
          tint: Tint) -> None:
    """A sofa seen from the front: a back cushion behind the sitters, a seat cushion, two armrests."""
    cloth, shade, foot = _lit((118, 142, 196), tint), _lit((84, 104, 150), tint), _lit((96, 64, 44), tint)
    r = _w(u, 0.05)
    draw.rounded_rectangle([left, top - 0.34 * u, right, top + 0.04 * u], radius=r, fill=cloth, outline=shade)
    draw.rounded_rectangle([left - 0.06 * u, top - 0.02 * u, right + 0.06 * u, ground - 0.035 * u], radius=r,
                           fill=cloth, outline=shade)
    for ax in (left - 0.1 * u, right - 0.02 * u):
        draw.rounded_rectangle([ax, top - 0.14 * u, ax + 0.12 * u, ground - 0.035 * u], radius=r, fill=shade)
    for fx in (left, right - 0.04 * u):
        draw.rectangle([fx, ground - 0.04 * u, fx + 0.04 * u, ground], fill=foot)


def _chair(draw: ImageDraw.ImageDraw, x: float, f: int, top: float, ground: float, u: float, tint: Tint) -> None:
    """A wooden chair seen from the front, as the figure is: its back shows round the sitter's body."""
    wood, dark = _lit((160, 106, 66), tint), _lit((108, 70, 42), tint)
    left, right = x - 0.3 * u, x + 0.3 * u
    for lx in (left + 0.03 * u, right - 0.07 * u):  # the back legs, further away, end higher
        draw.rectangle([lx, top - 0.36 * u, lx + 0.04 * u, ground - 0.04 * u], fill=dark)
    draw.rounded_rectangle([left + 0.02 * u, top - 0.38 * u, right - 0.02 * u, top - 0.24 * u],
                           radius=_w(u, 0.03), fill=wood, outline=dark)
    for lx in (left, right - 0.045 * u):
        draw.rectangle([lx, top, lx + 0.045 * u, ground], fill=dark)
    draw.rounded_rectangle([left - 0.02 * u, top - 0.01 * u, right + 0.02 * u, top + 0.05 * u],
                           radius=_w(u, 0.012), fill=wood, outline=dark)


def _stool(draw: ImageDraw.ImageDraw, x: float, f: int, top: float, ground: float, u: float, tint: Tint) -> None:
    """A round stool: splayed legs under a cushioned top."""
    dark, cushion = _lit((108, 70, 42), tint), _lit((200, 80, 80), tint)
    for dx in (-0.2, 0.0, 0.2):
        draw.line([(x + dx * 0.6 * u, top + 0.03 * u), (x + dx * u, ground)], fill=dark, width=_w(u, 0.035))
    draw.ellipse([x - 0.21 * u, top - 0.03 * u, x + 0.21 * u, top + 0.06 * u], fill=cushion, outline=dark)


def _swing(draw: ImageDraw.ImageDraw, x: float, f: int, top: float, ground: float, u: float, tint: Tint) -> None:
    """A playground swing: a plank hung on two ropes from the frame's crossbar."""
    frame, rope, wood = _lit((200, 70, 60), tint), _lit((90, 80, 70), tint), _lit((176, 116, 72), tint)
    bar = ground - 1.35 * u
    for px in (x - 0.55 * u, x + 0.55 * u):
        draw.line([(px - 0.12 * u, ground), (px, bar)], fill=frame, width=_w(u, 0.035))
        draw.line([(px + 0.12 * u, ground), (px, bar)], fill=frame, width=_w(u, 0.035))
    draw.line([(x - 0.6 * u, bar), (x + 0.6 * u, bar)], fill=frame, width=_w(u, 0.04))
    for rx in (x - 0.15 * u, x + 0.15 * u):
        draw.line([(rx, bar), (rx, top)], fill=rope, width=_w(u, 0.012))
    draw.rounded_rectangle([x - 0.2 * u, top - 0.01 * u, x + 0.2 * u, top + 0.035 * u], radius=_w(u, 0.01),
                           fill=wood, outline=rope)
