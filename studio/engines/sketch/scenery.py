"""Backgrounds: every built-in location at day, sunset and night, as parallax layers.

A scene is a static sky image plus three RGBA layers (far, mid, near) that tile
horizontally with period = frame width, so a camera can scroll them by any amount at
different speeds (parallax). Layers are built once per (location, time, size) and cached;
everything is drawn with Pillow shapes and numpy gradients, from a per-location seed, so
the same scene always looks the same.
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageOps

from studio.engines.sketch.vocabulary import LOCATION_BY_NAME, Setting

RGB = tuple[int, int, int]

LAYER_FACTORS: tuple[float, float, float] = (0.18, 0.5, 1.0)
"""How fast the far, mid and near layers move relative to the camera."""

TINTS: dict[str, tuple[float, float, float]] = {
    "day": (1.0, 1.0, 1.0),
    "sunset": (1.04, 0.8, 0.72),
    "night": (0.36, 0.42, 0.66),
}
"""Light per time of day, multiplied into scenery and characters."""

INDOOR_TINTS: dict[str, tuple[float, float, float]] = {
    "day": (1.0, 1.0, 1.0),
    "sunset": (1.03, 0.88, 0.78),
    "night": (0.72, 0.62, 0.6),
}

SKY_STOPS: dict[str, tuple[RGB, RGB, RGB]] = {
    "day": ((92, 165, 235), (150, 200, 245), (215, 236, 250)),
    "sunset": ((60, 60, 130), (235, 120, 110), (255, 200, 120)),
    "night": ((8, 12, 38), (22, 32, 80), (50, 60, 110)),
}

GROUND_FRACTION: dict[Setting, float] = {Setting.OUTDOOR: 0.86, Setting.INDOOR: 0.88, Setting.SKY: 0.8}

SUPERSAMPLE = 2
"""Scenes are painted this many times larger and reduced: Pillow draws shapes without
anti-aliasing, and the hills, roofs and roads had hard, stepped edges next to the smooth
figures. (A scene is painted once per place, time and size, so this costs little.)"""


@dataclass(frozen=True, slots=True)
class Band:
    """The rows of a tiling layer that hold anything, doubled in width so any shift is one crop."""

    top: int
    image: Image.Image | None
    period: int

    @classmethod
    def from_layer(cls, layer: Image.Image) -> Band:
        box = layer.getbbox()
        if box is None:
            return cls(0, None, layer.width)
        top, bottom = box[1], box[3]
        rows = layer.crop((0, top, layer.width, bottom))
        doubled = Image.new("RGBA", (2 * layer.width, bottom - top), (0, 0, 0, 0))
        doubled.paste(rows, (0, 0))
        doubled.paste(rows, (layer.width, 0))
        return cls(top, doubled, layer.width)

    def paste_onto(self, frame: Image.Image, shift_px: int) -> None:
        if self.image is None:
            return
        o = shift_px % self.period
        piece = self.image.crop((o, 0, o + self.period, self.image.height))
        frame.paste(piece, (0, self.top), piece)


@dataclass(frozen=True, slots=True)
class Scene:
    """``sky`` is RGB (wider than the frame for image scenes, which pan inside it)."""

    sky: Image.Image
    bands: tuple[Band, Band, Band]
    ground_frac: float
    setting: Setting

    @property
    def size(self) -> tuple[int, int]:
        return self.sky.size


def scene_tint(setting: Setting, time: str) -> tuple[float, float, float]:
    return (INDOOR_TINTS if setting == Setting.INDOOR else TINTS).get(time, TINTS["day"])


def vertical_gradient(height: int, width: int, stops: tuple[RGB, ...], positions: tuple[float, ...] | None = None
                      ) -> Image.Image:
    """An RGB image whose rows blend through ``stops`` (numpy, no per-pixel Python)."""
    positions = positions or tuple(i / (len(stops) - 1) for i in range(len(stops)))
    ys = np.linspace(0.0, 1.0, height, dtype=np.float32)
    cols = np.stack([np.interp(ys, positions, [c[k] for c in stops]) for k in range(3)], axis=1)
    row = np.clip(cols, 0, 255).astype(np.uint8)[:, None, :]
    return Image.fromarray(np.ascontiguousarray(np.broadcast_to(row, (height, width, 3))))


class Painter:
    """Drawing helpers for one scene: tinted colours, wrap-around shapes, a seeded RNG."""

    def __init__(self, width: int, height: int, time: str, setting: Setting, name: str, supersample: int = 1) -> None:
        self.w, self.h = width, height
        self.k = supersample
        """How many times larger than the frame the painter draws (counts of things stay the frame's)."""
        self.time = time
        self.night = time == "night"
        self.tint = scene_tint(setting, time)
        self.rng = random.Random(zlib.crc32(name.encode()))
        self.ground = round(GROUND_FRACTION[setting] * height)
        self.horizon = round(height * (0.62 if setting != Setting.INDOOR else 0.5))
        self.layers = [Image.new("RGBA", (width, height), (0, 0, 0, 0)) for _ in range(3)]
        self.draws = [ImageDraw.Draw(layer, "RGBA") for layer in self.layers]
        self.u = height / 480.0

    def c(self, rgb: RGB, alpha: int = 255) -> tuple[int, int, int, int]:
        t = self.tint
        return min(255, int(rgb[0] * t[0])), min(255, int(rgb[1] * t[1])), min(255, int(rgb[2] * t[2])), alpha

    def lit(self, day: RGB, night: RGB = (255, 215, 120)) -> tuple[int, int, int, int]:
        """A window: tinted by day, glowing (untinted) at night."""
        return (*night, 255) if self.night else self.c(day)

    def glow(self, layer: int, box: tuple[float, float, float, float], rgba: tuple[int, int, int, int]) -> None:
        """A translucent ellipse composited over the layer (ImageDraw would overwrite, not blend, RGBA)."""
        x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
        x1, y1 = min(self.w, int(box[2]) + 1), min(self.h, int(box[3]) + 1)
        if x1 <= x0 or y1 <= y0:
            return
        patch = Image.new("RGBA", (int(box[2] - box[0]) + 1, int(box[3] - box[1]) + 1), (0, 0, 0, 0))
        ImageDraw.Draw(patch).ellipse([0, 0, patch.width - 1, patch.height - 1], fill=rgba)
        patch = patch.crop((x0 - int(box[0]), y0 - int(box[1]), x1 - int(box[0]), y1 - int(box[1])))
        self.layers[layer].alpha_composite(patch, (x0, y0))

    def wrap(self, x: float, fn: Callable[[float], None]) -> None:
        """Draw ``fn`` at x and at its copies one period left and right, so the layer tiles."""
        for dx in (-self.w, 0, self.w):
            fn(x + dx)

    def periodic(self, x: np.ndarray, terms: list[tuple[int, float, float]]) -> np.ndarray:
        """Sum of sines with integer frequencies over the width: a curve that tiles."""
        out = np.zeros_like(x, dtype=np.float64)
        for freq, amp, phase in terms:
            out += amp * np.sin(2 * math.pi * freq * x / self.w + phase)
        return out

    def ridge(self, layer: int, base: float, terms: list[tuple[int, float, float]], fill: tuple[int, ...],
              bottom: float | None = None) -> None:
        xs = np.linspace(0, self.w, 97)
        ys = base - self.periodic(xs, terms)
        pts = [(float(x), float(y)) for x, y in zip(xs, ys, strict=True)]
        b = float(self.h if bottom is None else bottom)
        self.draws[layer].polygon([(0.0, b), *pts, (float(self.w), b)], fill=fill)

    def rect(self, layer: int, box: tuple[float, float, float, float], fill: tuple[int, ...],
             outline: tuple[int, ...] | None = None, width: int = 1) -> None:
        self.draws[layer].rectangle(box, fill=fill, outline=outline, width=width)


def _rounded(draw: ImageDraw.ImageDraw, box: list[float], radius: float, **kw: Any) -> None:
    """A rounded rectangle that stays valid at tiny sizes (Pillow rejects radii larger than the box)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if w < 2 or h < 2:
        return
    draw.rounded_rectangle([x0, y0, x1, y1], radius=max(0.0, min(radius, w / 2 - 1, h / 2 - 1)), **kw)


# Sky ----------------------------------------------------------------------------------------
def _sky(width: int, height: int, time: str, name: str, supersample: int = 1) -> Image.Image:
    stops = SKY_STOPS.get(time, SKY_STOPS["day"])
    img = vertical_gradient(height, width, stops, (0.0, 0.45, 0.75))
    draw = ImageDraw.Draw(img, "RGBA")
    rng = random.Random(zlib.crc32(f"sky-{name}".encode()))
    u = height / 480.0
    if time == "day":
        cx, cy, r = width * 0.82, height * 0.14, 26 * u
        for k, a in ((2.6, 30), (1.8, 50)):
            draw.ellipse([cx - r * k, cy - r * k, cx + r * k, cy + r * k], fill=(255, 250, 220, a))
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(255, 250, 215))
    elif time == "sunset":
        cx, cy, r = width * 0.7, height * 0.5, 42 * u
        for k, a in ((3.0, 35), (2.0, 60)):
            draw.ellipse([cx - r * k, cy - r * k, cx + r * k, cy + r * k], fill=(255, 190, 120, a))
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(255, 170, 90))
    else:
        for _ in range(int(90 * width * height / (480 * 720 * supersample * supersample)) + 8):
            x, y = rng.uniform(0, width), rng.uniform(0, height * 0.6)
            s = rng.choice((0.8, 1.0, 1.5)) * u
            draw.ellipse([x - s, y - s, x + s, y + s], fill=(255, 255, 230, rng.randint(140, 255)))
        cx, cy, r = width * 0.8, height * 0.15, 22 * u
        draw.ellipse([cx - r * 2.2, cy - r * 2.2, cx + r * 2.2, cy + r * 2.2], fill=(200, 210, 255, 30))
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(250, 245, 215))
        draw.ellipse([cx - r * 0.55, cy - r * 1.05, cx + r * 1.35, cy + r * 0.8], fill=(*stops[0], 255))
    return img


CLOUD_PUFFS: tuple[tuple[float, float, float], ...] = (
    (-1.1, 0.25, 0.75), (0.0, 0.0, 1.0), (1.1, 0.2, 0.8), (0.55, -0.35, 0.7), (-0.5, -0.3, 0.65))
"""(dx, dy, radius) of a cloud's puffs, in units of its size."""


def _cloud(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: tuple[int, ...]) -> None:
    """Round puffs on a flat, round-ended base (a square-cornered base read as a box under the puffs)."""
    for dx, dy, k in CLOUD_PUFFS:
        rr = r * k
        draw.ellipse([x + dx * r - rr, y + dy * r - rr, x + dx * r + rr, y + dy * r + rr], fill=fill)
    _rounded(draw, [x - 1.6 * r, y + 0.1 * r, x + 1.7 * r, y + 0.85 * r], radius=0.375 * r, fill=fill)


def _clouds(p: Painter, layer: int, n: int, y_range: tuple[float, float], size: float, alpha: int = 255) -> None:
    fill = p.c((255, 255, 255), alpha) if p.time != "sunset" else p.c((255, 225, 215), alpha)
    if p.night:
        fill = (70, 80, 125, 255)
    for i in range(n):
        x = (i + p.rng.uniform(0.1, 0.9)) * p.w / n
        y = p.rng.uniform(*y_range) * p.h
        r = size * p.u * p.rng.uniform(0.8, 1.2)
        p.wrap(x, lambda xx, y=y, r=r: _cloud(p.draws[layer], xx, y, r, fill))  # type: ignore[misc]  # lambda defaults bind the loop's values


# Elements -----------------------------------------------------------------------------------
def _tree(p: Painter, layer: int, x: float, base: float, size: float, pine: bool = False,
          colors: tuple[RGB, RGB] = ((70, 150, 80), (50, 120, 65))) -> None:
    d = p.draws[layer]
    trunk = p.c((120, 85, 60))
    d.rectangle([x - size * 0.1, base - size * 0.9, x + size * 0.1, base], fill=trunk)
    if pine:
        for k in range(3):
            top = base - size * (1.0 + 0.55 * k) - size * 0.5
            w = size * (0.75 - 0.18 * k)
            d.polygon([(x - w, base - size * (0.45 + 0.55 * k)), (x + w, base - size * (0.45 + 0.55 * k)),
                       (x, top)], fill=p.c(colors[k % 2]))
        return
    for dx, dy, r, col in ((-0.35, -1.2, 0.5, 1), (0.35, -1.25, 0.5, 1), (0.0, -1.55, 0.6, 0)):
        cx, cy, rr = x + dx * size, base + dy * size, r * size
        d.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], fill=p.c(colors[col]))


def _house(p: Painter, layer: int, x: float, base: float, w: float, h: float, wall: RGB, roof: RGB) -> None:
    d = p.draws[layer]
    d.rectangle([x, base - h, x + w, base], fill=p.c(wall), outline=p.c((90, 70, 70)), width=max(1, round(p.u)))
    d.polygon([(x - w * 0.1, base - h), (x + w * 1.1, base - h), (x + w * 0.5, base - h - w * 0.55)], fill=p.c(roof))
    ww = w * 0.2
    for i in range(2):
        wx = x + w * (0.2 + 0.4 * i)
        for j in range(max(1, int(h / (w * 0.45)))):
            wy = base - h + w * 0.15 + j * w * 0.45
            if wy + ww > base - w * 0.1:
                break
            d.rectangle([wx, wy, wx + ww, wy + ww * 1.2], fill=p.lit((170, 210, 235)))


def _town_row(p: Painter, layer: int, base: float, scale: float, tall: bool = False) -> None:
    walls = ((245, 225, 190), (235, 200, 170), (220, 230, 240), (250, 240, 220), (230, 210, 200))
    roofs = ((190, 80, 70), (90, 110, 160), (170, 110, 70), (80, 130, 110), (150, 80, 110))
    houses: list[tuple[float, float, float]] = []  # (left, width, height)
    x = 0.0
    while x < p.w:
        w = p.rng.uniform(55, 85) * p.u * scale
        h = p.rng.uniform(60, 110 if not tall else 170) * p.u * scale
        houses.append((x, w, h))
        x += w + p.rng.uniform(2, 12) * p.u * scale
    # The row must end where it starts, one period on, or the layer's repeat cuts a house: fit it
    # to the width by squeezing it a little, or by stretching it without its last house.
    squeeze = p.w / x
    without_last = houses[-1][0]
    if len(houses) > 1 and p.w / without_last - 1.0 < 1.0 - squeeze:
        houses.pop()
        squeeze = p.w / without_last
    for i, (left, w, h) in enumerate(houses):
        wall, roof = walls[i % len(walls)], roofs[(i * 2) % len(roofs)]
        p.wrap(left * squeeze, lambda xx, w=w * squeeze, h=h, wall=wall, roof=roof:  # type: ignore[misc]  # lambda defaults bind the loop's values
               _house(p, layer, xx, base, w, h, wall, roof))


def _ground(p: Painter, top: RGB, bottom: RGB, detail: str = "") -> None:
    d = p.draws[2]
    g0 = p.ground - round(40 * p.u)
    grad = vertical_gradient(p.h - g0, p.w, (top, bottom))
    arr = np.asarray(grad).astype(np.float32) * np.array(p.tint, dtype=np.float32)
    p.layers[2].paste(Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8)), (0, g0))
    if detail == "grass":
        for _ in range(int(70 * p.w / p.k / 720)):
            x, y = p.rng.uniform(0, p.w), p.rng.uniform(g0 + 6 * p.u, p.h)
            s = 5 * p.u
            p.wrap(x, lambda xx, y=y, s=s: d.line([(xx - s, y), (xx, y - s * 1.6), (xx + s, y)],  # type: ignore[misc]  # lambda defaults bind the loop's values
                                                  fill=p.c((60, 140, 60)), width=max(1, round(1.5 * p.u))))
        for _ in range(int(16 * p.w / p.k / 720)):
            x, y = p.rng.uniform(0, p.w), p.rng.uniform(g0 + 10 * p.u, p.h)
            col = p.rng.choice(((255, 240, 120), (255, 180, 200), (255, 255, 255)))
            r = 3 * p.u
            p.wrap(x, lambda xx, y=y, r=r, col=col: d.ellipse([xx - r, y - r, xx + r, y + r], fill=p.c(col)))  # type: ignore[misc]  # lambda defaults bind the loop's values
    elif detail == "road":
        y = (g0 + p.h) / 2
        for i in range(6):
            x = i * p.w / 6
            d.rectangle([x, y - 3 * p.u, x + p.w / 12, y + 3 * p.u], fill=p.c((240, 240, 230)))
        d.rectangle([0, g0, p.w, g0 + 10 * p.u], fill=p.c((190, 185, 180)))
    elif detail == "cobble":
        stones = max(1, round(p.w / (24 * p.u)))  # a whole number of stones a row: the layer tiles
        step = p.w / stones
        for row in range(int((p.h - g0) / (14 * p.u)) + 1):
            y = g0 + row * 14 * p.u
            for i in range(stones):
                x = (i + 0.5 * (row % 2)) * step
                p.wrap(x, lambda xx, y=y: _rounded(  # type: ignore[misc]  # lambda defaults bind the loop's values
                    d, [xx, y, xx + step - 2 * p.u, y + 11 * p.u], radius=4 * p.u, outline=p.c((150, 130, 120)),
                    width=max(1, round(p.u))))
    elif detail == "sand":
        for _ in range(int(60 * p.w / p.k / 720)):
            x, y = p.rng.uniform(0, p.w), p.rng.uniform(g0, p.h)
            r = 1.5 * p.u
            d.ellipse([x - r, y - r, x + r, y + r], fill=p.c((210, 180, 130)))
    elif detail == "planks":
        for i in range(13):
            x = i * p.w / 12
            d.line([(x, g0), (x, p.h)], fill=p.c((150, 110, 75)), width=max(1, round(1.5 * p.u)))
        d.line([(0, g0), (p.w, g0)], fill=p.c((120, 85, 60)), width=max(1, round(3 * p.u)))


def _water(p: Painter, layer: int, top: float, bottom: float, color: RGB, wave: RGB) -> None:
    d = p.draws[layer]
    d.rectangle([0, top, p.w, bottom], fill=p.c(color))
    rows = 6
    for j in range(rows):
        y = top + (bottom - top) * (j + 0.5) / rows
        for i in range(8 + j * 2):
            x = (i + 0.5 * (j % 2)) * p.w / (8 + j * 2)
            w = (10 + 5 * j) * p.u
            d.arc([x - w, y - 3 * p.u, x + w, y + 5 * p.u], 200, 340, fill=p.c(wave), width=max(1, round(1.5 * p.u)))


# Indoor -------------------------------------------------------------------------------------
def _room(p: Painter, wall: RGB, floor: tuple[RGB, RGB], window: bool = True) -> None:
    far = p.draws[0]
    far.rectangle([0, 0, p.w, p.h], fill=p.c(wall))
    for i in range(12):
        x = i * p.w / 12
        darker = (max(0, wall[0] - 12), max(0, wall[1] - 12), max(0, wall[2] - 12))
        far.line([(x, 0), (x, p.h)], fill=p.c(darker), width=max(1, round(2 * p.u)))
    far.rectangle([0, p.ground - 60 * p.u, p.w, p.ground - 52 * p.u], fill=p.c((180, 140, 110)))
    if window:
        wx, wy, ww, wh = p.w * 0.58, p.h * 0.12, p.w * 0.2, p.h * 0.3
        stops = SKY_STOPS[p.time]
        glass = vertical_gradient(round(wh), round(ww), stops, (0.0, 0.6, 1.0))
        p.layers[0].paste(glass, (round(wx), round(wy)))
        if p.night:
            far.ellipse([wx + ww * 0.6, wy + wh * 0.15, wx + ww * 0.8, wy + wh * 0.15 + ww * 0.2],
                        fill=(250, 245, 215))
        frame = p.c((240, 235, 225))
        far.rectangle([wx, wy, wx + ww, wy + wh], outline=frame, width=max(2, round(6 * p.u)))
        far.line([(wx + ww / 2, wy), (wx + ww / 2, wy + wh)], fill=frame, width=max(1, round(4 * p.u)))
        far.line([(wx, wy + wh / 2), (wx + ww, wy + wh / 2)], fill=frame, width=max(1, round(4 * p.u)))
        far.rectangle([wx - 12 * p.u, wy - 8 * p.u, wx + 8 * p.u, wy + wh + 10 * p.u], fill=p.c((230, 150, 150)))
        far.rectangle([wx + ww - 8 * p.u, wy - 8 * p.u, wx + ww + 12 * p.u, wy + wh + 10 * p.u],
                      fill=p.c((230, 150, 150)))
    _ground(p, *floor, detail="planks")
    if p.night:
        lamp_x = p.w * 0.2
        p.glow(0, (lamp_x - 90 * p.u, 10 * p.u, lamp_x + 90 * p.u, 190 * p.u), (255, 200, 120, 40))


def _shelves(p: Painter, layer: int, x: float, w: float, top: float, rows: int) -> None:
    d = p.draws[layer]
    d.rectangle([x, top, x + w, p.ground - 30 * p.u], fill=p.c((140, 95, 65)))
    colors = ((200, 70, 70), (70, 110, 180), (230, 190, 80), (90, 160, 110), (160, 100, 170), (240, 240, 230))
    shelf_h = (p.ground - 30 * p.u - top) / rows
    for r in range(rows):
        y = top + r * shelf_h
        bx = x + 6 * p.u
        k = r * 3
        while bx < x + w - 10 * p.u:
            bw = p.rng.uniform(6, 11) * p.u
            bh = shelf_h * p.rng.uniform(0.6, 0.85)
            d.rectangle([bx, y + shelf_h - bh - 4 * p.u, bx + bw, y + shelf_h - 4 * p.u],
                        fill=p.c(colors[k % len(colors)]))
            bx += bw + 2 * p.u
            k += 1
        d.rectangle([x, y + shelf_h - 4 * p.u, x + w, y + shelf_h], fill=p.c((110, 75, 50)))


def _counter(p: Painter, layer: int, x0: float, x1: float, top: float, color: RGB) -> None:
    d = p.draws[layer]
    d.rectangle([x0, top, x1, p.ground - 20 * p.u], fill=p.c(color), outline=p.c((100, 70, 50)),
                width=max(1, round(2 * p.u)))
    d.rectangle([x0 - 6 * p.u, top - 8 * p.u, x1 + 6 * p.u, top], fill=p.c((235, 225, 210)))


def _table(p: Painter, layer: int, x: float, w: float, color: RGB = (170, 120, 80)) -> None:
    d = p.draws[layer]
    top = p.ground - 95 * p.u
    d.rectangle([x, top, x + w, top + 10 * p.u], fill=p.c(color))
    for lx in (x + 8 * p.u, x + w - 14 * p.u):
        d.rectangle([lx, top, lx + 6 * p.u, p.ground - 22 * p.u], fill=p.c((120, 85, 60)))


# Location recipes ---------------------------------------------------------------------------
def _paint_sky(p: Painter) -> None:
    _clouds(p, 0, 4, (0.15, 0.45), 26)
    _clouds(p, 1, 3, (0.3, 0.7), 40)
    d = p.draws[2]
    fill = p.c((255, 255, 255), 250) if not p.night else (130, 140, 185, 255)
    for i in range(5):
        x = i * p.w / 5 + 40 * p.u
        p.wrap(x, lambda xx: _cloud(d, xx, p.ground + 40 * p.u, 60 * p.u, fill))
    d.rectangle([0, p.ground + 60 * p.u, p.w, p.h], fill=fill)


def _paint_countryside(p: Painter) -> None:
    p.ridge(0, p.horizon, [(1, 18 * p.u, 0.3), (3, 10 * p.u, 1.0)], p.c((120, 160, 200)))
    p.ridge(1, p.horizon + 30 * p.u, [(2, 14 * p.u, 0.5), (5, 5 * p.u, 2.0)], p.c((120, 180, 90)))
    for i in range(6):
        x = (i + 0.3) * p.w / 6
        p.wrap(x, lambda xx: _tree(p, 1, xx, p.horizon + 40 * p.u, 22 * p.u))
    p.wrap(p.w * 0.35, lambda xx: _house(p, 1, xx, p.horizon + 44 * p.u, 50 * p.u, 40 * p.u, (250, 240, 220),
                                         (190, 80, 70)))
    _clouds(p, 0, 3, (0.1, 0.3), 22)
    _ground(p, (150, 200, 100), (110, 170, 80), "grass")
    for i in range(5):
        y = p.ground - 30 * p.u + i * 22 * p.u
        p.draws[2].line([(0, y), (p.w, y)], fill=p.c((215, 195, 110)), width=max(1, round(3 * p.u)))


def _paint_town(p: Painter) -> None:
    _town_row(p, 0, p.horizon + 20 * p.u, 0.7)
    p.rect(0, (0, p.horizon + 20 * p.u, p.w, p.h), p.c((170, 190, 210)))
    _town_row(p, 1, p.ground - 38 * p.u, 1.3, tall=True)
    _clouds(p, 0, 3, (0.08, 0.3), 22)
    _ground(p, (215, 200, 185), (190, 175, 160), "cobble")


def _paint_grass(p: Painter) -> None:
    p.ridge(0, p.horizon, [(1, 25 * p.u, 0.0), (2, 12 * p.u, 1.0)], p.c((130, 185, 120)))
    for i in range(3):
        x = (i + 0.5) * p.w / 3
        p.wrap(x, lambda xx: _tree(p, 1, xx, p.horizon + 25 * p.u, 34 * p.u))
    p.ridge(1, p.horizon + 30 * p.u, [(1, 10 * p.u, 1.5), (3, 6 * p.u, 0.2)], p.c((120, 190, 90)))
    _clouds(p, 0, 3, (0.1, 0.35), 26)
    _ground(p, (130, 200, 95), (95, 170, 75), "grass")


def _paint_street(p: Painter) -> None:
    p.rect(0, (0, p.horizon - 10 * p.u, p.w, p.h), p.c((180, 190, 205)))
    _town_row(p, 0, p.horizon, 0.8, tall=True)
    _town_row(p, 1, p.ground - 45 * p.u, 1.5, tall=True)
    d = p.draws[1]
    for i in range(3):
        x = (i + 0.5) * p.w / 3
        def lamp(xx: float) -> None:
            d.rectangle([xx - 3 * p.u, p.ground - 170 * p.u, xx + 3 * p.u, p.ground - 40 * p.u],
                        fill=p.c((70, 70, 80)))
            r = 10 * p.u
            glow = (255, 230, 150, 255) if p.night else p.c((240, 240, 220))
            d.ellipse([xx - r, p.ground - 180 * p.u - r, xx + r, p.ground - 180 * p.u + r], fill=glow)
            if p.night:
                p.glow(1, (xx - 4 * r, p.ground - 180 * p.u - 4 * r, xx + 4 * r, p.ground - 180 * p.u + 4 * r),
                       (255, 220, 140, 50))
        p.wrap(x, lamp)
    _ground(p, (120, 120, 130), (95, 95, 105), "road")


@dataclass(frozen=True, slots=True)
class Bed:
    """Where a scene's bed is on its mid layer: ``left`` and ``length`` in frame widths, the
    mattress ``top`` above the ground and the ``pillow``'s centre from the left end in
    frame heights (the painter's unit is a 480th of the height)."""

    left: float
    length: float
    top: float
    pillow: float


BEDROOM_BED = Bed(left=0.08, length=0.33, top=80 / 480, pillow=44 / 480)
BEDS: dict[str, Bed] = {"bedroom": BEDROOM_BED}
"""The scenes that draw a bed, and where it is."""


def _paint_bedroom(p: Painter) -> None:
    _room(p, (250, 225, 220), ((200, 160, 120), (180, 140, 100)))
    d = p.draws[1]
    bed = BEDROOM_BED
    bx, by = p.w * bed.left, p.ground - bed.top * p.h
    d.rectangle([bx, by - 70 * p.u, bx + 14 * p.u, p.ground - 20 * p.u], fill=p.c((150, 100, 70)))
    _rounded(d, [bx, by, bx + p.w * bed.length, by + 45 * p.u], radius=10 * p.u, fill=p.c((240, 240, 250)))
    _rounded(d, [bx + p.w * 0.1, by - 8 * p.u, bx + p.w * bed.length, by + 40 * p.u], radius=10 * p.u,
                        fill=p.c((150, 180, 230)))
    _rounded(d, [bx + 18 * p.u, by - 14 * p.u, bx + 70 * p.u, by + 8 * p.u], radius=8 * p.u,
                        fill=p.c((255, 255, 255)))
    d.rectangle([bx, by + 45 * p.u, bx + p.w * bed.length, p.ground - 20 * p.u], fill=p.c((150, 100, 70)))
    _shelves(p, 1, p.w * 0.85, p.w * 0.12, p.ground - 200 * p.u, 3)
    d.rectangle([p.w * 0.3, p.h * 0.15, p.w * 0.4, p.h * 0.3], fill=p.c((255, 250, 240)), outline=p.c((150, 110, 80)),
                width=max(1, round(4 * p.u)))
    p.draws[2].ellipse([p.w * 0.35, p.ground - 5 * p.u, p.w * 0.75, p.ground + 40 * p.u], fill=p.c((230, 150, 160)))


def _paint_forest(p: Painter) -> None:
    for i in range(9):
        x = (i + 0.5) * p.w / 9
        p.wrap(x, lambda xx: _tree(p, 0, xx, p.horizon + 30 * p.u, 40 * p.u, pine=True,
                                   colors=((80, 130, 100), (70, 115, 90))))
    p.rect(0, (0, p.horizon + 30 * p.u, p.w, p.h), p.c((70, 115, 90)))
    for i in range(5):
        x = (i + 0.2) * p.w / 5
        p.wrap(x, lambda xx, pine=i % 2 == 0: _tree(p, 1, xx, p.ground - 30 * p.u, 70 * p.u, pine=pine,  # type: ignore[misc]  # lambda defaults bind the loop's values
                                                    colors=((50, 120, 70), (40, 100, 60))))
    _ground(p, (110, 150, 80), (80, 120, 60), "grass")


def _paint_beach(p: Painter) -> None:
    _water(p, 0, p.horizon, p.horizon + 50 * p.u, (70, 150, 210), (200, 230, 250))
    _clouds(p, 0, 3, (0.1, 0.35), 24)
    d = p.draws[1]
    for i in range(2):
        x = (i + 0.3) * p.w / 2
        def palm(xx: float) -> None:
            base = p.ground - 40 * p.u
            d.line([(xx, base), (xx + 20 * p.u, base - 150 * p.u)], fill=p.c((150, 110, 70)),
                   width=max(2, round(9 * p.u)))
            for a in range(5):
                ang = math.radians(200 + a * 35)
                tip = (xx + 20 * p.u + 70 * p.u * math.cos(ang), base - 150 * p.u - 50 * p.u * math.sin(ang) * -1)
                d.line([(xx + 20 * p.u, base - 150 * p.u), tip], fill=p.c((60, 150, 80)), width=max(2, round(8 * p.u)))
        p.wrap(x, palm)
    p.rect(1, (0, p.horizon + 50 * p.u, p.w, p.ground - 40 * p.u), p.c((120, 190, 225)))
    _ground(p, (245, 225, 170), (230, 205, 150), "sand")


def _paint_sea(p: Painter) -> None:
    _clouds(p, 0, 3, (0.1, 0.35), 26)
    _water(p, 0, p.horizon, p.horizon + 60 * p.u, (60, 130, 200), (190, 225, 250))
    d = p.draws[1]
    def boat(xx: float) -> None:
        y = p.horizon + 40 * p.u
        hull = [(xx - 40 * p.u, y), (xx + 40 * p.u, y), (xx + 28 * p.u, y + 15 * p.u), (xx - 28 * p.u, y + 15 * p.u)]
        d.polygon(hull, fill=p.c((240, 240, 240)))
        d.polygon([(xx, y - 55 * p.u), (xx, y - 3 * p.u), (xx + 35 * p.u, y - 3 * p.u)], fill=p.c((250, 250, 245)))
    p.wrap(p.w * 0.3, boat)
    _water(p, 1, p.horizon + 60 * p.u, p.ground - 40 * p.u, (50, 120, 190), (170, 215, 245))
    _ground(p, (170, 140, 110), (140, 115, 90), "planks")


def _paint_bakery(p: Painter) -> None:
    _room(p, (250, 235, 205), ((190, 150, 110), (170, 130, 95)))
    _counter(p, 1, p.w * 0.05, p.w * 0.5, p.ground - 110 * p.u, (200, 140, 90))
    d = p.draws[1]
    for i in range(6):
        x = p.w * 0.08 + i * p.w * 0.065
        d.ellipse([x, p.ground - 135 * p.u, x + 38 * p.u, p.ground - 112 * p.u], fill=p.c((215, 150, 80)),
                  outline=p.c((160, 100, 50)))
    _shelves(p, 0, p.w * 0.05, p.w * 0.45, p.h * 0.1, 2)


def _paint_station(p: Painter) -> None:
    _town_row(p, 0, p.horizon, 0.7)
    d = p.draws[1]
    ty = p.ground - 150 * p.u
    _rounded(d, [-20, ty, p.w + 20, ty + 95 * p.u], radius=12 * p.u, fill=p.c((90, 150, 120)))
    for i in range(8):
        x = i * p.w / 8 + 12 * p.u
        _rounded(d, [x, ty + 15 * p.u, x + 50 * p.u, ty + 50 * p.u], radius=5 * p.u,
                            fill=p.lit((200, 225, 240)))
    d.rectangle([0, ty + 80 * p.u, p.w, ty + 88 * p.u], fill=p.c((240, 230, 200)))
    d.rectangle([0, 0, p.w, 30 * p.u], fill=p.c((140, 60, 55)))
    for i in range(4):
        x = (i + 0.5) * p.w / 4
        d.rectangle([x - 5 * p.u, 30 * p.u, x + 5 * p.u, p.ground - 40 * p.u], fill=p.c((120, 60, 55)))
    _ground(p, (200, 195, 185), (170, 165, 160))
    p.draws[2].rectangle([0, p.ground - 38 * p.u, p.w, p.ground - 30 * p.u], fill=p.c((240, 210, 60)))


def _paint_park(p: Painter) -> None:
    _town_row(p, 0, p.horizon + 10 * p.u, 0.6)
    for i in range(4):
        x = (i + 0.5) * p.w / 4
        p.wrap(x, lambda xx: _tree(p, 1, xx, p.ground - 35 * p.u, 48 * p.u))
    d = p.draws[1]
    def bench(xx: float) -> None:
        y = p.ground - 60 * p.u
        d.rectangle([xx, y, xx + 90 * p.u, y + 8 * p.u], fill=p.c((170, 110, 70)))
        d.rectangle([xx, y - 25 * p.u, xx + 90 * p.u, y - 18 * p.u], fill=p.c((170, 110, 70)))
        for lx in (xx + 5 * p.u, xx + 80 * p.u):
            d.rectangle([lx, y, lx + 5 * p.u, y + 25 * p.u], fill=p.c((60, 60, 60)))
    p.wrap(p.w * 0.62, bench)
    _clouds(p, 0, 3, (0.08, 0.3), 22)
    _ground(p, (140, 205, 105), (110, 180, 85), "grass")
    p.draws[2].rectangle([0, p.ground - 12 * p.u, p.w, p.ground + 12 * p.u], fill=p.c((225, 205, 170)))


def _paint_river(p: Painter) -> None:
    p.ridge(0, p.horizon, [(1, 20 * p.u, 1.0), (3, 8 * p.u, 0.0)], p.c((120, 170, 140)))
    _water(p, 1, p.horizon + 20 * p.u, p.ground - 30 * p.u, (80, 160, 210), (200, 235, 250))
    d = p.draws[1]
    def bridge(xx: float) -> None:
        y = p.horizon + 10 * p.u
        d.arc([xx - 120 * p.u, y - 40 * p.u, xx + 120 * p.u, y + 80 * p.u], 180, 360, fill=p.c((190, 80, 60)),
              width=max(2, round(10 * p.u)))
    p.wrap(p.w * 0.5, bridge)
    _ground(p, (140, 200, 100), (110, 170, 80), "grass")


def _paint_mountain(p: Painter) -> None:
    p.ridge(0, p.horizon - 40 * p.u, [(1, 70 * p.u, 0.0), (2, 40 * p.u, 1.0), (5, 12 * p.u, 0.4)],
            p.c((130, 140, 170)))
    xs = np.linspace(0, p.w, 97)
    ys = p.horizon - 40 * p.u - p.periodic(xs, [(1, 70 * p.u, 0.0), (2, 40 * p.u, 1.0), (5, 12 * p.u, 0.4)])
    peak = int(np.argmin(ys))
    px, py = float(xs[peak]), float(ys[peak])
    p.draws[0].polygon([(px - 30 * p.u, py + 28 * p.u), (px, py - 2), (px + 30 * p.u, py + 28 * p.u)],
                       fill=p.c((245, 245, 250)))
    for i in range(6):
        x = (i + 0.5) * p.w / 6
        p.wrap(x, lambda xx: _tree(p, 1, xx, p.ground - 40 * p.u, 40 * p.u, pine=True))
    p.ridge(1, p.ground - 30 * p.u, [(2, 10 * p.u, 0.0)], p.c((90, 140, 90)))
    _ground(p, (150, 140, 120), (120, 110, 95))


def _paint_school(p: Painter) -> None:
    d = p.draws[0]
    top = p.horizon - 120 * p.u
    d.rectangle([0, top, p.w, p.ground], fill=p.c((240, 235, 225)))
    for r in range(3):
        for i in range(10):
            x = i * p.w / 10 + 10 * p.u
            y = top + 20 * p.u + r * 45 * p.u
            d.rectangle([x, y, x + 45 * p.u, y + 28 * p.u], fill=p.lit((170, 210, 235)))
    cx, cy, radius = p.w * 0.5, top - 5 * p.u, 22 * p.u
    d.rectangle([cx - 35 * p.u, top - 40 * p.u, cx + 35 * p.u, top], fill=p.c((240, 235, 225)))
    d.ellipse([cx - radius, cy - radius - 10 * p.u, cx + radius, cy + radius - 10 * p.u], fill=p.c((255, 255, 255)),
              outline=p.c((80, 80, 80)), width=max(1, round(3 * p.u)))
    for i in range(4):
        x = (i + 0.5) * p.w / 4
        p.wrap(x, lambda xx: _tree(p, 1, xx, p.ground - 35 * p.u, 40 * p.u, colors=((240, 170, 190), (230, 150, 175))))
    _ground(p, (210, 180, 140), (190, 160, 120))


def _paint_classroom(p: Painter) -> None:
    _room(p, (235, 230, 210), ((190, 160, 120), (170, 140, 100)))
    d = p.draws[0]
    d.rectangle([p.w * 0.06, p.h * 0.12, p.w * 0.48, p.h * 0.42], fill=p.c((40, 90, 70)),
                outline=p.c((150, 110, 70)), width=max(2, round(8 * p.u)))
    d.line([(p.w * 0.1, p.h * 0.2), (p.w * 0.25, p.h * 0.2)], fill=p.c((240, 240, 240)), width=max(1, round(2 * p.u)))
    d.line([(p.w * 0.1, p.h * 0.26), (p.w * 0.3, p.h * 0.26)], fill=p.c((240, 240, 240)), width=max(1, round(2 * p.u)))
    for i in range(3):
        _table(p, 1, p.w * (0.05 + 0.33 * i), p.w * 0.18, (200, 160, 110))


def _paint_cafe(p: Painter) -> None:
    _room(p, (215, 190, 160), ((150, 100, 70), (130, 85, 60)))
    _counter(p, 1, p.w * 0.02, p.w * 0.3, p.ground - 110 * p.u, (120, 80, 55))
    d = p.draws[1]
    for i in range(3):
        x = p.w * (0.06 + 0.07 * i)
        d.rectangle([x, p.ground - 135 * p.u, x + 18 * p.u, p.ground - 112 * p.u], fill=p.c((250, 250, 245)))
    _table(p, 1, p.w * 0.7, p.w * 0.2)
    for i in range(3):
        x = (i + 0.5) * p.w / 3
        d.line([(x, 0), (x, 60 * p.u)], fill=p.c((60, 50, 40)), width=max(1, round(2 * p.u)))
        d.pieslice([x - 25 * p.u, 45 * p.u, x + 25 * p.u, 95 * p.u], 180, 360, fill=p.lit((230, 200, 120)))


def _paint_kitchen(p: Painter) -> None:
    _room(p, (235, 240, 230), ((220, 220, 215), (200, 200, 195)))
    _counter(p, 1, p.w * 0.02, p.w * 0.55, p.ground - 110 * p.u, (250, 250, 245))
    d = p.draws[1]
    d.rectangle([p.w * 0.2, p.ground - 125 * p.u, p.w * 0.32, p.ground - 118 * p.u], fill=p.c((50, 50, 55)))
    d.ellipse([p.w * 0.4, p.ground - 150 * p.u, p.w * 0.47, p.ground - 118 * p.u], fill=p.c((200, 80, 70)))
    for i in range(4):
        x = p.w * (0.05 + 0.12 * i)
        d.rectangle([x, p.h * 0.12, x + p.w * 0.1, p.h * 0.3], fill=p.c((250, 250, 240)), outline=p.c((180, 180, 170)),
                    width=max(1, round(2 * p.u)))


def _paint_library(p: Painter) -> None:
    _room(p, (220, 200, 170), ((160, 120, 85), (140, 100, 70)), window=False)
    for i in range(4):
        _shelves(p, 0, p.w * (0.02 + 0.25 * i), p.w * 0.22, p.h * 0.08, 4)
    _table(p, 1, p.w * 0.6, p.w * 0.25)


def _paint_rooftop(p: Painter) -> None:
    _town_row(p, 0, p.horizon + 40 * p.u, 0.6, tall=True)
    _clouds(p, 0, 3, (0.08, 0.3), 24)
    d = p.draws[1]
    d.rectangle([0, p.ground - 110 * p.u, p.w, p.ground - 102 * p.u], fill=p.c((140, 150, 160)))
    d.rectangle([0, p.ground - 70 * p.u, p.w, p.ground - 65 * p.u], fill=p.c((140, 150, 160)))
    for i in range(16):
        x = i * p.w / 16
        d.rectangle([x, p.ground - 110 * p.u, x + 4 * p.u, p.ground - 30 * p.u], fill=p.c((140, 150, 160)))
    _ground(p, (170, 175, 180), (150, 155, 160))


def _paint_shrine(p: Painter) -> None:
    for i in range(7):
        x = (i + 0.5) * p.w / 7
        p.wrap(x, lambda xx: _tree(p, 0, xx, p.horizon + 20 * p.u, 36 * p.u, pine=True,
                                   colors=((70, 120, 90), (60, 105, 80))))
    p.rect(0, (0, p.horizon + 20 * p.u, p.w, p.h), p.c((80, 120, 90)))
    d = p.draws[1]
    def torii(xx: float) -> None:
        red = p.c((210, 60, 45))
        top = p.ground - 230 * p.u
        for lx in (xx - 80 * p.u, xx + 70 * p.u):
            d.rectangle([lx, top + 20 * p.u, lx + 12 * p.u, p.ground - 35 * p.u], fill=red)
        d.polygon([(xx - 115 * p.u, top), (xx + 115 * p.u, top), (xx + 105 * p.u, top + 18 * p.u),
                   (xx - 105 * p.u, top + 18 * p.u)], fill=p.c((50, 40, 40)))
        d.rectangle([xx - 100 * p.u, top + 45 * p.u, xx + 100 * p.u, top + 57 * p.u], fill=red)
    p.wrap(p.w * 0.5, torii)
    _ground(p, (215, 205, 185), (195, 185, 165), "sand")


def _paint_garden(p: Painter) -> None:
    p.ridge(0, p.horizon, [(1, 12 * p.u, 0.5)], p.c((140, 190, 130)))
    d = p.draws[1]
    for i in range(5):
        x = (i + 0.5) * p.w / 5
        p.wrap(x, lambda xx: _tree(p, 1, xx, p.ground - 40 * p.u, 30 * p.u,
                                   colors=((250, 190, 210), (240, 170, 195))))
    d.rectangle([0, p.ground - 60 * p.u, p.w, p.ground - 40 * p.u], fill=p.c((120, 170, 90)))
    _clouds(p, 0, 3, (0.08, 0.3), 22)
    _ground(p, (125, 195, 95), (100, 170, 80), "grass")
    cols = ((250, 120, 140), (255, 220, 90), (180, 130, 230), (255, 255, 255))
    for i in range(18):
        x = (i + 0.5) * p.w / 18
        r = 6 * p.u
        y = p.ground - 40 * p.u
        col = cols[i % len(cols)]
        p.draws[1].ellipse([x - r, y - r, x + r, y + r], fill=p.c(col))


RECIPES: dict[str, Callable[[Painter], None]] = {
    "sky": _paint_sky, "countryside": _paint_countryside, "town": _paint_town, "grass": _paint_grass,
    "street": _paint_street, "bedroom": _paint_bedroom, "forest": _paint_forest, "beach": _paint_beach,
    "sea": _paint_sea, "bakery": _paint_bakery, "station": _paint_station, "park": _paint_park,
    "river": _paint_river, "mountain": _paint_mountain, "school": _paint_school, "classroom": _paint_classroom,
    "cafe": _paint_cafe, "kitchen": _paint_kitchen, "library": _paint_library, "rooftop": _paint_rooftop,
    "shrine": _paint_shrine, "garden": _paint_garden,
}


def _reduced(layer: Image.Image, k: int) -> Image.Image:
    """An RGBA layer ``k`` times smaller, averaged with premultiplied alpha (straight alpha
    would darken the edges of shapes with the colour of the empty pixels around them)."""
    return layer.convert("RGBa").reduce(k).convert("RGBA") if k > 1 else layer


@lru_cache(maxsize=48)
def build_scene(location: str, time: str, height: int, width: int) -> Scene:
    """The layers of a built-in location (cached: a clip reuses them for every frame)."""
    spec = LOCATION_BY_NAME.get(location, LOCATION_BY_NAME["town"])
    k = SUPERSAMPLE
    painter = Painter(width * k, height * k, time, spec.setting, spec.name, k)
    RECIPES[spec.name](painter)
    sky = _sky(width * k, height * k, time, spec.name, k).reduce(k)
    far, mid, near = (_reduced(layer, k) for layer in painter.layers)
    if spec.setting == Setting.INDOOR:
        sky = far.convert("RGB")  # the wall is the backdrop; translucent glows on it stay lit
    bands = (Band.from_layer(far), Band.from_layer(mid), Band.from_layer(near))
    return Scene(sky, bands, GROUND_FRACTION[spec.setting], spec.setting)


def upright(image: Image.Image) -> Image.Image:
    """``image`` turned as its EXIF orientation tag says: a camera, or another program, may
    store a photo sideways with a tag saying "rotate 90°", and a photo viewer shows it upright.
    A tag that can't be read leaves the picture as stored: drawn sideways is better than not at all."""
    try:
        return ImageOps.exif_transpose(image)
    except (ValueError, TypeError, KeyError, SyntaxError, OSError):
        return image


@lru_cache(maxsize=16)
def image_scene(path: str, mtime_ns: int, time: str, height: int, width: int, margin: float) -> Scene:
    """A user's background image, cover-fitted to the frame plus a pan margin, as one layer.

    ``mtime_ns`` is part of the cache key so an edited file is read again. Raises OSError
    (or Pillow's errors) when the file can't be read; callers fall back to a built-in scene.
    The picture is drawn the way up a photo viewer shows it (:func:`upright`).
    """
    with Image.open(path) as src:
        src.load()
        img = upright(src).convert("RGB")
    target_w = round(width * (1.0 + margin))
    k = max(target_w / img.width, height / img.height)
    resized = img.resize((max(target_w, round(img.width * k)), max(height, round(img.height * k))),
                         Image.Resampling.BILINEAR)
    left = (resized.width - target_w) // 2
    top = (resized.height - height) // 2
    cropped = resized.crop((left, top, left + target_w, top + height))
    tint = TINTS.get(time, TINTS["day"])
    if tint != (1.0, 1.0, 1.0):
        arr = np.asarray(cropped).astype(np.float32) * np.array(tint, dtype=np.float32)
        cropped = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    empty = Band(0, None, width)
    return Scene(cropped, (empty, empty, empty), GROUND_FRACTION[Setting.OUTDOOR], Setting.OUTDOOR)
