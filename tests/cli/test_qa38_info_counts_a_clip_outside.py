"""`kamishibai info` on a project whose chosen take's clip path was rewritten to lead outside
the project (``../../etc/passwd``, a hand edit in SQLite): export refuses the project, and
info must say the clip is unusable and exit 1, as for any other damaged clip. QA: info said
"clips: 4 clips checked, all sound", exited 0, and listed the refused path only among the
project's problems."""

from __future__ import annotations

import json
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path


def _kamishibai(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], cwd=folder, capture_output=True, text=True,
                          timeout=300)


def _project_with_turns(folder: Path, count: int) -> Path:
    assert _kamishibai(folder, "new", "story").returncode == 0
    done = _kamishibai(folder, "play", "story.kamishibai", *[f"Qiqi runs {n}" for n in range(count)])
    assert done.returncode == 0, done.stderr
    return folder / "story.kamishibai"


def test_info_counts_a_chosen_clip_outside_the_project_as_unusable(tmp_path: Path) -> None:
    project = _project_with_turns(tmp_path, 2)
    with sqlite3.connect(project / "project.db") as db:
        node, take = db.execute("SELECT node_id, id FROM takes ORDER BY rowid LIMIT 1").fetchone()
        db.execute("UPDATE takes SET clip_path = '../../etc/passwd' WHERE id = ?", (take,))
    db.close()

    exported = _kamishibai(tmp_path, "export", "story.kamishibai", "--out", "e.mp4", "-q")
    assert exported.returncode != 0  # export refuses it, so info must not call it sound

    info = _kamishibai(tmp_path, "info", "story.kamishibai")
    assert info.returncode == 1, info.stdout + info.stderr
    assert "all sound" not in info.stdout, info.stdout
    assert "2 clips checked, 1 damaged" in info.stdout, info.stdout
    assert "outside the project folder" in info.stdout and "'../../etc/passwd'" in info.stdout, info.stdout
    assert f"fix: kamishibai reroll {project} {node}" in info.stdout, info.stdout

    as_json = _kamishibai(tmp_path, "info", "story.kamishibai", "--json")
    assert as_json.returncode == 1
    clips = json.loads(as_json.stdout)["clips"]
    assert clips["checked"] == 2
    [entry] = clips["damaged"]
    assert entry["node"] == node and entry["take"] == take and entry["selected"] and entry["problem"] == "outside"

    # the fix it names works: the turn gets a new clip; the first fix offered then makes info content
    assert _kamishibai(tmp_path, "reroll", "story.kamishibai", node).returncode == 0
    fixes = next(line for line in _kamishibai(tmp_path, "info", "story.kamishibai").stdout.splitlines()
                 if line.strip().startswith("fix: "))
    first = shlex.split(fixes.strip().removeprefix("fix: ").split(", or: ")[0])
    assert first[:2] == ["kamishibai", "use"], fixes
    assert _kamishibai(tmp_path, *first[1:]).returncode == 0
    again = _kamishibai(tmp_path, "info", "story.kamishibai")
    assert again.returncode == 0, again.stdout
