"""Small props that dress the ground of a take (see :mod:`variation`): flat shapes drawn
on the background before the character, moving with the near layer of the scenery."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from studio.engines.sketch.variation import PropPlacement, SmallProp

PROP_UNIT = 0.09
"""A prop's size as a fraction of the figure unit."""


def _flower(draw: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    draw.line([(x, y), (x, y - 2.2 * r)], fill=(70, 140, 70), width=max(1, round(r / 3)))
    for dx, dy in ((-r, 0.0), (r, 0.0), (0.0, -r), (0.0, r)):
        cx, cy = x + dx * 0.6, y - 2.2 * r + dy * 0.6
        draw.ellipse([cx - r * 0.55, cy - r * 0.55, cx + r * 0.55, cy + r * 0.55], fill=(240, 150, 190))
    draw.ellipse([x - r * 0.4, y - 2.6 * r, x + r * 0.4, y - 1.8 * r], fill=(250, 220, 90))


def _stone(draw: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    draw.ellipse([x - 1.4 * r, y - 1.1 * r, x + 1.4 * r, y + 0.2 * r], fill=(128, 124, 132), outline=(90, 86, 96))


def _leaf(draw: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    draw.polygon([(x - 1.3 * r, y - 0.2 * r), (x, y - 0.9 * r), (x + 1.3 * r, y - 0.2 * r), (x, y + 0.3 * r)],
                 fill=(215, 130, 50))


def _lantern(draw: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    draw.line([(x, y), (x, y - 5 * r)], fill=(60, 50, 45), width=max(1, round(r / 2.5)))
    draw.rounded_rectangle([x - 0.9 * r, y - 7 * r, x + 0.9 * r, y - 4.8 * r], radius=max(1, round(r / 2)),
                           fill=(250, 200, 110), outline=(120, 70, 40))


def _bird(draw: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    body = [x - r, y - 1.2 * r, x + r, y]
    draw.ellipse(body, fill=(90, 100, 140))
    draw.ellipse([x + 0.5 * r, y - 1.7 * r, x + 1.3 * r, y - 0.9 * r], fill=(90, 100, 140))
    draw.polygon([(x + 1.3 * r, y - 1.4 * r), (x + 1.8 * r, y - 1.25 * r), (x + 1.3 * r, y - 1.1 * r)],
                 fill=(240, 170, 60))


_DRAW = {SmallProp.FLOWER: _flower, SmallProp.STONE: _stone, SmallProp.LEAF: _leaf,
         SmallProp.LANTERN: _lantern, SmallProp.BIRD: _bird}


def draw_small_props(img: Image.Image, props: Sequence[PropPlacement], near_shift: float, ground_y: float,
                     figure_unit: float) -> None:
    """Draw ``props`` on ``img`` (in place); ``near_shift`` is the near layer's shift in frame widths."""
    draw = ImageDraw.Draw(img)
    width = img.width
    for prop in props:
        x = (0.5 + prop.x - near_shift) * width
        r = PROP_UNIT * figure_unit * prop.size
        if -3 * r <= x <= width + 3 * r:
            _DRAW[prop.kind](draw, x, ground_y + 0.4 * r, r)
