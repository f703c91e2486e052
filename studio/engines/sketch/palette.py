"""Colours of a figure: the look's colours, shaded and tinted for the scene's light."""

from __future__ import annotations

from dataclasses import dataclass

from studio.engines.sketch.look import RGB, Look

Tint = tuple[float, float, float]


def shade(c: RGB, k: float) -> tuple[int, int, int]:
    return (min(255, int(c[0] * k)), min(255, int(c[1] * k)), min(255, int(c[2] * k)))


def mix(a: RGB, b: RGB, w: float) -> tuple[int, int, int]:
    return (int(a[0] + (b[0] - a[0]) * w), int(a[1] + (b[1] - a[1]) * w), int(a[2] + (b[2] - a[2]) * w))


def apply_tint(c: RGB, tint: Tint) -> tuple[int, int, int]:
    return (min(255, int(c[0] * tint[0])), min(255, int(c[1] * tint[1])), min(255, int(c[2] * tint[2])))


@dataclass(frozen=True, slots=True)
class Palette:
    """The look's colours under the scene's light, with outline shades."""

    skin: RGB
    skin_line: RGB
    hair: RGB
    hair_line: RGB
    hair_shine: RGB
    eye: RGB
    eye_dark: RGB
    outfit: RGB
    outfit_line: RGB
    accent: RGB
    accent_line: RGB
    shoe: RGB
    white: RGB
    ink: RGB
    blush: tuple[int, int, int, int]
    mouth: RGB
    tint: Tint

    @classmethod
    def build(cls, look: Look, tint: Tint) -> Palette:
        def t(c: RGB) -> tuple[int, int, int]:
            return apply_tint(c, tint)

        hair = t(look.hair_color)
        return cls(
            skin=t(look.skin_color), skin_line=t(shade(look.skin_color, 0.62)),
            hair=hair, hair_line=t(shade(look.hair_color, 0.45)), hair_shine=t(mix(look.hair_color, (255, 255, 255),
                                                                                   0.35)),
            eye=t(look.eye_color), eye_dark=t(shade(look.eye_color, 0.3)),
            outfit=t(look.outfit_color), outfit_line=t(shade(look.outfit_color, 0.5)),
            accent=t(look.outfit_accent), accent_line=t(shade(look.outfit_accent, 0.5)),
            shoe=t(mix(shade(look.outfit_color, 0.5), (70, 45, 35), 0.5)), white=t((255, 255, 255)),
            ink=t((50, 35, 40)), blush=(*mix(t(look.skin_color), t((255, 120, 140)), 0.38), 255),
            mouth=t((170, 60, 70)), tint=tint,
        )

    def tinted(self, c: RGB) -> tuple[int, int, int]:
        return apply_tint(c, self.tint)


