"""Smaller messages that sent the user the wrong way: hints that said PATH where the other
hints name the project; a too-long instruction told to move text into "the turn's notes",
which no command sets; import-demo's turn-line pattern given for a bad branch marker and a bad
Duration cell; a `play` from a turn without take told to requeue interrupted jobs when none
was; `doctor --checkpoints` of a folder that isn't there listing every weight file missing;
`use NODE 0` taking a take whose id starts with 0."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest


def kamishibai(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180,
                          cwd=cwd)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A project of one played turn: its folder and the turn's id."""
    folder = tmp_path_factory.mktemp("hints") / "my story.kamishibai"
    assert kamishibai("new", str(folder)).returncode == 0
    played = kamishibai("play", str(folder), "--seed", "1", "Qiqi walks in the park", "--json")
    assert played.returncode == 0, played.stderr
    return folder, str(json.loads(played.stdout)["node"])


def test_a_wrong_node_names_the_project_in_its_hint(project: tuple[Path, str]) -> None:
    folder, _turn = project
    refused = kamishibai("use", str(folder), "zzz", "1")
    assert refused.returncode == 2
    assert f"`kamishibai tree {shlex.quote(str(folder))}` lists the node ids" in refused.stderr, refused.stderr
    assert "PATH" not in refused.stderr


def test_take_numbers_start_at_1(project: tuple[Path, str]) -> None:
    folder, turn = project
    refused = kamishibai("use", str(folder), turn, "0")
    assert refused.returncode == 2
    assert "Take numbers start at 1" in refused.stderr, refused.stderr


def test_a_too_long_instruction_says_which_command_holds_the_rest(project: tuple[Path, str]) -> None:
    folder, _turn = project
    refused = kamishibai("play", str(folder), "Qiqi runs " * 300)
    assert refused.returncode == 2
    assert f"kamishibai story {shlex.quote(str(folder))} NODE --notes TEXT" in refused.stderr, refused.stderr
    assert "the turn's notes" not in refused.stderr


def test_a_turn_without_take_is_made_by_a_reroll_not_a_requeue(tmp_path: Path) -> None:
    demo = tmp_path / "d.txt"
    demo.write_text("Character: Qiqi; Motion: fly; Background: day sky.\n", encoding="utf-8")
    folder = tmp_path / "p.kamishibai"
    assert kamishibai("import-demo", str(demo), "--project", str(folder)).returncode == 0
    tree = json.loads(kamishibai("tree", str(folder), "--json").stdout)
    (turn,) = [node["id"] for node in tree["nodes"] if node["id"] != tree["root"]]
    played = kamishibai("play", str(folder), "--parent", turn, "Qiqi waves in the park")
    assert played.returncode == 0, played.stderr
    assert "has no finished take" in played.stderr
    assert "--requeue-interrupted" not in played.stderr  # nothing was interrupted
    assert f"kamishibai reroll {folder} {turn}" in played.stderr


@pytest.mark.parametrize(("name", "text", "said"), [
    ("b.txt", "Character: Qiqi; Motion: walk; Background: day park.\n## branch after 9\n"
              "Character: Qiqi; Motion: run; Background: day park.\n", "A '## branch after N' line starts a branch"),
    ("c.csv", "Character,Motion,Background,Duration\nQiqi,walk,day park,abc\n", "A duration is a number of seconds"),
])
def test_import_demo_hints_at_what_is_wrong(tmp_path: Path, name: str, text: str, said: str) -> None:
    demo = tmp_path / name
    demo.write_text(text, encoding="utf-8")
    refused = kamishibai("import-demo", str(demo), "--project", str(tmp_path / "x.kamishibai"))
    assert refused.returncode == 2
    hint = refused.stderr.split("hint:", 1)[1]
    assert said in hint, hint
    assert "Each line should read" not in hint


@pytest.mark.parametrize("command", [("doctor",), ("checkpoints", "doctor")])
def test_doctor_says_the_checkpoints_folder_is_not_there(tmp_path: Path, command: tuple[str, ...]) -> None:
    missing = tmp_path / "nonexistent"
    refused = kamishibai(*command, "--checkpoints", str(missing))
    assert refused.returncode == 2, refused.stdout
    assert f"--checkpoints {missing}: no such folder" in refused.stderr
    assert "Missing" not in refused.stdout and "MISSING" not in refused.stdout


def test_doctor_help_says_what_it_does() -> None:
    shown = kamishibai("doctor", "--help")
    assert "Check what this machine can run" in shown.stdout
