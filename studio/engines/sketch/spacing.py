"""How far apart a character and a friend facing them stand: measured on the drawn figures.

A fixed gap let a waving arm, a ponytail or a book reach into the other figure ("Qiqi waves at
Yuzu" drew Yuzu's face behind Qiqi's hand). The gap is instead measured from the figures the
renderer draws: each one is drawn over its whole anim (without the effects around it, such as a
speech bubble, that go above the heads) and the furthest it reaches forward of its hip, towards
the other, sets the distance, plus a clearance. A wave or a game of catch keeps a little more
room than talking. Measurements are cached per look and anim: they cost a few small drawings.
"""

from __future__ import annotations

from functools import lru_cache

from studio.engines.sketch.figure import FigureSpec, draw_figure
from studio.engines.sketch.look import Look
from studio.engines.sketch.palette import Palette
from studio.engines.sketch.poses import ANIMS, PosePlan, sample_pose
from studio.engines.sketch.vocabulary import Prop

MEASURE_SCALE = 160.0
"""Figure unit (pixels) the figures are measured at."""
SAMPLES = 16
"""Poses measured over one cycle of a loop, or over the whole of a one-shot anim."""
CLEARANCE = 0.06
"""Room (figure units) left between the two figures' furthest reaches."""
WIDE_GESTURES = frozenset({"wave", "meet", "throw", "catch", "play"})
"""Anims that get more room than talking: an arm swings high and wide, a ball flies between."""
WIDE_CLEARANCE = 0.16
HUG_GAP = 0.3
"""A hug is meant to be close: the arms go round the other."""
FRIEND_SIZE = 0.95
"""A facing friend is drawn a little smaller than the character (see ``ClipRenderer._companion``)."""
APART = frozenset({Prop.BALL, Prop.RAILING, Prop.LADDER})
"""Props that are not part of a figure's reach: a ball flies between the two; a railing or a
ladder stands in the scene."""


@lru_cache(maxsize=256)
def reach(look: Look, prop: Prop, anim: str, seated: bool) -> tuple[float, float]:
    """(behind, ahead): how far the drawn figure reaches behind and in front of its hip over the
    whole of ``anim``, in figure units (at the liveliest level, so every take keeps clear)."""
    spec = FigureSpec(look, Palette.build(look, (1.0, 1.0, 1.0)), Prop.NONE if prop in APART else prop,
                      anim=anim)
    loop = ANIMS.get(anim, ANIMS["idle"]).loop
    behind = ahead = 0.0
    for k in range(SAMPLES + 1):
        if loop:
            plan = PosePlan(anim, 5, 1.0, phase=k / SAMPLES, amplitude_jitter=1.08, seated=seated)
            pose = sample_pose(plan, 0.0)
        else:
            pose = sample_pose(PosePlan(anim, 5, 1.0, seated=seated), k / SAMPLES)
        sprite, (ax, _) = draw_figure(spec, pose, 1, MEASURE_SCALE, 0.0, 0.0, supersample=1)
        box = sprite.getchannel("a").getbbox()
        if box is None:
            continue
        behind = max(behind, (ax - box[0]) / MEASURE_SCALE)
        ahead = max(ahead, (box[2] - ax) / MEASURE_SCALE)
    return round(behind, 4), round(ahead, 4)


def facing_gap(anim: str, look: Look, prop: Prop, friend: Look, friend_anim: str, friend_prop: Prop,
               seated: bool) -> float:
    """How far (figure units) the hip of a friend facing the character is from the character's:
    far enough that the two drawn figures never overlap."""
    if anim == "hug":
        return HUG_GAP
    mine = reach(look, prop, anim, seated)[1]
    theirs = reach(friend, friend_prop, friend_anim, seated)[1] * FRIEND_SIZE
    room = WIDE_CLEARANCE if anim in WIDE_GESTURES or friend_anim in WIDE_GESTURES else CLEARANCE
    return round(mine + theirs + room, 4)


def friend_behind(friend: Look, friend_anim: str, friend_prop: Prop, seated: bool) -> float:
    """How far (figure units) the facing friend reaches behind their hip, away from the character:
    the room the stage's edge must leave on that side."""
    return reach(friend, friend_prop, friend_anim, seated)[0] * FRIEND_SIZE
