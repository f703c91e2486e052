"""`kamishibai import-demo` counts the instruction limit as the core and the window do: in
characters as a reader sees them. A game_demo line of 1,500 emoji with skin tones (3,000 code
points) was refused as over 2,000 characters; it is imported now, and a line over the limit is
refused with the core's message, naming its count and the limit, and nothing is imported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from studio.core.instruction import too_long_message
from studio.storage import Project

ROOT = Path(__file__).resolve().parents[2]
THUMB = "👍🏽"  # two code points, one character
FIELDS = "Character: Qiqi; Motion: wave; Background: park "


def _kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=240,
                          cwd=ROOT, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8"})


def _raws(path: Path) -> list[str]:
    project = Project.open(path)
    try:
        return [node.instruction.raw for node in project.tree.nodes.values() if node.parent_id]
    finally:
        project.close()


def test_a_line_of_emoji_with_skin_tones_is_imported(tmp_path: Path) -> None:
    path = tmp_path / "emoji.kamishibai"
    Project.create(path, name="Emoji").close()
    long_line = FIELDS + THUMB * 1500
    assert len(long_line) > 3000
    demo = tmp_path / "game_demo.txt"
    demo.write_text(f"{long_line}\nCharacter: Qiqi; Motion: run; Background: town\n", encoding="utf-8")
    done = _kamishibai("import-demo", "--project", str(path), str(demo))
    assert done.returncode == 0, done.stderr
    assert "imported 2 turns" in done.stdout
    assert long_line in _raws(path)  # kept whole


def test_a_line_over_the_limit_is_refused_naming_its_count(tmp_path: Path) -> None:
    path = tmp_path / "long.kamishibai"
    Project.create(path, name="Long").close()
    too_long = FIELDS + THUMB * 1953  # 2,001 characters, 3,954 code points
    demo = tmp_path / "game_demo.txt"
    demo.write_text(f"Character: Qiqi; Motion: run; Background: town\n{too_long}\n", encoding="utf-8")
    refused = _kamishibai("import-demo", "--project", str(path), str(demo))
    assert refused.returncode == 2, refused.stderr
    assert f"line 2: {too_long_message(2001)}" in refused.stderr, refused.stderr
    assert "The instruction is 2,001 characters long; the limit is 2,000." in refused.stderr
    assert "game_demo.txt" in refused.stderr and "nothing was imported" in refused.stderr
    assert _raws(path) == []  # the good line is not imported alone: nothing is lost or half done

    skipped = _kamishibai("import-demo", "--skip-bad", "--project", str(path), str(demo))
    assert skipped.returncode == 0, skipped.stderr
    assert "skipped line 2: The instruction is 2,001 characters long; the limit is 2,000." in skipped.stdout
    assert _raws(path) == ["Character: Qiqi; Motion: run; Background: town"]


def test_exactly_the_limit_in_emoji_is_imported(tmp_path: Path) -> None:
    path = tmp_path / "edge.kamishibai"
    Project.create(path, name="Edge").close()
    line = FIELDS + THUMB * (2000 - len(FIELDS))
    demo = tmp_path / "game_demo.txt"
    demo.write_text(line + "\n", encoding="utf-8")
    done = _kamishibai("import-demo", "--project", str(path), str(demo))
    assert done.returncode == 0, done.stderr
    assert _raws(path) == [line]
