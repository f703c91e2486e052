"""Whether a ``project.db-wal`` left by a crash belongs to the ``project.db`` beside it.

SQLite replays every committed frame of a write-ahead log into whatever database file sits
beside it: a user who restores a backup copy of ``project.db`` while a crash's WAL is still
there gets the backup with the pages of a later version written over it (damage, or two
versions silently mixed). Nothing in SQLite's own files ties a WAL to its database: the WAL
header's salts and checkpoint sequence number only tell one generation of the WAL from the
next, and in WAL mode the database header's change counter is not moved on each commit (a
commit that changes rows in place does not write page 1 at all).

So the studio keeps the tie itself. Every write transaction (``Database._committing``)
sets the database header's ``user_version`` (bytes 60..63 of page 1, which the studio uses
for nothing else) to ``new << 16 | previous``: a fresh 16-bit token above the token of the
commit it follows. Every commit therefore writes page 1 into the WAL, and each page-1 frame
says which token the database held before it. A WAL's frames are appended on top of the
database file as it was when the WAL was (re)started; later checkpoints copy its frames,
in order, into the file. So the file's current token is, for a WAL of its own, either the
token its first page-1 frame was written on top of, or the token of one of its frames. A
file whose token is neither was not the base of this WAL: it was put in its place since.

A commit by another program (the ``sqlite3`` shell) leaves ``user_version`` as it found
it; the rule above holds for such frames too (they repeat a token the file may hold). A
WAL with no committed frame of page 1 can't be judged: it is left to SQLite. A WAL whose
page size is not the file's can't belong to it. The judgement errs one way only: a WAL of
this file is never called foreign; a foreign WAL is missed when it holds no page 1, or, one
time in 65,536, when a token matches by chance.
"""

from __future__ import annotations

import contextlib
import enum
import os
import struct
import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

WAL_HEADER_BYTES = 32
FRAME_HEADER_BYTES = 24
WAL_VERSION = 3007000
_WAL_BYTE_ORDER = {0x377F0682: "<", 0x377F0683: ">"}
"""The WAL magic number says in which byte order its checksums add up the words."""
USER_VERSION_OFFSET = 60
TOKEN_BITS = 16
TOKEN_MASK = (1 << TOKEN_BITS) - 1


class WalJudgement(enum.Enum):
    NOTHING = "nothing"  # no WAL, or none SQLite would replay a frame of
    BELONGS = "belongs"
    UNKNOWN = "unknown"  # holds no page 1: left to SQLite
    FOREIGN = "foreign"


@dataclass(frozen=True)
class WalVerdict:
    judgement: WalJudgement
    reason: str = ""  # why a WAL is foreign, as a clause


@dataclass(frozen=True)
class _Frames:
    page_size: int
    page_ones: list[int]  # user_version of each committed frame of page 1, in order
    committed: int


def next_user_version(current: int, token: int) -> int:
    """The ``user_version`` a commit writes over ``current`` (both as SQLite's PRAGMA gives
    them: signed 32-bit): ``token`` (1..65535, not current's own) above current's token."""
    previous = (current & 0xFFFFFFFF) >> TOKEN_BITS
    value = ((token & TOKEN_MASK) << TOKEN_BITS) | previous
    return value - (1 << 32) if value >= 1 << 31 else value


def current_token(user_version: int) -> int:
    return (user_version & 0xFFFFFFFF) >> TOKEN_BITS


def judge_wal(db_path: Path) -> WalVerdict:
    """Whether ``db_path``'s WAL belongs to it (see the module's note). Reads only; a file
    that can't be read is left to SQLite (which says what is wrong with it)."""
    wal = db_path.with_name(db_path.name + "-wal")
    try:
        with open(db_path, "rb") as handle:
            header = handle.read(100)
        with open(wal, "rb") as handle:
            frames = _committed_frames(handle)
    except OSError:
        return WalVerdict(WalJudgement.NOTHING)
    if frames is None or frames.committed == 0:
        return WalVerdict(WalJudgement.NOTHING)
    if len(header) < 100:
        return WalVerdict(WalJudgement.UNKNOWN)
    (raw_size,) = struct.unpack_from(">H", header, 16)
    page_size = 65536 if raw_size == 1 else raw_size
    if page_size != frames.page_size:
        return WalVerdict(WalJudgement.FOREIGN, f"its pages are {frames.page_size} bytes, the database's "
                                                f"{page_size}")
    if not frames.page_ones:
        return WalVerdict(WalJudgement.UNKNOWN)
    (user_version,) = struct.unpack_from(">I", header, USER_VERSION_OFFSET)
    first = frames.page_ones[0]
    known = {first & TOKEN_MASK} | {value >> TOKEN_BITS for value in frames.page_ones}
    if user_version >> TOKEN_BITS in known:
        return WalVerdict(WalJudgement.BELONGS)
    return WalVerdict(WalJudgement.FOREIGN, "its changes were made on top of another version of the database file "
                                            "than the one there now")


def _checksum(data: bytes, order: str, s0: int, s1: int) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes), continued from (s0, s1)."""
    words = struct.unpack(f"{order}{len(data) // 4}I", data)
    for index in range(0, len(words), 2):
        s0 = (s0 + words[index] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[index + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def _committed_frames(handle: BinaryIO) -> _Frames | None:
    """The frames SQLite would replay from the WAL in ``handle`` (those whose salts and
    running checksum are right, up to the last commit), or None for a WAL it ignores."""
    header = handle.read(WAL_HEADER_BYTES)
    if len(header) < WAL_HEADER_BYTES:
        return None
    magic, version, page_size, _sequence, salt1, salt2, sum1, sum2 = struct.unpack(">8I", header)
    order = _WAL_BYTE_ORDER.get(magic)
    valid_size = 512 <= page_size <= 65536 and page_size & (page_size - 1) == 0
    if order is None or version != WAL_VERSION or not valid_size:
        return None
    if _checksum(header[:24], order, 0, 0) != (sum1, sum2):
        return None
    sums = (sum1, sum2)
    page_ones: list[int] = []
    pending: list[int] = []
    committed = 0
    count = 0
    while True:
        frame = handle.read(FRAME_HEADER_BYTES + page_size)
        if len(frame) < FRAME_HEADER_BYTES + page_size:
            break
        page, commit, frame_salt1, frame_salt2, check1, check2 = struct.unpack_from(">6I", frame)
        if page == 0 or (frame_salt1, frame_salt2) != (salt1, salt2):
            break
        sums = _checksum(frame[:8], order, *sums)
        sums = _checksum(frame[FRAME_HEADER_BYTES:], order, *sums)
        if sums != (check1, check2):
            break
        count += 1
        if page == 1:
            pending.append(struct.unpack_from(">I", frame, FRAME_HEADER_BYTES + USER_VERSION_OFFSET)[0])
        if commit:
            page_ones.extend(pending)
            pending = []
            committed = count
    return _Frames(page_size, page_ones, committed)


def set_aside(db_path: Path) -> list[Path]:
    """Rename ``db_path``'s ``-wal`` and ``-shm`` files to ``NAME.set-aside-STAMP`` names
    that no file has (never replacing one, never deleting); returns the new paths."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    moved: list[Path] = []
    for suffix in ("-wal", "-shm"):
        side = db_path.with_name(db_path.name + suffix)
        if not os.path.lexists(side):
            continue
        target = _free_name(side, stamp)
        _rename_without_replacing(side, target)
        moved.append(target)
    return moved


def _free_name(side: Path, stamp: str) -> Path:
    base = f"{side.name}.set-aside-{stamp}"
    for number in range(1000):
        target = side.with_name(base if number == 0 else f"{base}.{number}")
        if not os.path.lexists(target):
            return target
    raise FileExistsError(f"{base} and 999 numbered names beside it are taken")


def _rename_without_replacing(source: Path, target: Path) -> None:
    """A hard link then an unlink (fails if ``target`` appeared meanwhile); where the file
    system has no hard links, a rename after a last look."""
    try:
        os.link(source, target)
    except FileExistsError:
        raise
    except OSError:
        if os.path.lexists(target):
            raise FileExistsError(target) from None
        os.rename(source, target)
        return
    try:
        os.unlink(source)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(target)  # the file is still there under its own name: nothing was moved
        raise
