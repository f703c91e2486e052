"""Where a walker is on the ground: the body travels exactly as far as its planted foot pushes it.

A walk cycle swings the legs; the foot that is on the ground (the lower one) moves backwards
relative to the hip. For the foot to stay put on the ground, the body has to move forward
by the same amount, frame by frame. :func:`walk_path` integrates that over the clip, so the
distance covered always agrees with the stepping (a quicker or livelier walk covers more
ground, a tiptoe less) and planted feet never slide.

With a camera that doesn't follow the character, the stage is limited: a walk that would
leave it turns round at the edge and comes back. The turn happens while the planted foot is
under the hip, so mirroring the figure doesn't move that foot either.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

from studio.engines.sketch.camera import camera_frame
from studio.engines.sketch.poses import Pose, PosePlan, sample_pose
from studio.engines.sketch.skeleton import HIP_SPREAD, LEG_LO, LEG_UP, build_skeleton
from studio.engines.sketch.vocabulary import CameraMode

GAIT_ANIMS = frozenset({"walk", "run", "sneak", "carry"})
"""Anims that step on the ground; their travel comes from the stepping."""
SUBSTEPS = 16
"""Integration steps per frame interval."""
STAGE_MARGIN = 0.02
"""The least distance (frame widths) inside the stage limit at which a walker looks for a moment to turn."""
TURN_SECONDS = 0.3
"""How long a walker stands turning round at the stage's edge (the step pauses meanwhile)."""


def is_gait(anim: str) -> bool:
    return anim in GAIT_ANIMS


FEET_TOGETHER = math.degrees(math.asin(HIP_SPREAD / (LEG_UP + LEG_LO)))
"""Leg angle that puts an ankle right under the middle of the hip."""
FRONT = {"x": 0.0, "y": 0.0, "lean": 0.0, "head_tilt": 0.0, "head_yaw": 0.0, "arm_b": -12.0, "elbow_b": 8.0,
         "arm_f": 12.0, "elbow_f": 8.0, "leg_b": FEET_TOGETHER, "knee_b": 0.0, "leg_f": -FEET_TOGETHER,
         "knee_f": 0.0}
"""Halfway through a turn the walker stands facing the viewer: face to the front, arms at its
sides, both feet under the middle of the hip. That stance is its own mirror image, so the
figure can change the way it faces there without a jump."""


def turning_pose(pose: Pose, weight: float) -> Pose:
    """``pose`` turned ``weight`` (0..1) of the way towards :data:`FRONT`."""
    if weight <= 0.0:
        return pose
    w = min(1.0, weight)
    return replace(pose, **{k: getattr(pose, k) + (v - getattr(pose, k)) * w for k, v in FRONT.items()})


def ankles_on_screen(pose: Pose, extra_yaw: float = 0.0) -> tuple[tuple[float, float], tuple[float, float]]:
    """The (back, front) ankles relative to the hip as the figure's pen draws them, in figure
    units: x towards where the figure faces (``pose.x`` included), y up.

    The same transforms as :class:`~studio.engines.sketch.skeleton.Pen`: the body yaw (an
    orbiting camera adds to it) squeezes x, squash scales y, ``rot`` tips about the hip.
    """
    sk = build_skeleton(pose)
    yaw = math.cos(math.radians(pose.yaw + extra_yaw))
    xs = yaw if abs(yaw) > 0.45 else math.copysign(0.45, yaw)
    r = math.radians(pose.rot)
    cr, sr = math.cos(r), math.sin(r)
    out = []
    for ax, ay in (sk.ankle_b, sk.ankle_f):
        x, y = ax * xs, ay * pose.squash
        out.append((pose.x + x * cr + y * sr, -x * sr + y * cr))
    return out[0], out[1]


def planted(before: Pose, after: Pose, extra_yaw: float = 0.0, extra_yaw_after: float | None = None
            ) -> tuple[float, float]:
    """(x before, x after) of the foot on the ground between two close poses, in figure units.

    In a step the foot on the ground is the one moving backwards under the body; the other
    one swings forward. When both or neither move back (blending out of another pose), the
    lower one is on the ground.
    """
    b0, f0 = ankles_on_screen(before, extra_yaw)
    b1, f1 = ankles_on_screen(after, extra_yaw if extra_yaw_after is None else extra_yaw_after)
    back_moves, front_moves = b1[0] < b0[0], f1[0] < f0[0]
    if back_moves != front_moves:
        return (b0[0], b1[0]) if back_moves else (f0[0], f1[0])
    return (b0[0], b1[0]) if b0[1] < f0[1] else (f0[0], f1[0])


@dataclass(frozen=True, slots=True)
class WalkPath:
    """The body's offset from its start (frame widths) and its facing, sampled over the clip."""

    times: tuple[float, ...]
    offsets: tuple[float, ...]
    facings: tuple[int, ...]
    clocks: tuple[float, ...] = ()
    """The stepping's own clip fraction per sample: it stands still while the walker turns
    round (empty: the same as the clip's)."""
    turns_at: tuple[float, ...] = ()
    """How far (0..1) the walker is turned towards the viewer per sample: 1 halfway through a
    turn round, 0 walking (empty: never)."""

    def _at(self, values: tuple[float, ...], t: float) -> float:
        n = len(self.times) - 1
        if n <= 0:
            return values[0]
        pos = min(max(t, 0.0), 1.0) * n
        i = min(int(pos), n - 1)
        w = pos - i
        return values[i] + (values[i + 1] - values[i]) * w

    def offset(self, t: float) -> float:
        """The offset at clip fraction ``t`` (linear between samples)."""
        return self._at(self.offsets, t)

    def clock(self, t: float) -> float:
        """Where the stepping is at clip fraction ``t`` (sample the pose plan there)."""
        return self._at(self.clocks, t) if self.clocks else min(max(t, 0.0), 1.0)

    def turn(self, t: float) -> float:
        """How far the walker is turned towards the viewer at clip fraction ``t`` (0 while walking)."""
        return self._at(self.turns_at, t) if self.turns_at else 0.0

    def facing(self, t: float) -> int:
        n = len(self.times) - 1
        return self.facings[min(n, max(0, round(min(max(t, 0.0), 1.0) * n)))]

    @property
    def end(self) -> float:
        return self.offsets[-1]

    @property
    def turns(self) -> bool:
        return len(set(self.facings)) > 1

    def extent(self, start_x: float) -> tuple[float, float]:
        return start_x + min(self.offsets), start_x + max(self.offsets)


Samples = tuple[float, ...]


@lru_cache(maxsize=16)
def _poses(plan: PosePlan, frames: int) -> tuple[Pose, ...]:
    steps = max(1, (frames - 1) * SUBSTEPS)
    return tuple(sample_pose(plan, i / steps) for i in range(steps + 1))


@lru_cache(maxsize=64)
def _steps(plan: PosePlan, frames: int, unit: float, camera_yaw: Samples) -> tuple[tuple[float, ...], tuple[bool, ...]]:
    """Per integration step: how far the body moves forward (frame widths; the planted foot
    stays where it is) and whether the planted foot passes under the hip."""
    steps = max(1, (frames - 1) * SUBSTEPS)
    poses = _poses(plan, frames)
    moves: list[float] = []
    under: list[bool] = []
    for i in range(steps):
        yaw0, yaw1 = (camera_yaw[i], camera_yaw[i + 1]) if camera_yaw else (0.0, 0.0)
        x0, x1 = planted(poses[i], poses[i + 1], yaw0, yaw1)
        moves.append(-(x1 - x0) * unit)
        under.append(x0 >= 0.0 > x1)
    return tuple(moves), tuple(under)


@lru_cache(maxsize=64)
def walk_path(plan: PosePlan, frames: int, facing: int, start_x: float, unit: float, limit: float,
              camera_x: Samples = (), camera_yaw: Samples = ()) -> WalkPath:
    """The path of a stepping figure over a clip of ``frames`` frames.

    ``unit`` is a figure unit in frame widths. ``limit`` > 0 bounds the figure's distance from
    the camera's centre (frame widths; the camera at each sample is ``camera_x``, empty for a
    camera that stays); 0 leaves it free (a following camera). ``camera_yaw`` is the body yaw
    an orbiting camera adds at each sample (empty: none). Both are given per sample, at
    ``SUBSTEPS`` samples per frame interval.
    """
    steps = max(1, (frames - 1) * SUBSTEPS)
    times = tuple(i / steps for i in range(steps + 1))
    moves, under = _steps(plan, frames, unit, camera_yaw)
    poses = _poses(plan, frames)
    # A walker starts looking for a moment to turn one stride before the edge, so it turns
    # round at the latest at the edge.
    stride, since = 0.0, 0.0
    for move, passes in zip(moves, under, strict=True):
        since += abs(move)
        if passes:
            stride, since = max(stride, since), 0.0
    look_ahead = max(STAGE_MARGIN, stride if stride > 0 else since)
    # A turn takes TURN_SECONDS: the stepping pauses on the planted foot under the hip while
    # the body turns to the viewer, faces the other way at the middle and turns on.
    pause = max(2, round(TURN_SECONDS / max(plan.duration, 1e-6) * steps)) if limit > 0 else 0
    offsets, facings, clocks, fronts = [0.0], [facing], [0.0], [0.0]
    offset, heading, turning, step, turned, turn_from = 0.0, facing, False, 0, -1, facing
    for i in range(steps):
        if 0 <= turned < pause:  # standing, turning round
            turned += 1
            if turned * 2 >= pause and heading * turn_from > 0:
                heading = -heading
            fronts.append(min(1.0, 1.6 * math.sin(math.pi * turned / pause)))  # full front around the middle
        else:
            move = moves[step]
            if camera_yaw and step != i:  # after a turn the stepping runs behind the orbiting camera
                x0, x1 = planted(poses[step], poses[step + 1], camera_yaw[i], camera_yaw[i + 1])
                move = -(x1 - x0) * unit
            offset += heading * move
            camera = camera_x[i + 1] if camera_x else 0.0
            if limit > 0 and heading * (start_x + offset - camera) > limit - look_ahead:
                turning = True
            if turning and under[step]:  # the planted foot is under the hip: turn round there
                turning, turned, turn_from = False, 0, heading
            step += 1
            fronts.append(0.0)
        offsets.append(offset)
        facings.append(heading)
        clocks.append(times[step])
    return WalkPath(times, tuple(offsets), tuple(facings), tuple(clocks), tuple(fronts))


def path_for(plan: PosePlan, frames: int, camera: CameraMode, facing: int, start_x: float, unit: float,
             limit: float) -> WalkPath:
    """:func:`walk_path` for a clip filmed with ``camera`` (a pan moves the stage along, an
    orbit turns the figure); a following camera leaves the stage free whatever ``limit`` says."""
    steps = max(1, (frames - 1) * SUBSTEPS)
    cams: tuple[float, ...] = ()
    yaws: tuple[float, ...] = ()
    if camera == CameraMode.PAN:
        cams = tuple(camera_frame(camera, i / steps, 0.0, facing).cam_x for i in range(steps + 1))
    if camera == CameraMode.ORBIT:
        yaws = tuple(camera_frame(camera, i / steps, 0.0, facing).yaw for i in range(steps + 1))
    if camera == CameraMode.FOLLOW:
        limit = 0.0
    return walk_path(plan, frames, facing, start_x, unit, limit, cams, yaws)
