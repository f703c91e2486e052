"""The sketch world's rules and explanations, held to what the mini model drew.

The mini model learnt the sketch world from its clips and deltas, but a few of that world's
rules depend on what the model reads, not only on the turn's words, and it can't be trusted to
keep them for words it never learnt. After the LM has read a turn, the engine holds its
prediction to them here:

- an exhausted character (stamina at or below :data:`~studio.engines.sketch.rules.EXHAUSTED`)
  does a strenuous motion at most at level 2 (:func:`level_caps`, :func:`tired_warnings`), as the
  sketch world says, with its warning;
- the deltas stay within the range the sketch world produces for the motion drawn, at its level,
  place, time of day and the state before the turn (:func:`world_range`, :func:`within_world`).
  The LM's deltas follow the words it read, and for words it never learnt ("rides a horse") they
  can be those of another motion than the one its motion head reads and the decoder draws
  (social +3 for a write); they are clamped to the range of the motion drawn, each stat into the
  rule's value one step either way, as the world's seeded variation makes it;
- the camera the turn asks for: the mini model does not move its camera (a clip with "zoom" is
  the clip without it), so a camera the sketch world would move is said not to be drawn
  (:func:`camera_warnings`);
- friends the turn names: the mini model draws one character, so each other one of the cast the
  turn names with them is said not to be drawn (:func:`friends_named`, :func:`friend_warnings`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from studio.core.instruction import Instruction
from studio.core.speech import outside_quotes
from studio.core.state import DELTA_MAX, DELTA_MIN, CharacterState
from studio.engines.sketch.understanding import Reading
from studio.engines.sketch.vocabulary import CameraMode

LEFT_OUT_NOTES = (" is a motion not done, shown as ", "several motions named, shown as ", "' names another motion (")
"""How the sketch's warnings of a motion it leaves out of the one it draws begin or go on."""
NO_MOTION_NOTES = ("no motion found in ", "no motion given, shown as ", " names a place, not a motion, shown as ",
                   " says how but names no motion, shown as ", ", not a motion, shown as ")
"""How its warnings of words that name no motion, drawn as the idle, begin or go on. (Its "'X'
unknown, shown as 'Y'" warnings are carried where the words are replaced.)"""


def motion_notes(warnings: Iterable[str], *, no_motion: bool = True) -> list[str]:
    """The sketch warnings of ``warnings`` that explain the motion it draws: what it left out of it
    (:data:`LEFT_OUT_NOTES`), and with ``no_motion`` the words it found no motion in
    (:data:`NO_MOTION_NOTES`)."""
    kinds = (*LEFT_OUT_NOTES, *NO_MOTION_NOTES) if no_motion else LEFT_OUT_NOTES
    return [warning for warning in warnings if any(note in warning for note in kinds)]


def level_caps(stamina: int) -> dict[str, int]:
    """The highest level each motion is drawn at by a character with ``stamina`` left: for an
    exhausted one, each strenuous motion's :data:`~studio.engines.sketch.rules.TIRED_LEVEL`
    (run, jump, dance, punch...); none otherwise."""
    from studio.engines.sketch.rules import EFFORT, EXHAUSTED, STRENUOUS, TIRED_LEVEL
    from studio.engines.sketch.vocabulary import MOTIONS

    if stamina > EXHAUSTED:
        return {}
    return {spec.name: TIRED_LEVEL for spec in MOTIONS if EFFORT.get(spec.family, 0.0) >= STRENUOUS}


def tired_warnings(motion: str, asked: int, stamina: int, who: str) -> list[str]:
    """The sketch world's warning that ``who`` is exhausted and does ``motion``, asked at level
    ``asked``, at a lower one; none when the rule does not lower it."""
    from studio.engines.sketch.rules import tired_level
    from studio.engines.sketch.vocabulary import MOTION_BY_NAME

    spec = MOTION_BY_NAME.get(motion)
    return tired_level(spec, asked, stamina, who)[1] if spec is not None else []


def world_range(motion: str, level: int, location: str, time: str, state: CharacterState,
                together: bool = False) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]] | None:
    """The (low, high) of stamina, social and entertainment deltas the sketch world produces for
    ``motion`` at ``level``, at ``location`` and ``time`` (``together``: done with someone), from
    ``state``: the rule's value and one step either way of its seeded variation, never flipped
    nor zeroed, a gain no more than +1 for a stat already full. None for a motion it has none of."""
    from studio.engines.sketch.rules import RuleInput, base_deltas, gain_cap
    from studio.engines.sketch.vocabulary import LOCATION_BY_NAME, MOTION_BY_NAME

    spec = MOTION_BY_NAME.get(motion)
    if spec is None:
        return None
    place = LOCATION_BY_NAME.get(location)
    rule = base_deltas(RuleInput(spec, level, time or "day", bool(place and place.busy),
                                 bool(place and place.leisure), state, together))[:3]
    caps = (DELTA_MAX, gain_cap(state.social), gain_cap(state.entertainment))
    stamina, social, fun = (_varied(max(DELTA_MIN, min(DELTA_MAX, value)), cap) for value, cap in zip(rule, caps,
                                                                                                     strict=True))
    return stamina, social, fun


def _varied(value: int, cap: int) -> tuple[int, int]:
    """The lowest and highest of ``value`` one step either way, its sign kept, no gain above ``cap``."""
    if value == 0:
        return 0, 0
    outs = [max(1, value + step) if value > 0 else min(-1, value + step) for step in (-1, 0, 1)]
    clamped = [max(DELTA_MIN, min(cap, out)) for out in outs]
    return min(clamped), max(clamped)


def within_world(deltas: tuple[int, int, int],
                 ranges: tuple[tuple[int, int], tuple[int, int], tuple[int, int]] | None) -> tuple[int, int, int]:
    """``deltas`` each held within its (low, high) of ``ranges`` (:func:`world_range`); as they are
    without ranges."""
    if ranges is None:
        return deltas
    stamina, social, fun = (max(low, min(high, value)) for value, (low, high) in zip(deltas, ranges, strict=True))
    return stamina, social, fun


def camera_warnings(reading: Reading, motion: str = "", location: str = "") -> list[str]:
    """That the mini model does not move the camera the turn asks for (``reading.camera``, as the
    sketch reads it). A still camera is what it draws, and so is the camera the sketch world gives
    the motion drawn (``motion``) at the place drawn (``location``) unasked: it follows a walk or a
    run outdoors, and the model learnt its clips so."""
    from studio.engines.sketch.understanding import default_camera, location_setting
    from studio.engines.sketch.vocabulary import MOTION_BY_NAME

    camera = reading.camera
    spec = MOTION_BY_NAME.get(motion)
    unasked = default_camera(spec, location_setting(location)) if spec is not None else CameraMode.STATIC
    if camera is None or camera in (CameraMode.STATIC, unasked):
        return []
    shown = "zoom out" if camera is CameraMode.ZOOM and reading.zoom_out else camera.value
    return [f"the mini model does not move the camera; '{shown}' is not drawn"]


def friends_named(instruction: Instruction, actor: str, cast: Sequence[str]) -> list[str]:
    """The others of ``cast`` (the story's, then the mini model's own) ``instruction`` names in its
    text as being there with ``actor``, as the sketch engine finds them ("She chats with Yuzu",
    "eats ramen with Taro and Aoi"; not "thinks about Yuzu", nor a name in quotes), in order."""
    from studio.core.model import CastMember
    from studio.engines.mini.data import characters
    from studio.engines.sketch.engine import also_named

    members = tuple(CastMember(id=f"member-{k}", name=name)
                    for k, name in enumerate(dict.fromkeys((*cast, *characters()))) if name.strip())
    fields = [value for _key, value in instruction.extra]
    text = outside_quotes(" ; ".join(part for part in (instruction.motion, instruction.adverb, instruction.free_text,
                                                       *fields) if part))
    return also_named(text, members, (actor,)) if actor else []


def friend_warnings(names: Sequence[str], actor: str, said: Iterable[str] = ()) -> list[str]:
    """That each of ``names`` is not drawn beside ``actor`` (the mini model draws one character),
    once, and not for a name a warning of ``said`` already names so."""
    told = list(said)
    out: list[str] = []
    for name in dict.fromkeys(names):
        if any(warning.startswith(f"'{name}' is not drawn") for warning in (*told, *out)):
            continue
        out.append(f"'{name}' is not drawn: the mini model draws one character, {actor} (it has no second "
                   f"character beside them); name '{name}' in a turn of their own")
    return out

