"""A quick check of take clips, as ``kamishibai info`` runs it before an export would.

A clip can be missing, empty (no bytes, or no frames), cut short (a crash while it was
copied, a failed download of a bundle) or not a video at all. Export finds out by running
ffmpeg over every clip of the branch (:func:`studio.storage.ffmpeg.probe`); that costs a
process per clip (about 20 ms), too slow for a summary of a project of hundreds of takes.
Clips are MP4 files (ISO base media format): a tree of boxes, each starting with its size and
type. So the check here reads only box headers, the small index box (``moov``, a few KB) and
the first bytes of the first frame, and gives its verdict only where it is sure to be
export's:

- the video track's sample table says where each frame's bytes lie: a frame whose bytes
  lie past the file's end was lost (cut short), and a table of no frames holds none. The
  probe reads the same table (:func:`~studio.storage.mp4_index.mp4_frames`), so export refuses both too;
- a clip laid out as the studio writes its clips (one H.264 track whose first frame is an
  intact key frame, every frame inside the file, every box whole) is sound: ffmpeg reads it
  to its last frame.

Everything else is judged by the probe itself: a file that is not laid out as MP4 boxes, an
index this reader can't follow or that is missing (ffmpeg finds one kept in a ``free`` box),
a box cut short that holds no frame, another codec, more tracks, a first frame that can't
be parsed. Where the probe refuses a file whose fault this reader saw (its index missing, the
file ending inside a box), that fault is what the verdict says.
"""

from __future__ import annotations

import contextlib
import enum
import os
import stat
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from studio.core.model import Take, TakeStatus
from studio.storage.ffmpeg import MediaError, probe
from studio.storage.mp4_index import CutShortError, UnknownLayoutError, plain_clip, read_layout, video_track
from studio.storage.paths import UnsafePathError, descriptor_name, private_copy

if TYPE_CHECKING:
    from studio.storage.project import Project


class ClipFault(enum.Enum):
    """Why a clip can't be used (the values are what ``info --json`` prints)."""

    MISSING = "missing"
    EMPTY = "empty"
    CUT_SHORT = "truncated"
    NOT_VIDEO = "not_video"
    UNREADABLE = "unreadable"
    OUTSIDE = "outside"
    """Named by a path outside the project folder, which the project refused when it was read."""


@dataclass(frozen=True)
class ClipVerdict:
    """A clip's fault and the sentence that says it (naming the file)."""

    fault: ClipFault
    message: str


class _UnsureError(Exception):
    """The file is one this reader can't vouch for: ffmpeg judges it. ``likely`` is what the
    header read found wrong, said instead of ffmpeg's words where ffmpeg refuses the file too
    ("its index is missing" tells more than ffmpeg's "moov atom not found")."""

    def __init__(self, likely: ClipVerdict | None = None) -> None:
        super().__init__()
        self.likely = likely


def check_clip(path: Path, opened: int | None = None) -> ClipVerdict | None:
    """What is wrong with the clip at ``path``, or None when it can be exported.

    ``opened``: a read-only descriptor of the clip (:meth:`Project.open_media
    <studio.storage.project.Project.open_media>`, which follows no link), read instead of
    opening ``path`` (then only named in messages), and closed here. A project's clip is read
    that way: its path was checked, but a link put in its place since would be followed by a
    read that opens it by name."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)) \
            if opened is None else opened
    except OSError as error:
        return _not_opened(path, error)
    try:
        return _check_opened(path, fd)
    finally:
        os.close(fd)


def _not_opened(path: Path, error: OSError) -> ClipVerdict:
    """The verdict on a clip that could not be opened."""
    if isinstance(error, FileNotFoundError):
        return ClipVerdict(ClipFault.MISSING, f"{path} does not exist.")
    if isinstance(error, PermissionError):
        return ClipVerdict(ClipFault.UNREADABLE, f"you have no permission to read {path}.")
    return ClipVerdict(ClipFault.UNREADABLE, f"{path} can't be read: {error.strerror or error}.")


def _check_opened(path: Path, fd: int) -> ClipVerdict | None:
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return ClipVerdict(ClipFault.NOT_VIDEO, f"{path} is not a file.")
        if info.st_size == 0:
            return ClipVerdict(ClipFault.EMPTY, f"{path} is empty (0 bytes).")
        with os.fdopen(fd, "rb", closefd=False) as file:
            return _judge_mp4(file, path, info.st_size)
    except PermissionError:
        return ClipVerdict(ClipFault.UNREADABLE, f"you have no permission to read {path}.")
    except _UnsureError as unsure:
        return _judged_by_ffmpeg(path, fd, unsure.likely)
    except UnknownLayoutError:  # not laid out as MP4 boxes: ffmpeg says what it is
        return _judged_by_ffmpeg(path, fd)
    except OSError as error:
        return ClipVerdict(ClipFault.UNREADABLE, f"{path} can't be read: {error.strerror or error}.")


def _judged_by_ffmpeg(path: Path, fd: int, likely: ClipVerdict | None = None) -> ClipVerdict | None:
    """ffmpeg's verdict on the file open as ``fd``, read through a name of the descriptor
    (never ``path`` again, whatever it names by now; see :func:`descriptor_name`). Where ffmpeg
    refuses it, ``likely`` (the fault the header read found) is said when there is one."""
    name = descriptor_name(fd)
    with contextlib.ExitStack() as scratch:
        if name is None:
            folder = scratch.enter_context(tempfile.TemporaryDirectory(prefix="kamishibai-check-"))
            name = private_copy(fd, Path(folder), f"clip{path.suffix}")
        try:
            probe(name)
        except MediaError as error:
            if likely is not None:
                return likely
            message = error.message.replace(str(name), str(path))
            return ClipVerdict(_fault_of(message), message)
    return None


def _fault_of(message: str) -> ClipFault:
    """The fault that :func:`probe`'s message tells."""
    if "cut short" in message:
        return ClipFault.CUT_SHORT
    if "holds no frames" in message:
        return ClipFault.EMPTY
    if "does not exist" in message:
        return ClipFault.MISSING
    if "Permission denied" in message:
        return ClipFault.UNREADABLE
    return ClipFault.NOT_VIDEO


def _judge_mp4(file: BinaryIO, path: Path, size: int) -> ClipVerdict | None:
    """The verdict where the header read is sure of it, else :class:`_UnsureError`.

    Sure are: frames whose bytes lie past the file's end and an index of no frames (export's
    :func:`probe` reads the same index, see :func:`~studio.storage.mp4_index.mp4_frames`), and a clip laid out as the
    studio writes its clips (:func:`~studio.storage.mp4_index.plain_clip`), which ffmpeg reads whole. Anything else (no
    index, a box cut short that holds no frame, another codec, more tracks) is ffmpeg's to
    judge: a file without its index whose index ffmpeg still finds (in a ``free`` box) is
    sound, a clip whose first frame can't be parsed is not."""
    layout = read_layout(file, size)
    cut = _cut_verdict(path, size, layout.cut) if layout.cut is not None else None
    if layout.moov is None:
        raise _UnsureError(cut or ClipVerdict(
            ClipFault.CUT_SHORT, f"{path} is cut short: its index (the moov box, written when the clip was "
                                 "finished) is missing."))
    track = video_track(file, layout.moov)
    if track is None:
        raise _UnsureError(cut)
    readable, total = track.frames
    if readable < total:
        return _cut_short(path, readable, total)
    if total == 0:
        return ClipVerdict(ClipFault.EMPTY, f"{path} holds no frames.")
    if cut is not None or not plain_clip(file, track):
        raise _UnsureError(cut)
    return None


def _cut_verdict(path: Path, size: int, cut: CutShortError) -> ClipVerdict:
    needs = f" (its {cut.box.kind.decode('ascii')} part runs to byte {cut.box.end})" if cut.box else ""
    return ClipVerdict(ClipFault.CUT_SHORT, f"{path} is cut short: it ends after {size} bytes{needs}.")


def _cut_short(path: Path, readable: int, total: int) -> ClipVerdict:
    return ClipVerdict(ClipFault.CUT_SHORT, f"{path} is cut short: only {readable} of its {total} frames are whole.")


@dataclass(frozen=True)
class TakeClipFault:
    """A take whose clip can't be exported. ``turn`` is the node's depth (turn 1 continues
    the story's start); ``number`` is the take's place among its node's takes (1 = first);
    ``alternative`` is another take of the node whose clip is sound ("" for none)."""

    node_id: str
    turn: int
    instruction: str
    take_id: str
    number: int
    selected: bool
    path: str
    verdict: ClipVerdict
    alternative: str = ""


def take_clip_faults(project: Project) -> tuple[list[TakeClipFault], int]:
    """Every finished take's clip that can't be exported, in tree order, and how many
    clips were checked. A clip named by a path outside the project is one that can't be
    exported (:attr:`ClipFault.OUTSIDE`): reading the project listed the path among its
    problems, yet the clips were said to be "all sound" and ``info`` exited 0."""
    tree = project.tree
    faults: list[TakeClipFault] = []
    checked = 0
    for node in tree.descendants(tree.root_id):
        takes = tree.takes_of(node.id)
        verdicts: dict[str, ClipVerdict | None] = {}
        paths: dict[str, str] = {}
        for take in takes:
            if take.status != TakeStatus.DONE:
                continue
            checked += 1
            if project.withholds(take.id, "clip_path"):
                paths[take.id], verdicts[take.id] = "", _outside_verdict(project, take)
            else:
                paths[take.id], verdicts[take.id] = _take_verdict(project, take)
        sound = [take.id for take in takes if take.id in verdicts and verdicts[take.id] is None]
        depth = tree.depth(node.id)
        for number, take in enumerate(takes, start=1):
            verdict = verdicts.get(take.id)
            if verdict is None:
                continue
            selected = take.id == node.selected_take_id
            faults.append(TakeClipFault(node.id, depth, node.instruction.raw, take.id, number, selected,
                                        paths[take.id], verdict, sound[-1] if selected and sound else ""))
    return faults, checked


def chosen_clip_faults(project: Project, node_ids: Sequence[str]) -> list[tuple[str, ClipVerdict]]:
    """The turns of ``node_ids`` (a branch, in order) whose chosen take is finished and its
    clip can't be used, each with its verdict: what an export of the branch would meet, all
    of it at once (the export stops at the first it meets)."""
    tree = project.tree
    faults: list[tuple[str, ClipVerdict]] = []
    for node_id in node_ids:
        take = tree.selected_take(node_id)
        if take is None or take.status != TakeStatus.DONE:
            continue
        if project.withholds(take.id, "clip_path"):
            verdict: ClipVerdict | None = _outside_verdict(project, take)
        else:
            _path, verdict = _take_verdict(project, take)
        if verdict is not None:
            faults.append((node_id, verdict))
    return faults


def _outside_verdict(project: Project, take: Take) -> ClipVerdict:
    """The verdict of a take whose clip path the project refused on reading it (the path
    led outside the project folder), quoting the refusal the project's problems hold."""
    said = f"take {take.id} of node {take.node_id}: "
    reason = next((problem.removeprefix(said) for problem in project.problems if problem.startswith(said)), "")
    detail = f" ({reason.rstrip('.')})" if reason else ""
    return ClipVerdict(ClipFault.OUTSIDE, f"the take's clip is named by a path outside the project folder, which is "
                                          f"not read{detail}.")


def _take_verdict(project: Project, take: Take) -> tuple[str, ClipVerdict | None]:
    if not take.clip_path:
        return "", ClipVerdict(ClipFault.MISSING, "the take has no clip.")
    try:
        path = project.resolve(take.clip_path)
        opened = project.open_media(take.clip_path)  # follows no link put in place since the check
    except UnsafePathError as error:  # a link changed since the project was read
        return "", ClipVerdict(ClipFault.UNREADABLE, error.message)
    except OSError as error:
        return str(path), _not_opened(path, error)
    return str(path), check_clip(path, opened)
