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
from dataclasses import dataclass
from functools import lru_cache

from studio.engines.sketch.camera import camera_frame
from studio.engines.sketch.poses import Pose, PosePlan, sample_pose
from studio.engines.sketch.skeleton import build_skeleton
from studio.engines.sketch.vocabulary import CameraMode

GAIT_ANIMS = frozenset({"walk", "run", "sneak", "carry"})
"""Anims that step on the ground; their travel comes from the stepping."""
SUBSTEPS = 16
"""Integration steps per frame interval."""
STAGE_MARGIN = 0.02
"""The least distance (frame widths) inside the stage limit at which a walker looks for a moment to turn."""


def is_gait(anim: str) -> bool:
    return anim in GAIT_ANIMS


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

    def offset(self, t: float) -> float:
        """The offset at clip fraction ``t`` (linear between samples)."""
        n = len(self.times) - 1
        if n <= 0:
            return self.offsets[0]
        pos = min(max(t, 0.0), 1.0) * n
        i = min(int(pos), n - 1)
        w = pos - i
        return self.offsets[i] + (self.offsets[i + 1] - self.offsets[i]) * w

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


@lru_cache(maxsize=64)
def _steps(plan: PosePlan, frames: int, unit: float, camera_yaw: Samples) -> tuple[tuple[float, ...], tuple[bool, ...]]:
    """Per integration step: how far the body moves forward (frame widths; the planted foot
    stays where it is) and whether the planted foot passes under the hip."""
    steps = max(1, (frames - 1) * SUBSTEPS)
    poses = [sample_pose(plan, i / steps) for i in range(steps + 1)]
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
    # A walker starts looking for a moment to turn one stride before the edge, so it turns
    # round at the latest at the edge.
    stride, since = 0.0, 0.0
    for move, passes in zip(moves, under, strict=True):
        since += abs(move)
        if passes:
            stride, since = max(stride, since), 0.0
    look_ahead = max(STAGE_MARGIN, stride if stride > 0 else since)
    offsets, facings = [0.0], [facing]
    offset, heading, turning = 0.0, facing, False
    for i in range(steps):
        offset += heading * moves[i]
        camera = camera_x[i + 1] if camera_x else 0.0
        if limit > 0 and heading * (start_x + offset - camera) > limit - look_ahead:
            turning = True
        if turning and under[i]:  # the planted foot is under the hip: turn round there
            heading, turning = -heading, False
        offsets.append(offset)
        facings.append(heading)
    return WalkPath(times, tuple(offsets), tuple(facings))


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
