"""Conversion between document entities and database rows."""

from __future__ import annotations

import json
from collections.abc import Callable
from enum import StrEnum
from typing import Any, TypeVar

from studio.core.changes import EntityKind
from studio.core.instruction import Instruction
from studio.core.model import CastMember, Location, Node, Take, TakeStatus
from studio.core.state import (
    DELTA_MAX,
    DELTA_MIN,
    MOTION_LEVEL_MAX,
    MOTION_LEVEL_MIN,
    STAT_NAMES,
    STATE_MAX,
    STATE_MIN,
    CharacterState,
    StateDeltas,
    StateScope,
)
from studio.core.story import (
    MAX_DURATION_S,
    MIN_DURATION_S,
    DialogueLine,
    StoryFieldError,
    StoryFields,
    check_duration,
)
from studio.core.tree import ORDERED_KINDS

_INSTRUCTION_FIELDS = ("character", "motion", "adverb", "background", "time_of_day", "camera", "free_text")


_Choice = TypeVar("_Choice", bound=StrEnum)

_EMPTY_JSON: dict[str, Any] = {"{}": dict, "[]": list, "": dict}
MAX_JSON_DEPTH = 64
"""Deepest nesting a JSON value in a row may have (the studio writes two or three levels);
deeper would overflow the stack of whatever walks it later."""


class RowValueError(ValueError):
    """A value in a row that is not what the studio writes there (the project's loader
    reports it as "holds a row that can't be read: ..."). ``each``: one sentence per such
    value, where several were found at once."""

    def __init__(self, message: str, each: list[str] | None = None) -> None:
        super().__init__(message)
        self.each = each or [message]


def stored_repr(value: Any, limit: int = 60) -> str:
    """``value`` as a message shows it: its repr (which escapes control characters), its
    directional overrides and isolates escaped too (they would reorder the message around
    them), cut past ``limit`` characters."""
    text = "".join(f"\\u{ord(c):04x}" if "\u202a" <= c <= "\u202e" or "\u2066" <= c <= "\u2069" else c
                   for c in repr(value))
    return text if len(text) <= limit else text[: limit * 3 // 4] + "..." + text[-(limit // 6):]


def _loads(text: Any, what: str = "a JSON value", shape: type = object) -> Any:
    """``text`` parsed (with a fast path for the empty values most rows hold), refused
    with :class:`RowValueError` unless it is JSON of ``shape`` (dict or list) no deeper
    than :data:`MAX_JSON_DEPTH`."""
    empty = _EMPTY_JSON.get(text) if isinstance(text, str) else None
    if empty is not None:  # an empty value of either kind is empty of the shape asked for
        return shape() if shape is dict or shape is list else empty()
    else:
        if not isinstance(text, str):
            raise RowValueError(f"{what} is {stored_repr(text)}, not JSON text")
        try:
            value = json.loads(text)
        except RecursionError:
            raise RowValueError(f"{what} is nested too deeply") from None
        except ValueError as error:
            raise RowValueError(f"{what} is not valid JSON ({error})") from None
        _check_depth(value, what)
    if shape is not object and not isinstance(value, shape):
        kind = "an object" if shape is dict else "a list"
        raise RowValueError(f"{what} must be {kind}, not {stored_repr(value)}")
    return value


def _check_depth(value: Any, what: str) -> None:
    if not isinstance(value, dict | list):
        return
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise RowValueError(f"{what} is nested more than {MAX_JSON_DEPTH} levels deep")
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))


def _state(value: Any, what: str, problems: list[str] | None = None) -> CharacterState:
    """A character state from its JSON object: only the three stats, each an integer.

    A stat outside the range the editor allows (written by another program) is read as the
    nearest value it allows and told in ``problems``: as stored, the start of the story showed
    "stamina 500" and the engines were given it, while the first turn's change then clamped it
    to 100 at once."""
    if not isinstance(value, dict):
        raise RowValueError(f"{what} must be an object of {', '.join(STAT_NAMES)}, not {stored_repr(value)}")
    for name, number in value.items():
        if name not in STAT_NAMES:
            raise RowValueError(f"{what} has an unknown stat {stored_repr(name)} (known: {', '.join(STAT_NAMES)})")
        if not isinstance(number, int) or isinstance(number, bool):
            raise RowValueError(f"{what}: {name} must be an integer, not {stored_repr(number)}")
    stats = {name: max(STATE_MIN, min(STATE_MAX, number)) for name, number in value.items()}
    if stats != value and problems is not None:
        wrong = ", ".join(f"{name} {number}" for name, number in value.items() if stats[name] != number)
        problems.append(f"{what} holds {wrong}, outside {STATE_MIN} to {STATE_MAX}: read as "
                        f"{', '.join(f'{name} {stats[name]}' for name in value if stats[name] != value[name])} "
                        "until it is set again")
    return CharacterState(**stats)


def _pairs(value: list[Any], what: str) -> list[tuple[str, str]]:
    """A list of two-item lists (dialogue lines, an instruction's extra fields)."""
    for item in value:
        if not isinstance(item, list) or len(item) != 2:
            raise RowValueError(f"{what} must be a list of [name, text] pairs, not one of {stored_repr(item)}")
    return [(str(a), str(b)) for a, b in value]


def _texts(value: list[Any], what: str) -> tuple[str, ...]:
    for item in value:
        if not isinstance(item, str):
            raise RowValueError(f"{what} must be a list of texts, not one of {stored_repr(item)}")
    return tuple(value)


def _dumps(value: Any) -> str:
    if not value:  # most settings, timings, warnings and extras are empty
        return "[]" if isinstance(value, list | tuple) else "{}"
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def node_row(node: Node) -> dict[str, Any]:
    ins = node.instruction
    row: dict[str, Any] = {
        "id": node.id,
        "parent_id": node.parent_id,
        "position": node.position,
        "instruction": ins.raw,
    }
    row.update({name: getattr(ins, name) for name in _INSTRUCTION_FIELDS})
    row.update({
        "extra": _dumps([list(pair) for pair in ins.extra]),
        "notes": node.notes,
        "bookmarked": int(node.bookmarked),
        "selected_take_id": node.selected_take_id,
        "start_state": _dumps(node.start_state.as_dict()) if node.start_state else None,
        "created_at": node.created_at,
        "dialogue": _dumps([[line.speaker, line.text] for line in node.story.dialogue]),
        "narration": node.story.narration,
        "duration": node.story.duration,
        "shot_notes": node.story.shot_notes,
        "start_states": _dumps({name: state.as_dict() for name, state in node.start_states.items()}),
        "state_scope": node.state_scope.value,
    })
    return row


NODE_COLUMNS = ("id", "parent_id", "instruction", "character", "motion", "adverb", "background", "time_of_day",
                "camera", "free_text", "extra", "position", "notes", "bookmarked", "selected_take_id", "start_state",
                "created_at", "dialogue", "narration", "duration", "shot_notes", "start_states", "state_scope")

COLUMN_FALLBACKS: dict[str, dict[str, str]] = {
    "nodes": {"dialogue": "'[]'", "narration": "''", "duration": "NULL", "shot_notes": "''",
              "start_states": "'{}'", "state_scope": "'branch'"},
    "takes": {"hint": "''", "start_state": "NULL"},
}
"""SQL values for columns a project of an older schema lacks (read without upgrading it,
e.g. on a read-only disk): the values the migration that adds them gives old rows."""

_NO_STORY = StoryFields()


def _duration(node_id: str, value: Any, problems: list[str] | None) -> float | None:
    """A stored duration held to the rule the editor applies when one is set
    (:func:`~studio.core.story.check_duration`). One that breaks it (not a number, NaN,
    infinite, out of range: written by another program) reads as unset, the clip's own
    length, and is listed in ``problems``: the turn and the rest of its row lose nothing
    that could be used, and the project stays usable."""
    try:
        check_duration(value)
    except StoryFieldError:
        if problems is not None:
            problems.append(f"node {node_id}'s stored duration {stored_repr(value)} is not {MIN_DURATION_S:g} to "
                            f"{MAX_DURATION_S:g} seconds: the turn lasts as long as its clip until a duration "
                            "is set again")
        return None
    return float(value)


def _story(node_id: str, dialogue: str, narration: str, duration: Any, shot_notes: str,
           problems: list[str] | None = None) -> StoryFields:
    if dialogue == "[]" and not narration and duration is None and not shot_notes:
        return _NO_STORY  # most turns: no parsing on the hot path
    what = f"node {node_id}'s dialogue"
    lines = tuple(DialogueLine(speaker, text) for speaker, text in _pairs(_loads(dialogue, what, list), what))
    seconds = None if duration is None else _duration(node_id, duration, problems)
    return StoryFields(lines, narration, seconds, shot_notes)


def _start_states(node_id: str, text: str, problems: list[str] | None = None) -> dict[str, CharacterState]:
    states = _loads(text, f"node {node_id}'s start_states", dict)
    return {str(name): _state(state, f"node {node_id}'s start state of {stored_repr(name)}", problems)
            for name, state in states.items()}


def node_from_values(v: tuple[Any, ...], problems: list[str] | None = None) -> Node:
    """A node from a row selected with ``NODE_COLUMNS`` (positional: opening is hot).

    JSON columns are checked for the shape the studio writes (:class:`RowValueError`). A
    duration that breaks the editor's rule reads as unset and is told in ``problems``."""
    extra_pairs = _loads(v[10], f"node {v[0]}'s extra", list)
    return Node(
        v[0], v[1],
        Instruction(v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9],
                    tuple(_pairs(extra_pairs, f"node {v[0]}'s extra")) if extra_pairs else ()),
        v[11], v[12], bool(v[13]), v[14],
        _state(_loads(v[15], f"node {v[0]}'s start_state"), f"node {v[0]}'s start_state", problems) if v[15] else None,
        v[16],
        _story(v[0], v[17], v[18], v[19], v[20], problems),
        _start_states(v[0], v[21], problems) if v[21] != "{}" else {},
        _choice(StateScope, v[22], f"node {v[0]}'s state scope"),
    )


def take_row(take: Take) -> dict[str, Any]:
    return {
        "id": take.id,
        "node_id": take.node_id,
        "engine": take.engine,
        "engine_version": take.engine_version,
        "settings": _dumps(dict(take.settings)),
        "seed": take.seed,
        "d_stamina": take.deltas.stamina,
        "d_social": take.deltas.social,
        "d_entertainment": take.deltas.entertainment,
        "motion_level": take.motion_level,
        "representation_path": take.representation_path,
        "clip_path": take.clip_path,
        "poster_path": take.poster_path,
        "timings": _dumps(dict(take.timings)),
        "status": take.status.value,
        "error": take.error,
        "warnings": _dumps(list(take.warnings)),
        "stale": int(take.stale),
        "parent_take_id": take.parent_take_id,
        "instruction_raw": take.instruction_raw,
        "conditioning": _dumps(dict(take.conditioning)),
        "created_at": take.created_at,
        "hint": take.hint,
        "start_state": _take_start_text(take),
    }


def _take_start_text(take: Take) -> str | None:
    if take.start_state is None:
        return None
    return json.dumps({"character": take.start_character, **take.start_state.as_dict()}, ensure_ascii=False,
                      separators=(",", ":"), sort_keys=True)


def _take_start(take_id: str, text: Any, problems: list[str] | None) -> tuple[CharacterState | None, str]:
    """A take's stored start (see ``SCHEMA_V6_TAKE_START``): the state and whose it is. One
    that can't be read (another program's) reads as not recorded, and is told in
    ``problems``: it only explains the take, nothing is made from it."""
    if text is None:
        return None, ""
    try:
        value = _loads(text, f"take {take_id}'s start state", dict)
        character = value.pop("character", "")
        if not isinstance(character, str):
            raise RowValueError(f"take {take_id}'s start state names {stored_repr(character)}, not a character")
        return _state(value, f"take {take_id}'s start state", problems), character
    except RowValueError as error:
        if problems is not None:
            problems.append(f"{error}: read as not recorded")
        return None, ""


TAKE_COLUMNS = ("id", "node_id", "engine", "engine_version", "settings", "seed", "d_stamina", "d_social",
                "d_entertainment", "motion_level", "representation_path", "clip_path", "poster_path", "timings",
                "status", "error", "warnings", "stale", "parent_take_id", "instruction_raw", "conditioning",
                "created_at", "hint", "start_state")


def _deltas(take_id: str, node_id: str, values: tuple[Any, ...], problems: list[str] | None) -> StateDeltas:
    """A take's stored state change, each stat held to the range the engines give
    (:data:`DELTA_MIN` to :data:`DELTA_MAX`). One outside it (written by another program)
    reads as the nearest value in range and is told in ``problems``, naming the take and its
    turn, as a start state out of range is: it used to refuse the whole project with
    "stamina delta 9 is outside [-5, 5]", naming neither."""
    if all(isinstance(value, int) and DELTA_MIN <= value <= DELTA_MAX for value in values):
        return StateDeltas(*values)  # the hot path: what the studio writes
    for name, value in zip(STAT_NAMES, values, strict=True):
        if not isinstance(value, int) or isinstance(value, bool):
            raise RowValueError(f"take {take_id}'s {name} change must be an integer, not {stored_repr(value)}")
    clamped = tuple(max(DELTA_MIN, min(DELTA_MAX, value)) for value in values)
    if problems is not None:
        changed = [(name, value, kept) for name, value, kept in zip(STAT_NAMES, values, clamped, strict=True)
                   if value != kept]
        problems.append(f"take {take_id} of node {node_id}: its stored state change "
                        f"{', '.join(f'{name} {value:+d}' for name, value, _ in changed)} is outside "
                        f"{DELTA_MIN} to {DELTA_MAX}: read as "
                        f"{', '.join(f'{name} {kept:+d}' for name, _, kept in changed)}")
    return StateDeltas(*clamped)


def _motion_level(take_id: str, node_id: str, value: Any, problems: list[str] | None) -> int:
    """A take's stored motion level, held to :data:`MOTION_LEVEL_MIN` to
    :data:`MOTION_LEVEL_MAX` as :func:`_deltas` holds its state change (one out of range
    refused the whole project with "motion level 99 is outside 1..5", naming no take)."""
    if isinstance(value, int) and MOTION_LEVEL_MIN <= value <= MOTION_LEVEL_MAX:
        return value
    if not isinstance(value, int) or isinstance(value, bool):
        raise RowValueError(f"take {take_id}'s motion level must be an integer, not {stored_repr(value)}")
    level = max(MOTION_LEVEL_MIN, min(MOTION_LEVEL_MAX, value))
    if problems is not None:
        problems.append(f"take {take_id} of node {node_id}: its stored motion level {value} is outside "
                        f"{MOTION_LEVEL_MIN} to {MOTION_LEVEL_MAX}: read as {level}")
    return level


def _choice(kind: type[_Choice], value: Any, what: str) -> _Choice:
    """``value`` as one of ``kind``'s values, refused naming ``what`` and the values allowed
    (Python's own "'x' is not a valid TakeStatus" named neither the row nor the column)."""
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(member.value for member in kind)
        raise RowValueError(f"{what} is {stored_repr(value)}, not one of {allowed}") from None


def take_from_values(v: tuple[Any, ...], problems: list[str] | None = None) -> Take:
    """A take from a row selected with ``TAKE_COLUMNS``; a state change or a motion level
    out of range reads as the nearest in range and is told in ``problems``."""
    what = f"take {v[0]}'s"
    start, character = _take_start(v[0], v[23], problems)
    return Take(
        v[0], v[1], v[2], v[3], _loads(v[4], f"{what} settings", dict), v[5], _deltas(v[0], v[1], v[6:9], problems),
        _motion_level(v[0], v[1], v[9], problems),
        v[10], v[11], v[12], _loads(v[13], f"{what} timings", dict), _choice(TakeStatus, v[14], f"{what} status"),
        v[15],
        _texts(_loads(v[16], f"{what} warnings", list), f"{what} warnings"), bool(v[17]), v[18], v[19],
        _loads(v[20], f"{what} conditioning", dict), v[21], v[22], start, character,
    )


def cast_row(member: CastMember) -> dict[str, Any]:
    return {
        "id": member.id,
        "name": member.name,
        "params": _dumps(dict(member.params)),
        "reference_images": _dumps(list(member.reference_images)),
    }


CAST_COLUMNS = ("id", "name", "params", "reference_images")


def cast_from_values(v: tuple[Any, ...]) -> CastMember:
    what = f"character {v[0]}'s"
    return CastMember(v[0], v[1], _loads(v[2], f"{what} params", dict),
                      _texts(_loads(v[3], f"{what} reference_images", list), f"{what} reference_images"))


def location_row(location: Location) -> dict[str, Any]:
    return {
        "id": location.id,
        "name": location.name,
        "kind": location.kind,
        "params": _dumps(dict(location.params)),
        "image_path": location.image_path,
    }


LOCATION_COLUMNS = ("id", "name", "kind", "params", "image_path")


def location_from_values(v: tuple[Any, ...]) -> Location:
    return Location(v[0], v[1], v[2], _loads(v[3], f"location {v[0]}'s params", dict), v[4])


TABLES: dict[EntityKind, str] = {
    EntityKind.NODE: "nodes",
    EntityKind.TAKE: "takes",
    EntityKind.CAST: "cast_members",
    EntityKind.LOCATION: "locations",
}
ORDERED_TABLES = frozenset(TABLES[kind] for kind in ORDERED_KINDS)
"""Tables whose order is the story's: the cast's order (its first member is a new turn's
default character; the Start and Cast panels list it so) and the locations'. Their rows are
kept in that order by rowid (:meth:`~studio.storage.database.Database.write_patch` is given
it) and read back in it. No schema change: older versions, which read these tables in rowid
order too, see the same order, and copies made with SQLite's backup API keep it."""


def entity_row(kind: EntityKind, entity: object) -> dict[str, Any]:
    """The row of ``entity`` (a node, take, cast member or location, as ``kind`` says)."""
    if kind is EntityKind.NODE and isinstance(entity, Node):
        return node_row(entity)
    if kind is EntityKind.TAKE and isinstance(entity, Take):
        return take_row(entity)
    if kind is EntityKind.CAST and isinstance(entity, CastMember):
        return cast_row(entity)
    if kind is EntityKind.LOCATION and isinstance(entity, Location):
        return location_row(entity)
    raise TypeError(f"{type(entity).__name__} is not a {kind.value}")
FROM_VALUES: dict[EntityKind, tuple[tuple[str, ...], Callable[[tuple[Any, ...]], Any]]] = {
    EntityKind.NODE: (NODE_COLUMNS, node_from_values),
    EntityKind.TAKE: (TAKE_COLUMNS, take_from_values),
    EntityKind.CAST: (CAST_COLUMNS, cast_from_values),
    EntityKind.LOCATION: (LOCATION_COLUMNS, location_from_values),
}
"""Per kind: the columns to select and the function that builds the entity from them."""
