"""Conversion between document entities and database rows."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from studio.core.changes import EntityKind
from studio.core.instruction import Instruction
from studio.core.model import CastMember, Location, Node, Take, TakeStatus
from studio.core.state import CharacterState, StateDeltas

_INSTRUCTION_FIELDS = ("character", "motion", "adverb", "background", "time_of_day", "camera", "free_text")


_EMPTY_JSON: dict[str, Any] = {"{}": dict, "[]": list, "": dict}


def _loads(text: str) -> Any:
    """json.loads with a fast path for the empty values most rows hold."""
    empty = _EMPTY_JSON.get(text)
    return empty() if empty is not None else json.loads(text)


def _dumps(value: Any) -> str:
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
    })
    return row


def node_from_row(row: Mapping[str, Any]) -> Node:
    extra_pairs = _loads(row["extra"])
    start = row["start_state"]
    return Node(
        id=row["id"],
        parent_id=row["parent_id"],
        instruction=Instruction(
            row["instruction"], row["character"], row["motion"], row["adverb"], row["background"],
            row["time_of_day"], row["camera"], row["free_text"],
            tuple((str(k), str(v)) for k, v in extra_pairs) if extra_pairs else (),
        ),
        position=row["position"],
        notes=row["notes"],
        bookmarked=bool(row["bookmarked"]),
        selected_take_id=row["selected_take_id"],
        start_state=CharacterState(**json.loads(start)) if start else None,
        created_at=row["created_at"],
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


def take_from_row(row: Mapping[str, Any]) -> Take:
    return Take(
        id=row["id"],
        node_id=row["node_id"],
        engine=row["engine"],
        engine_version=row["engine_version"],
        settings=_loads(row["settings"]),
        seed=row["seed"],
        deltas=StateDeltas(row["d_stamina"], row["d_social"], row["d_entertainment"]),
        motion_level=row["motion_level"],
        representation_path=row["representation_path"],
        clip_path=row["clip_path"],
        poster_path=row["poster_path"],
        timings=_loads(row["timings"]),
        status=TakeStatus(row["status"]),
        error=row["error"],
        warnings=tuple(_loads(row["warnings"])),
        stale=bool(row["stale"]),
        parent_take_id=row["parent_take_id"],
        instruction_raw=row["instruction_raw"],
        conditioning=_loads(row["conditioning"]),
        created_at=row["created_at"],
    )


def cast_row(member: CastMember) -> dict[str, Any]:
    return {
        "id": member.id,
        "name": member.name,
        "params": _dumps(dict(member.params)),
        "reference_images": _dumps(list(member.reference_images)),
    }


def cast_from_row(row: Mapping[str, Any]) -> CastMember:
    return CastMember(
        id=row["id"], name=row["name"], params=_loads(row["params"]),
        reference_images=tuple(_loads(row["reference_images"])),
    )


def location_row(location: Location) -> dict[str, Any]:
    return {
        "id": location.id,
        "name": location.name,
        "kind": location.kind,
        "params": _dumps(dict(location.params)),
        "image_path": location.image_path,
    }


def location_from_row(row: Mapping[str, Any]) -> Location:
    return Location(
        id=row["id"], name=row["name"], kind=row["kind"], params=_loads(row["params"]),
        image_path=row["image_path"],
    )


TABLES: dict[EntityKind, str] = {
    EntityKind.NODE: "nodes",
    EntityKind.TAKE: "takes",
    EntityKind.CAST: "cast_members",
    EntityKind.LOCATION: "locations",
}
TO_ROW = {
    EntityKind.NODE: node_row,
    EntityKind.TAKE: take_row,
    EntityKind.CAST: cast_row,
    EntityKind.LOCATION: location_row,
}
FROM_ROW = {
    EntityKind.NODE: node_from_row,
    EntityKind.TAKE: take_from_row,
    EntityKind.CAST: cast_from_row,
    EntityKind.LOCATION: location_from_row,
}
