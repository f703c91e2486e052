"""`start-state --character NAME` with a name the story doesn't know names the closest ones.

QA: README's "State per character" says such a name "is refused with the closest names",
but the refusal listed the whole cast (the names meant were only in the hint, among every
other): in a story with many characters the one meant had to be looked for. When no name
is close, every character is listed, so that the user still sees what the story knows."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.storage import Project


@pytest.fixture
def story(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    Project.create(tmp_path / "story").close()
    path = tmp_path / "story.kamishibai"
    for name in ("Hanako", "Hanae", "Kenji"):  # characters still to come, with a start of their own
        assert main(["start-state", str(path), "--character", name, "--new", "10", "20", "30"]) == 0
    capsys.readouterr()
    return path


def _starts(path: Path) -> dict[str, tuple[int, int, int]]:
    with Project.open(path, read_only=True) as project:
        return {name: (s.stamina, s.social, s.entertainment) for name, s in project.tree.root.start_states.items()}


def _refused(story: Path, name: str, capsys: pytest.CaptureFixture[str]) -> str:
    before = _starts(story)
    assert main(["start-state", str(story), "--character", name, "90", "90", "90"]) == 2
    out, err = capsys.readouterr()
    assert "starts at" not in out and _starts(story) == before, "a refused name changes nothing"
    assert "--new" in err, err
    return err


def test_an_unknown_name_is_refused_with_the_closest_names(story: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(story, "Hana", capsys)
    assert "kamishibai: error: 'Hana' is not a character of this story. Did you mean Hanae or Hanako?" in err, err
    for other in ("Kenji", "Aoi", "Qiqi", "characters:"):  # not the whole cast
        assert other not in err, err


def test_one_close_name_is_the_only_one_named(story: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(story, "kenj", capsys)
    assert "'kenj' is not a character of this story. Did you mean Kenji?" in err, err
    assert "Hana" not in err, err


def test_with_no_close_name_every_character_is_listed(story: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(story, "Zzyzx", capsys)
    assert "'Zzyzx' is not a character of this story (characters: Aoi, Hanae, Hanako, Kenji, Qiqi, " in err, err
    assert "Did you mean" not in err, err
