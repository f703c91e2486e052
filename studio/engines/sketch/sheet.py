"""A contact sheet of every motion (one labelled mid-clip frame each), for people to judge the drawing."""

from __future__ import annotations

import math
import os
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from studio.core.instruction import Instruction
from studio.engines.base import GenerationContext
from studio.engines.catalog.sketch import SketchSettings
from studio.engines.sketch.defaults import load_default_cast
from studio.engines.sketch.engine import SketchEngine
from studio.engines.sketch.render import ClipRenderer, plan_from_conditioning
from studio.engines.sketch.vocabulary import MOTIONS

SHEET_FRAMES = 17
LABEL_HEIGHT = 16
COLUMNS = 8

FITTING_PLACE: dict[str, tuple[str, str]] = {
    "fly on broomstick": ("sky", "day"), "hold broom": ("street", "night"), "sweep": ("bakery", "day"),
    "sit on railing": ("town", "day"), "lie down": ("grass", "day"), "sleep": ("bedroom", "night"),
    "turn head": ("town", "sunset"), "swim": ("sea", "day"), "cook": ("kitchen", "day"), "read": ("library", "day"),
    "write": ("classroom", "day"), "eat": ("bakery", "day"), "drink": ("cafe", "sunset"), "pray": ("shrine", "day"),
    "climb": ("forest", "day"), "look around": ("mountain", "day"), "play": ("park", "day"),
    "dance": ("beach", "sunset"), "sing": ("rooftop", "night"), "walk": ("countryside", "day"),
    "run": ("street", "day"), "meet people": ("station", "day"), "talk": ("cafe", "day"), "think": ("river", "day"),
    "shiver": ("mountain", "night"), "carry": ("town", "day"), "cry": ("school", "sunset"),
    "stretch": ("garden", "day"), "wave": ("river", "sunset"), "hug": ("park", "sunset"),
}
OTHER_PLACES = ("park", "garden", "grass", "town", "school", "beach", "countryside", "rooftop", "shrine", "street")


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1 has no sized default font
        return ImageFont.load_default()


def render_contact_sheet(out_path: Path, size: tuple[int, int] = (120, 180)) -> Path:
    """Render one mid-clip frame of every motion into a labelled grid PNG at ``out_path``.

    ``size`` is each cell's (height, width), at least 32 x 32. Characters cycle through the
    default cast; each motion is shown in a place that suits it.
    """
    height, width = max(32, int(size[0])), max(32, int(size[1]))
    engine = SketchEngine()
    engine.load()
    cast = load_default_cast()
    settings = SketchSettings(height=height, width=width, frames=SHEET_FRAMES, fps=8.0)
    context = GenerationContext(cast=cast)
    rows = math.ceil(len(MOTIONS) / COLUMNS)
    sheet = Image.new("RGB", (COLUMNS * width, rows * (height + LABEL_HEIGHT)), (250, 247, 240))
    draw = ImageDraw.Draw(sheet)
    font = _font(11)
    for i, motion in enumerate(MOTIONS):
        place, time = FITTING_PLACE.get(motion.name, (OTHER_PLACES[i % len(OTHER_PLACES)], "day"))
        who = cast[i % len(cast)].name if motion.name not in ("fly on broomstick", "hold broom") else "Qiqi"
        instruction = Instruction(raw=f"{who} {motion.name} {place} {time}", character=who, motion=motion.name,
                                  background=place, time_of_day=time)
        prediction = engine.predict(context, instruction, settings, seed=i)
        renderer = ClipRenderer(plan_from_conditioning(prediction.conditioning))
        frame = Image.fromarray(renderer.frame(SHEET_FRAMES // 2))
        x, y = (i % COLUMNS) * width, (i // COLUMNS) * (height + LABEL_HEIGHT)
        sheet.paste(frame, (x, y))
        draw.text((x + 4, y + height + 2), f"{motion.name} ({who})", fill=(60, 50, 60), font=font)
    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    partial = out_path.with_name(f".{out_path.name}.partial")
    try:  # a full disk or a kill leaves the earlier sheet, never half a new one
        sheet.save(partial, format="PNG")
        os.replace(partial, out_path)
    finally:
        partial.unlink(missing_ok=True)
    return out_path
