"""What a screen reader says about the selected turn of the story tree.

The cards are graphics items, which assistive technology cannot see: the view itself names
the selected turn (its accessible name, read out whenever it changes) and describes it further
(its accessible description). The name holds what a listener needs to know where they are:
the turn's number, who and where, what happens, its status and its alternatives; the
description adds the takes, the bookmark, a failure's error and hint, and the keys.
"""

from __future__ import annotations

from dataclasses import dataclass

from studio.core.sentence import plural
from studio.core.tree import StoryTree
from studio.ui.node_summary import CardStatus, NodeSummary, excerpt_of

TREE_NAME = "Story tree"

SPOKEN_STATUS: dict[CardStatus, str] = {
    CardStatus.START: "The start of the story",
    CardStatus.DRAFT: "Not generated yet",
    CardStatus.QUEUED: "Queued",
    CardStatus.RUNNING: "Generating",
    CardStatus.FAILED: "Generation failed",
    CardStatus.STALE: "Stale: made before a turn above it changed",
    CardStatus.DONE: "Generated",
}
"""A status read out. "Generating" carries no percentage: a name that changed with every
progress step would be read out again and again."""

KEYS_HELP = ("Arrow keys move between turns, Home and End go to the ends of the branch, Enter writes a new "
             "turn after this one, F forks it, Delete deletes it, and the menu key opens its menu.")


@dataclass(frozen=True)
class SpokenTurn:
    name: str
    description: str


def _who_and_where(tree: StoryTree, node_id: str) -> str:
    """"Qiqi, day town", "Qiqi", "day town" or "": the instruction's character and place (with
    its time of day), else what the engine read from a free-text instruction."""
    node = tree.nodes[node_id]
    take = tree.selected_take(node_id)
    understood = take.conditioning if take is not None else {}
    ins = node.instruction
    character = ins.character or str(understood.get("character", "") or "")
    place = " ".join(part for part in (ins.time_of_day, ins.background) if part) if ins.background \
        else str(understood.get("location", "") or "")
    return ", ".join(part for part in (character, place) if part)


def _alternatives(tree: StoryTree, node_id: str) -> str:
    parent = tree.nodes[node_id].parent_id
    siblings = tree.child_ids(parent) if parent is not None else [node_id]
    if len(siblings) < 2:
        return "No alternatives"
    return f"Alternative {siblings.index(node_id) + 1} of {len(siblings)}"


def _following(tree: StoryTree, node_id: str) -> str:
    count = len(tree.child_ids(node_id))
    if count == 0:
        return "No turn after it yet"
    return "1 turn after it" if count == 1 else f"{count} alternative turns after it"


def spoken_turn(tree: StoryTree, summary: NodeSummary, branch: list[str]) -> SpokenTurn:
    """The view's accessible name and description while ``summary``'s turn is selected
    (``branch``: the selected branch, root first, for "turn 3 of 7")."""
    node_id = summary.node_id
    if summary.status is CardStatus.START:
        cast = f" ({summary.excerpt})" if summary.excerpt else ""
        name = f"{TREE_NAME}: the start of the story{cast}. {_following(tree, node_id)}."
        description = f"{'Bookmarked. ' if summary.bookmarked else ''}{KEYS_HELP}"
        return SpokenTurn(name, description)
    depth = tree.depth(node_id)
    turns = len(branch) - 1 if node_id in branch else 0
    number = f"turn {depth} of {turns}" if turns >= depth else f"turn {depth}"
    who = _who_and_where(tree, node_id)
    what = excerpt_of(summary.excerpt, 120)
    if what.endswith(".") and not what.endswith(".."):  # a card's sentence ends as the name's clause does
        what = what[:-1]
    about = ": ".join(part for part in (who, what) if part) or "no instruction yet"
    status = SPOKEN_STATUS[summary.status]
    name = f"{TREE_NAME}, {number}: {about}. {status}. {_alternatives(tree, node_id)}."
    details = [plural(summary.take_count, "take") if summary.take_count else "No takes",
               _following(tree, node_id)]
    if summary.bookmarked:
        details.append("Bookmarked")
    if summary.status is CardStatus.FAILED and summary.error.strip():
        details.append(f"Error: {excerpt_of(summary.error.strip().splitlines()[0], 200)}")
        if summary.hint.strip():
            details.append(f"Hint: {excerpt_of(summary.hint, 200)}")
    description = ". ".join(details) + f". {KEYS_HELP}"
    return SpokenTurn(name, description)
