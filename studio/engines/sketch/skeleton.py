"""Joint positions of the chibi figure, and the pen that maps figure space to sprite pixels.

Figure space: x points the way the character faces, y points up, the hip is the origin
and the standing figure is about 0.95 units tall (a chibi: the head is 0.4 of it). The
pen applies the whole-figure transforms (body yaw as a horizontal squeeze, squash, the
``rot`` tip about the hip, facing left or right) and the sprite's scale, so body parts
are described once, in figure space, and stay correct when the figure lies down or spins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import ImageDraw

from studio.engines.sketch.poses import Pose

Point = tuple[float, float]
RGBA = tuple[int, int, int, int]

LEG_UP = 0.14
LEG_LO = 0.13
HIP_HEIGHT = 0.30
"""Height of the hip above the soles when standing straight."""
TORSO = 0.21
SHOULDER = 0.175
SHOULDER_SPREAD = 0.075
HIP_SPREAD = 0.045
ARM_UP = 0.095
ARM_LO = 0.09
NECK_TO_HEAD = 0.17
HEAD_RX = 0.205
HEAD_RY = 0.19


def down_dir(angle_deg: float) -> Point:
    """Unit vector for a limb angle measured from straight down, positive forward."""
    a = math.radians(angle_deg)
    return math.sin(a), -math.cos(a)


def rotate(point: Point, angle_deg: float) -> Point:
    """Rotate a figure-space vector forward (clockwise when facing right) by ``angle_deg``."""
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    x, y = point
    return x * c + y * s, -x * s + y * c


def add(a: Point, b: Point, k: float = 1.0) -> Point:
    return a[0] + b[0] * k, a[1] + b[1] * k


@dataclass(frozen=True, slots=True)
class Skeleton:
    """Joint positions in figure space for one pose."""

    hip: Point
    neck: Point
    shoulder_base: Point
    head: Point
    head_angle: float
    torso_angle: float
    shoulder_b: Point
    shoulder_f: Point
    elbow_b: Point
    elbow_f: Point
    hand_b: Point
    hand_f: Point
    hip_b: Point
    hip_f: Point
    knee_b: Point
    knee_f: Point
    ankle_b: Point
    ankle_f: Point
    foot_angle_b: float
    foot_angle_f: float

    def up(self) -> Point:
        return rotate((0.0, 1.0), self.torso_angle)

    def forward(self) -> Point:
        return rotate((1.0, 0.0), self.torso_angle)


def build_skeleton(pose: Pose) -> Skeleton:
    hip = (0.0, 0.0)
    up = rotate((0.0, 1.0), pose.lean)
    fwd = rotate((1.0, 0.0), pose.lean)
    neck = add(hip, up, TORSO)
    base = add(hip, up, SHOULDER)
    head_angle = pose.lean + pose.head_tilt
    head = add(neck, rotate((0.0, 1.0), head_angle), NECK_TO_HEAD)
    sh_b = add(base, fwd, -SHOULDER_SPREAD)
    sh_f = add(base, fwd, SHOULDER_SPREAD)
    el_b = add(sh_b, down_dir(pose.arm_b), ARM_UP)
    el_f = add(sh_f, down_dir(pose.arm_f), ARM_UP)
    ha_b = add(el_b, down_dir(pose.arm_b + pose.elbow_b), ARM_LO)
    ha_f = add(el_f, down_dir(pose.arm_f + pose.elbow_f), ARM_LO)
    hip_b = add(hip, (1.0, 0.0), -HIP_SPREAD)
    hip_f = add(hip, (1.0, 0.0), HIP_SPREAD)
    kn_b = add(hip_b, down_dir(pose.leg_b), LEG_UP)
    kn_f = add(hip_f, down_dir(pose.leg_f), LEG_UP)
    an_b = add(kn_b, down_dir(pose.leg_b + pose.knee_b), LEG_LO)
    an_f = add(kn_f, down_dir(pose.leg_f + pose.knee_f), LEG_LO)
    return Skeleton(hip, neck, base, head, head_angle, pose.lean, sh_b, sh_f, el_b, el_f, ha_b, ha_f,
                    hip_b, hip_f, kn_b, kn_f, an_b, an_f, pose.leg_b + pose.knee_b, pose.leg_f + pose.knee_f)


class Pen:
    """Draws figure-space shapes onto a sprite; colours are written as given (no blending)."""

    def __init__(self, draw: ImageDraw.ImageDraw, anchor: Point, scale: float, facing: int, pose: Pose) -> None:
        self.draw = draw
        self.ax, self.ay = anchor
        self.s = scale
        self.f = 1 if facing >= 0 else -1
        yaw = math.cos(math.radians(pose.yaw))
        self.xs = yaw if abs(yaw) > 0.45 else math.copysign(0.45, yaw)
        self.sq = pose.squash
        r = math.radians(pose.rot)
        self.cr, self.sr = math.cos(r), math.sin(r)
        self.outline_w = max(1, round(0.011 * scale))

    @property
    def back_view(self) -> bool:
        return self.xs < -0.15

    def px(self, p: Point) -> Point:
        x = p[0] * self.xs
        y = p[1] * self.sq
        xr = x * self.cr + y * self.sr
        yr = -x * self.sr + y * self.cr
        return self.ax + self.f * xr * self.s, self.ay - yr * self.s

    def px_many(self, points: list[Point]) -> list[Point]:
        """:meth:`px` for many points (inlined: this is the renderer's innermost loop)."""
        xs, sq, cr, sr, f, s, ax, ay = self.xs, self.sq, self.cr, self.sr, self.f, self.s, self.ax, self.ay
        out = []
        for x0, y0 in points:
            x = x0 * xs
            y = y0 * sq
            out.append((ax + f * (x * cr + y * sr) * s, ay - (-x * sr + y * cr) * s))
        return out

    def screen(self, p: Point, dx: float = 0.0, dy: float = 0.0) -> Point:
        """Pixel position of ``p`` shifted by (dx, dy) screen units (y up, x towards facing)."""
        x, y = self.px(p)
        return x + self.f * dx * self.s, y - dy * self.s

    def width(self, w: float) -> int:
        return max(1, round(w * self.s * (0.5 + 0.5 * abs(self.xs))))

    def poly(self, points: list[Point], fill: RGBA | tuple[int, int, int], outline: tuple[int, ...] | None = None,
             screen: bool = False) -> None:
        pts = points if screen else self.px_many(points)
        if len(pts) < 3:
            return
        self.draw.polygon(pts, fill=fill)
        if outline is not None:
            self.draw.line([*pts, pts[0]], fill=outline, width=self.outline_w, joint="curve")

    def capsule(self, a: Point, b: Point, w: float, fill: tuple[int, ...], outline: tuple[int, ...] | None = None
                ) -> None:
        pa, pb = self.px(a), self.px(b)
        width = self.width(w)
        if outline is not None:
            o = self.outline_w
            self._cap(pa, pb, width + 2 * o, outline)
        self._cap(pa, pb, width, fill)

    def _cap(self, pa: Point, pb: Point, width: int, fill: tuple[int, ...]) -> None:
        self.draw.line([pa, pb], fill=fill, width=width)
        r = width / 2.0
        for x, y in (pa, pb):
            self.draw.ellipse([x - r, y - r, x + r, y + r], fill=fill)

    def ellipse(self, center: Point, rx: float, ry: float, fill: tuple[int, ...] | None,
                outline: tuple[int, ...] | None = None, angle: float = 0.0) -> None:
        px = self.px_many(_ellipse_points(center, rx, ry, angle))
        if fill is not None:
            self.draw.polygon(px, fill=fill)
        if outline is not None:
            self.draw.line([*px, px[0]], fill=outline, width=self.outline_w, joint="curve")

    def line(self, points: list[Point], fill: tuple[int, ...], w: float, screen: bool = False) -> None:
        pts = points if screen else self.px_many(points)
        self.draw.line(pts, fill=fill, width=max(1, round(w * self.s)), joint="curve")

    def dot(self, center: Point, r: float, fill: tuple[int, ...], screen: bool = False) -> None:
        x, y = center if screen else self.px(center)
        rp = r * self.s
        self.draw.ellipse([x - rp, y - rp, x + rp, y + rp], fill=fill)


_UNIT_CIRCLE: tuple[tuple[float, float], ...] = tuple(
    (math.cos(2 * math.pi * i / 18), math.sin(2 * math.pi * i / 18)) for i in range(18))


def _ellipse_points(center: Point, rx: float, ry: float, angle: float) -> list[Point]:
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    cx, cy = center
    return [(cx + rx * c * ca + ry * s * sa, cy - rx * c * sa + ry * s * ca) for c, s in _UNIT_CIRCLE]


class HeadFrame:
    """Maps head-local points (origin at the head centre, x forward, y up) to figure space."""

    def __init__(self, skeleton: Skeleton) -> None:
        self.center = skeleton.head
        self.angle = skeleton.head_angle
        a = math.radians(skeleton.head_angle)
        self.c, self.s = math.cos(a), math.sin(a)

    def __call__(self, x: float, y: float) -> Point:
        return self.center[0] + x * self.c + y * self.s, self.center[1] - x * self.s + y * self.c

    def points(self, pts: list[Point]) -> list[Point]:
        cx, cy, c, s = self.center[0], self.center[1], self.c, self.s
        return [(cx + x * c + y * s, cy - x * s + y * c) for x, y in pts]


def head_top(sk: Skeleton) -> Point:
    return add(sk.head, rotate((0.0, 0.22), sk.head_angle))
