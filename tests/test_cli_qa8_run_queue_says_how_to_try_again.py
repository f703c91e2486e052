"""A `run-queue` (or `fill --run`) whose job failed ended with the job's hint ("Retry the job",
"the folder is made again by the next try": the window's words, where a queue has a Retry
button) and "0 done, 1 failed, 7 cancelled": the command line has no retry, and nothing said
what to run. It now names the command that queues the turns left without a take again, and
that command, run as given once the cause is gone, generates them."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from studio.cli import main


def test_a_failed_run_names_the_command_that_tries_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: day town.\n"
                    "Character: Qiqi; Motion: jump; Background: day park.\n", encoding="utf-8")
    project = tmp_path / "my story.kamishibai"
    assert main(["import-demo", str(demo), "--project", str(project)]) == 0
    takes = project / "media" / "takes"
    if takes.exists():
        takes.rmdir()
    takes.write_text("not a folder", encoding="utf-8")  # every take's files fail to be written
    assert main(["fill", str(project)]) == 0
    capsys.readouterr()

    assert main(["run-queue", str(project), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "0 done, 1 failed, 1 cancelled" in err, err
    command = f"kamishibai fill {shlex.quote(str(project))} --run"
    assert f"kamishibai: once that is fixed, `{command}` queues the turns left without a take again" in err, err

    takes.unlink()  # the cause is gone: the command as given generates both turns
    assert main([*shlex.split(command)[1:], "--quiet", "--json"]) == 0
    assert [job["status"] for job in json.loads(capsys.readouterr().out)] == ["done", "done"]


def test_a_run_without_failures_says_nothing_of_trying_again(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: day town.\n", encoding="utf-8")
    project = tmp_path / "story.kamishibai"
    assert main(["import-demo", str(demo), "--project", str(project)]) == 0
    assert main(["fill", str(project), "--run", "--quiet"]) == 0
    assert "once that is fixed" not in capsys.readouterr().err
