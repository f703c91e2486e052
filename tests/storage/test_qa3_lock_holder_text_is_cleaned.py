"""The holder named when a project is held by another writer comes from the project's
``writer.lock``, a file anyone could have written: it is cleaned (no terminal escapes,
control characters or directional overrides), cut short, and a lock file that is not what
the studio writes (binary, other JSON, empty, values no clock or process has) gives a clear
message, never a crash."""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.lock import LOCK_NAME, MAX_HOLDER_TEXT_CHARS, ProjectLockedError, WriterLock


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    with Project.create(tmp_path / "held") as project:
        return project.path


@pytest.fixture
def held(folder: Path) -> Iterator[int]:
    """The project's lock taken as another process would take it (a descriptor of its own)."""
    fd = os.open(folder / LOCK_NAME, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    try:
        yield fd
    finally:
        os.close(fd)


def _refusal(folder: Path, fd: int, content: bytes) -> ProjectLockedError:
    os.ftruncate(fd, 0)
    os.pwrite(fd, content, 0)
    with pytest.raises(ProjectLockedError) as raised:
        WriterLock.acquire(folder)
    return raised.value


def _holder(**fields: object) -> bytes:
    data: dict[str, object] = {"pid": 4242, "host": "elsewhere", "command": "kamishibai play", "since": 1.7e9}
    data.update(fields)
    return json.dumps(data).encode()


def _is_clean(text: str) -> bool:
    return not any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 or c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067"
                   "\u2068\u2069\u2028\u2029" for c in text)


@pytest.mark.parametrize("field", ["host", "command"])
def test_escapes_controls_and_overrides_are_not_shown(folder: Path, held: int, field: str) -> None:
    planted = "x\x1b]0;pwned\x07\x1b[2J\r\nfake: line\u202egnp.exe\u2028\x00\x9b31m"
    error = _refusal(folder, held, _holder(**{field: planted}))
    assert _is_clean(error.message), repr(error.message)
    assert "pwned" in error.message and "fake: line" in error.message, "the words stay; only the controls go"
    assert error.holder is not None and _is_clean(getattr(error.holder, field))


@pytest.mark.parametrize("field", ["host", "command"])
def test_a_huge_holder_text_is_cut_short(folder: Path, held: int, field: str) -> None:
    error = _refusal(folder, held, _holder(**{field: "w" * 3900}))
    assert "w" * MAX_HOLDER_TEXT_CHARS not in error.message
    assert "w" * (MAX_HOLDER_TEXT_CHARS - 1) + "…" in error.message
    assert len(error.message) < 400


@pytest.mark.parametrize("content", [
    b"", b"\x00\xff\xfe garbage \x1b[31m" * 50, b"[" * 4000, b'"just a string"', b"[1, 2, 3]", b"{}",
    b'{"pid": "4242", "host": "h", "command": "c", "since": 1}',
    b'{"pid": true, "host": "h", "command": "c", "since": 1}',
    b'{"pid": 1, "host": ["h"], "command": "c", "since": 1}', b'{"pid": 1, "host": "h", "command": "c"}',
    b'{"pid": 1, "host": "h", "command": "c", "since": "yesterday"}', b"{\"pid\": 1, \"host\": \"h\", \"command\":",
])
def test_a_lock_file_not_written_by_the_studio_gets_a_clear_message(folder: Path, held: int, content: bytes) -> None:
    error = _refusal(folder, held, content)
    assert error.message == f"{folder} is being changed by another process (its lock file does not say which).", \
        error.message
    assert "Wait for it to finish" in error.hint


@pytest.mark.parametrize(("fields", "shown"), [
    ({"pid": 1e999}, None), ({"pid": -7}, "process number unknown"), ({"pid": 2**70}, "process number unknown"),
    ({"since": 1e300}, "since ?"), ({"since": -1e12}, "since ?"), ({"since": 10**400}, "since ?"),
    ({"since": float("nan")}, "since ?"), ({"since": float("inf")}, "since ?"),
])
def test_values_no_process_or_clock_has_never_crash(folder: Path, held: int, fields: dict[str, object],
                                                    shown: str | None) -> None:
    error = _refusal(folder, held, _holder(**fields))
    if shown is None:  # 1e999 reads as infinity, not a whole number: not what the studio writes
        assert "its lock file does not say which" in error.message
    else:
        assert shown in error.message and "kamishibai play" in error.message, error.message


def test_the_studios_own_holder_is_named_as_before(folder: Path, held: int) -> None:
    error = _refusal(folder, held, _holder())
    assert "kamishibai play (process 4242 on elsewhere, since " in error.message
