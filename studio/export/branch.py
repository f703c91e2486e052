"""The branch to export, read from the project once, up front.

:func:`collect_branch` copies everything an export needs out of the project (turn
numbers, instructions, states, absolute media paths). The export itself then only reads
media files, so it can run on a worker thread while the user keeps editing, and it can
never modify the project.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
import stat
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from pathlib import Path

from studio.core.instruction import Instruction
from studio.core.jobs import JobStatus
from studio.core.model import Node, Take, TakeStatus
from studio.core.sentence import describe_action
from studio.core.stale_reasons import stale_words
from studio.core.state import CharacterState, StateChange, StateDeltas, turn_change
from studio.core.story import DialogueLine, StoryFields
from studio.core.text import BIDI_CONTROLS, first_few, shows_something
from studio.core.tree import StoryTree, TreeError
from studio.export.errors import REMAKE_CLIP_HINT, ExportError
from studio.storage import Project, UnsafePathError
from studio.storage.paths import descriptor_name, file_there, open_resolved_inside, private_copy

MAX_LABEL_CHARS = 40
MAX_ERROR_CHARS = 120
"""A failed take's error quoted in a message (the rest is in the take's details)."""


@dataclass(frozen=True)
class Turn:
    """One turn of the branch with its selected take's media."""

    number: int
    """1 for the first turn after the story's start."""
    node_id: str
    take_id: str
    instruction: str
    state: CharacterState
    """The acting character's state after this turn."""
    deltas: StateDeltas
    clip: Path
    poster: Path | None
    character: str = ""
    """Whose turn it is (whose state ``state`` is)."""
    action: str = ""
    """What happens, as a readable sentence (see :func:`studio.core.sentence.describe_action`)."""
    story: StoryFields = StoryFields()
    """Dialogue, narration, duration and shot notes (text cleaned like the instruction)."""
    stale: bool = False
    """The chosen take is out of date (see :attr:`stale_why`)."""
    stale_why: str = ""
    """Why the chosen take is out of date, as a clause ("its instruction was edited", "an
    earlier turn changed", "the start state changed": :func:`~studio.core.stale_reasons.stale_words`);
    "" for a current take."""
    applied: StateChange | None = None
    """How far the turn moved each of ``state``'s stats, in points (after minus before; less
    than predicted where a stat ran into 0 or 100). None for a turn not read from a project:
    :attr:`change` is then the predicted change."""
    media_root: Path | None = None
    """The project folder ``clip_rel`` and ``poster_rel`` are read from (see :func:`open_clip`);
    None for a turn not read from a project, whose ``clip`` and ``poster`` are read as named."""
    clip_rel: str = ""
    poster_rel: str = ""
    clip_missing: bool = False
    """The clip file is gone (collected for subtitles or a sheet, which need no picture of it:
    :func:`collect_branch`'s ``missing_clips``)."""
    made_length: tuple[int, Fraction] | None = None
    """(frames, rate) its take was made with, as the engine recorded them: a missing clip's
    length for the subtitles' timing; None where the take recorded none."""

    @property
    def change(self) -> StateChange:
        """The change shown beside each value of :attr:`state`."""
        return self.applied if self.applied is not None else StateChange.predicted(self.deltas)

    @property
    def duration(self) -> float | None:
        """Seconds the turn lasts in the episode; None: its clip's own length."""
        return self.story.duration

    @property
    def label(self) -> str:
        return describe_turn(self.number, self.node_id, self.instruction)


@dataclass(frozen=True)
class Branch:
    project_name: str
    leaf_id: str
    start_state: CharacterState
    turns: tuple[Turn, ...]


def clean_text(text: str) -> str:
    """``text`` without control characters (line breaks aside) or bidirectional embeddings,
    overrides and isolates (:data:`~studio.core.text.BIDI_CONTROLS`): what a subtitle, a
    caption or a timeline may show. A project written by another program may hold them;
    they must not reach a player or an editor.

    The plain marks (U+200E, U+200F) stay, as the story fields and names allow them:
    right-to-left text needs them to place its punctuation and numbers, and they reorder
    nothing beyond the neutral characters beside them. They became spaces, so "Hi\u200f!"
    read "Hi !" in the subtitles."""
    return "".join(
        " " if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) < 0xA0 or c in BIDI_CONTROLS
        else "\ufffd" if 0xD800 <= ord(c) < 0xE000 else c
        for c in text
    )


def describe_turn(number: int, node_id: str, instruction: str) -> str:
    text = " ".join(instruction.split())
    if len(text) > MAX_LABEL_CHARS:
        text = text[: MAX_LABEL_CHARS - 1] + "…"
    return f"turn {number} (node {node_id}{': ' + repr(text) if text else ''})"


def _made_length(take: Take) -> tuple[int, Fraction] | None:
    """(frames, rate) the engine recorded in ``take``'s settings when it made the clip, or None."""
    try:
        frames, fps = int(take.settings["frames"]), Fraction(str(take.settings["fps"]))
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return None
    return (frames, fps) if frames > 0 and fps > 0 else None


def _turn(project: Project, tree: StoryTree, node: Node, number: int, missing_clips: MissingClips) -> Turn:
    label = describe_turn(number, node.id, node.instruction.raw)
    take = tree.selected_take(node.id)
    if take is None or take.status != TakeStatus.DONE:
        state, hint = _why_no_clip(take, tree.takes_of(node.id))
        if hint == GENERATE_ONE:
            state, hint, remake = _generation_of(project, node.id, state)
            raise ExportError(f"The branch can't be exported: {label} has {state}.", hint=hint, remake=remake)
        raise ExportError(f"The branch can't be exported: {label} has {state}.", hint=hint)
    if not take.clip_path:
        refused = _refused_path(project, take)
        if refused:  # emptied when the project was read: it led outside the project folder
            raise _outside_error(label, node.id, refused)
        raise ExportError(f"The branch can't be exported: {label} has a take without a clip.",
                          hint="Re-roll the turn to make a clip.", remake=(node.id,))
    try:
        clip = project.resolve(take.clip_path)
        poster = project.resolve(take.poster_path) if take.poster_path else None
    except UnsafePathError as error:
        raise _outside_error(label, node.id, error.message) from None
    missing = not _there(clip)
    if missing and not (missing_clips is MissingClips.SHOWN_WITHOUT
                        or (missing_clips is MissingClips.TIMED_BY_TAKE and _made_length(take) is not None)):
        raise ExportError(f"The branch can't be exported: the clip of {label} is missing ({clip}).",
                          hint=REMAKE_CLIP_HINT, remake=(node.id,))
    if poster is not None and not _there(poster, blocked=False):
        poster = None  # the sheet falls back to the clip's first frame
    character = clean_text(tree.acting_character(node.id)).strip()
    return Turn(number=number, node_id=node.id, take_id=take.id, instruction=clean_text(node.instruction.raw).strip(),
                state=tree.state_of(node.id), deltas=take.deltas, clip=clip, poster=poster, character=character,
                action=clean_text(action_sentence(node.instruction, character, tree.cast_names())).strip(),
                story=_clean_story(node.story), stale=take.stale, stale_why=stale_words(tree, take),
                applied=turn_change(tree, node.id),
                media_root=project.path, clip_rel=take.clip_path,
                poster_rel=take.poster_path if poster is not None else "", clip_missing=missing,
                made_length=_made_length(take))


OUTSIDE_HINT = ("The studio reads a project's media only inside its folder, and this path was written by hand or "
                "by another program (`kamishibai info` lists such paths).")
LINK_OUTSIDE_HINT = ("Its clip file is a link to a file outside the project folder, and the studio reads media only "
                     "inside the folder: a copy of that file put in place of the link is read.")


def _refused_path(project: Project, take: Take) -> str:
    """Why the project refused a media path of ``take`` when it read the project file (it
    empties such a path, so that the take looked like one without a clip), or ""."""
    said = f"take {take.id} of node {take.node_id}: "
    return next((problem.removeprefix(said) for problem in project.problems if problem.startswith(said)), "")


def _outside_error(label: str, node_id: str, reason: str) -> ExportError:
    """The error of a turn whose clip is named by a path outside the project, or is a link to
    a file there (``reason``: the refusal, "Refused the path '../x.mp4': it leads outside the
    project.")."""
    reason = reason.rstrip(".")
    link = "resolves outside" in reason  # a path inside the folder, to a link that leads out of it
    what = "is a link to a file outside the project folder" if link else "is named by a path outside the project folder"
    return ExportError(f"The branch can't be exported: the clip of {label} {what}, which is not read "
                       f"({reason[:1].lower()}{reason[1:]}).",
                       hint=f"{REMAKE_CLIP_HINT} {LINK_OUTSIDE_HINT if link else OUTSIDE_HINT}", remake=(node_id,))


def action_sentence(instruction: Instruction, character: str, cast: Sequence[str] = ()) -> str:
    """What happens in the turn as a sentence, for captions, subtitles, markers and sheets;
    never the instruction's field syntax.

    :func:`~studio.core.sentence.describe_action` has nothing to say of fields that name
    no motion, place or free text ("Character: Yuzu", "Character: Qiqi; Motion: ;
    Background: ."), and the export then showed the instruction as written, field names
    and all. Such a turn reads as its acting character's name ("Yuzu.").

    So does one whose fields are all left blank ("Character: ; Motion: ; Background: ."):
    nothing of it is parsed, and describe_action gives it back as written. An instruction
    that parses to nothing holds only such fields, or only punctuation ("..."), which is
    shown as it is."""
    action = describe_action(instruction, character, cast)
    fields = instruction.fields()
    only_punctuation = not fields and not any(char.isalnum() for char in instruction.raw)
    if (action and fields) or only_punctuation:
        return action
    who = " ".join((instruction.character or character).split())
    return f"{who}." if who else ""


GENERATE_ONE = "Generate it (or select a finished take), then export again."
REROLL_ONE = "Re-roll the turn to make a clip."
GENERATE_NEW = "Generate it (Re-roll in the window) to make a clip, then export again."
"""The hint of a turn without a take that nothing is generating (the command line names the
`reroll` command in its place); when later turns lack one too, :data:`GENERATE_ALL` instead."""
GENERATE_ALL = ("Generate every turn of the branch that has none (in the window: Turn › Generate missing turns of "
                "the branch, Ctrl+Shift+G; or `kamishibai fill PROJECT --leaf NODE --run`), then export again.")


def _why_no_clip(chosen: Take | None, takes: list[Take]) -> tuple[str, str]:
    """What a turn without a finished chosen take has instead, and what to do about it.

    Only a finished take is chosen when it is made, so a turn whose generation failed has
    a take, but none chosen: it is named with its error, as the tree lists it, rather than
    called a turn without a take."""
    if chosen is not None:
        return f"a {chosen.status.value} take{_error_of(chosen)}, not a finished clip", GENERATE_ONE
    finished = [take for take in takes if take.status == TakeStatus.DONE]
    if finished:
        count = f"{len(finished)} finished take{'s' if len(finished) > 1 else ''}"
        return (f"no chosen take ({count}, none chosen)",
                "Select one of its finished takes, then export again.")
    if not takes:
        return "no take, not a finished clip", GENERATE_ONE
    latest = max(takes, key=lambda take: take.created_at)
    return (f"no finished take (its latest take {_LATEST[latest.status]}{_error_of(latest)})",
            "Re-roll the turn (or wait for its generation to finish), then export again.")


def _generation_of(project: Project, node_id: str, state: str) -> tuple[str, str, tuple[str, ...]]:
    """What a turn without a finished take (``state``) awaits, from the project's job queue,
    and what to do: a queued or running job of the turn makes it (wait); an interrupted one
    (or one marked running by a process that is gone) runs again once re-queued; with none,
    a re-roll makes it (``remake``: the command line names the `reroll` command). Its one
    hint said "Generate it", which named no command, while a job may be making it already."""
    statuses = _job_statuses(project, node_id)
    if JobStatus.RUNNING in statuses:
        return (f"{state}: it is being generated now", "Wait for its generation to finish, then export again.", ())
    if JobStatus.QUEUED in statuses:
        return (f"{state}: its generation is queued",
                "Wait for it to be generated (the studio runs the project's queue while it is open, as does "
                f"`kamishibai run-queue {_shown_project(project)}`), then export again.", ())
    if JobStatus.INTERRUPTED in statuses:
        return (f"{state}: its generation was interrupted",
                f"Run it again: `kamishibai run-queue {_shown_project(project)} --requeue-interrupted`, then "
                "export again.", ())
    return state, GENERATE_NEW, (node_id,)


def _job_statuses(project: Project, node_id: str) -> set[JobStatus]:
    """The statuses of the unfinished generation jobs of ``node_id``; a job marked running by
    a process that is gone counts as interrupted (the next opening marks it so)."""
    from studio.storage.job_store import JobStore

    store = JobStore(project.database)
    try:
        jobs = [job for job in store.load(include_finished=False) if job.node_id == node_id]
        gone = store.abandoned_ids() if any(job.status is JobStatus.RUNNING for job in jobs) else set()
    except Exception:  # no queue (an old project) or one SQLite can't read: none known (only a hint)
        return set()
    return {JobStatus.INTERRUPTED if job.id in gone else job.status for job in jobs}


def _shown_project(project: Project) -> str:
    """The project's folder as typed in a command (``./`` before a name starting with ``-``)."""
    text = str(project.path)
    return shlex.quote(f"./{text}" if text.startswith("-") else text)


_LATEST = {TakeStatus.FAILED: "failed", TakeStatus.CANCELLED: "was cancelled", TakeStatus.QUEUED: "is queued",
           TakeStatus.RUNNING: "is being generated", TakeStatus.DONE: "is finished"}


def _error_of(take: Take) -> str:
    """``: its error`` for a take that failed with one, '' otherwise."""
    error = " ".join(clean_text(take.error).split())
    if not error:
        return ""
    return f": {error if len(error) <= MAX_ERROR_CHARS else error[:MAX_ERROR_CHARS - 1] + '…'}"


def _shown_text(text: str) -> str:
    """``text`` cleaned (:func:`clean_text`), or "" when nothing of it would show.

    A field of only zero-width spaces, joiners or directional marks (pasted text, or a
    field that was cleared by hand) passes the story's checks, but a subtitle cue, marker
    or sheet block of it shows nothing: an empty cue where the turn's action belongs."""
    cleaned = clean_text(text).strip()
    return cleaned if shows_something(cleaned) else ""


def _clean_story(story: StoryFields) -> StoryFields:
    if story.is_empty:
        return story
    lines = (DialogueLine(_shown_text(line.speaker), _shown_text(line.text)) for line in story.dialogue)
    return StoryFields(
        dialogue=tuple(line for line in lines if line.text),
        narration=_shown_text(story.narration), duration=story.duration,
        shot_notes=_shown_text(story.shot_notes))


def stale_note(branch: Branch) -> str:
    """A sentence naming the branch's turns whose chosen take is stale, each with its reason
    (turns of one reason named together): an export shows them as they are ("" when there
    are none). It said "made before an earlier turn changed" of every one, a turn whose own
    instruction was edited or a branch whose start state changed too."""
    from studio.export.stale import stale_groups, stale_sentence

    groups = stale_groups((turn.number, turn.stale_why) for turn in branch.turns if turn.stale)
    if not groups:
        return ""
    said = stale_sentence(groups, lambda numbers: first_few([str(number) for number in numbers], ", "))
    return f"{said}; re-roll the branch for an episode of the story as it is now"


class MissingClips(Enum):
    """What an export does with a turn whose clip file is gone (:func:`collect_branch`)."""

    REFUSED = "refused"
    """A video or a timeline: it needs the pictures."""
    TIMED_BY_TAKE = "timed by take"
    """Subtitles: collected where its take recorded the length it was made with, to time them by."""
    SHOWN_WITHOUT = "shown without"
    """A sheet: collected, shown by its poster or without a picture."""


def collect_branch(project: Project, leaf_id: str, missing_clips: MissingClips = MissingClips.REFUSED) -> Branch:
    """The root-to-``leaf_id`` branch; raises :class:`ExportError` naming the first bad turn.
    ``missing_clips``: whether a turn whose clip file is gone is collected
    (:attr:`Turn.clip_missing`) rather than refused, for exports that need no picture of it.

    Read from one snapshot of the tree (it never changes), so the branch is consistent
    even while the worker's writer adds takes."""
    tree = project.tree
    try:
        path = tree.path_to(leaf_id)
    except TreeError as error:
        raise ExportError(f"Can't export: {error}.") from None
    turns = path[1:]
    if not turns:
        raise ExportError("The branch has no turns: there is nothing to export.",
                          hint="Choose the last turn of a branch (a leaf), not the story's start.")
    root = path[0]
    collected: list[Turn] = []
    for number, node in enumerate(turns, start=1):
        try:
            collected.append(_turn(project, tree, node, number, missing_clips))
        except ExportError as error:
            raise _with_later_missing(error, project, tree, turns[number:], number + 1) from None
    return Branch(
        project_name=project.name,  # shown cleaned by the project (no control or directional character)
        leaf_id=leaf_id,
        start_state=root.start_state or CharacterState(),
        turns=tuple(collected),
    )


def _with_later_missing(error: ExportError, project: Project, tree: StoryTree, later: list[Node],
                        first_number: int) -> ExportError:
    """``error`` (about the first turn that can't be exported) saying how many turns after it
    have no finished take either, and which have lost their clip file: the message named only
    the first, so a branch of 40 turns without clips took 40 tries to learn what it needed
    (and a project copied without its media folder as many, one missing clip at a time).
    ``first_number`` is the turn number of ``later[0]``."""
    missing = [node for node in later if not _finished(tree.selected_take(node.id))]
    lost_nodes = [(number, node) for number, node in enumerate(later, start=first_number)
                  if _clip_lost(project, tree.selected_take(node.id))]
    lost = [str(number) for number, _node in lost_nodes]
    if not missing and not lost:
        return error
    message, hint = error.message.rstrip("."), error.hint
    if lost and hint == REMAKE_CLIP_HINT:
        hint = REMAKE_CLIPS_HINT
    if missing:
        many = len(missing) > 1
        message += (f"; {len(missing)} later turn{'s' if many else ''} of the branch "
                    f"{'have' if many else 'has'} no finished take chosen either")
        hint = GENERATE_ALL if hint in ("", GENERATE_ONE, GENERATE_NEW, REROLL_ONE) else f"{hint} {GENERATE_ALL}"
    if lost:
        many = len(lost) > 1
        message += (f"; the clip{'s' if many else ''} of later turn{'s' if many else ''} {first_few(lost, ', ')} "
                    f"{'are' if many else 'is'} missing too")
        if REMAKE_CLIPS_HINT not in hint:
            hint = f"{hint} {REMAKE_CLIPS_HINT}"
    return ExportError(f"{message}.", hint=hint.strip(),
                       remake=error.remake + tuple(node.id for _number, node in lost_nodes))


REMAKE_CLIPS_HINT = ("Re-roll the turns whose clips are missing, or copy the project's media folder back if it "
                     "was left behind, then export again.")


def _there(path: Path, blocked: bool = True) -> bool:
    """Whether ``path`` is a file, or ``blocked`` when a folder above it may not be entered. A
    clip so blocked is taken as there, so that the reading of the clips names the folder and
    the ``chmod`` that opens it."""
    found = file_there(path)
    return blocked if found is None else found


def _clip_lost(project: Project, take: Take | None) -> bool:
    """Whether ``take`` is finished but its clip file is not there (nor a safe path to it)."""
    if not _finished(take):
        return False
    assert take is not None
    if not take.clip_path:
        return True
    try:
        return not _there(project.resolve(take.clip_path))
    except UnsafePathError:
        return True


def _finished(take: Take | None) -> bool:
    return take is not None and take.status == TakeStatus.DONE


# -- reading a turn's media ------------------------------------------------------------------
#
# The paths were checked when the branch was collected, but the export reads the files later
# (on a worker thread, seconds or minutes after): a clip or poster replaced meanwhile by a link
# to a file outside the project would be followed by a read that opens the path by name. The
# reads below open the file one folder at a time from the project folder, following no link
# (:func:`~studio.storage.paths.open_resolved_inside`), and hand ffmpeg, which takes a name, a
# name of the file already opened (:func:`clip_source`).


def open_clip(turn: Turn) -> int:
    """A read-only descriptor of ``turn``'s clip (the caller closes it); :class:`ExportError`
    when the file is gone, is no longer a file, or was replaced by a link leading outside the
    project."""
    fd = _open_media(turn, turn.clip, turn.clip_rel, "clip")
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # a named pipe read by ffmpeg would wait for good
        os.close(fd)
        raise ExportError(f"The clip of {turn.label} is no longer a file ({turn.clip}).",
                          hint=REMAKE_CLIP_HINT, remake=(turn.node_id,))
    return fd


def open_poster(turn: Turn) -> int:
    """A read-only descriptor of ``turn``'s poster, as :func:`open_clip` (OSError and
    :class:`UnsafePathError` as they come: a sheet falls back to the clip's first frame)."""
    if turn.poster is None:
        raise FileNotFoundError(errno.ENOENT, "The turn has no poster.")
    if turn.media_root is None or not turn.poster_rel:
        return _open_named(turn.poster)
    return open_resolved_inside(turn.media_root, turn.poster_rel)


def _open_media(turn: Turn, path: Path, rel: str, what: str) -> int:
    try:
        if turn.media_root is None or not rel:
            return _open_named(path)
        return open_resolved_inside(turn.media_root, rel)
    except UnsafePathError as error:
        raise ExportError(f"The {what} of {turn.label} was replaced by a link to a file outside the project "
                          f"folder, which is not read ({error.message[:1].lower()}{error.message[1:].rstrip('.')}).",
                          hint=f"{REMAKE_CLIP_HINT} {LINK_OUTSIDE_HINT}", remake=(turn.node_id,)) from None
    except FileNotFoundError:
        raise ExportError(f"The {what} of {turn.label} is missing ({path}): it was removed while the export ran.",
                          hint=REMAKE_CLIP_HINT, remake=(turn.node_id,)) from None
    except OSError as error:
        raise ExportError(f"The {what} of {turn.label} can't be read ({path}): {error.strerror or error}.",
                          hint=REMAKE_CLIP_HINT, remake=(turn.node_id,)) from None


def _open_named(path: Path) -> int:
    return os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))


@contextlib.contextmanager
def clip_source(turn: Turn) -> Iterator[Path]:
    """A name for ffmpeg to read ``turn``'s clip by, valid inside the ``with``: the clip
    opened by :func:`open_clip`, named through the descriptor (``/proc/PID/fd/N``: opening it
    reaches the opened file, never whatever the path names now). Where the system has no such
    name, a private copy of the opened file. A turn not read from a project: its path."""
    if turn.media_root is None:
        yield turn.clip
        return
    with media_source(open_clip(turn), turn.clip.suffix) as name:
        yield name


@contextlib.contextmanager
def media_source(fd: int, suffix: str = "") -> Iterator[Path]:
    """A name of the file open as ``fd`` (which is closed at the end) for a program that
    takes a name: see :func:`clip_source`."""
    try:
        name = descriptor_name(fd)
        if name is not None:
            yield name
            return
        with tempfile.TemporaryDirectory(prefix="kamishibai-read-") as folder:
            yield private_copy(fd, Path(folder), f"media{suffix}")
    finally:
        os.close(fd)


def indexed_clip_length(turn: Turn) -> tuple[int, Fraction] | None:
    """(frames, frame rate) of ``turn``'s clip read from its index, opened as the export opens
    it (:func:`open_clip`: no link followed out of the project); None
    where the clip is not laid out as the studio writes clips, or can't be opened (the probe
    then says why). The rate is the one ffmpeg's probe reports for it (:func:`exact_fps`)."""
    from studio.storage.ffmpeg import exact_fps
    from studio.storage.mp4_index import clip_length

    try:
        fd = open_clip(turn) if turn.media_root is not None else os.open(turn.clip, os.O_RDONLY)
    except (ExportError, OSError, UnsafePathError):
        return None
    with os.fdopen(fd, "rb") as file:
        found = clip_length(file)
    return None if found is None else (found[0], exact_fps(float(found[1])))
