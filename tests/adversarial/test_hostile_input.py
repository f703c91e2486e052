"""Hostile input on the command line and in demo files: unbounded files, huge imports,
huge numbers, invalid UTF-8 and terminal control characters (issue 11, items 6, 7, 11, 21)."""

from __future__ import annotations

import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import LINE, QUICK, assert_no_internal_error, kamishibai, new_project, play

MEMORY_LIMIT = 2 * 1024**3


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _turns(path: Path) -> int:
    conn = sqlite3.connect(f"file:{path / 'project.db'}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM nodes WHERE parent_id IS NOT NULL").fetchone()[0])
    finally:
        conn.close()


def test_import_demo_from_dev_zero_stops_at_the_limit(tmp_path: Path) -> None:
    """Item 6: /dev/zero was read without bound (killed for memory)."""
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "studio", "import-demo", "/dev/zero", "--project",
                           str(tmp_path / "p")], capture_output=True, text=True, timeout=120, preexec_fn=_limited)
    assert_no_internal_error(done.stderr)
    assert done.returncode == 2
    assert "10,485,760 bytes" in done.stderr, done.stderr
    assert time.monotonic() - start < 60
    assert not (tmp_path / "p.kamishibai").exists()


def test_import_demo_from_stdin_counts_what_it_reads(tmp_path: Path) -> None:
    """Item 6: 10.7 MB through /dev/stdin passed the 10 MB limit."""
    text = (LINE + "\n") * (10_700_000 // (len(LINE) + 1))
    done = kamishibai("import-demo", "/dev/stdin", "--project", str(tmp_path / "p"), input=text)
    assert done.returncode == 2
    assert "10,485,760 bytes" in done.stderr, done.stderr


def test_a_killed_import_writes_all_or_nothing(tmp_path: Path) -> None:
    """Item 6: 195,666 of 210,000 turns were written when the import was stopped."""
    path = new_project(tmp_path / "p")
    demo = tmp_path / "demo.txt"
    lines = 30_000
    demo.write_text("".join(f"Character: Qiqi; Motion: run {i}; Background: day town\n" for i in range(lines)))
    child = subprocess.Popen([sys.executable, "-m", "studio", "import-demo", str(demo), "--project", str(path)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen = 0
    try:
        deadline = time.monotonic() + 120
        while child.poll() is None and time.monotonic() < deadline:
            try:
                seen = _turns(path)
            except sqlite3.Error:
                seen = 0
            if seen:
                break
            time.sleep(0.01)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert _turns(path) in (0, lines), f"{_turns(path)} of {lines} turns written (first seen: {seen})"
    tree = kamishibai("tree", str(path), "--json")
    assert tree.returncode == 0


@pytest.mark.slow
def test_a_deep_import_keeps_tree_and_play_fast(tmp_path: Path) -> None:
    """Item 7: after a 100k-line import, `tree --json` printed nothing in 300 s and `play`
    without --parent nothing in 180 s (every node's depth was computed from scratch)."""
    path = new_project(tmp_path / "deep")
    demo = tmp_path / "deep.txt"
    lines = 20_000
    demo.write_text("".join(f"Character: Qiqi; Motion: step {i}; Background: day town\n" for i in range(lines)))
    assert kamishibai("import-demo", str(demo), "--project", str(path), timeout=120).returncode == 0
    start = time.monotonic()
    tree = kamishibai("tree", str(path), "--json", timeout=120)
    assert tree.returncode == 0
    nodes = json.loads(tree.stdout)["nodes"]
    assert len(nodes) == lines + 1 and nodes[-1]["depth"] == lines
    text = kamishibai("tree", str(path), timeout=120)
    assert text.returncode == 0 and "step 19999" in text.stdout
    played = play(path)
    assert played["state"] and nodes[-1]["id"] in kamishibai("tree", str(path), "--json").stdout
    assert kamishibai("info", str(path)).returncode == 0
    assert time.monotonic() - start < 90


def test_a_huge_seed_is_refused_and_leaves_nothing(tmp_path: Path) -> None:
    """Item 11: OverflowError, and a turn left with no take and no job."""
    path = new_project(tmp_path / "p")
    for seed in ("99999999999999999999999", "-1", "2147483648"):
        done = kamishibai("play", str(path), "-i", LINE, "--seed", seed, *QUICK)
        assert done.returncode == 2 and "--seed" in done.stderr, done.stderr
    assert _turns(path) == 0
    assert play(path, LINE, "--seed", "2147483647")["seed"] == 2147483647


def test_invalid_utf8_arguments_are_refused(tmp_path: Path) -> None:
    """Item 11: invalid UTF-8 bytes in -i gave UnicodeEncodeError."""
    path = new_project(tmp_path / "p")
    bad = os.fsdecode(b"Character: Qiqi\xff\xfe; Motion: run; Background: day town")
    done = kamishibai("play", str(path), "-i", bad, *QUICK)
    assert done.returncode == 2 and "not valid UTF-8" in done.stderr, done.stderr
    done = kamishibai("new", str(tmp_path / "q"), "--name", os.fsdecode(b"caf\xe9"))
    assert done.returncode == 2 and "not valid UTF-8" in done.stderr, done.stderr
    assert _turns(path) == 0
    # a file name that is not UTF-8 is fine: it is only a name
    odd = Path(os.fsdecode(str(tmp_path).encode() + b"/caf\xe9"))
    made = kamishibai("new", str(odd))
    assert made.returncode == 0, made.stderr
    assert kamishibai("info", str(odd) + ".kamishibai").returncode == 0


CONTROL = "Character: Qiqi\x1b]0;pwned\x07\x1b[2J; Motion: run; Background: day town"
"""Sets the terminal's title and clears the screen when printed raw."""


def test_control_characters_are_refused_in_instructions(tmp_path: Path) -> None:
    """Item 21: ESC, BEL, NUL were stored and printed raw (retitling or clearing a terminal)."""
    path = new_project(tmp_path / "p")
    for text in (CONTROL, "Character: Qiqi\nMotion: run; Background: day town", "Motion: run\x7f"):
        done = kamishibai("play", str(path), "-i", text, *QUICK)
        assert done.returncode == 2 and "control character" in done.stderr, done.stderr
        assert "\x1b" not in done.stderr and "\x07" not in done.stderr
    assert _turns(path) == 0
    demo = tmp_path / "demo.txt"
    demo.write_text(LINE + "\n" + CONTROL + "\x00\n")
    done = kamishibai("import-demo", str(demo), "--project", str(path))
    assert done.returncode == 2 and "line 2" in done.stderr and "control character" in done.stderr
    assert "\x1b" not in done.stderr


def test_control_characters_already_stored_are_never_printed_raw(tmp_path: Path) -> None:
    """A project written by another program may hold them: they are shown escaped."""
    path = new_project(tmp_path / "p")
    taken = play(path)
    conn = sqlite3.connect(path / "project.db")
    with conn:
        conn.execute("UPDATE nodes SET instruction=?, notes=?, narration=?, dialogue=? WHERE id=?",
                     (CONTROL + "\x00\n", "\x1b[31mred\x07", "\x1b[31mnarrated\x07",
                      '[["Qi\\u001bqi", "Hello\\u0007 there\\u0000"]]', taken["node"]))
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('name', ?)",  # a project made without
                     ("\x1b]0;title\x07",))  # a name stores none
        conn.execute("UPDATE takes SET instruction_raw=?", (CONTROL,))
    conn.close()
    for args in (["tree", str(path)], ["info", str(path)], ["queue", str(path), "--all"]):
        done = kamishibai(*args)
        assert done.returncode == 0, done.stderr
        for char in "\x1b\x07\x00":
            assert char not in done.stdout and char not in done.stderr, (args, done.stdout)
    out = tmp_path / "ep.srt"
    done = kamishibai("export", str(path), "--leaf", taken["node"], "--out", str(out))
    assert done.returncode == 0, done.stderr
    srt = out.read_text()
    assert "[31mnarrated" in srt and "Hello" in srt and not any(ch in srt for ch in "\x1b\x07\x00")
