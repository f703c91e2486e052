"""Reading an MP4 clip's layout without decoding it: its top-level boxes, its first video
track's index (where each frame's bytes lie) and whether its first frame is an intact H.264
key frame.

Clips are MP4 files (ISO base media format): a tree of boxes, each starting with its size and
type. What is read here is box headers, the small index box (``moov``, a few KB) and the
first bytes of the first frame. :mod:`studio.storage.clip_check` judges a take's clip from
it, and :func:`studio.storage.ffmpeg.probe` counts a clip's frames against its index.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import BinaryIO


class UnknownLayoutError(Exception):
    """The file is not laid out as MP4 boxes this reader follows (another container, a few
    bytes of anything): ffmpeg is the one to say what it is."""


MAX_INDEX_BYTES = 64 * 1024 * 1024
"""Largest ``moov`` box read: a clip of a few seconds has one of a few KB; a larger one is
left to ffmpeg rather than read into memory."""

TOP_LEVEL_BOXES = frozenset({b"ftyp", b"styp", b"moov", b"mdat", b"free", b"skip", b"wide", b"uuid", b"pdin",
                             b"meta", b"moof", b"mfra", b"sidx", b"prft", b"emsg"})
"""Box types that may start an MP4 file: a file whose first box is none of these is no MP4."""


@dataclass(frozen=True)
class Box:
    kind: bytes
    start: int  # of its header
    body: int  # where its contents start
    end: int  # one past its last byte (as its header claims)


class CutShortError(Exception):
    def __init__(self, offset: int, box: Box | None = None) -> None:
        super().__init__(offset)
        self.offset = offset
        self.box = box


def top_boxes(file: BinaryIO, size: int) -> Iterator[Box]:
    """The file's top-level boxes; :class:`CutShortError` where one claims bytes past the end."""
    offset = 0
    while offset < size:
        file.seek(offset)
        header = file.read(16)
        if len(header) < 8:
            if offset == 0:
                raise UnknownLayoutError  # a few bytes of anything: ffmpeg says what it is
            raise CutShortError(offset)
        length, kind = struct.unpack(">I4s", header[:8])
        if offset == 0 and kind not in TOP_LEVEL_BOXES:
            raise UnknownLayoutError  # no MP4 (or one this reader does not know)
        if not all(32 <= byte < 127 for byte in kind):
            raise UnknownLayoutError
        body = offset + 8
        if length == 1:
            if len(header) < 16:
                raise CutShortError(offset)
            length = struct.unpack(">Q", header[8:16])[0]
            body = offset + 16
        elif length == 0:  # "up to the end of the file": only the last box may say so
            length = size - offset
        if length < body - offset:
            raise UnknownLayoutError
        box = Box(kind, offset, body, offset + length)
        if box.end > size:
            raise CutShortError(offset, box)
        yield box
        offset = box.end


@dataclass(frozen=True)
class Layout:
    """The top level of an MP4 file: its whole ``moov`` box (None when it has none) and where
    the file ends inside a box (None when every box is whole)."""

    moov: Box | None
    cut: CutShortError | None


def read_layout(file: BinaryIO, size: int) -> Layout:
    moov: Box | None = None
    try:
        for box in top_boxes(file, size):
            if box.kind == b"moov":
                moov = box
    except CutShortError as cut:
        return Layout(moov, cut)
    return Layout(moov, None)


def mp4_frames(path: Path) -> tuple[int, int] | None:
    """(frames whose bytes lie inside the file, frames its index lists) of the first video
    track of the MP4 file at ``path``; None for a file that is not an MP4 whose index this
    reader follows (another container, a fragmented MP4, a damaged index).

    :func:`~studio.storage.ffmpeg.probe` asks it: ffmpeg reads a clip cut inside or just
    before its last frame without a word, and counts the frames it finds against a duration
    that a longer audio track stretches. The index says how many frames there are."""
    try:
        with open(path, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            layout = read_layout(file, size)
            if layout.moov is None:
                return None
            track = video_track(file, layout.moov)
            return None if track is None else track.frames
    except (OSError, UnknownLayoutError):
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


@dataclass(frozen=True)
class VideoTrack:
    """The first video track of a clip, as far as the checks here need it."""

    table: _SampleTable
    frames: tuple[int, int]  # (frames inside the file, frames the table lists)
    tracks: int  # tracks of the clip, this one included
    edits: int  # entries of its edit list (0: none)
    codec: bytes  # type of its first sample entry ("avc1")
    config: bytes  # the body of that entry's avcC box (b"" where it has none)
    rate: Fraction | None = None  # frames a second, where every frame lasts alike (else None)


def video_track(file: BinaryIO, moov: Box) -> VideoTrack | None:
    """The clip's first video track; None where there is none this reader follows (no video
    track, a fragmented file whose frames lie in later boxes, an index too large or
    damaged): ffmpeg names what the file holds."""
    if moov.end - moov.body > MAX_INDEX_BYTES:
        return None
    file.seek(moov.body)
    data = file.read(moov.end - moov.body)
    size = os.fstat(file.fileno()).st_size
    try:
        return _read_video_track(data, size)
    except (struct.error, IndexError, ValueError):
        return None


def _read_video_track(moov: bytes, size: int) -> VideoTrack | None:
    if _find(moov, 0, len(moov), b"mvex") is not None:
        return None  # fragmented: the frames are indexed outside moov
    tracks = [(body, end) for kind, body, end in _children(moov, 0, len(moov)) if kind == b"trak"]
    for body, end in tracks:
        mdia = _find(moov, body, end, b"mdia")
        hdlr = _find(moov, *mdia, b"hdlr") if mdia else None
        if mdia is None or hdlr is None or moov[hdlr[0] + 8:hdlr[0] + 12] != b"vide":
            continue
        minf = _find(moov, *mdia, b"minf")
        stbl = _find(moov, *minf, b"stbl") if minf else None
        table = _read_stbl(moov, *stbl) if stbl else None
        if stbl is None or table is None:
            return None
        codec, config = _sample_entry(moov, *stbl)
        return VideoTrack(table, _frames_inside(table, size), len(tracks), _edits(moov, body, end), codec, config,
                          _rate(moov, mdia, stbl))
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


VISUAL_ENTRY_FIELDS = 78
"""Bytes of a visual sample entry (``avc1``) before its own boxes (``avcC``...)."""


def _sample_entry(data: bytes, start: int, end: int) -> tuple[bytes, bytes]:
    """(type, avcC body) of the first sample entry of the track's ``stsd``; (b"", b"") without one."""
    stsd = _find(data, start, end, b"stsd")
    if stsd is None:
        return b"", b""
    entry = next(_children(data, stsd[0] + 8, stsd[1]), None)  # after version, flags and count
    if entry is None:
        return b"", b""
    kind, body, stop = entry
    if body + VISUAL_ENTRY_FIELDS > stop:
        return kind, b""
    avcc = _find(data, body + VISUAL_ENTRY_FIELDS, stop, b"avcC")
    return kind, data[avcc[0]:avcc[1]] if avcc else b""


def _rate(data: bytes, mdia: tuple[int, int], stbl: tuple[int, int]) -> Fraction | None:
    """The track's frame rate: its time scale (``mdhd``) over the one duration all its frames
    share (``stts``); None where they last differently or either box is missing."""
    mdhd = _find(data, *mdia, b"mdhd")
    stts = _find(data, *stbl, b"stts")
    if mdhd is None or stts is None:
        return None
    version = data[mdhd[0]]
    (timescale,) = struct.unpack_from(">I", data, mdhd[0] + (20 if version == 1 else 12))
    (entries,) = struct.unpack_from(">I", data, stts[0] + 4)
    deltas = {struct.unpack_from(">II", data, stts[0] + 8 + 8 * i)[1] for i in range(entries)}
    if len(deltas) != 1 or not timescale or 0 in deltas:
        return None
    return Fraction(timescale, deltas.pop())


def clip_length(file: BinaryIO) -> tuple[int, Fraction] | None:
    """(frames, frames a second) of a clip laid out as the studio writes clips (see
    :func:`plain_clip`), every frame inside the file and all lasting alike, read from its index
    alone; None for any other file (ffmpeg's probe says what it holds)."""
    try:
        size = os.fstat(file.fileno()).st_size
        layout = read_layout(file, size)
        track = video_track(file, layout.moov) if layout.moov is not None and layout.cut is None else None
        if track is None or track.rate is None or track.frames[0] != track.frames[1] or not plain_clip(file, track):
            return None
    except (OSError, UnknownLayoutError, struct.error, IndexError, ValueError):
        return None
    return track.frames[1], track.rate


def _edits(data: bytes, start: int, end: int) -> int:
    """Entries of the track's edit list (``edts/elst``); 0 where it has none."""
    edts = _find(data, start, end, b"edts")
    elst = _find(data, *edts, b"elst") if edts else None
    return struct.unpack_from(">I", data, elst[0] + 4)[0] if elst else 0


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


# -- a clip as the studio writes it ---------------------------------------------------------
#
# ffmpeg's count of a clip's frames (what export's probe reads) starts at the first frame its
# H.264 parser takes for a key frame: a clip whose first frame is damaged (its bytes zeroed by
# a bad copy) is read as holding none, whatever its index says. So a clip is called sound here
# only when its first frame is an intact key frame, parsed as far as ffmpeg's parser goes: its
# units (NALs) fill it exactly, and it holds an IDR slice that names a picture parameter set of
# the clip's own configuration (``avcC``).

H264_IDR, H264_SPS, H264_PPS = 5, 7, 8
MAX_FIRST_FRAME_BYTES = 16 * 1024 * 1024


def plain_clip(file: BinaryIO, track: VideoTrack) -> bool:
    """Whether the clip is laid out as the studio writes clips (one H.264 track with its
    parameters in ``avcC``, at most one edit, an intact key frame first): one ffmpeg reads to
    its index's last frame."""
    if track.tracks != 1 or track.edits > 1 or track.codec != b"avc1" or not track.table.sizes:
        return False
    parameters = _avc_parameters(track.config)
    first_size = track.table.sizes[0]
    if parameters is None or first_size > MAX_FIRST_FRAME_BYTES:
        return False
    file.seek(track.table.chunk_offsets[0])
    length_size, pictures = parameters
    return _starts_with_idr(file.read(first_size), length_size, pictures)


class _Bits:
    """Bits of the start of an H.264 unit's payload, read as its headers are (Exp-Golomb codes)."""

    def __init__(self, payload: bytes) -> None:
        self._data = _unescaped(payload[:64])
        self._position = 0

    def bit(self) -> int:
        byte = self._data[self._position >> 3]  # IndexError past the end
        bit = (byte >> (7 - (self._position & 7))) & 1
        self._position += 1
        return bit

    def number(self) -> int:
        """An unsigned Exp-Golomb code (``ue(v)``)."""
        zeros = 0
        while self.bit() == 0:
            zeros += 1
            if zeros > 31:
                raise ValueError("an Exp-Golomb code too long")
        value = 1
        for _ in range(zeros):
            value = value << 1 | self.bit()
        return value - 1


def _unescaped(data: bytes) -> bytes:
    """``data`` without its emulation prevention bytes (the 3 of each 00 00 03)."""
    return data.replace(b"\x00\x00\x03", b"\x00\x00")


def _avc_parameters(config: bytes) -> tuple[int, set[int]] | None:
    """(bytes of each unit's length field, ids of the picture parameter sets whose sequence
    parameter set is there too) from an ``avcC`` body; None where it is not one."""
    try:
        if len(config) < 7 or config[0] != 1 or config[4] & 3 == 2:
            return None
        position = 6
        sequences: set[int] = set()
        for _ in range(config[5] & 31):
            unit, position = _counted_unit(config, position)
            if unit[0] & 31 != H264_SPS or len(unit) < 5:
                return None
            sequences.add(_Bits(unit[4:]).number())
        pictures: set[int] = set()
        count = config[position]
        position += 1
        for _ in range(count):
            unit, position = _counted_unit(config, position)
            if unit[0] & 31 != H264_PPS:
                return None
            bits = _Bits(unit[1:])
            picture, sequence = bits.number(), bits.number()
            if sequence in sequences:
                pictures.add(picture)
    except (IndexError, ValueError):
        return None
    return ((config[4] & 3) + 1, pictures) if pictures else None


def _counted_unit(config: bytes, position: int) -> tuple[bytes, int]:
    """The unit stored at ``position`` of an ``avcC`` body after its 2-byte length, and where the next starts."""
    length = int.from_bytes(config[position:position + 2], "big")
    unit = config[position + 2:position + 2 + length]
    if length == 0 or len(unit) != length:
        raise ValueError("a parameter set cut short")
    return unit, position + 2 + length


def _starts_with_idr(frame: bytes, length_size: int, pictures: set[int]) -> bool:
    """Whether ``frame`` (a sample of length-prefixed units) is filled exactly by its units and
    holds an intra IDR slice whose picture parameter set is one of ``pictures``."""
    position = 0
    idr = False
    try:
        while position < len(frame):
            length = int.from_bytes(frame[position:position + length_size], "big")
            position += length_size
            unit = frame[position:position + length]
            position += length
            if length == 0 or len(unit) != length or unit[0] & 0x80:
                return False
            if unit[0] & 31 == H264_IDR:
                bits = _Bits(unit[1:])
                bits.number()  # the slice's first macroblock
                kind, picture = bits.number(), bits.number()
                if unit[0] & 0x60 == 0 or kind > 9 or kind % 5 not in (2, 4) or picture not in pictures:
                    return False
                idr = True
    except (IndexError, ValueError):
        return False
    return idr
