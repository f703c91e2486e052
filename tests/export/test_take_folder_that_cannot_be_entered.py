"""A take's folder this user may not enter (`chmod 000 media/takes/ID`, a copy from another
account) ended `info`, `tree` and `export` in "internal error: PermissionError": checking
whether each clip file is there raised instead of answering. `info` now names the clips that
can't be reached and the `chmod` that opens the media folder; `export` names the folder and
its `chmod`; run as given, both work again."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

from tests.user_limits import as_a_user

from .helpers import Fixture

REPO = Path(__file__).resolve().parents[2]


def _as_a_user(*args: str) -> subprocess.CompletedProcess[str]:
    command = as_a_user([sys.executable, "-m", "studio", *args])
    return subprocess.run(command, capture_output=True, text=True, timeout=180, cwd=REPO)


def _commands(stderr: str) -> list[list[str]]:
    hint = next(line for line in stderr.splitlines() if line.startswith("  hint: "))
    return [shlex.split(part) for part in hint.split("`")[1::2]]


def test_a_take_folder_that_cant_be_entered_is_named_with_its_chmod(story: Fixture, tmp_path: Path) -> None:
    take = story.project.tree.selected_take(story.nodes[1])
    assert take is not None
    folder = story.project.resolve(take.clip_path).parent
    project = str(story.project.path)
    story.project.close()
    folder.chmod(0)
    try:
        info = _as_a_user("info", project, "--json")
        assert info.returncode == 0, info.stderr
        assert "internal error" not in info.stderr
        problems = json.loads(info.stdout)["problems"]
        blocked = next(p for p in problems if "for want of permission" in p)
        assert "1 clip file(s)" in blocked and "turn 2's" in blocked and "chmod -R u+rwX" in blocked, problems
        assert not any("are missing" in p for p in problems), "a clip that can't be reached is not lost"

        tree = _as_a_user("tree", project)
        assert tree.returncode == 0, tree.stderr

        out = tmp_path / "e.mp4"
        done = _as_a_user("export", project, "--leaf", story.leaf, "--out", str(out), "-q")
        assert done.returncode == 2, done.stderr
        assert "internal error" not in done.stderr and "Re-roll" not in done.stderr, done.stderr
        assert "no permission" in done.stderr and "turn 2" in done.stderr, done.stderr
        commands = _commands(done.stderr)
        assert commands == [["chmod", "u+rx", str(folder)]], done.stderr
        for command in commands:
            subprocess.run(command, check=True)
        again = _as_a_user("export", project, "--leaf", story.leaf, "--out", str(out), "-q")
        assert again.returncode == 0, again.stderr
        assert out.stat().st_size > 0
    finally:
        folder.chmod(0o755)
