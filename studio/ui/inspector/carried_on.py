"""What a new turn goes on with where its Character, Background and Time are left empty.

The story and the engines continue a branch: a turn that names no character is acted by
the branch's character, and one that names no place or time is drawn where and when the
turn before it was. The new turn's form shows that as grey hint text in the empty fields,
never as their values: a value copied in from the turn before would win over a character,
place or time the author writes in the free text ("Yuzu runs to the beach at sunset" drew
Qiqi in the bedroom at night)."""

from __future__ import annotations

from dataclasses import dataclass

from studio.core.tree import StoryTree


@dataclass(frozen=True)
class CarriedOn:
    """The character, place and time a new turn goes on with ("" where none is known)."""

    character: str = ""
    place: str = ""
    time: str = ""
    first: bool = False
    """The story's first turn: its character is the cast's lead, not one it goes on with."""


def carried_on(tree: StoryTree, parent_id: str, main: str) -> CarriedOn:
    """What a new turn under ``parent_id`` goes on with: ``main`` (the branch's character, see
    :func:`~studio.ui.inspector.inspector.main_character`), and the place and time of the latest
    turn of the branch up to ``parent_id`` that has one: as its field says, else as the engine
    drew it (a free-text turn's place is read from its words)."""
    if parent_id not in tree.nodes:
        return CarriedOn(main, first=True)
    path = [node for node in tree.path_to(parent_id) if not node.is_root]
    place = time = ""
    for node in reversed(path):
        take = tree.selected_take(node.id)
        drawn = take.conditioning if take is not None and isinstance(take.conditioning, dict) else {}
        place = place or _one_line(node.instruction.background) or _one_line(drawn.get("location"))
        time = time or _one_line(node.instruction.time_of_day) or _one_line(drawn.get("time_of_day"))
        if place and time:
            break
    return CarriedOn(main, place, time, first=not path)


def _one_line(value: object) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def as_before(value: str, first: bool = False) -> str:
    """The hint of an empty field that goes on with ``value`` (``first``: the first turn's
    character, the cast's lead)."""
    if not value:
        return ""
    return f"{value} (the cast's lead)" if first else f"{value} (as before)"
