"""Small props that dress the ground of a take (see :mod:`variation`): flat shapes drawn
on the background before the character, moving with the near layer of the scenery."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from studio.engines.sketch.variation import PropPlacement, SmallProp

PROP_UNIT = 0.09
"""A prop's size as a fraction of the figure unit."""


Tint = tuple[float, float, float]
RGB = tuple[int, int, int]


def _lit(rgb: RGB, tint: Tint) -> RGB:
    """``rgb`` in the scene's light (the same multiplication as the scenery's colours)."""
    return min(255, int(rgb[0] * tint[0])), min(255, int(rgb[1] * tint[1])), min(255, int(rgb[2] * tint[2]))


def _flower(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, tint: Tint) -> None:
    draw.line([(x, y), (x, y - 2.2 * r)], fill=_lit((70, 140, 70), tint), width=max(1, round(r / 3)))
    for dx, dy in ((-r, 0.0), (r, 0.0), (0.0, -r), (0.0, r)):
        cx, cy = x + dx * 0.6, y - 2.2 * r + dy * 0.6
        draw.ellipse([cx - r * 0.55, cy - r * 0.55, cx + r * 0.55, cy + r * 0.55], fill=_lit((240, 150, 190), tint))
    draw.ellipse([x - r * 0.4, y - 2.6 * r, x + r * 0.4, y - 1.8 * r], fill=_lit((250, 220, 90), tint))


def _stone(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, tint: Tint) -> None:
    draw.ellipse([x - 1.4 * r, y - 1.1 * r, x + 1.4 * r, y + 0.2 * r], fill=_lit((128, 124, 132), tint),
                 outline=_lit((90, 86, 96), tint))


def _leaf(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, tint: Tint) -> None:
    draw.polygon([(x - 1.3 * r, y - 0.2 * r), (x, y - 0.9 * r), (x + 1.3 * r, y - 0.2 * r), (x, y + 0.3 * r)],
                 fill=_lit((215, 130, 50), tint))


def _lantern(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, tint: Tint) -> None:
    """A lantern glows: its paper keeps its own light at any time of day."""
    draw.line([(x, y), (x, y - 5 * r)], fill=_lit((60, 50, 45), tint), width=max(1, round(r / 2.5)))
    draw.rounded_rectangle([x - 0.9 * r, y - 7 * r, x + 0.9 * r, y - 4.8 * r], radius=max(1, round(r / 2)),
                           fill=(250, 200, 110), outline=_lit((120, 70, 40), tint))


def _bird(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, tint: Tint) -> None:
    body = [x - r, y - 1.2 * r, x + r, y]
    draw.ellipse(body, fill=_lit((90, 100, 140), tint))
    draw.ellipse([x + 0.5 * r, y - 1.7 * r, x + 1.3 * r, y - 0.9 * r], fill=_lit((90, 100, 140), tint))
    draw.polygon([(x + 1.3 * r, y - 1.4 * r), (x + 1.8 * r, y - 1.25 * r), (x + 1.3 * r, y - 1.1 * r)],
                 fill=_lit((240, 170, 60), tint))


_DRAW = {SmallProp.FLOWER: _flower, SmallProp.STONE: _stone, SmallProp.LEAF: _leaf,
         SmallProp.LANTERN: _lantern, SmallProp.BIRD: _bird}


def draw_small_props(img: Image.Image, props: Sequence[PropPlacement], near_shift: float, ground_y: float,
                     figure_unit: float, tint: Tint = (1.0, 1.0, 1.0)) -> None:
    """Draw ``props`` on ``img`` (in place); ``near_shift`` is the near layer's shift in frame widths,
    ``tint`` the scene's light (props at night are as dark as the ground they lie on)."""
    draw = ImageDraw.Draw(img)
    width = img.width
    for prop in props:
        x = (0.5 + prop.x - near_shift) * width
        r = PROP_UNIT * figure_unit * prop.size
        if -3 * r <= x <= width + 3 * r:
            _DRAW[prop.kind](draw, x, ground_y + 0.4 * r, r, tint)
