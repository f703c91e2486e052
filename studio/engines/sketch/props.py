"""Props a motion uses: brooms, books, cups, food, balls, pans, boxes, railings, ladders, blankets.

Props held in a hand follow the hand; props that stand on the ground (a railing, a
ladder, a held broom's bristles) are placed in screen space from the ground line, so they
stay upright whatever the body does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from studio.engines.sketch.palette import Palette, mix, shade
from studio.engines.sketch.poses import Pose
from studio.engines.sketch.skeleton import HIP_HEIGHT, Pen, Point, Skeleton, add
from studio.engines.sketch.vocabulary import Prop

WOOD = (150, 100, 60)
STRAW = (225, 190, 110)
BROOM_PROPS = frozenset({Prop.BROOM_RIDE, Prop.BROOM_HOLD, Prop.BROOM_SWEEP})


@dataclass(frozen=True, slots=True)
class PropContext:
    pen: Pen
    sk: Skeleton
    pose: Pose
    pal: Palette
    phase: float
    seconds: float
    anim: str
    room: float = math.inf
    """How far above the hip (figure units) the shot shows: a bubble above the head stays below it."""
    room_left: float = math.inf
    room_right: float = math.inf
    """How far left and right of the hip (figure units, on screen) the shot shows."""

    @property
    def ceiling(self) -> float:
        """Pixel row of the top of the shot in the sprite (anything drawn above it is cut off)."""
        return self.pen.ay - self.room * self.pen.s

    @property
    def sides(self) -> tuple[float, float]:
        """Pixel columns of the shot's left and right edges in the sprite."""
        return self.pen.ax - self.room_left * self.pen.s, self.pen.ax + self.room_right * self.pen.s

    @property
    def ground_y(self) -> float:
        """Pixel row of the ground under the hip."""
        return self.pen.ay + (HIP_HEIGHT + self.pose.y) * self.pen.s

    def hand_px(self, front: bool = True) -> Point:
        return self.pen.px(self.sk.hand_f if front else self.sk.hand_b)


def _stick(pen: Pen, a: Point, b: Point, pal: Palette, w: float = 0.028) -> None:
    o = pen.outline_w
    wpx = max(1, round(w * pen.s))
    pen.draw.line([a, b], fill=pal.tinted(shade(WOOD, 0.5)), width=wpx + 2 * o)
    pen.draw.line([a, b], fill=pal.tinted(WOOD), width=wpx)


def _bristles(pen: Pen, tip: Point, direction: Point, pal: Palette) -> None:
    """Straw fan starting at ``tip`` (pixels) and spreading along ``direction`` (unit, pixels)."""
    dx, dy = direction
    nx, ny = -dy, dx
    s = pen.s
    length, spread = 0.26 * s, 0.085 * s
    pts = [(tip[0] + nx * spread * 0.35, tip[1] + ny * spread * 0.35),
           (tip[0] + dx * length + nx * spread, tip[1] + dy * length + ny * spread),
           (tip[0] + dx * length * 1.08, tip[1] + dy * length * 1.08),
           (tip[0] + dx * length - nx * spread, tip[1] + dy * length - ny * spread),
           (tip[0] - nx * spread * 0.35, tip[1] - ny * spread * 0.35)]
    pen.poly(pts, pal.tinted(STRAW), pal.tinted(shade(STRAW, 0.55)), screen=True)
    band = [(tip[0] + dx * length * 0.2 + nx * spread * 0.5, tip[1] + dy * length * 0.2 + ny * spread * 0.5),
            (tip[0] + dx * length * 0.2 - nx * spread * 0.5, tip[1] + dy * length * 0.2 - ny * spread * 0.5)]
    pen.line(band, pal.accent, 0.02, screen=True)


def _unit(a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    return dx / n, dy / n


def back_broom(ctx: PropContext) -> None:
    """A broom carried on the back (the 'broom' accessory)."""
    pen, sk = ctx.pen, ctx.sk
    a = pen.px(add(sk.shoulder_base, (-0.18, 0.22)))
    b = pen.px(add(sk.hip, (0.12, -0.1)))
    _stick(pen, a, b, ctx.pal, 0.024)
    _bristles(pen, b, _unit(a, b), ctx.pal)


def draw_behind(prop: Prop, ctx: PropContext) -> None:
    pen, pal = ctx.pen, ctx.pal
    if prop == Prop.BROOM_RIDE:
        a, b = pen.px((0.55, -0.03)), pen.px((-0.5, -0.06))
        _stick(pen, a, b, pal)
        _bristles(pen, b, _unit(a, b), pal)
    elif prop == Prop.RAILING:
        iron = pal.tinted((90, 70, 60))
        hip = pen.px((0.0, 0.0))
        bar_y = hip[1] + 0.05 * pen.s
        x0, x1 = hip[0] - 1.25 * pen.s, hip[0] + 1.25 * pen.s
        ground = ctx.ground_y + 0.12 * pen.s
        for i in range(-4, 5):
            x = hip[0] + i * 0.3 * pen.s
            pen.draw.line([(x, bar_y), (x, ground)], fill=iron, width=max(1, round(0.03 * pen.s)))
        pen.draw.line([(x0, bar_y + 0.16 * pen.s), (x1, bar_y + 0.16 * pen.s)], fill=iron,
                      width=max(1, round(0.025 * pen.s)))
        pen.draw.line([(x0, bar_y), (x1, bar_y)], fill=shade(iron, 0.7), width=max(2, round(0.06 * pen.s)))
    elif prop == Prop.LADDER:
        wood = pal.tinted(WOOD)
        hip = pen.px((0.0, 0.0))
        ground = ctx.ground_y
        top = hip[1] - 1.15 * pen.s
        for side in (-0.16, 0.16):
            x = hip[0] + side * pen.s
            pen.draw.line([(x, ground), (x, top)], fill=wood, width=max(1, round(0.035 * pen.s)))
        step = 0.13 * pen.s
        y = ground - step * 0.5
        while y > top:
            pen.draw.line([(hip[0] - 0.16 * pen.s, y), (hip[0] + 0.16 * pen.s, y)], fill=shade(wood, 0.85),
                          width=max(1, round(0.025 * pen.s)))
            y -= step
    elif prop == Prop.BLANKET:
        pen.ellipse((-0.2, 0.4), 0.06, 0.22, pal.tinted((245, 245, 250)), pal.tinted((170, 170, 190)))


def draw_between(prop: Prop, ctx: PropContext) -> None:
    """Props between the torso and the head/front arm (held in front of the body)."""
    pen, pal, sk = ctx.pen, ctx.pal, ctx.sk
    if prop == Prop.BOOK:
        c = add(sk.hand_f, (sk.hand_b[0] - sk.hand_f[0], sk.hand_b[1] - sk.hand_f[1]), 0.5)
        c = add(c, (0.02, 0.05))
        pen.poly([add(c, (-0.09, -0.07)), add(c, (0.09, -0.07)), add(c, (0.09, 0.07)), add(c, (-0.09, 0.07))],
                 pal.tinted((120, 60, 50)), pal.tinted((70, 30, 25)))
        pen.poly([add(c, (-0.075, -0.06)), add(c, (0.075, -0.06)), add(c, (0.075, 0.055)), add(c, (-0.075, 0.055))],
                 pal.tinted((250, 245, 230)))
        pen.line([add(c, (0.0, -0.06)), add(c, (0.0, 0.055))], pal.tinted((180, 170, 150)), 0.008)
    elif prop == Prop.BOX:
        c = ((sk.hand_f[0] + sk.hand_b[0]) / 2 + 0.02, (sk.hand_f[1] + sk.hand_b[1]) / 2 + 0.03)
        box = pal.tinted((200, 150, 95))
        pen.poly([add(c, (-0.12, -0.09)), add(c, (0.12, -0.09)), add(c, (0.12, 0.09)), add(c, (-0.12, 0.09))], box,
                 pal.tinted((120, 80, 45)))
        pen.line([add(c, (0.0, -0.09)), add(c, (0.0, 0.09))], pal.tinted((230, 210, 160)), 0.02)
    elif prop == Prop.PEN:
        c = add(sk.hand_b, (0.03, 0.02))
        pen.poly([add(c, (-0.06, -0.07)), add(c, (0.06, -0.07)), add(c, (0.06, 0.06)), add(c, (-0.06, 0.06))],
                 pal.tinted((252, 252, 245)), pal.tinted((150, 150, 160)))
        for k in range(3):
            y = 0.03 - k * 0.03
            pen.line([add(c, (-0.04, y)), add(c, (0.04, y))], pal.tinted((150, 170, 210)), 0.006)


def _ball_position(ctx: PropContext) -> Point | None:
    """Ball pixel position for play/throw/catch (None when it left the sprite)."""
    pen, sk = ctx.pen, ctx.sk
    cyc = ctx.phase % 1.0
    hand = pen.px(sk.hand_f)
    if ctx.anim == "play":
        ground = ctx.ground_y - 0.05 * pen.s
        x = pen.px(add(sk.hand_f, (0.04, 0.0)))[0]
        return x, ground + (hand[1] + 0.05 * pen.s - ground) * (1.0 - math.sin(math.pi * cyc))
    if ctx.anim == "throw":
        if cyc < 0.3:
            return hand
        k = (cyc - 0.3) / 0.7
        return hand[0] + pen.f * k * 1.6 * pen.s, hand[1] - (0.5 * k - 0.7 * k * k) * pen.s
    if ctx.anim == "catch":
        mid = pen.px(((sk.hand_f[0] + sk.hand_b[0]) / 2 + 0.03, (sk.hand_f[1] + sk.hand_b[1]) / 2 + 0.02))
        if cyc >= 0.5:
            return mid
        k = cyc / 0.5
        return mid[0] + pen.f * (1 - k) * 1.2 * pen.s, mid[1] - math.sin(math.pi * k) * 0.35 * pen.s
    return hand


def draw_front(prop: Prop, ctx: PropContext) -> None:
    pen, pal, sk = ctx.pen, ctx.pal, ctx.sk
    if prop == Prop.BROOM_HOLD:
        hand = pen.px(sk.hand_f)
        top = (hand[0] + pen.f * 0.02 * pen.s, hand[1] - 0.3 * pen.s)
        bottom = (hand[0] - pen.f * 0.02 * pen.s, ctx.ground_y - 0.24 * pen.s)
        _stick(pen, top, bottom, pal)
        _bristles(pen, bottom, _unit(top, bottom), pal)
        pen.dot(hand, 0.034, pal.skin, screen=True)
    elif prop == Prop.BROOM_SWEEP:
        hand = pen.px(sk.hand_f)
        foot = (hand[0] + pen.f * 0.3 * pen.s, ctx.ground_y - 0.12 * pen.s)
        d = _unit(hand, foot)
        top = (hand[0] - d[0] * 0.3 * pen.s, hand[1] - d[1] * 0.3 * pen.s)
        _stick(pen, top, foot, pal)
        _bristles(pen, foot, d, pal)
        pen.dot(hand, 0.034, pal.skin, screen=True)
    elif prop == Prop.CUP:
        c = add(sk.hand_f, (0.025, 0.03))
        pen.poly([add(c, (-0.04, -0.05)), add(c, (0.04, -0.05)), add(c, (0.045, 0.05)), add(c, (-0.045, 0.05))],
                 pal.tinted((240, 240, 250)), pal.tinted((120, 120, 150)))
        pen.line([add(c, (-0.04, 0.025)), add(c, (0.04, 0.025))], pal.accent, 0.015)
    elif prop == Prop.FOOD:
        c = add(sk.hand_f, (0.03, 0.03))
        pen.poly([add(c, (0.0, 0.07)), add(c, (-0.06, -0.04)), add(c, (0.06, -0.04))], pal.tinted((250, 250, 245)),
                 pal.tinted((160, 160, 160)))
        pen.poly([add(c, (-0.035, -0.04)), add(c, (0.035, -0.04)), add(c, (0.03, 0.0)), add(c, (-0.03, 0.0))],
                 pal.tinted((40, 60, 45)))
    elif prop == Prop.PEN:
        c = sk.hand_f
        pen.line([add(c, (-0.02, -0.03)), add(c, (0.05, 0.07))], pal.tinted((60, 90, 170)), 0.016)
    elif prop == Prop.PAN:
        c = add(sk.hand_f, (0.13, 0.0))
        pen.line([sk.hand_f, add(c, (-0.07, 0.0))], pal.tinted((60, 50, 50)), 0.02)
        pen.ellipse(c, 0.1, 0.03, pal.tinted((70, 70, 80)), pal.tinted((30, 30, 35)))
        pen.ellipse(add(c, (0.0, 0.02)), 0.05, 0.018, pal.tinted((250, 230, 120)))
    elif prop == Prop.BALL:
        pos = _ball_position(ctx)
        if pos is not None:
            r = 0.055 * pen.s
            x, y = pos
            pen.draw.ellipse([x - r, y - r, x + r, y + r], fill=pal.tinted((235, 70, 70)),
                             outline=pal.tinted((120, 30, 30)), width=pen.outline_w)
            pen.draw.line([(x - r, y), (x + r, y)], fill=pal.tinted((250, 250, 250)), width=max(1, round(r * 0.35)))
    elif prop == Prop.BLANKET:
        sk_hip, neck = sk.hip, sk.neck
        a = add(neck, (sk_hip[0] - neck[0], sk_hip[1] - neck[1]), 0.15)
        feet = add(sk_hip, (0.05, -0.34))
        cover = [add(a, (-0.08, 0.0)), add(a, (0.12, 0.0)), add(feet, (0.1, -0.0)), add(feet, (0.06, -0.04)),
                 add(feet, (-0.08, -0.03))]
        quilt = pal.tinted(mix(pal.accent, (255, 255, 255), 0.45))
        pen.poly(cover, quilt, pal.accent_line)
        pen.capsule(add(a, (-0.08, -0.015)), add(a, (0.12, -0.015)), 0.035, pal.white, pal.accent_line)
