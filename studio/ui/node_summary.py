"""What a card shows about a node, computed from the tree and the job tracker (no Qt).

Cards paint from a :class:`NodeSummary` snapshot instead of reading the tree while
painting, so that painting never races the worker thread that adds takes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from studio.core.graphemes import whole_characters
from studio.core.instruction import Instruction
from studio.core.model import TakeStatus
from studio.core.sentence import describe_action
from studio.core.state import CharacterState
from studio.core.tree import StoryTree

EXCERPT_CHARS = 90


class CardStatus(StrEnum):
    START = "start"
    DRAFT = "draft"
    QUEUED = "queued"
    RUNNING = "running"
    FAILED = "failed"
    STALE = "stale"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class JobView:
    """The part of a job a card needs (kept by :class:`studio.ui.job_tracker.JobTracker`)."""

    job_id: str
    status: str  # queued | running | failed
    fraction: float = 0.0
    message: str = ""
    error: str = ""
    hint: str = ""
    eta_s: float | None = None


@dataclass(frozen=True, slots=True)
class NodeSummary:
    node_id: str
    title: str
    excerpt: str
    state: CharacterState | None
    """The acting character's state after the turn; None for a turn without a finished take
    (never generated, queued, running or failed): it has no predicted state to show."""
    motion_level: int | None
    status: CardStatus
    bookmarked: bool
    poster_path: str
    clip_path: str
    take_count: int
    fraction: float = 0.0
    error: str = ""
    warnings: int = 0
    """How many warnings the engine gave for the selected take (a badge on the card)."""
    hint: str = ""
    """What to do about ``error`` (the failed job's hint, as the inspector shows it)."""
    clip_frames: int = 0
    clip_fps: float = 0.0
    """The selected take's clip length as its settings stored it (0: not stored): the branch
    player places the clip on its timeline before decoding it."""
    duration: float | None = None
    """The seconds the turn is set to last (None: its clip's own length): the branch player
    holds or cuts the clip to it, as the export does."""
    edited_since_take: bool = False
    """The selected take was made from another instruction than the turn's now (it was edited
    since): its card says so, not that a turn above it changed."""
    clip_missing: bool = False
    """The selected take's clip file was found gone (deleted or moved behind the window's back)."""


class PosterState(StrEnum):
    """Where a turn's poster is, for what an empty poster box says."""

    NONE = "none"  # the turn has no picture to show (no take yet)
    LOADING = "loading"  # decoding off the GUI thread: it shows in a moment
    MISSING = "missing"  # its file is gone or unreadable


FAILED_PLACEHOLDER = "generation failed\npress R to try again"
"""A failed turn's empty poster: what happened and how to try again (the Re-roll key; the
queue's Retry does it too). It read "not generated yet", as if nothing had been tried."""


def placeholder_label(status: CardStatus, poster: PosterState) -> str:
    """What an empty poster box says (a card's, a filmstrip thumbnail's).

    A take whose picture is only loading says nothing (it would flash "picture missing" on
    every card at open); a take of any kind (done or stale) whose file is gone says so, rather
    than "not generated yet" or its bare status. A failed turn says that it failed."""
    if status == CardStatus.START:
        return "Start"
    if status == CardStatus.FAILED:
        return FAILED_PLACEHOLDER
    if status in (CardStatus.RUNNING, CardStatus.QUEUED) or poster == PosterState.LOADING:
        return ""
    if poster == PosterState.MISSING or status in (CardStatus.DONE, CardStatus.STALE):
        return "picture missing"
    return "not generated yet"


def cut_to_chars(text: str, limit: int) -> str:
    """``text`` if it has at most ``limit`` characters, else its start and an ellipsis, in
    ``limit`` characters or fewer. The cut falls between the characters a reader sees (Unicode
    grapheme clusters): a cut by code points left half of a family emoji (its joiner showing
    as a lone person), one regional indicator of a flag, or a letter without its accent."""
    if len(text) <= limit:
        return text
    return whole_characters(text, limit - 1).rstrip() + "…"


def excerpt_of(text: str, limit: int = EXCERPT_CHARS) -> str:
    """``text`` on one line (runs of white space as one space), cut to ``limit`` characters."""
    return cut_to_chars(" ".join(text.split()), limit)


def status_of(tree: StoryTree, node_id: str, job: JobView | None = None) -> CardStatus:
    """Just the status (cheap: the overview of a 10,000-node tree needs only this)."""
    node = tree.nodes[node_id]
    if node.parent_id is None:
        return CardStatus.START
    if job is not None and job.status in ("running", "queued"):
        return CardStatus.RUNNING if job.status == "running" else CardStatus.QUEUED
    take = tree.takes.get(node.selected_take_id) if node.selected_take_id else None
    if take is not None:
        return CardStatus.STALE if take.stale else CardStatus.DONE
    # A failure is marked while the queue lists its job (JobTracker.follow_failures): a failed
    # take alone is not, or forgetting the job in the queue would leave the mark for ever.
    if job is not None and job.status == "failed":
        return CardStatus.FAILED
    return CardStatus.DRAFT


def stored_clip_length(settings: object) -> tuple[int, float]:
    """The frame count and fps a take's settings say its clip has ((0, 0.0): not said, or
    not readable; a project written by another program may hold anything there)."""
    if not isinstance(settings, Mapping):
        return 0, 0.0
    frames, fps = settings.get("frames"), settings.get("fps")
    if isinstance(frames, bool) or isinstance(fps, bool) or not isinstance(frames, int | float) \
            or not isinstance(fps, int | float):
        return 0, 0.0
    if not (math.isfinite(frames) and math.isfinite(fps)) or frames < 1 or frames != int(frames) or fps <= 0:
        return 0, 0.0
    return int(frames), float(fps)


def _card_sentence(tree: StoryTree, ins: Instruction) -> str:
    """A turn written in fields, as the sentence its subtitle says ("Yuzu jumps in the park, by
    day."): the bare motion ("jump") read as a word out of context on the card, its tooltip and
    the filmstrip. A turn of free text only is shown as written ("": see :func:`summarize`)."""
    if not (ins.motion or ins.adverb):
        return ""
    return describe_action(ins, cast=tree.cast_names())


def summarize(tree: StoryTree, node_id: str, job: JobView | None = None) -> NodeSummary:
    node = tree.node(node_id)
    takes = tree.takes_of(node_id)
    take = tree.selected_take(node_id)
    if node.is_root:
        names = [m.name for m in tree.cast.values() if m.name.strip()]  # in the story's order: its lead first
        cast = ", ".join(names[:3]) + (f" +{len(names) - 3}" if len(names) > 3 else "")
        return NodeSummary(node_id, "Start", cast or "The story's start", tree.state_of(node_id), None,
                           CardStatus.START, node.bookmarked, "", "", 0)
    ins = node.instruction
    understood = take.conditioning if take is not None else {}
    # A free-text turn is titled by what the engine read from it (who and where).
    # Not generated yet and naming no one: the character the story goes on with (who its free
    # text names, else the branch's), as a new turn's Character field hints.
    character = ins.character or str(understood.get("character", "") or "") or tree.acting_character(node_id)
    place = ins.background or str(understood.get("location", "") or "")
    title = " · ".join(part for part in (character, place) if part) or "Turn"
    body = _card_sentence(tree, ins) or ins.free_text or ins.raw
    status = CardStatus.DRAFT
    error = hint = ""
    length = stored_clip_length(take.settings) if take is not None and take.clip_path else (0, 0.0)
    fraction = 0.0
    if take is not None:
        status = CardStatus.STALE if take.stale else CardStatus.DONE
    if job is not None:
        if job.status == "running":
            status, fraction = CardStatus.RUNNING, job.fraction
        elif job.status == "queued":
            status = CardStatus.QUEUED
        elif job.status == "failed" and take is None:
            status, error, hint = CardStatus.FAILED, job.error, job.hint
    return NodeSummary(
        node_id=node_id,
        title=excerpt_of(title, 40),
        excerpt=excerpt_of(body),
        state=tree.state_of(node_id) if take is not None and take.status is TakeStatus.DONE else None,
        motion_level=take.motion_level if take is not None else None,
        status=status,
        bookmarked=node.bookmarked,
        poster_path=take.poster_path if take is not None else "",
        clip_path=take.clip_path if take is not None else "",
        take_count=len(takes),
        fraction=fraction,
        error=error,
        warnings=len(take.warnings) if take is not None else 0,
        hint=hint,
        clip_frames=length[0],
        clip_fps=length[1],
        duration=node.story.duration,
        edited_since_take=take is not None and bool(take.instruction_raw)
        and take.instruction_raw != ins.raw,
    )
