"""Conversion between document entities and database rows."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from studio.core.changes import EntityKind
from studio.core.instruction import Instruction
from studio.core.model import CastMember, Location, Node, Take, TakeStatus
from studio.core.state import CharacterState, StateDeltas, StateScope
from studio.core.story import DialogueLine, StoryFields

_INSTRUCTION_FIELDS = ("character", "motion", "adverb", "background", "time_of_day", "camera", "free_text")


_EMPTY_JSON: dict[str, Any] = {"{}": dict, "[]": list, "": dict}


def _loads(text: str) -> Any:
    """json.loads with a fast path for the empty values most rows hold."""
    empty = _EMPTY_JSON.get(text)
    return empty() if empty is not None else json.loads(text)


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
}
"""SQL values for columns a project of an older schema lacks (read without upgrading it,
e.g. on a read-only disk): the values the migration that adds them gives old rows."""

_NO_STORY = StoryFields()


def _story(dialogue: str, narration: str, duration: float | None, shot_notes: str) -> StoryFields:
    if dialogue == "[]" and not narration and duration is None and not shot_notes:
        return _NO_STORY  # most turns: no parsing on the hot path
    lines = tuple(DialogueLine(str(speaker), str(text)) for speaker, text in _loads(dialogue))
    return StoryFields(lines, narration, None if duration is None else float(duration), shot_notes)


def node_from_values(v: tuple[Any, ...]) -> Node:
    """A node from a row selected with ``NODE_COLUMNS`` (positional: opening is hot)."""
    extra_pairs = _loads(v[10])
    return Node(
        v[0], v[1],
        Instruction(v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9],
                    tuple((str(k), str(x)) for k, x in extra_pairs) if extra_pairs else ()),
        v[11], v[12], bool(v[13]), v[14],
        CharacterState(**json.loads(v[15])) if v[15] else None,
        v[16],
        _story(v[17], v[18], v[19], v[20]),
        {str(k): CharacterState(**x) for k, x in _loads(v[21]).items()} if v[21] != "{}" else {},
        StateScope(v[22]),
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
    }


TAKE_COLUMNS = ("id", "node_id", "engine", "engine_version", "settings", "seed", "d_stamina", "d_social",
                "d_entertainment", "motion_level", "representation_path", "clip_path", "poster_path", "timings",
                "status", "error", "warnings", "stale", "parent_take_id", "instruction_raw", "conditioning",
                "created_at")


def take_from_values(v: tuple[Any, ...]) -> Take:
    """A take from a row selected with ``TAKE_COLUMNS``."""
    return Take(
        v[0], v[1], v[2], v[3], _loads(v[4]), v[5], StateDeltas(v[6], v[7], v[8]), v[9], v[10], v[11], v[12],
        _loads(v[13]), TakeStatus(v[14]), v[15], tuple(_loads(v[16])), bool(v[17]), v[18], v[19], _loads(v[20]),
        v[21],
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
    return CastMember(v[0], v[1], _loads(v[2]), tuple(_loads(v[3])))


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
    return Location(v[0], v[1], v[2], _loads(v[3]), v[4])


TABLES: dict[EntityKind, str] = {
    EntityKind.NODE: "nodes",
    EntityKind.TAKE: "takes",
    EntityKind.CAST: "cast_members",
    EntityKind.LOCATION: "locations",
}
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
