"""`kamishibai play` and `reroll` printed a take's clip path raw: a project folder whose name
holds a line break broke the "clip" line in two, and one with an ESC sent a terminal escape
sequence (`new`, `export` and the error messages print such names escaped). The clip line is
escaped as they are now; `--json` still gives the path as it is."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from studio.cli import main


@pytest.mark.parametrize("name", ["line\nbreak", "red\x1b[31mstory"])
def test_the_clip_line_is_one_line_without_control_characters(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    project = tmp_path / f"{name}.kamishibai"
    assert main(["new", str(project)]) == 0
    capsys.readouterr()

    assert main(["play", str(project), "Character: Qiqi; Motion: run; Background: day town."]) == 0
    out = capsys.readouterr().out
    node = out.split()[1]
    assert main(["reroll", str(project), node]) == 0
    out += capsys.readouterr().out
    lines = out.splitlines()
    assert all(line.startswith(("node ", "  ")) for line in lines), lines
    clips = [line for line in lines if line.startswith("  clip   ")]
    assert len(clips) == 2 and all(re.search(r"/take-[0-9a-f]{10}\.mp4$", line) for line in clips), lines
    assert "\x1b" not in out

    assert main(["tree", str(project), "--json"]) == 0  # the JSON keeps the real path
    takes = json.loads(capsys.readouterr().out)["nodes"][1]["takes"]
    assert all(Path(take["clip"]).is_file() and name in take["clip"] for take in takes)
