"""Weather an instruction names: the sketch world draws none, so a turn says what it leaves out.

The scenery (:mod:`studio.engines.sketch.scenery`) draws places at three lights (day, sunset,
night) and no rain, snow, fog or storm. A turn that names weather ("Qiqi walks in the rain",
"Background: rainy street", "雨の中を歩く") is drawn dry, with a warning that says so, rather
than drop the weather without a word. Weather written as the subject of a verb ("snow falls",
"a storm hits the town", "lightning strikes") is no motion of the character's: the verb is taken
out before the motion is read (:func:`without_weather_verbs`), so that falling snow is no fall
and a storm that hits is no punch.
"""

from __future__ import annotations

import re
from collections.abc import Callable

WEATHER_WORDS: dict[str, str] = {
    **dict.fromkeys(("rain", "rains", "rained", "raining", "rainy", "rainfall", "raindrop", "raindrops",
                     "downpour", "drizzle", "drizzles", "drizzling", "drizzled"), "rain"),
    **dict.fromkeys(("snow", "snows", "snowed", "snowing", "snowy", "snowfall", "snowflake", "snowflakes",
                     "snowstorm", "blizzard", "sleet", "hail", "hailing", "hailstorm"), "snow"),
    **dict.fromkeys(("fog", "foggy", "mist", "misty"), "fog"),
    **dict.fromkeys(("storm", "stormy", "thunderstorm", "thunderstorms", "thunder", "lightning",
                     "typhoon", "hurricane", "gale"), "storm"),
    **dict.fromkeys(("windy",), "wind"),
}
"""English words of weather (as written, lower case) -> the weather they name. "Wind" alone is
left out ("wind the clock"), and so is "storms" ("storms off" is a way of leaving), and so are
words of light and time the world does draw ("sunny" is day)."""

CJK_WEATHER: tuple[tuple[str, str], ...] = (
    ("暴风雨", "storm"), ("雷雨", "storm"), ("雷", "storm"), ("嵐", "storm"), ("台風", "storm"), ("台风", "storm"),
    ("雨", "rain"), ("雪", "snow"), ("霧", "fog"), ("雾", "fog"),
    ("비가", "rain"), ("비를", "rain"), ("빗속", "rain"), ("눈이 오", "snow"), ("눈이 내", "snow"), ("눈 속", "snow"),
    ("안개", "fog"), ("폭풍", "storm"), ("천둥", "storm"),
)
"""Japanese, Chinese and Korean words of weather, as written, -> the weather they name (the
longer first: 暴风雨 is a storm before it is rain). Korean 비 and 눈 are also "ratio" and "eye":
they count with the particle or verb that makes them weather."""

_SUBJECT_NOUNS = ("rain", "snow", "storm", "thunderstorm", "thunder", "lightning", "hail", "sleet", "fog", "mist",
                  "wind", "blizzard", "snowflakes", "raindrops", "typhoon", "hurricane", "drizzle", "downpour")
_WEATHER_SUBJECT_RE = re.compile(
    r"\b(?:" + "|".join(_SUBJECT_NOUNS) + r")\s+(?:(?:[^\W\d_]+ly|suddenly)\s+)?(?P<verb>[^\W\d_]+)\b")
"""A weather noun and the word after it (an adverb may stand between): "snow falls", "a storm
suddenly hits", where that word may be the weather's own verb."""

NOT_DRAWN = "'{}' is not drawn: this world has no weather"
"""The warning for weather named in a turn, with the weather's name ('rain', 'snow', 'fog', 'storm', 'wind')."""


def weather_named(text: str) -> list[str]:
    """The weather ``text`` names (rain, snow, fog, storm, wind), in the order first named;
    English words are matched whole and in lower case, Japanese, Chinese and Korean ones as
    written."""
    found: list[tuple[int, str]] = []
    for match in re.finditer(r"[^\W\d_]+", text.lower()):
        weather = WEATHER_WORDS.get(match.group(0))
        if weather:
            found.append((match.start(), weather))
    taken: list[tuple[int, int]] = []
    for word, weather in CJK_WEATHER:
        for match in re.finditer(re.escape(word), text):
            if not any(s <= match.start() < e for s, e in taken):
                taken.append((match.start(), match.end()))
                found.append((match.start(), weather))
    return list(dict.fromkeys(weather for _, weather in sorted(found)))


def without_weather_verbs(text: str, names_a_motion: Callable[[str], bool]) -> str:
    """``text`` (normalised, lower case) with the verb that weather is the subject of taken out
    where that verb names a motion (``names_a_motion``): "snow falls as qiqi builds" -> "snow as
    qiqi builds", "a thunderstorm hits the town" -> "a thunderstorm the town". Other words after
    a weather noun stay ("in the rain and dances" dances)."""
    def drop(match: re.Match[str]) -> str:
        if names_a_motion(match.group("verb")):
            return match.group(0)[:match.start("verb") - match.start()].rstrip()
        return match.group(0)

    return _WEATHER_SUBJECT_RE.sub(drop, text)
