"""Why a take is out of date: what it was made from against what its turn holds now.

A take records the instruction it was made from, the take of the turn above it that was
chosen then, and the state its turn started from. Each one that no longer holds is a reason;
every view that marks a take out of date (the tree, the takes list, the story, an export's
note) names them, so that a take whose own instruction was edited doesn't read as "an earlier
turn changed".
"""

from __future__ import annotations

from enum import StrEnum

from studio.core.model import Take
from studio.core.tree import StoryTree


class StaleReason(StrEnum):
    INSTRUCTION_EDITED = "instruction edited"
    EARLIER_TURN_CHANGED = "earlier turn changed"
    START_CHANGED = "start state changed"

    @property
    def words(self) -> str:
        """The reason as a clause: 'its instruction was edited'."""
        return _WORDS[self]


_WORDS = {
    StaleReason.INSTRUCTION_EDITED: "its instruction was edited",
    StaleReason.EARLIER_TURN_CHANGED: "an earlier turn changed",
    StaleReason.START_CHANGED: "the start state changed",
}


def stale_reasons(tree: StoryTree, take: Take) -> tuple[StaleReason, ...]:
    """Why ``take`` is out of date (none for a current take): its own instruction edited, and
    what changed above it: an earlier turn (another take chosen, its text edited) or the
    story's start, however many turns up (a take made from a take out of date because the
    start changed is out of date because the start changed). A take out of date for a reason
    it didn't record (made before takes kept their start) is said to be so because of an
    earlier turn, or of the start for a first turn."""
    if not take.stale or take.node_id not in tree.nodes:
        return ()
    reasons: list[StaleReason] = []
    if _text_edited(tree, take):
        reasons.append(StaleReason.INSTRUCTION_EDITED)
    above = _from_above(tree, take)
    if above is not None:
        reasons.append(above)
    elif _start_moved(tree, take):
        reasons.append(StaleReason.START_CHANGED)
    if not reasons:
        reasons.append(_unrecorded(tree, take))
    return tuple(reasons)


def _text_edited(tree: StoryTree, take: Take) -> bool:
    return bool(take.instruction_raw) and take.instruction_raw != tree.nodes[take.node_id].instruction.raw


def _start_moved(tree: StoryTree, take: Take) -> bool:
    return take.start_state is not None and take.start_state != tree.state_before(take.node_id)


def _unrecorded(tree: StoryTree, take: Take) -> StaleReason:
    parent_id = tree.nodes[take.node_id].parent_id
    first = parent_id is None or tree.nodes[parent_id].is_root
    return StaleReason.START_CHANGED if first else StaleReason.EARLIER_TURN_CHANGED


def _from_above(tree: StoryTree, take: Take) -> StaleReason | None:
    """What above ``take`` put it out of date: the take it was made from is no longer the
    chosen one (an earlier turn changed), or it is but is out of date itself, for the reason
    found where the chain of out-of-date takes starts. None: nothing above it did."""
    current = take
    while True:
        node = tree.nodes[current.node_id]
        parent = tree.nodes.get(node.parent_id) if node.parent_id else None
        context = tree.takes.get(parent.selected_take_id or "") if parent is not None else None
        if current.parent_take_id != (context.id if context is not None else ""):
            return StaleReason.EARLIER_TURN_CHANGED
        if context is None or not context.stale:
            if current is take:
                return None
            if _text_edited(tree, current):
                return StaleReason.EARLIER_TURN_CHANGED
            return StaleReason.START_CHANGED if _start_moved(tree, current) else _unrecorded(tree, current)
        current = context


def stale_words(tree: StoryTree, take: Take) -> str:
    """The reasons ``take`` is out of date as one clause ("" for a current take):
    'its instruction was edited and an earlier turn changed'."""
    return " and ".join(reason.words for reason in stale_reasons(tree, take))
