"""Patches (what a command writes) and change sets (what views redraw)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from studio.core.model import CastMember, Location, Node, Take


class EntityKind(StrEnum):
    NODE = "node"
    TAKE = "take"
    CAST = "cast"
    LOCATION = "location"


Entity = Node | Take | CastMember | Location
EntityKey = tuple[EntityKind, str]
Patch = Mapping[EntityKey, Entity | None]
"""New value per entity; None deletes it. Applying a patch returns its reverse patch."""


def kind_of(entity: Entity) -> EntityKind:
    if isinstance(entity, Node):
        return EntityKind.NODE
    if isinstance(entity, Take):
        return EntityKind.TAKE
    if isinstance(entity, CastMember):
        return EntityKind.CAST
    return EntityKind.LOCATION


def key_of(entity: Entity) -> EntityKey:
    return (kind_of(entity), entity.id)


@dataclass(frozen=True)
class ChangeSet:
    """Ids of what an operation added, changed or removed, by kind."""

    added: Mapping[EntityKind, frozenset[str]] = field(default_factory=dict)
    changed: Mapping[EntityKind, frozenset[str]] = field(default_factory=dict)
    removed: Mapping[EntityKind, frozenset[str]] = field(default_factory=dict)
    label: str = ""

    def ids(self, kind: EntityKind) -> frozenset[str]:
        """Every id of ``kind`` touched in any way."""
        return self.added.get(kind, frozenset()) | self.changed.get(kind, frozenset()) | self.removed.get(
            kind, frozenset()
        )

    @property
    def empty(self) -> bool:
        return not any(self.added.values()) and not any(self.changed.values()) and not any(self.removed.values())

    @staticmethod
    def from_patch(patch: Patch, before: Mapping[EntityKey, Entity | None], label: str = "") -> ChangeSet:
        added: dict[EntityKind, set[str]] = {}
        changed: dict[EntityKind, set[str]] = {}
        removed: dict[EntityKind, set[str]] = {}
        for (kind, ident), new in patch.items():
            old = before.get((kind, ident))
            bucket = added if old is None and new is not None else removed if new is None else changed
            if old is None and new is None:
                continue
            bucket.setdefault(kind, set()).add(ident)
        return ChangeSet(
            added={k: frozenset(v) for k, v in added.items()},
            changed={k: frozenset(v) for k, v in changed.items()},
            removed={k: frozenset(v) for k, v in removed.items()},
            label=label,
        )
