"""Ctrl+C during `kamishibai play --json` prints what it has as valid JSON and exits 130:
the turns it finished, then the turn it was making, with ``interrupted``: true and
``kept``: false (QA: stopped during its first turn, it printed nothing on stdout, so a
script reading the JSON failed to parse an empty output)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from stop_midway import stop_midway, takes_started  # tests/ is on sys.path

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT are POSIX")

TURN = "Character: Qiqi; Motion: run; Background: day town."


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=300)


def _play_stopped_after(project: Path, takes_made: int, *instructions: str) -> tuple[int, str, str]:
    """Run `play --json` with ``instructions`` and press Ctrl+C once ``takes_made`` take
    folders have appeared (the next one is being made)."""
    args = [arg for text in instructions for arg in ("-i", text)]
    return stop_midway(["play", str(project), *args, "--json", "--setting", "frames=80"],
                       takes_started(project, takes_made))


def _nodes(project: Path) -> list[dict[str, object]]:
    return list(json.loads(kamishibai("tree", str(project), "--json").stdout)["nodes"])


def test_ctrl_c_during_the_first_turn_prints_it_as_interrupted(tmp_path: Path) -> None:
    project = tmp_path / "story.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    code, out, err = _play_stopped_after(project, 0, TURN)
    assert code == 130, err
    result = json.loads(out)  # one instruction: one result, as when it finishes
    assert result["interrupted"] is True
    assert result["kept"] is False
    assert result["instruction"] == TURN
    assert result["job_status"] != "done"
    assert "node" not in result and "clip" not in result
    assert err.rstrip().endswith("kamishibai: interrupted"), err
    assert "Traceback" not in err
    assert len(_nodes(project)) == 1, "the stopped turn is not kept"


def test_ctrl_c_during_a_later_turn_lists_the_made_turns_then_the_stopped_one(tmp_path: Path) -> None:
    project = tmp_path / "story.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    code, out, err = _play_stopped_after(project, 1, TURN, TURN, TURN)
    assert code == 130, err
    results = json.loads(out)
    assert [result.get("interrupted", False) for result in results] == [False, True]
    made, stopped = results
    assert made["job_status"] == "done" and made["kept"] is True
    assert stopped["kept"] is False and "node" not in stopped
    assert [node["id"] for node in _nodes(project)[1:]] == [made["node"]]


def _stopped_while_starting(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl+C arrives while the command starts its engines, before any job exists."""
    from studio.cli import generate_cmds

    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(generate_cmds, "_service", interrupted)


def test_ctrl_c_before_the_first_job_still_prints_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from studio.cli import main

    project = tmp_path / "story.kamishibai"
    assert main(["new", str(project)]) == 0
    capsys.readouterr()
    _stopped_while_starting(monkeypatch)
    assert main(["play", str(project), "-i", TURN, "--json"]) == 130
    result = json.loads(capsys.readouterr().out)
    assert result == {"job": None, "job_status": "not started", "instruction": TURN, "kept": False,
                      "interrupted": True, "error": "Stopped by Ctrl+C before its clip was made."}
    assert main(["play", str(project), "-i", TURN, "-i", TURN, "--json"]) == 130
    assert [r["interrupted"] for r in json.loads(capsys.readouterr().out)] == [True]


def test_ctrl_c_before_a_reroll_job_prints_an_empty_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from studio.cli import main

    demo = tmp_path / "demo.txt"
    demo.write_text(TURN + "\n", encoding="utf-8")
    project = tmp_path / "story.kamishibai"
    assert main(["import-demo", str(demo), "--project", str(project)]) == 0
    capsys.readouterr()
    _stopped_while_starting(monkeypatch)
    node = next(str(n["id"]) for n in _nodes(project) if n["depth"] == 1)
    assert main(["reroll", str(project), node, "--json"]) == 130
    captured = capsys.readouterr()
    assert json.loads(captured.out) == []
    assert captured.err.rstrip().endswith("kamishibai: interrupted")
