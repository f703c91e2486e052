"""`kamishibai export` of a branch whose turns have no takes gave the window's hint ("in the
window: Turn › Generate missing turns of the branch, Ctrl+Shift+G; or `kamishibai fill PROJECT
--leaf NODE --run`"), placeholders and all. It names the command with this project and leaf now,
and that command, run as given, makes the export work."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from studio.cli import EXIT_BAD_INPUT, main


def test_the_hint_is_the_fill_command_for_this_branch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: day town.\n"
                    "Character: Qiqi; Motion: jump; Background: day park.\n", encoding="utf-8")
    project = tmp_path / "my story.kamishibai"
    assert main(["import-demo", str(demo), "--project", str(project)]) == 0
    assert main(["tree", str(project)]) == 0
    leaf = capsys.readouterr().out.splitlines()[-1].split()[0]
    out = tmp_path / "episode.mp4"

    assert main(["export", str(project), "--leaf", leaf[:6], "--out", str(out)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "has no take" in err
    hint = next(line for line in err.splitlines() if line.startswith("  hint: "))
    assert "PROJECT" not in hint and "NODE" not in hint and "Ctrl+Shift+G" not in hint, hint
    command = hint.split("`")[1]
    assert command == f"kamishibai fill {shlex.quote(str(project))} --leaf {leaf} --run"

    assert main([*shlex.split(command)[1:], "--quiet"]) == 0  # the command as given, then the export works
    capsys.readouterr()
    assert main(["export", str(project), "--leaf", leaf, "--out", str(out), "--quiet"]) == 0
    assert out.stat().st_size > 0
