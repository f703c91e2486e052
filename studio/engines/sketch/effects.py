"""Manga effects drawn around the figure: Zzz, notes, hearts, tears, sparkles, splashes, bubbles.

Effects live in screen space around the head or the hip and drift with time, so they
read the same whether the character stands, sits or lies down.
"""

from __future__ import annotations

import math

from studio.engines.sketch.props import PropContext
from studio.engines.sketch.skeleton import HeadFrame, Point, add, head_top
from studio.engines.sketch.vocabulary import Effect, Expression

WHITE = (255, 255, 255)


def _rgba(c: tuple[int, int, int], a: float) -> tuple[int, int, int, int]:
    """A translucent colour for the premultiplied ("RGBa") sprite."""
    a = max(0.0, min(1.0, a))
    return int(c[0] * a), int(c[1] * a), int(c[2] * a), int(255 * a)


def _heart(ctx: PropContext, c: Point, r: float, fill: tuple[int, ...]) -> None:
    d = ctx.pen.draw
    x, y = c
    d.ellipse([x - r, y - r * 0.9, x, y + r * 0.1], fill=fill)
    d.ellipse([x, y - r * 0.9, x + r, y + r * 0.1], fill=fill)
    d.polygon([(x - r * 0.97, y - r * 0.25), (x + r * 0.97, y - r * 0.25), (x, y + r)], fill=fill)


def _star(ctx: PropContext, c: Point, r: float, fill: tuple[int, ...], points: int = 4) -> None:
    pts = []
    for i in range(points * 2):
        a = math.pi * i / points - math.pi / 2
        rr = r if i % 2 == 0 else r * 0.38
        pts.append((c[0] + rr * math.cos(a), c[1] + rr * math.sin(a)))
    ctx.pen.draw.polygon(pts, fill=fill)


def _note(ctx: PropContext, c: Point, r: float, fill: tuple[int, ...]) -> None:
    d = ctx.pen.draw
    x, y = c
    d.ellipse([x - r, y - r * 0.75, x + r, y + r * 0.75], fill=fill)
    d.line([(x + r * 0.85, y), (x + r * 0.85, y - r * 3.2)], fill=fill, width=max(1, round(r * 0.4)))
    d.line([(x + r * 0.85, y - r * 3.2), (x + r * 2.2, y - r * 2.4)], fill=fill, width=max(1, round(r * 0.45)))


def _z(ctx: PropContext, c: Point, r: float, fill: tuple[int, ...]) -> None:
    x, y = c
    ctx.pen.draw.line([(x - r, y - r), (x + r, y - r), (x - r, y + r), (x + r, y + r)], fill=fill,
                      width=max(1, round(r * 0.35)), joint="curve")


def _below_ceiling(ctx: PropContext, highest: float) -> float:
    """How far (pixels) to move down something whose highest row is ``highest`` so that the
    shot doesn't cut it (0 when it fits)."""
    return max(0.0, ctx.ceiling - highest)


ABOVE_HEAD = 0.18
"""Gap (figure units) from the top of the head to a bubble over it: room for a bow or a hat."""


def _bubble_centre(ctx: PropContext, head_x: float, beside_y: float, above_y: float, offset: float, rx: float,
                   ry: float, side: int) -> tuple[Point, int, bool]:
    """(centre, side, over the head) of a bubble ``rx`` by ``ry`` pixels: ``offset`` pixels to a
    side of the head (``side`` first) at row ``beside_y`` when the shot has room there, otherwise
    over the head at row ``above_y``; moved down when the top of the shot would cut it. A bubble
    pushed sideways into a narrow shot covered the face."""
    left, right = ctx.sides
    for way in (side, -side):
        x = head_x + way * offset
        if left + rx <= x <= right - rx:
            return (x, beside_y + _below_ceiling(ctx, beside_y - ry)), way, False
    x = min(max(head_x, left + rx), right - rx) if right - left >= 2 * rx else (left + right) / 2
    return (x, above_y + _below_ceiling(ctx, above_y - ry)), side, True


def _fit_rise(ctx: PropContext, start: float, rise: float, above: float) -> tuple[float, float]:
    """(start row, rise) of symbols that drift up from ``start`` by ``rise`` pixels and reach
    ``above`` pixels over their centre: a shorter rise, then a lower start, when the shot's top
    would cut them."""
    spare = start - rise - above - ctx.ceiling
    if spare >= 0.0:
        return start, rise
    return start + max(0.0, -(spare + rise)), max(0.0, rise + spare)


def draw_behind(effect: Effect, ctx: PropContext) -> None:
    pen = ctx.pen
    s, f = pen.s, pen.f
    hip = pen.px((0.0, 0.0))
    if effect == Effect.WIND:
        for i in range(5):
            k = (ctx.seconds * 2.2 + i * 0.37) % 1.0
            y = hip[1] + (-0.55 + 0.25 * i) * s
            x0 = hip[0] - f * (0.35 + 0.5 * k) * s
            length = 0.35 * s
            pen.draw.line([(x0, y), (x0 - f * length, y)], fill=_rgba(WHITE, 0.65 * (1 - k)),
                          width=max(1, round(0.016 * s)))
    elif effect == Effect.DUST:
        ground = ctx.ground_y
        for i in range(3):
            k = (ctx.seconds * 2.5 + i / 3) % 1.0
            r = (0.04 + 0.06 * k) * s
            x = hip[0] - f * (0.2 + 0.35 * k) * s
            y = ground - r * 0.8
            pen.draw.ellipse([x - r, y - r, x + r, y + r], fill=_rgba(ctx.pal.tinted((225, 215, 200)), 0.7 * (1 - k)))


def draw_front(effect: Effect, ctx: PropContext, expression: Expression) -> None:
    pen, sk, pal = ctx.pen, ctx.sk, ctx.pal
    s, f = pen.s, pen.f
    top = pen.px(head_top(sk))
    t = ctx.seconds
    if effect == Effect.ZZZ:
        start, rise = _fit_rise(ctx, top[1] - 0.05 * s, 0.5 * s, 0.08 * s)
        for i in range(3):
            k = (t * 0.5 + i / 3) % 1.0
            c = (top[0] + f * (0.1 + 0.3 * k) * s, start - rise * k)
            _z(ctx, c, (0.035 + 0.045 * k) * s, _rgba(pal.tinted((90, 110, 200)), 1.0 - 0.7 * k))
    elif effect == Effect.NOTES:
        start, rise = _fit_rise(ctx, top[1] + 0.15 * s, 0.45 * s, 0.12 * s)
        for i in range(2):
            k = (t * 0.6 + i * 0.5) % 1.0
            side = 1 if i == 0 else -1
            c = (top[0] + side * f * (0.28 + 0.05 * math.sin(6 * k)) * s, start - rise * k)
            _note(ctx, c, 0.035 * s, _rgba(pal.tinted((80, 70, 160) if i else (220, 80, 120)), 1.0 - 0.6 * k))
    elif effect == Effect.HEARTS:
        start, rise = _fit_rise(ctx, top[1] + 0.1 * s, 0.45 * s, 0.06 * s)
        for i in range(3):
            k = (t * 0.55 + i / 3) % 1.0
            c = (top[0] + f * (0.25 + 0.12 * i + 0.05 * math.sin(7 * k + i)) * s, start - rise * k)
            _heart(ctx, c, (0.04 + 0.02 * (1 - k)) * s, _rgba(pal.tinted((240, 80, 120)), 1.0 - 0.6 * k))
    elif effect == Effect.TEARS:
        head = HeadFrame(sk)
        for x in (-0.07, 0.1):
            eye = pen.px(head(x, -0.06))
            for j in range(2):
                k = (t * 1.6 + j * 0.5 + x) % 1.0
                cx = eye[0] + f * (0.03 + 0.05 * k) * s * (1 if x > 0 else -1)
                cy = eye[1] + 0.28 * k * s
                r = 0.022 * s
                pen.draw.ellipse([cx - r, cy - r * 1.3, cx + r, cy + r], fill=_rgba(pal.tinted((120, 180, 255)), 1.0))
    elif effect == Effect.SWEAT:
        c = (top[0] - f * 0.2 * s, top[1] + 0.12 * s + 0.03 * s * math.sin(t * 4))
        r = 0.03 * s
        pen.draw.ellipse([c[0] - r, c[1] - r, c[0] + r, c[1] + r * 1.2], fill=_rgba(pal.tinted((150, 200, 255)), 0.9))
        pen.draw.polygon([(c[0] - r * 0.8, c[1] - r * 0.4), (c[0] + r * 0.8, c[1] - r * 0.4), (c[0], c[1] - r * 2.2)],
                         fill=_rgba(pal.tinted((150, 200, 255)), 0.9))
    elif effect == Effect.SPARKLES:
        hip = pen.px((0.0, 0.0))
        for i, (dx, dy) in enumerate(((-0.4, 0.7), (0.45, 0.55), (-0.35, 0.05), (0.42, 0.15))):
            tw = 0.5 + 0.5 * math.sin(t * 7 + i * 1.7)
            _star(ctx, (hip[0] + f * dx * s, hip[1] - dy * s), (0.03 + 0.035 * tw) * s,
                  _rgba(pal.tinted((255, 230, 120)), 0.5 + 0.5 * tw))
    elif effect == Effect.SPLASH:
        _splash(ctx)
    elif effect == Effect.SPEECH:
        _bubble(ctx, top, shout=ctx.anim == "shout")
    elif effect == Effect.SHIVER:
        hip = pen.px((0.0, 0.0))
        jit = 0.02 * s * math.sin(t * 40)
        for side in (-1, 1):
            for j in range(3):
                x = hip[0] + side * (0.26 + 0.05 * j) * s + jit
                y0 = hip[1] - (0.1 + 0.12 * j) * s
                pen.draw.line([(x, y0), (x, y0 - 0.08 * s)], fill=_rgba(pal.tinted((120, 160, 230)), 0.9),
                              width=max(1, round(0.014 * s)))
    elif effect == Effect.STEAM:
        hand = pen.px(add(sk.hand_f, (0.05, 0.08)))
        for i in range(2):
            pts = []
            for j in range(8):
                y = hand[1] - (0.04 + 0.04 * j) * s
                x = hand[0] + (i * 0.05 - 0.02) * s + 0.025 * s * math.sin(j * 1.2 + t * 5 + i)
                pts.append((x, y))
            pen.draw.line(pts, fill=_rgba((250, 250, 250), 0.6), width=max(1, round(0.014 * s)), joint="curve")
    elif effect == Effect.STARS:
        top = (top[0], top[1] + _below_ceiling(ctx, top[1] - 0.09 * s))
        for i in range(3):
            a = t * 3.0 + i * 2 * math.pi / 3
            c = (top[0] + 0.2 * s * math.cos(a), top[1] + 0.02 * s + 0.06 * s * math.sin(a))
            _star(ctx, c, 0.045 * s, _rgba(pal.tinted((255, 220, 60)), 1.0), points=5)
    elif effect == Effect.THOUGHT:
        fill = _rgba(WHITE, 0.92)
        line = _rgba(pal.tinted((120, 120, 140)), 1.0)
        # Beside the head: the cloud up and ahead of it, small puffs leading down to it.
        c, f, over = _bubble_centre(ctx, top[0], top[1] - 0.22 * s, top[1] - (ABOVE_HEAD + 0.12) * s, 0.4 * s,
                                    0.16 * s, 0.1 * s, f)
        trail = ((c[0] - f * 0.22 * s, c[1] + 0.2 * s, 0.025), (c[0] - f * 0.12 * s, c[1] + 0.1 * s, 0.04))
        if over:  # over the head: the puffs lead down beside the bow or the hat, not onto them
            trail = ((c[0] + f * 0.2 * s, c[1] + 0.1 * s + 0.08 * s, 0.02),
                     (c[0] + f * 0.12 * s, c[1] + 0.1 * s + 0.035 * s, 0.03))
        for x, y, r in trail:
            pen.draw.ellipse([x - r * s, y - r * s, x + r * s, y + r * s], fill=fill, outline=line)
        pen.draw.ellipse([c[0] - 0.16 * s, c[1] - 0.1 * s, c[0] + 0.16 * s, c[1] + 0.1 * s], fill=fill, outline=line,
                         width=max(1, pen.outline_w))
        _star(ctx, c, 0.05 * s * (0.8 + 0.2 * math.sin(t * 4)), _rgba(pal.tinted((255, 200, 60)), 1.0), points=5)


def _splash(ctx: PropContext) -> None:
    """A pool of water around the swimmer: a wavy lens that hides the legs."""
    pen, pal = ctx.pen, ctx.pal
    s = pen.s
    hip = pen.px((0.0, 0.0))
    water_y = hip[1] + 0.02 * s
    n = 18
    top = []
    for i in range(n + 1):
        x = hip[0] + (-0.75 + 1.5 * i / n) * s
        top.append((x, water_y + 0.022 * s * math.sin(i * 1.3 + ctx.seconds * 6)))
    bottom = [(hip[0] + 0.75 * s * math.cos(math.pi * k / 12), water_y + 0.3 * s * math.sin(math.pi * k / 12))
              for k in range(13)]
    pen.draw.polygon([*top, *bottom], fill=_rgba(pal.tinted((70, 150, 220)), 1.0))
    pen.draw.line(top, fill=_rgba(pal.tinted((230, 245, 255)), 0.9), width=max(1, round(0.02 * s)))
    for i in range(4):
        k = (ctx.seconds * 1.8 + i / 4) % 1.0
        x = hip[0] + pen.f * (-0.3 + 0.22 * i) * s
        y = water_y - math.sin(math.pi * k) * 0.2 * s
        r = 0.02 * s
        pen.draw.ellipse([x - r, y - r, x + r, y + r], fill=_rgba(pal.tinted((200, 230, 255)), 1 - k))


def _bubble(ctx: PropContext, top: Point, shout: bool) -> None:
    pen, pal = ctx.pen, ctx.pal
    s, f = pen.s, pen.f
    rx, ry = 0.2 * s, 0.13 * s
    # A talker faces the friend in front of them: the bubble goes on the other side, not over the friend.
    side = -f if ctx.anim == "talk" else f
    c, f, _ = _bubble_centre(ctx, top[0], top[1] + 0.02 * s, top[1] - ABOVE_HEAD * s - ry, 0.42 * s, rx, ry, side)
    fill = _rgba(WHITE, 0.95)
    line = _rgba(pal.tinted((90, 90, 110)), 1.0)
    if shout:
        pts = []
        for i in range(16):
            a = 2 * math.pi * i / 16
            k = 1.0 if i % 2 == 0 else 0.72
            pts.append((c[0] + rx * k * math.cos(a), c[1] + ry * k * math.sin(a)))
        pen.draw.polygon(pts, fill=fill, outline=line)
        pen.draw.line([(c[0], c[1] - ry * 0.5), (c[0], c[1] + ry * 0.15)], fill=pal.tinted((220, 60, 60)),
                      width=max(1, round(0.03 * s)))
        r = 0.018 * s
        pen.draw.ellipse([c[0] - r, c[1] + ry * 0.3, c[0] + r, c[1] + ry * 0.3 + 2 * r], fill=pal.tinted((220, 60, 60)))
        return
    tail = [(c[0] - f * rx * 0.5, c[1] + ry * 0.6), (c[0] - f * rx * 0.95, c[1] + ry * 1.35),
            (c[0] - f * rx * 0.15, c[1] + ry * 0.8)]
    pen.draw.polygon(tail, fill=fill, outline=line)
    pen.draw.ellipse([c[0] - rx, c[1] - ry, c[0] + rx, c[1] + ry], fill=fill, outline=line,
                     width=max(1, pen.outline_w))
    n_dots = 1 + int(ctx.seconds * 4) % 3
    for i in range(n_dots):
        r = 0.022 * s
        x = c[0] + (-0.08 + 0.08 * i) * s
        pen.draw.ellipse([x - r, c[1] - r, x + r, c[1] + r], fill=pal.tinted((90, 90, 110)))
