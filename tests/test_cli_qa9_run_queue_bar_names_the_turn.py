"""`kamishibai run-queue` after a `fill` labelled its progress bar "Fill:" (the label of what
queued the jobs) while it generated turns. The bar names the turn being generated now."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main


def test_the_bar_names_the_turn_it_generates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: day town.\n", encoding="utf-8")
    project = tmp_path / "story.kamishibai"
    assert main(["import-demo", str(demo), "--project", str(project)]) == 0
    assert main(["fill", str(project)]) == 0
    capsys.readouterr()
    assert main(["tree", str(project)]) == 0
    turn = capsys.readouterr().out.splitlines()[-1].split()[0]

    assert main(["run-queue", str(project)]) == 0
    err = capsys.readouterr().err
    assert "1 done, 0 failed" in err, err
    assert f"turn {turn}" in err, err
    assert "Fill" not in err, err
