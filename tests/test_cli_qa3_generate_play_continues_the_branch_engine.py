"""`play` without --engine continues a branch with the engine and settings its turn was made with.

QA: the help of `--engine` promised "the project's current take's engine" as the default,
but `play` always used the default engine at its default settings: a story played with
`--engine mini` went on in sketch, one played at 160x112 went on at 720x480 (and the export
letterboxed the odd clips). The turn continued decides, as a re-roll's own take does."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from worker.fake_engine import FakeScript, fake_registry  # tests/ is on sys.path

from studio.cli import main
from studio.storage import Project
from studio.storage.media import probe

SMALL = ["--setting", "frames=4", "--setting", "width=160", "--setting", "height=112"]


@pytest.fixture
def story(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    Project.create(tmp_path / "story").close()
    return tmp_path / "story.kamishibai"


def _play(capsys: pytest.CaptureFixture[str], *args: str) -> object:
    capsys.readouterr()
    assert main(["play", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_play_continues_with_the_settings_of_the_turn_above(story: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = _play(capsys, str(story), "-i", "Character: Qiqi; Motion: walk.", "--engine", "sketch", *SMALL)
    assert isinstance(first, dict)
    more = _play(capsys, str(story), "-i", "Character: Qiqi; Motion: run.", "-i", "Character: Qiqi; Motion: jump.")
    assert isinstance(more, list)
    for result in more:  # the clips read back: the branch's size and length, not the engine's defaults
        assert result["settings"] == first["settings"], result
        clip = probe(Path(result["clip"]))
        assert (clip.width, clip.height, clip.frames) == (160, 112, 4), clip
    # a --setting given now replaces that one of the branch's settings, the others hold (as for a re-roll)
    changed = _play(capsys, str(story), "-i", "Character: Qiqi; Motion: sit.", "--setting", "frames=6")
    assert isinstance(changed, dict)
    assert (changed["settings"]["frames"], changed["settings"]["width"]) == (6, 160)
    # the story's start has no take: the default engine at its defaults
    fork = _play(capsys, str(story), "-i", "Character: Qiqi; Motion: wave.", "--parent", "root")
    assert isinstance(fork, dict)
    assert fork["engine"] == "sketch" and fork["settings"]["width"] == 720


def test_play_continues_with_the_engine_of_the_turn_above(story: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    import studio.composition as composition

    script = FakeScript()
    monkeypatch.setattr(composition, "default_registry", lambda: fake_registry(script, "sketch", "fake"))
    first = _play(capsys, str(story), "-i", "one", "--engine", "fake", "--setting", "frames=5")
    following = _play(capsys, str(story), "-i", "two")
    assert isinstance(first, dict) and isinstance(following, dict)
    assert following["engine"] == "fake" and following["settings"]["frames"] == 5, following
    other = _play(capsys, str(story), "-i", "three", "--engine", "sketch")  # another engine: its own defaults
    assert isinstance(other, dict)
    assert other["engine"] == "sketch" and other["settings"]["frames"] == 3, other


def test_a_take_engine_that_cannot_run_here_is_not_followed(story: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = _play(capsys, str(story), "-i", "Character: Qiqi; Motion: walk.", *SMALL)
    assert isinstance(first, dict)
    with sqlite3.connect(story / "project.db") as db:  # as made on a machine with AnimeGamer's weights
        db.execute("UPDATE takes SET engine = 'animegamer'")
    capsys.readouterr()
    (story.parent / "no-weights").mkdir()  # a folder without weights (a missing one is refused as mistyped)
    assert main(["play", str(story), "-i", "Character: Qiqi; Motion: run.", "--json",
                 "--checkpoints", str(story.parent / "no-weights")]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["engine"] == "sketch"
    assert "made with the animegamer engine, which can't run here" in err and "--engine NAME" in err, err
