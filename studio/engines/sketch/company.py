"""Who else is in the picture: how a cast member named besides the acting character is drawn.

"Qiqi waves at Yuzu" draws Yuzu too. Where the friend goes and what they do depends on the
character's motion: most motions have the friend stand in front, facing the character, either
idle or doing the same thing together (dancing, eating, laughing); travelling motions have the
friend come along beside the character with the same gait; a few motions (sleeping, climbing
a ladder, lying down, thinking of someone) leave the friend out of the picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from studio.engines.sketch.gait import turning_pose
from studio.engines.sketch.poses import Pose, lerp_pose, smoothstep
from studio.engines.sketch.vocabulary import Effect, Prop


class Role(StrEnum):
    FACING = "facing"
    """Stands (or sits) in front of the character, facing them."""
    ALONG = "along"
    """Travels beside the character, the same way, with the same gait."""
    ABSENT = "absent"
    """Not drawn: a second figure would look wrong with this motion."""


ALONG_ANIMS = frozenset({"walk", "run", "sneak", "carry", "swim", "fly_broom"})
ABSENT_ANIMS = frozenset({"sleep", "climb", "lie_down", "think"})
"""One sleeper per bed, one climber per ladder; two lying figures would overlap; someone the
character thinks of is not there."""

FRIEND_ANIMS: dict[str, str] = {
    "talk": "talk", "meet": "wave", "hug": "hug", "wave": "wave", "bow": "bow", "nod": "talk",
    "laugh": "laugh", "clap": "clap", "dance": "dance", "sing": "sing", "eat": "eat", "drink": "drink",
    "read": "read", "sit": "sit", "sit_seat": "sit_seat", "play": "catch", "throw": "catch", "catch": "throw",
    "stretch": "stretch", "jump": "jump", "spin": "spin", "punch": "punch", "shiver": "shiver", "pray": "pray",
    **{anim: anim for anim in ALONG_ANIMS},
}
"""The friend's anim per character anim; anything not listed has the friend stand idle."""

SHARED_PROPS = frozenset({Prop.FOOD, Prop.CUP, Prop.BOOK, Prop.BOX, Prop.BROOM_RIDE})
"""Props a friend doing the same thing holds too (each their own lunch, cup, book, box, broom)."""
SHARED_EFFECTS = frozenset({Effect.SPLASH, Effect.WIND})
"""Effects that are part of the motion itself (the water around a swimmer, a flyer's wind)."""

ALONG_GAP = 0.36
"""How far behind the character (figure units) a friend who comes along is drawn."""
ALONG_GAPS: dict[str, float] = {"swim": 0.85, "fly_broom": 0.9}
"""Wider gaps for the travelling anims drawn lying along the way: at :data:`ALONG_GAP` a
swimmer's head lay on the other's and two brooms' riders sat in one another. Here the friend's
head is behind the character's feet (a swimmer) or behind the broom's bristles (a flyer)."""


def role_for(anim: str) -> Role:
    """Where a friend goes for a character doing ``anim``."""
    if anim in ABSENT_ANIMS:
        return Role.ABSENT
    return Role.ALONG if anim in ALONG_ANIMS else Role.FACING


def along_gap(anim: str) -> float:
    """How far behind the character (figure units) a friend coming along with ``anim`` is drawn."""
    return ALONG_GAPS.get(anim, ALONG_GAP)


def friend_anim(anim: str) -> str:
    """What the friend does while the character does ``anim``."""
    return FRIEND_ANIMS.get(anim, "idle")


def friend_prop(anim: str, prop: Prop) -> Prop:
    """The prop the friend holds: the character's own kind when they do the same thing."""
    return prop if friend_anim(anim) == anim and prop in SHARED_PROPS else Prop.NONE


def friend_effect(anim: str, effect: Effect) -> Effect:
    """The effect drawn with the friend: only one that belongs to the shared motion."""
    return effect if friend_anim(anim) == anim and effect in SHARED_EFFECTS else Effect.NONE


@dataclass(frozen=True, slots=True)
class FriendSpot:
    """Where a friend is drawn in one frame: the hip's x, the way they face, their pose and
    their size (a factor of the character's figure unit: a friend facing the character is drawn
    a little smaller). Stored as the friend's place at the end of a clip (``friend_end``, x in
    frame widths from the frame's centre, as a character's ``end_x``) and, when the next turn in
    the same place names the same friend, as where that clip's friend starts (``friend_start``)."""

    x: float
    facing: int
    pose: Pose
    size: float

    def to_params(self) -> dict[str, Any]:
        return {"x": round(self.x, 6), "facing": self.facing, "pose": self.pose.as_dict(), "size": round(self.size, 4)}

    @classmethod
    def from_params(cls, raw: Any) -> FriendSpot | None:
        """A stored spot; None when anything in it is missing or unusable."""
        if not isinstance(raw, dict):
            return None
        pose = Pose.from_dict(raw.get("pose"))
        try:
            x, facing, size = (float(raw[key]) for key in ("x", "facing", "size"))
        except (KeyError, TypeError, ValueError):
            return None
        if pose is None or not all(math.isfinite(v) for v in (x, facing, size)) or abs(x) > 1e3 \
                or not 0.5 <= size <= 1.5:
            return None
        return cls(x, 1 if facing >= 0 else -1, pose, size)


def blend_from(start: FriendSpot, target: FriendSpot, weight: float) -> FriendSpot:
    """The friend ``weight`` (0..1) of the way from where the previous clip left them to their
    place in this one: the hip slides over, the pose and size blend; a friend who faces the
    other way now turns through facing the viewer, changing sides half way."""
    w = min(1.0, max(0.0, weight))
    if w >= 1.0:
        return target
    pose = lerp_pose(start.pose, target.pose, w)
    facing = target.facing
    if start.facing != target.facing:
        facing = start.facing if w < 0.5 else target.facing
        pose = turning_pose(pose, 1.0 - abs(2.0 * w - 1.0))
    return FriendSpot(start.x + (target.x - start.x) * w, facing, pose, start.size + (target.size - start.size) * w)


def carry_weight(t: float, blend: float) -> float:
    """How far (0..1) the friend has come from their start at clip fraction ``t``: the pace the
    character's own start pose blends into its motion (:func:`~studio.engines.sketch.poses.sample_pose`)."""
    return smoothstep(t / blend) if blend > 0 else 1.0


def grounded(spot: FriendSpot) -> FriendSpot:
    """``spot`` with the friend back on the ground (what held them up is not drawn any more)."""
    return replace(spot, pose=replace(spot.pose, y=0.0)) if spot.pose.y > 0 else spot
