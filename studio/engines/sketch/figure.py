"""The chibi figure: body, outfit, head, face and hair, drawn on a small premultiplied-RGBA sprite.

The sprite is drawn at ``supersample`` times its final size and reduced, which gives
smooth edges without per-pixel work. Props and effects are drawn by
:mod:`~studio.engines.sketch.props` and :mod:`~studio.engines.sketch.effects` on the same
pen, before or after the body as their depth needs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from studio.engines.sketch import effects, props
from studio.engines.sketch.look import Accessory, HairStyle, Look, OutfitStyle
from studio.engines.sketch.palette import Palette, shade
from studio.engines.sketch.poses import Pose
from studio.engines.sketch.skeleton import (
    HEAD_RX,
    HEAD_RY,
    HIP_HEIGHT,
    HeadFrame,
    Pen,
    Point,
    Skeleton,
    add,
    build_skeleton,
    rotate,
)
from studio.engines.sketch.vocabulary import Effect, Expression, Prop

SPRITE_LEFT = 1.3
SPRITE_RIGHT = 1.3
SPRITE_UP = 1.2
SPRITE_DOWN = 1.0
"""Largest sprite extent around the hip, in figure units (room for raised arms, brooms, effects)."""

BODY_BOX = (0.85, 0.85, 0.95, 0.6)
"""(behind, ahead, up, down) around the hip that the body itself needs, in figure units."""
PROP_BOX: dict[Prop, tuple[float, float, float, float]] = {
    Prop.RAILING: (1.3, 1.3, 0.95, 1.0), Prop.LADDER: (0.85, 0.85, 1.2, 1.0),
    Prop.BROOM_RIDE: (1.0, 0.9, 0.95, 0.6), Prop.BROOM_HOLD: (0.85, 0.85, 0.95, 1.0),
    Prop.BROOM_SWEEP: (0.85, 0.95, 0.95, 1.0), Prop.BALL: (1.3, 1.3, 1.2, 1.0),
}
EFFECT_BOX: dict[Effect, tuple[float, float, float, float]] = {
    Effect.ZZZ: (1.0, 1.0, 1.2, 0.6), Effect.NOTES: (0.9, 0.9, 1.2, 0.6), Effect.HEARTS: (0.85, 1.0, 1.2, 0.6),
    Effect.STARS: (0.85, 0.85, 1.1, 0.6), Effect.THOUGHT: (0.85, 1.0, 1.2, 0.6), Effect.SPEECH: (0.85, 1.1, 1.1, 0.6),
    Effect.WIND: (1.3, 0.85, 1.0, 0.8), Effect.DUST: (1.3, 0.85, 0.95, 1.0), Effect.SPLASH: (1.0, 1.0, 0.95, 0.7),
}

@dataclass(frozen=True, slots=True)
class FigureSpec:
    """Per-clip constants of a figure (everything but the pose and the time)."""

    look: Look
    palette: Palette
    prop: Prop = Prop.NONE
    effect: Effect = Effect.NONE
    expression: Expression = Expression.NEUTRAL
    anim: str = "idle"


def draw_figure(spec: FigureSpec, pose: Pose, facing: int, scale: float, phase: float, seconds: float,
                supersample: int = 2, room: tuple[float, float, float] = (math.inf, math.inf, math.inf)
                ) -> tuple[Image.Image, Point]:
    """Draw one frame of the figure. Returns the sprite (mode "RGBa", premultiplied; paste it with
    itself as the mask) and the hip's pixel position in it. ``room`` is how far left of, above
    and right of the hip (figure units, on screen) the shot shows: bubbles and symbols around
    the head keep inside it."""
    s = scale * supersample
    behind, ahead, up, down = _canvas_box(spec, pose)
    left = behind if facing >= 0 else ahead
    width, height = math.ceil((behind + ahead) * s), math.ceil((up + down) * s)
    # Premultiplied RGBA: reducing and pasting it needs no colour conversions (the hot path).
    # Opaque colours are the same in both forms; translucent ones must be premultiplied (see effects._rgba).
    img = Image.new("RGBa", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    anchor = (left * s, up * s)
    pen = Pen(draw, anchor, s, facing, pose)
    sk = build_skeleton(pose)
    pal = spec.palette
    ctx = props.PropContext(pen=pen, sk=sk, pose=pose, pal=pal, phase=phase, seconds=seconds, anim=spec.anim,
                            room_left=room[0], room=room[1], room_right=room[2])

    effects.draw_behind(spec.effect, ctx)
    props.draw_behind(spec.prop, ctx)
    if spec.look.accessory == Accessory.BROOM and spec.prop not in props.BROOM_PROPS:
        props.back_broom(ctx)
    if pen.back_view:
        _draw_body_back_view(pen, sk, spec, phase)
    else:
        _draw_hair_back(pen, sk, spec.look, pal, phase)
        _draw_arm(pen, sk.shoulder_b, sk.elbow_b, sk.hand_b, pal, far=True)
        _draw_leg(pen, sk, back=True, pal=pal, look=spec.look)
        _draw_leg(pen, sk, back=False, pal=pal, look=spec.look)
        _draw_torso(pen, sk, spec.look, pal)
        props.draw_between(spec.prop, ctx)
        _draw_head(pen, sk, spec, pose, phase)
        _draw_arm(pen, sk.shoulder_f, sk.elbow_f, sk.hand_f, pal, far=False)
    props.draw_front(spec.prop, ctx)
    effects.draw_front(spec.effect, ctx, spec.expression)
    box = img.getbbox()
    if box is None:
        return Image.new("RGBa", (1, 1), (0, 0, 0, 0)), (0.0, 0.0)
    # Crop to what was drawn (aligned to the supersample grid) before reducing: most of the canvas is empty.
    k = supersample
    left, top = box[0] // k * k, box[1] // k * k
    right, bottom = -(-box[2] // k) * k, -(-box[3] // k) * k
    img = img.crop((left, top, right, bottom))
    if k > 1:
        img = img.reduce(k)
    return img, ((anchor[0] - left) / k, (anchor[1] - top) / k)


def _canvas_box(spec: FigureSpec, pose: Pose) -> tuple[float, float, float, float]:
    """How much room the sprite needs around the hip this frame (smaller canvases draw faster)."""
    boxes = [BODY_BOX, PROP_BOX.get(spec.prop, BODY_BOX), EFFECT_BOX.get(spec.effect, BODY_BOX)]
    behind, ahead, up, down = (max(b[i] for b in boxes) for i in range(4))
    if abs(pose.rot) > 20:
        behind, ahead = max(behind, 1.05), max(ahead, 1.05)
    ground = HIP_HEIGHT + max(0.0, pose.y) + 0.1
    if spec.prop in (Prop.RAILING, Prop.LADDER, Prop.BROOM_HOLD, Prop.BROOM_SWEEP) or spec.effect == Effect.DUST:
        down = max(down, ground + 0.15)
    if spec.anim == "climb":
        down = max(down, ground + 0.15)
    return (min(behind, SPRITE_LEFT * 1.2), min(ahead, SPRITE_RIGHT * 1.2), min(up, SPRITE_UP * 1.2),
            min(down, SPRITE_DOWN * 2.0))


# Body ---------------------------------------------------------------------------------------
def _draw_arm(pen: Pen, shoulder: Point, elbow: Point, hand: Point, pal: Palette, far: bool) -> None:
    k = 0.88 if far else 1.0
    pen.capsule(elbow, hand, 0.044, shade(pal.skin, k), shade(pal.skin_line, k))
    pen.capsule(shoulder, elbow, 0.058, shade(pal.outfit, k), shade(pal.outfit_line, k))
    pen.ellipse(hand, 0.033, 0.033, shade(pal.skin, k), shade(pal.skin_line, k))


def _draw_leg(pen: Pen, sk: Skeleton, back: bool, pal: Palette, look: Look) -> None:
    k = 0.86 if back else 1.0
    hip, knee, ankle = (sk.hip_b, sk.knee_b, sk.ankle_b) if back else (sk.hip_f, sk.knee_f, sk.ankle_f)
    foot_angle = sk.foot_angle_b if back else sk.foot_angle_f
    pen.capsule(hip, knee, 0.058, shade(pal.skin, k), shade(pal.skin_line, k))
    pen.capsule(knee, ankle, 0.052, shade(pal.skin, k), shade(pal.skin_line, k))
    if look.outfit_style == OutfitStyle.SHIRT:
        mid = add(hip, (knee[0] - hip[0], knee[1] - hip[1]), 0.75)
        pen.capsule(hip, mid, 0.078, shade(pal.accent, k), shade(pal.accent_line, k))
    else:
        sock_top = add(ankle, (knee[0] - ankle[0], knee[1] - ankle[1]), 0.45)
        pen.capsule(sock_top, ankle, 0.054, shade(pal.white, k * 0.96), shade(pal.skin_line, k))
    toe = add(ankle, rotate((1.0, 0.0), foot_angle), 0.03)
    pen.ellipse(add(toe, rotate((0.0, -1.0), foot_angle), 0.012), 0.052, 0.03, shade(pal.shoe, k),
                shade(pal.ink, k), angle=foot_angle)


def _draw_torso(pen: Pen, sk: Skeleton, look: Look, pal: Palette) -> None:
    up, fwd = sk.up(), sk.forward()
    hip, neck = sk.hip, sk.neck

    def at(u: float, f: float) -> Point:
        return add(add(hip, up, u), fwd, f)

    pen.capsule(at(0.17, 0.0), neck, 0.06, pal.skin, pal.skin_line)
    if look.outfit_style == OutfitStyle.DRESS:
        body = [at(0.19, -0.08), at(0.19, 0.08), at(0.05, 0.085), at(-0.1, 0.165), at(-0.125, 0.06),
                at(-0.115, -0.03), at(-0.125, -0.12), at(-0.1, -0.165), at(0.05, -0.085)]
        pen.poly(body, pal.outfit, pal.outfit_line)
        pen.line([at(-0.1, 0.16), at(-0.115, 0.06), at(-0.1, -0.03), at(-0.115, -0.12), at(-0.095, -0.16)],
                 shade(pal.outfit, 1.25), 0.012)
        pen.poly([at(0.2, -0.045), at(0.2, 0.05), at(0.145, 0.0)], pal.white, pal.outfit_line)
        pen.ellipse(at(0.155, 0.0), 0.022, 0.018, pal.accent, pal.accent_line)
        pen.capsule(at(0.03, -0.083), at(0.03, 0.083), 0.02, pal.accent)
    else:
        body = [at(0.19, -0.085), at(0.19, 0.085), at(0.03, 0.09), at(-0.035, 0.095), at(-0.035, -0.095),
                at(0.03, -0.09)]
        pen.poly(body, pal.outfit, pal.outfit_line)
        pen.poly([at(-0.035, -0.095), at(-0.035, 0.095), at(-0.07, 0.09), at(-0.07, -0.09)], pal.accent,
                 pal.accent_line)
        pen.poly([at(0.2, -0.04), at(0.2, 0.045), at(0.14, 0.0)], pal.skin, pal.outfit_line)
        pen.line([at(0.14, 0.0), at(0.0, 0.0)], pal.outfit_line, 0.008)
    if look.accessory == Accessory.SCARF:
        pen.capsule(at(0.19, -0.07), at(0.19, 0.07), 0.05, pal.accent, pal.accent_line)
        pen.capsule(at(0.18, -0.05), at(0.06, -0.11), 0.04, pal.accent, pal.accent_line)


# Head ---------------------------------------------------------------------------------------
def _hair_back_points(style: HairStyle, phase: float) -> list[list[Point]]:
    top = [(0.235 * math.cos(a), 0.03 + 0.225 * math.sin(a)) for a in (math.pi * i / 12 for i in range(13))]
    sway = 0.03 * math.sin(2 * math.pi * phase)
    if style == HairStyle.BOB:
        return [[*top, (-0.24, -0.1), (-0.2, -0.16), (0.2, -0.16), (0.24, -0.1)]]
    if style == HairStyle.LONG:
        return [[*top, (-0.26, -0.3), (-0.2 + sway, -0.56), (0.0 + sway, -0.5), (0.18, -0.42), (0.235, -0.1)]]
    if style == HairStyle.PONYTAIL:
        tail = [(-0.12, 0.18), (-0.3, 0.1), (-0.38 + sway, -0.12), (-0.33 + sway, -0.36), (-0.25 + sway, -0.2),
                (-0.2, 0.0)]
        return [tail, [*top, (-0.22, -0.04), (0.22, -0.04)]]
    if style == HairStyle.TWIN_TAILS:
        left = [(-0.16, 0.14), (-0.3, 0.08), (-0.36 - sway, -0.12), (-0.33 - sway, -0.36), (-0.27, -0.2),
                (-0.2, 0.02)]
        right = [(x * -1.0, y) for x, y in left]
        return [left, right, [*top, (-0.22, -0.04), (0.22, -0.04)]]
    if style == HairStyle.SPIKY:
        spikes = []
        for i in range(15):
            a = math.radians(-25 + 230 * i / 14)
            r = 0.3 if i % 2 else 0.22
            spikes.append((r * math.cos(a), 0.02 + r * math.sin(a)))
        return [spikes]
    return [[*top, (-0.225, -0.02), (0.225, -0.02)]]


def _draw_hair_back(pen: Pen, sk: Skeleton, look: Look, pal: Palette, phase: float) -> None:
    head = HeadFrame(sk)
    for shape in _hair_back_points(look.hair_style, phase):
        pen.poly(head.points(shape), pal.hair, pal.hair_line)
    if look.hair_style in (HairStyle.TWIN_TAILS, HairStyle.PONYTAIL):
        ties = [(-0.19, 0.09), (0.19, 0.09)] if look.hair_style == HairStyle.TWIN_TAILS else [(-0.24, 0.1)]
        for x, y in ties:
            pen.ellipse(head(x, y), 0.03, 0.03, pal.accent, pal.accent_line)


def _draw_body_back_view(pen: Pen, sk: Skeleton, spec: FigureSpec, phase: float) -> None:
    """Seen from behind (mid-spin, orbit): limbs, outfit, then the back of the head."""
    pal, look = spec.palette, spec.look
    _draw_arm(pen, sk.shoulder_f, sk.elbow_f, sk.hand_f, pal, far=True)
    _draw_leg(pen, sk, back=False, pal=pal, look=look)
    _draw_leg(pen, sk, back=True, pal=pal, look=look)
    _draw_torso(pen, sk, look, pal)
    head = HeadFrame(sk)
    pen.ellipse(head(0.0, -0.005), HEAD_RX, HEAD_RY, pal.skin, pal.skin_line)
    for shape in _hair_back_points(look.hair_style, phase):
        pen.poly(head.points(shape), pal.hair, pal.hair_line)
    pen.ellipse(head(0.0, 0.0), 0.225, 0.215, pal.hair, pal.hair_line)
    _draw_accessory(pen, sk, look, pal)
    _draw_arm(pen, sk.shoulder_b, sk.elbow_b, sk.hand_b, pal, far=False)


def _draw_head(pen: Pen, sk: Skeleton, spec: FigureSpec, pose: Pose, phase: float) -> None:
    pal, look = spec.palette, spec.look
    head = HeadFrame(sk)
    pen.ellipse(head(0.0, -0.005), HEAD_RX, HEAD_RY, pal.skin, pal.skin_line)
    yaw = max(-1.0, min(1.0, pose.head_yaw))
    _draw_face(pen, head, pal, yaw, spec.expression, phase, look)
    _draw_bangs(pen, head, look, pal, yaw)
    _draw_accessory(pen, sk, look, pal)


def _eye_positions(yaw: float) -> list[tuple[float, float]]:
    """(x, width factor) of each visible eye for a head yaw in [-1, 1]."""
    shift = 0.095 * yaw
    out = []
    for base in (-0.078, 0.078):
        x = base + shift
        if abs(x) < 0.175:
            out.append((x, max(0.35, 1.0 - (abs(x) / 0.2) ** 2 * 0.75)))
    return out


def _draw_face(pen: Pen, head: HeadFrame, pal: Palette, yaw: float, expr: Expression, phase: float,
               look: Look) -> None:
    eyes = _eye_positions(yaw)
    ey = -0.025
    for x, k in eyes:
        rx, ry = 0.04 * k, 0.058
        if expr == Expression.CLOSED:
            pen.line([head(x - rx, ey - 0.005), head(x, ey - 0.022), head(x + rx, ey - 0.005)], pal.ink, 0.014)
            continue
        if expr == Expression.JOY:
            pen.line([head(x - rx, ey - 0.015), head(x, ey + 0.018), head(x + rx, ey - 0.015)], pal.ink, 0.016)
            continue
        pen.ellipse(head(x, ey), rx, ry, pal.eye_dark)
        iris_ry = ry * (0.55 if expr == Expression.SURPRISED else 0.72)
        pen.ellipse(head(x, ey - 0.012), rx * 0.8, iris_ry, pal.eye)
        pen.ellipse(head(x, ey - 0.006), rx * 0.35, ry * 0.32, pal.eye_dark)
        pen.ellipse(head(x + 0.012 * k, ey + 0.022), 0.016 * k, 0.016, pal.white)
        pen.ellipse(head(x - 0.014 * k, ey - 0.03), 0.008 * k, 0.008, pal.white)
        pen.line([head(x - rx - 0.008, ey + ry * 0.55), head(x, ey + ry * 1.02), head(x + rx + 0.006, ey + ry * 0.7)],
                 pal.ink, 0.016)
        if expr in (Expression.SAD, Expression.DETERMINED):
            inner = 1 if x > 0 else -1
            lift = 0.03 if expr == Expression.SAD else -0.02
            pen.line([head(x - 0.035 * inner, ey + 0.085), head(x + 0.03 * inner, ey + 0.085 + lift)],
                     pal.hair_line, 0.012)
    if look.accessory == Accessory.GLASSES and expr not in (Expression.CLOSED, Expression.JOY):
        for x, k in eyes:
            pen.ellipse(head(x, ey), 0.058 * k, 0.06, None, pal.ink)
    mx = 0.1 * yaw
    for x, k in eyes:
        pen.ellipse(head(x - 0.005, ey - 0.075), 0.032 * k, 0.016, pal.blush)
    my = -0.11
    if expr in (Expression.HAPPY, Expression.JOY):
        w = 0.04 if expr == Expression.JOY else 0.03
        pen.poly([head(mx - w, my + 0.008), head(mx + w, my + 0.008), head(mx + w * 0.6, my - 0.02),
                  head(mx, my - 0.03), head(mx - w * 0.6, my - 0.02)], pal.mouth, pal.ink)
    elif expr == Expression.OPEN:
        open_ = 0.012 + 0.014 * abs(math.sin(2 * math.pi * phase * 2))
        pen.ellipse(head(mx, my - 0.005), 0.022, open_, pal.mouth, pal.ink)
    elif expr == Expression.SURPRISED:
        pen.ellipse(head(mx, my - 0.008), 0.016, 0.02, pal.mouth, pal.ink)
    elif expr == Expression.SAD:
        pen.line([head(mx - 0.025, my - 0.012), head(mx, my + 0.002), head(mx + 0.025, my - 0.012)], pal.ink, 0.011)
    elif expr == Expression.DETERMINED:
        pen.line([head(mx - 0.022, my), head(mx + 0.022, my - 0.004)], pal.ink, 0.011)
    else:
        pen.line([head(mx - 0.022, my + 0.004), head(mx, my - 0.01), head(mx + 0.022, my + 0.004)], pal.ink, 0.011)


def _draw_bangs(pen: Pen, head: HeadFrame, look: Look, pal: Palette, yaw: float) -> None:
    part = 0.05 * yaw
    top = [(0.218 * math.cos(a), 0.005 + 0.215 * math.sin(a)) for a in (math.radians(d) for d in range(-8, 189, 14))]
    spiky = look.hair_style == HairStyle.SPIKY
    fringe: list[Point] = []
    n = 7
    for i in range(n + 1):
        x = -0.215 + 0.43 * i / n
        deep = i % 2 == 1
        y = (-0.005 if spiky else 0.02) if deep else (0.1 if spiky else 0.075)
        fringe.append((x + part * (1 - abs(x) / 0.22), y))
    shape = [*top, *fringe]
    pen.poly(head.points(shape), pal.hair, pal.hair_line)
    if look.hair_style in (HairStyle.BOB, HairStyle.LONG, HairStyle.TWIN_TAILS, HairStyle.PONYTAIL):
        for side in (-1, 1):
            lock = [(side * 0.2, 0.09), (side * 0.225, -0.08), (side * 0.2, -0.13), (side * 0.175, -0.02)]
            pen.poly(head.points(lock), pal.hair, pal.hair_line)
    pen.line(head.points([(-0.1 + part, 0.17), (0.02 + part, 0.19)]), pal.hair_shine, 0.014)


def _draw_accessory(pen: Pen, sk: Skeleton, look: Look, pal: Palette) -> None:
    head = HeadFrame(sk)
    if look.accessory == Accessory.BOW:
        knot = (-0.03, 0.19)
        left = [knot, (-0.17, 0.3), (-0.235, 0.27), (-0.24, 0.15), (-0.2, 0.11)]
        right = [knot, (0.09, 0.31), (0.155, 0.3), (0.18, 0.18), (0.15, 0.13)]
        for wing in (left, right):
            pen.poly(head.points(wing), pal.accent, pal.accent_line)
        pen.ellipse(head(*knot), 0.038, 0.036, shade(pal.accent, 0.85), pal.accent_line)
    elif look.accessory == Accessory.HAT:
        pen.ellipse(head(0.0, 0.13), 0.33, 0.06, pal.accent, pal.accent_line)
        crown = [(-0.17, 0.14), (-0.15, 0.3), (-0.05, 0.355), (0.06, 0.355), (0.15, 0.3), (0.17, 0.14)]
        pen.poly(head.points(crown), pal.accent, pal.accent_line)
        pen.poly(head.points([(-0.168, 0.15), (0.168, 0.15), (0.165, 0.2), (-0.165, 0.2)]), pal.outfit)
