"""What the command line prints about a story agrees with itself:

- `tree --json` printed each dialogue line as a pair ``["Qiqi", "Hello"]`` where
  `story --json` prints ``{"speaker": "Qiqi", "text": "Hello"}``; both print the object now;
- `import-demo` said "imported 2 turns in 2 branches" of a file whose `## branch after N`
  continues from the first branch's last turn (one branch in the tree); it counts the
  branches the import leaves in the tree now."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


def _import(tmp_path: Path, text: str) -> tuple[Path, str]:
    demo = tmp_path / "demo.txt"
    demo.write_text(text, encoding="utf-8")
    project = tmp_path / "story.kamishibai"
    return project, kamishibai("import-demo", str(demo), "--project", str(project)).stdout


def test_tree_json_prints_dialogue_lines_as_story_json_does(tmp_path: Path) -> None:
    project, _ = _import(tmp_path, "Character: Qiqi; Motion: run; Background: day town.\n"
                                   "> Qiqi: I'm late!\n> Yuzu: Wait!\n")
    nodes = json.loads(kamishibai("tree", str(project), "--json").stdout)["nodes"]
    turn = nodes[1]
    story = json.loads(kamishibai("story", str(project), turn["id"], "--json").stdout)
    assert turn["story"]["dialogue"] == story["dialogue"] == [
        {"speaker": "Qiqi", "text": "I'm late!"}, {"speaker": "Yuzu", "text": "Wait!"}]
    for key in ("narration", "duration", "shot_notes"):
        assert turn["story"][key] == story[key]


def test_a_branch_that_continues_the_last_turn_is_not_counted_as_another(tmp_path: Path) -> None:
    _, said = _import(tmp_path, "Character: Qiqi; Motion: run; Background: day town.\n"
                                "## branch after 1\n"
                                "Character: Yuzu; Motion: wave; Background: night park.\n")
    assert said.splitlines()[0] == f"imported 2 turns into {tmp_path / 'story.kamishibai'}"


def test_real_branches_are_still_counted(tmp_path: Path) -> None:
    _, said = _import(tmp_path, "Character: Qiqi; Motion: run; Background: day town.\n"
                                "Character: Qiqi; Motion: jump; Background: day town.\n"
                                "## branch after 1\n"
                                "Character: Yuzu; Motion: wave; Background: night park.\n"
                                "## branch after 2\n"
                                "Character: Aoi; Motion: wave; Background: night park.\n")
    assert said.splitlines()[0] == f"imported 4 turns in 2 branches into {tmp_path / 'story.kamishibai'}"
