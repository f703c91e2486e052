"""World rules: how a turn changes stamina, social and entertainment.

Deltas follow AnimeGamer's units (integers in [-5, 5]; a state moves by 5 x delta). The
rules are documented for users in docs/WORLD_RULES.md; keep the two in step. Every rule
is a pure function of the motion, its level, the place, the time, the state before the
turn and the seed, so a take can always be reproduced.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from studio.core.state import DELTA_MAX, DELTA_MIN, CharacterState, StateDeltas
from studio.engines.sketch.vocabulary import MotionFamily, MotionSpec

F = MotionFamily

FULL = 90
"""A stat at or above this gains at most +1 a turn."""

EFFORT: dict[MotionFamily, float] = {
    F.LOCOMOTION: 0.8, F.ATHLETIC: 0.9, F.FLIGHT: 0.6, F.PLAY: 0.6, F.CHORE: 0.5, F.MISHAP: 0.5, F.SAD: 0.3,
    F.SOCIAL: 0.2, F.GESTURE: 0.1,
}
"""Stamina cost per motion level: cost = round(EFFORT x level), at least 1 when EFFORT > 0."""

RESTORE: dict[MotionFamily, int] = {F.REST: 1, F.QUIET: 1, F.SLEEP: 4, F.NOURISH: 3}
"""Stamina gained by restful families (rest gets +1 more at level 1-2)."""

SOCIAL: dict[str, int] = {
    "talk": 3, "meet people": 3, "hug": 3, "wave": 2, "laugh": 2, "clap": 1, "shout": 1, "bow": 1, "nod": 1,
    "sing": 1, "dance": 1, "cry": -1, "sulk": -2,
}
"""Social delta per motion (motions not listed: 0)."""

ENTERTAINMENT: dict[str, int] = {
    "fly on broomstick": 3, "dance": 3, "spin": 3, "play": 3, "swim": 2, "jump": 2, "sing": 2, "laugh": 2,
    "hug": 2, "meet people": 2, "read": 2, "throw": 2, "catch": 2, "clap": 2, "walk": 1, "run": 1, "talk": 1,
    "eat": 1, "drink": 1, "cook": 1, "write": 1, "look around": 1, "lie down": 1, "climb": 1, "kick": 1,
    "punch": 1, "sneak": 1, "stretch": 1, "idle": -1, "sweep": -1, "carry": -1, "shiver": -1, "fall": -2,
    "cry": -3, "sulk": -2,
}
"""Entertainment delta per motion (motions not listed: 0)."""


COMPANY_SOCIAL = 1
"""Social gained by a motion done with someone ("plays with Yuzu", "Qiqi and Yuzu dance",
"dance together"): +1 (5 points) over the same motion done alone, whatever the motion."""

EXHAUSTED = 10
"""Stamina at or below which a strenuous motion is drawn at most at :data:`TIRED_LEVEL`."""
TIRED_LEVEL = 2
STRENUOUS = 0.6
"""Effort per level (:data:`EFFORT`) from which a motion is strenuous: walking, running,
jumping, sports, flying, dancing and play."""


@dataclass(frozen=True, slots=True)
class RuleInput:
    motion: MotionSpec
    level: int
    time: str
    busy: bool
    leisure: bool
    state: CharacterState
    together: bool = False
    """Done with someone: a friend named, "together" (:data:`COMPANY_SOCIAL`)."""
    alone: bool = False
    """A motion meant for someone done to no person ("talks to herself", "hugs her pillow"):
    no social gain from it."""


def tired_level(motion: MotionSpec, level: int, stamina: int, who: str) -> tuple[int, list[str]]:
    """The level a strenuous ``motion`` asked at ``level`` is drawn at by a character (``who``)
    with ``stamina`` left, and the warning when it is less: an exhausted character (stamina
    at or below :data:`EXHAUSTED`) runs, jumps or dances at most at :data:`TIRED_LEVEL`."""
    if stamina > EXHAUSTED or level <= TIRED_LEVEL or EFFORT.get(motion.family, 0.0) < STRENUOUS:
        return level, []
    name = who or "the character"
    return TIRED_LEVEL, [f"{name} is exhausted (stamina {stamina}): '{motion.name}' drawn at level {TIRED_LEVEL}, "
                         f"not {level}; rest, eat or sleep to get stamina back"]


def _sign_keeping_jitter(value: int, jitter: int) -> int:
    """Add seeded jitter, but never flip or zero a non-zero delta (rules keep their direction)."""
    if value == 0:
        return 0
    out = value + jitter
    if value > 0:
        return max(1, out)
    return min(-1, out)


def _seeded_rng(seed: int, motion: str, level: int) -> random.Random:
    digest = hashlib.sha256(f"{seed}:{motion}:{level}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def base_deltas(inp: RuleInput) -> tuple[int, int, int, list[str]]:
    """Rule deltas before seeded variation, with a reason per rule that fired."""
    m, level, family = inp.motion, inp.level, inp.motion.family
    reasons: list[str] = []
    stamina = 0
    if family in EFFORT:
        stamina = -max(1, round(EFFORT[family] * level))
        reasons.append(f"effort of '{m.name}' at level {level}: stamina {stamina}")
        if inp.time == "night":
            stamina -= 1
            reasons.append("effort at night: stamina -1")
    elif family in RESTORE:
        stamina = RESTORE[family] + (1 if family == F.REST and level <= 2 else 0)
        if m.name == "drink":
            stamina -= 1
        if family == F.SLEEP and inp.time == "night":
            stamina += 1
            reasons.append("sleeping at night: stamina +1")
        reasons.append(f"'{m.name}' restores stamina +{stamina}")
    social = SOCIAL.get(m.name, 0)
    if social > 0 and inp.alone:
        social = 0
        reasons.append(f"'{m.name}' done to no one: social +0")
    if social:
        reasons.append(f"'{m.name}': social {social:+d}")
    if social > 0 and inp.busy:
        social += 1
        reasons.append("a busy place: social +1")
    if inp.together:
        social += COMPANY_SOCIAL
        reasons.append(f"'{m.name}' done with someone: social +{COMPANY_SOCIAL}")
    entertainment = ENTERTAINMENT.get(m.name, 0)
    if entertainment:
        reasons.append(f"'{m.name}': entertainment {entertainment:+d}")
    if entertainment > 0 and inp.leisure and family in (F.PLAY, F.REST, F.FLIGHT, F.ATHLETIC):
        entertainment += 1
        reasons.append("a place for leisure: entertainment +1")
    if stamina < 0 and inp.state.stamina <= 15:
        entertainment -= 1
        reasons.append("exhausted (stamina <= 15): entertainment -1")
    if entertainment > 1 and inp.state.entertainment >= FULL:
        entertainment = 1
        reasons.append("already entertained (>= 90): entertainment capped at +1")
    if social > 1 and inp.state.social >= FULL:
        social = 1
        reasons.append("already sociable (>= 90): social capped at +1")
    return stamina, social, entertainment, reasons


def gain_cap(value: int) -> int:
    """The largest delta a stat at ``value`` may get: +1 once it is already >= 90."""
    return 1 if value >= FULL else DELTA_MAX


def predict_deltas(inp: RuleInput, seed: int) -> tuple[StateDeltas, list[str]]:
    """Deltas for a turn: the rules plus a seeded variation of at most one step per stat."""
    stamina, social, entertainment, reasons = base_deltas(inp)
    rng = _seeded_rng(seed, inp.motion.name, inp.level)
    jitters = [rng.choice((-1, 0, 0, 1)) for _ in range(3)]
    values = [_sign_keeping_jitter(v, j) for v, j in zip((stamina, social, entertainment), jitters, strict=True)]
    # A stat already >= 90 gains at most +1: the variation must not lift a capped gain to +2.
    caps = (DELTA_MAX, gain_cap(inp.state.social), gain_cap(inp.state.entertainment))
    clamped = [max(DELTA_MIN, min(cap, v)) for v, cap in zip(values, caps, strict=True)]
    return StateDeltas(*clamped), reasons
