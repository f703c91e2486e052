"""A quick check of take clips, as ``kamishibai info`` runs it before an export would.

A clip can be missing, empty (no bytes, or no frames), cut short (a crash while it was
copied, a failed download of a bundle) or not a video at all. Export finds out by running
ffmpeg over every clip of the branch; that costs a process per clip (about 20 ms), too
slow for a summary of a project of hundreds of takes. Clips are MP4 files (ISO base media
format): a tree of boxes, each starting with its size and type. So the check here reads
only box headers and the small index box (``moov``, a few KB):

- a top-level box that claims more bytes than the file holds, or a file that ends inside
  a box header, was cut short;
- a file without ``moov`` (ffmpeg writes it last, or first and then the data) was cut
  short before it was finished;
- the video track's sample table says where each frame's bytes lie: a frame whose bytes
  lie past the file's end was lost, which says how many frames are whole.

A file that is not laid out as MP4 boxes, or whose index this reader can't follow, is
judged by :func:`studio.storage.ffmpeg.probe` (export's own check) instead, so nothing is
called sound here that export would refuse for its structure, and nothing is refused for a
layout this reader does not know.
"""

from __future__ import annotations

import contextlib
import enum
import os
import stat
import struct
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from studio.core.model import Take, TakeStatus
from studio.storage.ffmpeg import MediaError, probe
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


@dataclass(frozen=True)
class ClipVerdict:
    """A clip's fault and the sentence that says it (naming the file)."""

    fault: ClipFault
    message: str


MAX_INDEX_BYTES = 64 * 1024 * 1024
"""Largest ``moov`` box read: a clip of a few seconds has one of a few KB; a larger one is
left to ffmpeg rather than read into memory."""

TOP_LEVEL_BOXES = frozenset({b"ftyp", b"styp", b"moov", b"mdat", b"free", b"skip", b"wide", b"uuid", b"pdin",
                             b"meta", b"moof", b"mfra", b"sidx", b"prft", b"emsg"})
"""Box types that may start an MP4 file: a file whose first box is none of these is no MP4."""

CONTAINERS = frozenset({b"moov", b"trak", b"mdia", b"minf", b"stbl"})


class _UnsureError(Exception):
    """The structure is one this reader does not follow: ffmpeg judges the file."""


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
    except _UnsureError:
        return _judged_by_ffmpeg(path, fd)
    except OSError as error:
        return ClipVerdict(ClipFault.UNREADABLE, f"{path} can't be read: {error.strerror or error}.")


def _judged_by_ffmpeg(path: Path, fd: int) -> ClipVerdict | None:
    """ffmpeg's verdict on the file open as ``fd``, read through a name of the descriptor
    (never ``path`` again, whatever it names by now; see :func:`descriptor_name`)."""
    name = descriptor_name(fd)
    with contextlib.ExitStack() as scratch:
        if name is None:
            folder = scratch.enter_context(tempfile.TemporaryDirectory(prefix="kamishibai-check-"))
            name = private_copy(fd, Path(folder), f"clip{path.suffix}")
        try:
            probe(name)
        except MediaError as error:
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


@dataclass(frozen=True)
class _Box:
    kind: bytes
    start: int  # of its header
    body: int  # where its contents start
    end: int  # one past its last byte (as its header claims)


def _top_boxes(file: BinaryIO, size: int) -> Iterator[_Box]:
    """The file's top-level boxes; :class:`_CutShortError` where one claims bytes past the end."""
    offset = 0
    while offset < size:
        file.seek(offset)
        header = file.read(16)
        if len(header) < 8:
            if offset == 0:
                raise _UnsureError  # a few bytes of anything: ffmpeg says what it is
            raise _CutShortError(offset)
        length, kind = struct.unpack(">I4s", header[:8])
        if offset == 0 and kind not in TOP_LEVEL_BOXES:
            raise _UnsureError  # no MP4 (or one this reader does not know)
        if not all(32 <= byte < 127 for byte in kind):
            raise _UnsureError
        body = offset + 8
        if length == 1:
            if len(header) < 16:
                raise _CutShortError(offset)
            length = struct.unpack(">Q", header[8:16])[0]
            body = offset + 16
        elif length == 0:  # "up to the end of the file": only the last box may say so
            length = size - offset
        if length < body - offset:
            raise _UnsureError
        box = _Box(kind, offset, body, offset + length)
        if box.end > size:
            raise _CutShortError(offset, box)
        yield box
        offset = box.end


class _CutShortError(Exception):
    def __init__(self, offset: int, box: _Box | None = None) -> None:
        super().__init__(offset)
        self.offset = offset
        self.box = box


def _judge_mp4(file: BinaryIO, path: Path, size: int) -> ClipVerdict | None:
    moov: _Box | None = None
    try:
        for box in _top_boxes(file, size):
            if box.kind == b"moov":
                moov = box
    except _CutShortError as cut:
        if cut.box is not None and cut.box.kind == b"mdat" and moov is not None:
            frames = _frames_within(file, moov, size)
            if frames is not None and frames[0] < frames[1]:
                return _cut_short(path, *frames)
        needs = f" (its {cut.box.kind.decode('ascii')} part runs to byte {cut.box.end})" if cut.box else ""
        return ClipVerdict(ClipFault.CUT_SHORT, f"{path} is cut short: it ends after {size} bytes{needs}.")
    if moov is None:
        return ClipVerdict(ClipFault.CUT_SHORT, f"{path} is cut short: its index (the moov box, written when the "
                                                "clip was finished) is missing.")
    frames = _frames_within(file, moov, size)
    if frames is None:
        raise _UnsureError
    readable, total = frames
    if total == 0:
        return ClipVerdict(ClipFault.EMPTY, f"{path} holds no frames.")
    if readable < total:
        return _cut_short(path, readable, total)
    return None


def _cut_short(path: Path, readable: int, total: int) -> ClipVerdict:
    return ClipVerdict(ClipFault.CUT_SHORT, f"{path} is cut short: only {readable} of its {total} frames are whole.")


def _frames_within(file: BinaryIO, moov: _Box, size: int) -> tuple[int, int] | None:
    """(frames whose bytes lie inside the file, frames the video track holds), or None where
    the index is not one this reader follows (no video track among others: ffmpeg names what
    the file holds)."""
    if moov.end - moov.body > MAX_INDEX_BYTES:
        return None
    file.seek(moov.body)
    data = file.read(moov.end - moov.body)
    try:
        table = _video_sample_table(data)
        if table is None:
            return None
        return _frames_inside(table, size)
    except (struct.error, IndexError, ValueError):
        return None


def _children(data: bytes, start: int, end: int) -> Iterator[tuple[bytes, int, int]]:
    """(type, body start, end) of each box in ``data[start:end]``."""
    offset = start
    while offset + 8 <= end:
        length, kind = struct.unpack_from(">I4s", data, offset)
        body = offset + 8
        if length == 1:
            length = struct.unpack_from(">Q", data, offset + 8)[0]
            body = offset + 16
        elif length == 0:
            length = end - offset
        if length < body - offset or offset + length > end:
            raise ValueError("box outside its parent")
        yield kind, body, offset + length
        offset += length


def _find(data: bytes, start: int, end: int, kind: bytes) -> tuple[int, int] | None:
    return next(((body, stop) for child, body, stop in _children(data, start, end) if child == kind), None)


@dataclass(frozen=True)
class _SampleTable:
    sizes: list[int]
    chunk_offsets: list[int]
    runs: list[tuple[int, int]]  # (first chunk, 1-based; samples per chunk) from stsc


def _video_sample_table(moov: bytes) -> _SampleTable | None:
    """The first video track's sample table; None where there is none this reader follows
    (no video track, a fragmented file whose frames lie in later boxes)."""
    if _find(moov, 0, len(moov), b"mvex") is not None:
        return None  # fragmented: the frames are indexed outside moov
    for kind, body, end in _children(moov, 0, len(moov)):
        if kind != b"trak":
            continue
        mdia = _find(moov, body, end, b"mdia")
        hdlr = _find(moov, *mdia, b"hdlr") if mdia else None
        if mdia is None or hdlr is None or moov[hdlr[0] + 8:hdlr[0] + 12] != b"vide":
            continue
        minf = _find(moov, *mdia, b"minf")
        stbl = _find(moov, *minf, b"stbl") if minf else None
        return _read_stbl(moov, *stbl) if stbl else None
    return None


def _read_stbl(data: bytes, start: int, end: int) -> _SampleTable | None:
    boxes = {kind: (body, stop) for kind, body, stop in _children(data, start, end)}
    if b"stsz" not in boxes or b"stsc" not in boxes or not ({b"stco", b"co64"} & boxes.keys()):
        return None
    body, _ = boxes[b"stsz"]
    uniform, count = struct.unpack_from(">II", data, body + 4)
    sizes = [uniform] * count if uniform else list(struct.unpack_from(f">{count}I", data, body + 12))
    if b"co64" in boxes:
        body, _ = boxes[b"co64"]
        (chunks,) = struct.unpack_from(">I", data, body + 4)
        offsets = list(struct.unpack_from(f">{chunks}Q", data, body + 8))
    else:
        body, _ = boxes[b"stco"]
        (chunks,) = struct.unpack_from(">I", data, body + 4)
        offsets = list(struct.unpack_from(f">{chunks}I", data, body + 8))
    body, _ = boxes[b"stsc"]
    (entries,) = struct.unpack_from(">I", data, body + 4)
    runs = [struct.unpack_from(">II", data, body + 8 + 12 * i) for i in range(entries)]
    return _SampleTable(sizes, offsets, [(first, per_chunk) for first, per_chunk in runs])


def _frames_inside(table: _SampleTable, size: int) -> tuple[int, int]:
    """(frames whose bytes all lie inside a file of ``size`` bytes, all frames)."""
    total = len(table.sizes)
    if total and not table.runs:
        raise ValueError("samples without chunks")
    inside = 0
    sample = 0
    for index, offset in enumerate(table.chunk_offsets, start=1):
        per_chunk = next((per for first, per in reversed(table.runs) if first <= index), None)
        if per_chunk is None:
            raise ValueError("a chunk before the first run")
        position = offset
        for _ in range(per_chunk):
            if sample >= total:
                break
            position += table.sizes[sample]
            if position <= size:
                inside += 1
            sample += 1
    if sample < total:
        raise ValueError("frames outside every chunk")
    return inside, total


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
    clips were checked. Clips named by a path outside the project are left out: reading the
    project listed them among its problems already."""
    tree = project.tree
    faults: list[TakeClipFault] = []
    checked = 0
    for node in tree.descendants(tree.root_id):
        takes = tree.takes_of(node.id)
        verdicts: dict[str, ClipVerdict | None] = {}
        paths: dict[str, str] = {}
        for take in takes:
            if take.status != TakeStatus.DONE or project.withholds(take.id, "clip_path"):
                continue
            checked += 1
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
