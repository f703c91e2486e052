"""`kamishibai story PATH root` printed "turn ID: " with an empty instruction and "duration:
the clip's own length", as if the story's start were a turn: it names the start now, with
where its characters start (as `start-state` says it), and `--json` marks it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


def test_story_of_the_start_names_it_and_its_start_states(tmp_path: Path) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text("Character: Zoë; Motion: run; Background: day town.\n", encoding="utf-8")
    project = str(tmp_path / "story.kamishibai")
    kamishibai("import-demo", str(demo), "--project", project)
    kamishibai("start-state", project, "10", "20", "30", "--character", "Zoë")
    root = json.loads(kamishibai("tree", project, "--json").stdout)["root"]

    shown = kamishibai("story", project, "root").stdout.splitlines()
    assert shown[0] == f"start {root}: (start of the story)"
    assert "  every character starts at stamina 50, social 50, fun 50" in shown
    assert "  Zoë starts at stamina 10, social 20, fun 30" in shown
    assert not any(line.startswith(("turn ", "  duration:")) for line in shown)

    data = json.loads(kamishibai("story", project, "start", "--json").stdout)
    assert data["node"] == root and data["start"] is True
    assert data["start_states"] == {"everyone": {"stamina": 50, "social": 50, "entertainment": 50},
                                    "characters": {"Zoë": {"stamina": 10, "social": 20, "entertainment": 30}}}
    turn = json.loads(kamishibai("tree", project, "--json").stdout)["nodes"][1]["id"]
    assert json.loads(kamishibai("story", project, turn, "--json").stdout)["start"] is False
    assert kamishibai("story", project, turn).stdout.startswith(f"turn {turn}: Character: Zoë;")
