"""A duration is read strictly, wherever it is written (`story --duration`, a demo file's
`> duration:` line): `3`, `3.5`, `3.5s` or `3.5 s`. `3ss` is not 3 seconds, and `1e309` is
refused as what was written, not as "inf"."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.core.commands import AddTurn
from studio.core.story import StoryFieldError, parse_duration
from studio.storage import Project
from studio.storage.demo_import import parse_demo_text


@pytest.mark.parametrize("text,seconds", [("3", 3.0), ("3.5", 3.5), ("3.5s", 3.5), (" 3.5 s ", 3.5), ("2 seconds", 2.0),
                                          (".5", 0.5), ("600", 600.0), ("0.1", 0.1), ("4S", 4.0)])
def test_seconds_as_people_write_them(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["3ss", "3s s", "1e309", "1e3", "inf", "nan", "-inf", "1_0", "٣", "three", "", "s",
                                  "3,5", "0x10"])
def test_anything_else_is_refused_quoting_what_was_written(text: str) -> None:
    with pytest.raises(StoryFieldError) as raised:
        parse_duration(text)
    assert raised.value.message == f"A duration is a number of seconds such as 3, 3.5 or 3.5s, not {text.strip()!r}."


@pytest.mark.parametrize("text,said", [("700", "700"), ("0.05s", "0.05"), ("-3", "-3"),
                                       ("9" * 400, "99999999999999999999... (400 digits)")])
def test_a_number_out_of_range_is_named_as_written(text: str, said: str) -> None:
    with pytest.raises(StoryFieldError) as raised:
        parse_duration(text)
    assert raised.value.message == f"A duration of {said} s is outside 0.1..600 s."


@pytest.fixture
def turn(tmp_path: Path) -> tuple[Path, str]:
    with Project.create(tmp_path / "story") as project:
        project.apply(AddTurn(project.tree.root_id, "Qiqi runs", node_id="turn1"))
        return project.path, "turn1"


@pytest.mark.parametrize("given,message", [
    ("3ss", "--duration: A duration is a number of seconds such as 3, 3.5 or 3.5s, or 'clip' (the clip's own "
            "length), not '3ss'."),
    ("1e309", "--duration: A duration is a number of seconds such as 3, 3.5 or 3.5s, or 'clip' (the clip's own "
              "length), not '1e309'."),
    ("700", "--duration: A duration of 700 s is outside 0.1..600 s."),
])
def test_story_duration_refuses_what_is_not_seconds(turn: tuple[Path, str], capsys: pytest.CaptureFixture[str],
                                                    given: str, message: str) -> None:
    folder, node = turn
    assert main(["story", str(folder), node, f"--duration={given}"]) == 2
    err = capsys.readouterr().err
    assert message in err and "not inf" not in err
    with Project.open(folder, read_only=True) as project:
        assert project.tree.nodes[node].story.duration is None


def test_story_duration_takes_seconds_and_clip(turn: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    folder, node = turn
    assert main(["story", str(folder), node, "--duration", "3.5s"]) == 0
    with Project.open(folder, read_only=True) as project:
        assert project.tree.nodes[node].story.duration == 3.5
    assert main(["story", str(folder), node, "--duration", "clip"]) == 0
    with Project.open(folder, read_only=True) as project:
        assert project.tree.nodes[node].story.duration is None


def test_a_demo_file_duration_is_read_as_strictly() -> None:
    story = parse_demo_text("Qiqi runs\n> duration: 3ss\nQiqi sits\n> duration: 1e309\nQiqi waves\n> duration: 2.5s\n")
    assert story.problems == [
        (2, "a duration is a number of seconds such as 3, 3.5 or 3.5s, not '3ss'."),
        (4, "a duration is a number of seconds such as 3, 3.5 or 3.5s, not '1e309'."),
    ]
    assert story.branches[0].turns[-1].story.duration == 2.5
