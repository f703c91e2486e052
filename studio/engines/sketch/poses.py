"""Keyframed poses for every motion, and sampling them over a clip.

A :class:`Pose` is a handful of joint angles (degrees) and offsets (figure units, where
the standing figure is about one unit tall). Angles are measured from straight down
("0" is an arm hanging, "90" an arm pointing forward, "180" an arm raised), positive
towards the way the character faces; knee and elbow angles are relative to the upper
limb. ``rot`` tips the whole figure about the hip (90 = face down, -90 = on the back).

An :class:`Anim` is a list of keyframes. Looping anims repeat at ``rate`` cycles per
second (scaled by motion level); one-shot anims play once over the clip and then hold.
Level also scales how far a loop swings around its mean pose, so "gently" waves small
and "wildly" waves big, while the posture itself (sitting height, lying angle) stays put.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class Pose:
    x: float = 0.0
    y: float = 0.0
    rot: float = 0.0
    lean: float = 0.0
    head_tilt: float = 0.0
    head_yaw: float = 0.25
    arm_b: float = -12.0
    elbow_b: float = 8.0
    arm_f: float = 12.0
    elbow_f: float = 8.0
    leg_b: float = 0.0
    knee_b: float = 0.0
    leg_f: float = 0.0
    knee_f: float = 0.0
    yaw: float = 0.0
    squash: float = 1.0

    def as_dict(self) -> dict[str, float]:
        return {k: round(float(v), 4) for k, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: Any) -> Pose | None:
        """A pose from stored conditioning; None when the data is not a complete pose."""
        if not isinstance(data, Mapping) or not all(name in data for name in POSE_FIELDS):
            return None
        try:
            values = {f.name: float(data[f.name]) for f in fields(cls) if f.name in data}
        except (TypeError, ValueError):
            return None
        if not all(math.isfinite(v) for v in values.values()):
            return None
        return cls(**values)

    def vector(self) -> list[float]:
        return [float(getattr(self, f.name)) for f in fields(self)]


POSE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Pose))
NEUTRAL = Pose()


def lerp_pose(a: Pose, b: Pose, w: float) -> Pose:
    if w <= 0.0:
        return a
    if w >= 1.0:
        return b
    return Pose(*(va + (vb - va) * w for va, vb in zip(a.vector(), b.vector(), strict=True)))


def smoothstep(x: float) -> float:
    x = min(1.0, max(0.0, x))
    return x * x * (3.0 - 2.0 * x)


Key = tuple[float, dict[str, float]]


_KEY_CACHE: dict[int, list[tuple[float, Pose]]] = {}


def _key_poses(keys: tuple[Key, ...]) -> list[tuple[float, Pose]]:
    """Keyframe poses, built once per anim (keyed by identity: anims are module constants)."""
    cached = _KEY_CACHE.get(id(keys))
    if cached is None:
        cached = [(t, replace(NEUTRAL, **over)) for t, over in keys]
        _KEY_CACHE[id(keys)] = cached
    return cached


@dataclass(frozen=True, slots=True)
class Anim:
    keys: tuple[Key, ...]
    loop: bool = True
    rate: float = 1.0
    spin: bool = False
    rise: float = 0.0

    def key_poses(self) -> list[tuple[float, Pose]]:
        return _key_poses(self.keys)


# Reusable postures -------------------------------------------------------------------
SEATED = {"y": -0.27, "leg_f": 82, "knee_f": -8, "leg_b": 76, "knee_b": -12, "arm_f": 30, "elbow_f": 20,
          "arm_b": 20, "elbow_b": 25, "lean": -4}
ON_BACK = {"rot": -88, "y": -0.23, "leg_f": 6, "knee_f": -4, "leg_b": -4, "knee_b": -10, "arm_f": 160,
           "elbow_f": 120, "arm_b": 150, "elbow_b": 120, "head_yaw": 0.1}
ON_BROOM = {"y": 0.48, "leg_f": 40, "knee_f": -55, "leg_b": 30, "knee_b": -50, "arm_f": 12, "elbow_f": 10,
            "arm_b": 30, "elbow_b": 12, "lean": 8}
SEAT_TOP = 0.15
"""Height of a bench's, chair's or sofa's seat above the floor (figure units): the hip rests on
it and the lower legs hang down to just above the floor."""
ON_SEAT = {"y": SEAT_TOP - 0.30, "leg_f": 86, "knee_f": -84, "leg_b": 80, "knee_b": -80, "arm_f": 28,
           "elbow_f": 35, "arm_b": 18, "elbow_b": 30, "lean": -3}
"""Sitting on a seat, thighs level and lower legs hanging (``y`` puts the hip, 0.30 above the
soles standing, at the seat's height)."""
SEATED_LEGS = ("y", "leg_f", "knee_f", "leg_b", "knee_b")
"""The pose fields a seated motion takes from :data:`ON_SEAT` (the rest is the motion's own
upper body): the hip on the seat, thighs level, lower legs hanging."""
ARMS_CROSSED = {"arm_f": 55, "elbow_f": 125, "arm_b": 45, "elbow_b": 125}


def _walk(stride: float, knee: float, arm: float, bounce: float, lean: float) -> tuple[Key, ...]:
    return (
        (0.0, {"leg_f": stride, "knee_f": -5, "leg_b": -stride, "knee_b": -knee * 0.4, "arm_f": -arm,
               "arm_b": arm, "lean": lean}),
        (0.25, {"leg_f": 0, "knee_f": -5, "leg_b": 6, "knee_b": -knee, "y": bounce, "lean": lean,
                "arm_f": 0, "arm_b": 0}),
        (0.5, {"leg_f": -stride, "knee_f": -knee * 0.4, "leg_b": stride, "knee_b": -5, "arm_f": arm,
               "arm_b": -arm, "lean": lean}),
        (0.75, {"leg_f": 6, "knee_f": -knee, "leg_b": 0, "knee_b": -5, "y": bounce, "lean": lean,
                "arm_f": 0, "arm_b": 0}),
    )


def _with(keys: tuple[Key, ...], **extra: float) -> tuple[Key, ...]:
    return tuple((t, {**over, **extra}) for t, over in keys)


ANIMS: dict[str, Anim] = {
    "idle": Anim(((0.0, {}), (0.5, {"y": 0.008, "head_tilt": 4, "arm_f": 14, "arm_b": -14})), rate=0.5),
    "walk": Anim(_walk(26, 40, 24, 0.02, 3), rate=1.2),
    "run": Anim(tuple((t, {**o, "elbow_f": 85, "elbow_b": 85}) for t, o in _walk(46, 85, 45, 0.06, 14)), rate=1.9),
    "sneak": Anim(_with(_walk(16, 35, 0, 0.01, 18), y=-0.05, arm_f=45, elbow_f=80, arm_b=35, elbow_b=85), rate=0.8),
    "carry": Anim(_with(_walk(22, 35, 0, 0.02, -3), arm_f=62, elbow_f=55, arm_b=55, elbow_b=62), rate=1.1),
    "jump": Anim((
        (0.0, {"y": -0.06, "leg_f": 25, "knee_f": -45, "leg_b": 20, "knee_b": -45, "arm_f": -35, "arm_b": -30,
               "squash": 0.93, "lean": 10}),
        (0.2, {"y": 0.08, "arm_f": 160, "arm_b": 150, "squash": 1.05}),
        (0.45, {"y": 0.38, "leg_f": 35, "knee_f": -60, "leg_b": -15, "knee_b": -70, "arm_f": 170, "arm_b": 140,
                "squash": 1.02}),
        (0.7, {"y": 0.03, "arm_f": 70, "arm_b": 60}),
        (0.85, {"y": -0.05, "leg_f": 20, "knee_f": -35, "leg_b": 15, "knee_b": -35, "squash": 0.94}),
    ), rate=0.9),
    "fly_broom": Anim(((0.0, ON_BROOM), (0.5, {**ON_BROOM, "y": 0.56, "lean": 4, "leg_f": 30, "leg_b": 38,
                                              "head_tilt": -4})), rate=0.6),
    "hold_broom": Anim(((0.0, {"arm_f": 22, "elbow_f": 62, "head_tilt": 2}),
                        (0.5, {"arm_f": 22, "elbow_f": 58, "head_tilt": -4, "y": 0.006, "head_yaw": 0.35})),
                       rate=0.4),
    "sweep": Anim(((0.0, {"lean": 14, "arm_f": 25, "elbow_f": 25, "arm_b": 38, "elbow_b": 20}),
                   (0.5, {"lean": 18, "arm_f": 50, "elbow_f": 15, "arm_b": 60, "elbow_b": 10})), rate=1.0),
    "sit": Anim(((0.0, {}), (0.45, SEATED), (1.0, {**SEATED, "head_tilt": 5})), loop=False),
    "sit_seat": Anim(((0.0, {}), (0.45, ON_SEAT), (1.0, {**ON_SEAT, "head_tilt": 5})), loop=False),
    "sit_railing": Anim((
        (0.0, {"y": 0.12, "leg_f": 88, "knee_f": -70, "leg_b": 70, "knee_b": -88, "arm_f": 18, "elbow_f": 0,
               "arm_b": -18, "elbow_b": 0, "head_tilt": 4}),
        (0.5, {"y": 0.12, "leg_f": 70, "knee_f": -88, "leg_b": 88, "knee_b": -70, "arm_f": 18, "elbow_f": 0,
               "arm_b": -18, "elbow_b": 0, "head_tilt": -3, "head_yaw": 0.4}),
    ), rate=0.7),
    "lie_down": Anim(((0.0, {}), (0.3, SEATED), (0.7, ON_BACK), (1.0, {**ON_BACK, "head_yaw": 0.0})), loop=False),
    "sleep": Anim(((0.0, {**ON_BACK, "arm_f": 20, "arm_b": -10, "elbow_f": 30, "head_yaw": 0.0}),
                   (0.5, {**ON_BACK, "arm_f": 20, "arm_b": -10, "elbow_f": 30, "head_yaw": 0.0, "squash": 1.02})),
                  rate=0.35),
    "turn_head": Anim(((0.0, {"head_yaw": 0.35}), (0.25, {"head_yaw": 0.35}),
                       (0.65, {"head_yaw": -0.95, "head_tilt": 6, "lean": -3}),
                       (1.0, {"head_yaw": -0.95, "head_tilt": 4, "lean": -3})), loop=False),
    "look_around": Anim(((0.0, {"head_yaw": -0.8, "arm_f": 150, "elbow_f": 110}),
                         (0.5, {"head_yaw": 0.95, "arm_f": 150, "elbow_f": 110, "head_tilt": -6})), rate=0.45),
    "wave": Anim(((0.0, {"arm_f": 150, "elbow_f": 30, "head_tilt": 8}),
                  (0.5, {"arm_f": 150, "elbow_f": -25, "head_tilt": 4})), rate=1.6),
    "talk": Anim(((0.0, {"arm_f": 50, "elbow_f": 60, "head_tilt": 3}),
                  (0.5, {"arm_f": 38, "elbow_f": 85, "head_tilt": -3, "arm_b": -5})), rate=1.1),
    "meet": Anim(((0.0, {"arm_f": 140, "elbow_f": 20, "head_tilt": 6, "y": 0.0}),
                  (0.5, {"arm_f": 120, "elbow_f": 45, "head_tilt": 2, "y": 0.02})), rate=1.4),
    "hug": Anim(((0.0, {"arm_f": 85, "elbow_f": 55, "arm_b": 80, "elbow_b": 65, "lean": 10, "rot": -4}),
                 (0.5, {"arm_f": 85, "elbow_f": 55, "arm_b": 80, "elbow_b": 65, "lean": 10, "rot": 4})), rate=0.5),
    "laugh": Anim(((0.0, {"lean": -8, "arm_f": 25, "elbow_f": 100, "arm_b": 20, "elbow_b": 100, "head_tilt": -8}),
                   (0.5, {"lean": -2, "arm_f": 25, "elbow_f": 95, "arm_b": 20, "elbow_b": 95, "y": 0.02})),
                  rate=2.0),
    "cry": Anim(((0.0, {"arm_f": 35, "elbow_f": 140, "arm_b": 30, "elbow_b": 140, "head_tilt": 10, "lean": 4}),
                 (0.5, {"arm_f": 35, "elbow_f": 145, "arm_b": 30, "elbow_b": 145, "head_tilt": 12, "lean": 5,
                        "y": -0.01})), rate=1.3),
    "dance": Anim(((0.0, {"rot": -8, "arm_f": 150, "elbow_f": 20, "arm_b": 40, "leg_f": 25, "knee_f": -30}),
                   (0.5, {"rot": 8, "arm_f": 40, "arm_b": 150, "elbow_b": 20, "leg_b": -25, "knee_b": -30,
                          "y": 0.03})), rate=1.2),
    "spin": Anim(((0.0, {"arm_f": 95, "arm_b": -95, "leg_b": -10, "knee_b": -40, "y": 0.02}),
                  (0.5, {"arm_f": 100, "arm_b": -100, "leg_b": -10, "knee_b": -45, "y": 0.04})), rate=0.9,
                 spin=True),
    "sing": Anim(((0.0, {"arm_f": 45, "elbow_f": 95, "arm_b": 50, "elbow_b": 90, "head_tilt": -8, "rot": -3}),
                  (0.5, {"arm_f": 45, "elbow_f": 95, "arm_b": 50, "elbow_b": 90, "head_tilt": -3, "rot": 3})),
                 rate=0.8),
    "play": Anim(((0.0, {"arm_f": 45, "elbow_f": 15, "lean": 8, "leg_f": 10}),
                  (0.5, {"arm_f": 28, "elbow_f": 0, "lean": 10, "y": -0.02})), rate=1.2),
    "eat": Anim(((0.0, {"arm_f": 40, "elbow_f": 115, "head_tilt": 2}),
                 (0.5, {"arm_f": 25, "elbow_f": 60, "head_tilt": 6})), rate=0.8),
    "drink": Anim(((0.0, {"arm_f": 45, "elbow_f": 118, "head_tilt": -10}),
                   (0.5, {"arm_f": 30, "elbow_f": 70, "head_tilt": 2})), rate=0.5),
    "cook": Anim(((0.0, {"arm_f": 60, "elbow_f": 30, "arm_b": 45, "elbow_b": 60, "lean": 6}),
                  (0.5, {"arm_f": 78, "elbow_f": 10, "arm_b": 55, "elbow_b": 40, "lean": 8})), rate=1.0),
    "read": Anim(((0.0, {"arm_f": 55, "elbow_f": 65, "arm_b": 45, "elbow_b": 75, "head_tilt": 12}),
                  (0.5, {"arm_f": 55, "elbow_f": 68, "arm_b": 52, "elbow_b": 85, "head_tilt": 10})), rate=0.3),
    "write": Anim(((0.0, {"arm_f": 48, "elbow_f": 68, "arm_b": 45, "elbow_b": 78, "head_tilt": 14}),
                   (0.5, {"arm_f": 44, "elbow_f": 74, "arm_b": 45, "elbow_b": 78, "head_tilt": 12})), rate=1.5),
    "swim": Anim(((0.0, {"rot": 72, "y": -0.08, "arm_f": 175, "elbow_f": 0, "arm_b": 10, "leg_f": 10,
                         "leg_b": -12, "head_yaw": 0.5, "head_tilt": -40}),
                  (0.5, {"rot": 72, "y": -0.06, "arm_f": 10, "elbow_f": 0, "arm_b": 175, "leg_f": -12,
                         "leg_b": 10, "head_yaw": 0.5, "head_tilt": -40})), rate=0.9),
    "fall": Anim(((0.0, {}), (0.18, {"lean": 20, "arm_f": 150, "arm_b": 130, "leg_b": -40, "knee_b": -30}),
                  (0.42, {"rot": 60, "y": -0.1, "arm_f": 170, "arm_b": 160, "leg_b": -30}),
                  (0.62, {"rot": 88, "y": -0.22, "arm_f": 175, "arm_b": 165, "head_tilt": -30}),
                  (1.0, {"rot": 88, "y": -0.22, "arm_f": 170, "arm_b": 160, "knee_b": -70, "leg_b": -10,
                         "head_tilt": -30})), loop=False),
    "climb": Anim(((0.0, {"arm_f": 170, "elbow_f": 20, "arm_b": 120, "elbow_b": 40, "leg_f": 60, "knee_f": -95}),
                   (0.5, {"arm_f": 120, "elbow_f": 40, "arm_b": 170, "elbow_b": 20, "leg_b": 60, "knee_b": -95})),
                  rate=1.0, rise=0.3),
    "stretch": Anim(((0.0, {"arm_f": 172, "arm_b": 168, "elbow_f": 5, "elbow_b": 5, "lean": -6, "rot": -6,
                            "squash": 1.03}),
                     (0.5, {"arm_f": 172, "arm_b": 168, "elbow_f": 5, "elbow_b": 5, "lean": -6, "rot": 6,
                            "y": 0.02, "squash": 1.05})), rate=0.4),
    "kick": Anim(((0.0, {"arm_f": 40, "arm_b": -40, "knee_f": -20}),
                  (0.4, {"leg_f": 100, "knee_f": 0, "lean": -16, "arm_f": -50, "arm_b": 60}),
                  (0.7, {"leg_f": 30, "knee_f": -40, "lean": -4})), rate=1.0),
    "punch": Anim(((0.0, {"arm_f": 60, "elbow_f": 110, "arm_b": 50, "elbow_b": 120, "leg_f": 12, "leg_b": -12}),
                   (0.3, {"arm_f": 90, "elbow_f": 0, "arm_b": 50, "elbow_b": 120, "lean": 10, "leg_f": 12,
                          "leg_b": -12}),
                   (0.55, {"arm_f": 60, "elbow_f": 110, "arm_b": 50, "elbow_b": 120, "leg_f": 12, "leg_b": -12}),
                   (0.8, {"arm_f": 55, "elbow_f": 110, "arm_b": 90, "elbow_b": 0, "lean": 10, "leg_f": 12,
                          "leg_b": -12})), rate=1.5),
    "bow": Anim(((0.0, {}), (0.35, {"lean": 45, "head_tilt": 15, "arm_f": 30, "arm_b": 20, "elbow_f": 20}),
                 (0.7, {"lean": 45, "head_tilt": 15, "arm_f": 30, "arm_b": 20, "elbow_f": 20})), rate=0.45),
    "nod": Anim(((0.0, {"head_tilt": -2}), (0.5, {"head_tilt": 16, "lean": 2})), rate=1.2),
    "throw": Anim(((0.0, {"arm_f": -130, "elbow_f": 40, "lean": -10, "leg_f": 15, "leg_b": -15}),
                   (0.3, {"arm_f": 150, "elbow_f": 0, "lean": 14, "leg_f": 15, "leg_b": -15}),
                   (0.6, {"arm_f": 60, "elbow_f": 10, "lean": 8})), rate=0.8),
    "catch": Anim(((0.0, {"arm_f": 110, "elbow_f": 25, "arm_b": 105, "elbow_b": 25}),
                   (0.5, {"arm_f": 95, "elbow_f": 40, "arm_b": 90, "elbow_b": 40, "lean": -6})), rate=0.8),
    "shiver": Anim(((0.0, {**ARMS_CROSSED, "x": -0.012, "lean": 6, "head_tilt": 6}),
                    (0.5, {**ARMS_CROSSED, "x": 0.012, "lean": 6, "head_tilt": 6})), rate=6.0),
    "clap": Anim(((0.0, {"arm_f": 72, "elbow_f": 60, "arm_b": 68, "elbow_b": 62}),
                  (0.5, {"arm_f": 60, "elbow_f": 20, "arm_b": 45, "elbow_b": 40})), rate=2.0),
    "think": Anim(((0.0, {"arm_f": 40, "elbow_f": 135, "arm_b": 40, "elbow_b": 90, "head_tilt": 8, "head_yaw": 0.1}),
                   (0.5, {"arm_f": 40, "elbow_f": 135, "arm_b": 40, "elbow_b": 90, "head_tilt": -4,
                          "head_yaw": 0.3})), rate=0.3),
    "pray": Anim(((0.0, {"arm_f": 40, "elbow_f": 100, "arm_b": 48, "elbow_b": 100, "head_tilt": 12}),
                  (0.5, {"arm_f": 40, "elbow_f": 100, "arm_b": 48, "elbow_b": 100, "head_tilt": 14})), rate=0.3),
    "shout": Anim(((0.0, {"arm_f": 50, "elbow_f": 130, "lean": -10, "head_tilt": -8}),
                   (0.5, {"arm_f": 55, "elbow_f": 125, "lean": 4, "head_tilt": 0})), rate=1.5),
    "point": Anim(((0.0, {"arm_f": 120, "elbow_f": 0, "head_tilt": -10}),
                   (0.5, {"arm_f": 125, "elbow_f": 5, "head_tilt": -12, "y": 0.01})), rate=0.5),
    "sulk": Anim(((0.0, {**ARMS_CROSSED, "head_yaw": -0.6, "leg_f": 0}),
                  (0.5, {**ARMS_CROSSED, "head_yaw": -0.6, "leg_f": 18, "knee_f": -30, "head_tilt": -4})), rate=0.7),
}
"""Animation per motion ``anim`` key (see :data:`vocabulary.MOTIONS`)."""

def level_speed(level: int) -> float:
    """Cycle-rate multiplier: level 1 is 0.7x, level 3 is 1x, level 5 is 1.3x."""
    return 0.55 + 0.15 * level


def level_amplitude(level: int) -> float:
    """How far a loop swings around its mean pose (level 1 = 0.8, level 5 = 1.16)."""
    return 0.71 + 0.09 * level


def _interp_keys(keys: list[tuple[float, Pose]], t: float, loop: bool) -> Pose:
    if len(keys) == 1:
        return keys[0][1]
    if loop:
        t = t % 1.0
        extended = [*keys, (1.0, keys[0][1])]
    else:
        t = min(1.0, max(0.0, t))
        extended = keys if keys[-1][0] >= 1.0 else [*keys, (1.0, keys[-1][1])]
    for (t0, p0), (t1, p1) in itertools.pairwise(extended):
        if t0 <= t <= t1:
            span = t1 - t0
            w = 0.0 if span <= 0 else (t - t0) / span
            return lerp_pose(p0, p1, smoothstep(w))
    return extended[-1][1]


def _mean_pose(keys: list[tuple[float, Pose]]) -> Pose:
    vectors = [p.vector() for _, p in keys]
    return Pose(*(sum(col) / len(col) for col in zip(*vectors, strict=True)))


@dataclass(frozen=True, slots=True)
class PosePlan:
    """How one clip's poses are made: the anim, its speed and phase, and where it starts from."""

    anim: str
    level: int
    duration: float
    phase: float = 0.0
    amplitude_jitter: float = 1.0
    start: Pose | None = None
    hold: bool = False
    blend: float = 0.35
    tempo: float = 1.0
    """Speed factor of a looping anim (a take's rhythm)."""
    lead: float = 0.0
    """Share of the clip a one-shot anim waits before it starts."""
    seated: bool = False
    """Done sitting on a seat (eating on a bench): the anim's upper body on :data:`ON_SEAT`'s legs."""


def sample_pose(plan: PosePlan, t: float) -> Pose:
    """The pose at clip fraction ``t`` in [0, 1]."""
    anim = ANIMS.get(plan.anim, ANIMS["idle"])
    keys = anim.key_poses()
    seconds = t * plan.duration
    if anim.loop:
        phase = plan.phase + seconds * anim.rate * level_speed(plan.level) * plan.tempo
        raw = _interp_keys(keys, phase, loop=True)
        mean = _mean_pose(keys)
        amp = level_amplitude(plan.level) * plan.amplitude_jitter
        pose = lerp_pose(mean, raw, amp) if amp <= 1.0 else Pose(
            *(m + (r - m) * amp for m, r in zip(mean.vector(), raw.vector(), strict=True)))
        if anim.spin:
            pose = replace(pose, yaw=(360.0 * phase) % 360.0)
        if anim.rise:
            pose = replace(pose, y=pose.y + anim.rise * t * level_speed(plan.level))
    else:
        late = max(0.0, (t - plan.lead) / (1.0 - plan.lead)) if 0.0 < plan.lead < 1.0 else t
        local = 1.0 if plan.hold else min(1.0, late * (0.7 + 0.15 * plan.level))
        pose = _interp_keys(keys, local, loop=False)
        breath = math.sin(2 * math.pi * (plan.phase + seconds * 0.5))
        pose = replace(pose, squash=pose.squash + 0.012 * breath)
    if plan.seated:
        pose = on_seat(pose)
    if plan.start is not None and plan.blend > 0:
        w = smoothstep(t / plan.blend)
        start = plan.start
        if anim.spin:
            start = replace(start, yaw=pose.yaw)
        pose = lerp_pose(start, pose, w)
    return pose


def on_seat(pose: Pose) -> Pose:
    """``pose`` done sitting on a seat: its upper body (arms, head, lean) on the seated legs."""
    return replace(pose, **{name: float(ON_SEAT[name]) for name in SEATED_LEGS})


def end_pose(plan: PosePlan) -> Pose:
    """The clip's last pose, with a spin's yaw folded into (-180, 180] so the next turn unwinds it."""
    pose = sample_pose(plan, 1.0)
    return replace(pose, yaw=((pose.yaw + 180.0) % 360.0) - 180.0)
