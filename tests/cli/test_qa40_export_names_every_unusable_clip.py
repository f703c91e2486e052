"""`export` stopped at the first unusable clip it met: with turn 2's clip cut short and turn
3's deleted it named turn 3 alone, and once that one was made again the next export named
turn 2. `info` listed both. Now the export names every chosen clip of the branch that can't
be used, with the re-roll of each."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180)


def test_export_names_a_cut_short_and_a_missing_clip_at_once(tmp_path: Path) -> None:
    project = tmp_path / "e.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    played = kamishibai("play", str(project), "--seed", "1", "Qiqi walks in the park", "Qiqi jumps in the park",
                        "Qiqi sits in the park", "--json")
    assert played.returncode == 0, played.stderr
    turns = json.loads(played.stdout)
    os.truncate(turns[1]["clip"], 500)
    Path(turns[2]["clip"]).unlink()

    exported = kamishibai("export", str(project), "--out", str(tmp_path / "e.mp4"))
    assert exported.returncode != 0
    said = exported.stderr
    assert "2 of its clips can't be used" in said, said
    assert f"turn 2 (node {turns[1]['node']}" in said and "cut short" in said
    assert f"turn 3 (node {turns[2]['node']}" in said and "does not exist" in said
    assert f"kamishibai reroll {project} {turns[1]['node']}" in said
    assert f"kamishibai reroll {project} {turns[2]['node']}" in said
    assert not (tmp_path / "e.mp4").exists()
