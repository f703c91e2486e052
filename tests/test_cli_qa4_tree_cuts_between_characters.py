"""`kamishibai tree` prints the first 70 code points of a long instruction: the cut fell
inside a character a reader sees, printing half of an emoji joined by zero-width joiners
(a lone man of a family) or a letter without its combining accent. It cuts between them
now, as the window's cards do."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


def test_tree_cuts_a_long_instruction_between_characters(tmp_path: Path) -> None:
    start = "Character: Qiqi; Motion: run; Background: day town; Camera: follow "
    long_line = start + "x" * (68 - len(start)) + FAMILY + " and more words after the family"
    accented = start + "x" * (69 - len(start)) + "e\u0301" + " then more words"
    demo = tmp_path / "demo.txt"
    demo.write_text(f"{long_line}\n{accented}\n", encoding="utf-8")
    project = str(tmp_path / "story.kamishibai")
    kamishibai("import-demo", str(demo), "--project", project)
    lines = kamishibai("tree", project).stdout.splitlines()
    first, second = (line.strip().split("  ", 1)[1].rsplit("  [", 1)[0] for line in lines[1:3])
    assert first == long_line[:68] + "…"  # not the man and the joiner of the family (70 code points)
    assert second == accented[:69] + "…"  # not the e without its accent
