"""A dialogue line, a narration or an instruction that starts with '-' (`kamishibai say P NODE
"-hello"`) was refused with argparse's "argument -h/--help: ignored explicit argument 'ello'".
A text with spaces in it is taken as the text now (no option has spaces); a single word might
be a mistyped option, so it is refused with the command line that gives it as text, and that
command, run as given, stores it. `play` without project nor instruction names both ways of
giving the instruction (it said "INSTRUCTION is required", even next to --instruction)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from studio.cli import EXIT_BAD_INPUT, main


def _project_with_a_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    demo = tmp_path / "demo.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: day town.\n", encoding="utf-8")
    project = tmp_path / "my story.kamishibai"
    assert main(["import-demo", str(demo), "--project", str(project)]) == 0
    capsys.readouterr()
    assert main(["tree", str(project)]) == 0
    return project, capsys.readouterr().out.splitlines()[-1].split()[0]


def _story(project: Path, turn: str, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    capsys.readouterr()
    assert main(["story", str(project), turn, "--json"]) == 0
    story: dict[str, object] = json.loads(capsys.readouterr().out)
    return story


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The command line the refusal of ``argv`` gives, its words after `kamishibai`."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "ignored explicit argument" not in err and "write -- before it: kamishibai " in err, err
    return err.split("write -- before it: kamishibai ", 1)[1].strip()


def test_a_one_word_line_is_refused_with_the_command_that_says_it(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    project, turn = _project_with_a_turn(tmp_path, capsys)
    command = _refused(["say", str(project), turn, "-hello", "--speaker", "Mio"], capsys)
    assert "--" in shlex.split(command)
    assert main(shlex.split(command)) == 0
    assert _story(project, turn, capsys)["dialogue"] == [{"speaker": "Mio", "text": "-hello"}]

    command = _refused(["narrate", str(project), turn, "--softly"], capsys)
    assert main(shlex.split(command)) == 0
    assert _story(project, turn, capsys)["narration"] == "--softly"


def test_texts_with_spaces_and_option_values_are_taken(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project, turn = _project_with_a_turn(tmp_path, capsys)
    assert main(["say", str(project), turn, "-hello there"]) == 0
    assert main(["say", str(project), turn, "hi", "--speaker", "-Mio", "--at", "1"]) == 0
    assert main(["narrate", str(project), turn, "-it rains"]) == 0
    story = _story(project, turn, capsys)
    assert story["dialogue"] == [{"speaker": "-Mio", "text": "hi"}, {"speaker": "Qiqi", "text": "-hello there"}]
    assert story["narration"] == "-it rains"
    assert main(["story", str(project), turn, "--notes", "-wide shot"]) == 0
    assert main(["story", str(project), turn, "--narration", "-x"]) == 0
    story = _story(project, turn, capsys)
    assert (story["shot_notes"], story["narration"]) == ("-wide shot", "-x")


def test_play_takes_an_instruction_starting_with_a_dash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project, _turn = _project_with_a_turn(tmp_path, capsys)
    command = _refused(["play", str(project), "-wave"], capsys)
    assert main(shlex.split(command)) == 0
    assert main(["play", str(project), "-it jumps", "--instruction", "-spin"]) == 0
    capsys.readouterr()
    assert main(["tree", str(project)]) == 0
    made = [line.split(None, 1)[1].split("  [")[0] for line in capsys.readouterr().out.splitlines()[2:]]
    assert made == ["-wave", "-it jumps", "-spin"]


def test_play_without_instruction_names_both_ways(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["play"])
    assert stopped.value.code == EXIT_BAD_INPUT
    said = capsys.readouterr().err.splitlines()[-1]  # the error, after the usage lines
    assert said.startswith("kamishibai play: error: ") and "path" in said, said
    assert "INSTRUCTION" in said and "--instruction" in said, said
    with pytest.raises(SystemExit):
        main(["play", "--instruction", "Qiqi waves"])
    err = capsys.readouterr().err
    assert "required: path" in err and "INSTRUCTION" not in err.splitlines()[-1], err
