"""What a queue row says about a job: what it does to which turn, in words.

"Re-roll turn 3 · Qiqi runs to the bakery, at night." rather than the raw instruction
syntax; the first take of a turn (a new or forked turn) is "Generate", never "Re-roll".
"""

from __future__ import annotations

from typing import Any

from studio.core.instruction import Instruction, parse_instruction
from studio.core.sentence import describe_action
from studio.core.tree import StoryTree

_VERBS = {"Fill": "Generate", "Re-roll branch": "Re-roll"}
"""Service labels shown as the verb a user would use for that one turn."""


def job_title(job: Any, tree: StoryTree, started_with: str | None = None) -> str:
    """One line for ``job`` (a worker Job); reads ``tree`` (hold the document's lock).

    The line names the instruction the job renders: its take's, once it made one; else
    ``started_with``, the turn's instruction when the job started (an edit undone while it
    ran does not change what it renders); else, for a job still waiting, the turn's own. When
    the turn reads otherwise now, that follows ("… (edited since: Qiqi jumps)")."""
    label = str(job.label or "") or str(getattr(job.kind, "value", job.kind)).capitalize()
    node_id = job.node_id
    if not node_id:
        return label
    node = tree.nodes.get(node_id)
    if node is None:
        return f"{_VERBS.get(label, label)} · (deleted turn)"
    if node.is_root:
        return label
    verb = _VERBS.get(label, label)
    if verb == "Re-roll" and not _had_take_before(job, tree, node_id):
        verb = "Generate"
    if label.startswith("Export"):
        return label
    turn = tree.depth(node_id)
    rendered = _rendered(job, tree, started_with)
    action = _action(rendered or node.instruction, tree)
    if rendered is None:
        return f"{verb} turn {turn} · {action}"
    # what the job renders first; then the turn as it reads now, so that the line still follows it
    return f"{verb} turn {turn} · {action} ({EDITED_SINCE} {_action(node.instruction, tree)})"


EDITED_SINCE = "edited since:"
"""Between what a job renders and what its turn says now, when the turn was edited (or an edit
undone) after the job started."""


def _action(instruction: Instruction, tree: StoryTree) -> str:
    return describe_action(instruction, cast=tree.cast_names()) or instruction.raw.strip() or "an empty turn"


def _rendered(job: Any, tree: StoryTree, started_with: str | None) -> Instruction | None:
    """The instruction ``job`` renders when it is known to differ from its turn's (None: the
    turn's own)."""
    take = tree.takes.get(str(getattr(job, "take_id", "") or ""))
    raw = take.instruction_raw if take is not None and take.instruction_raw else started_with
    node = tree.nodes.get(job.node_id)
    if raw is None or node is None or raw == node.instruction.raw:
        return None
    return parse_instruction(raw)


def _had_take_before(job: Any, tree: StoryTree, node_id: str) -> bool:
    """Whether the turn had a take before this job made one (a forked turn has none)."""
    own = str(getattr(job, "take_id", "") or "")
    return any(take.id != own and take.created_at <= (job.created_at or take.created_at)
               for take in tree.takes_of(node_id))


def where_it_runs(where: str, progress: str = "") -> str:
    """What a running job's line says of where it runs: "Runs on cuda:1 · 42% · 2 s left",
    "Runs on farm node 10.0.0.3 · actor 2"; "" when not known (a fake service, say)."""
    if not where:
        return ""
    return " · ".join(part for part in (f"Runs on {where}", progress) if part)
