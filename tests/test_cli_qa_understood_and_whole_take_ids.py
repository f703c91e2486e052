"""What the command line shows of a turn: what the engine understood of its instruction (the
window's "Understood" chips: motion, place, time of day, camera, level), in `play`,
`reroll` and `fill --run --json`; and `use` takes a whole take id that is also the start of
another take's id (QA: it was refused as "starts 2 of the turn's take ids")."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from studio.cli import main
from studio.core.commands import AddTake
from studio.storage import Project

QUICK = ("--setting", "frames=3", "--setting", "width=64", "--setting", "height=48")


@pytest.fixture
def story(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")  # the sketch engine, without a child process
    assert main(["new", str(tmp_path / "story")]) == 0
    return tmp_path / "story.kamishibai"


def _play_json(story: Path, capsys: pytest.CaptureFixture[str], *instructions: str) -> object:
    capsys.readouterr()
    args = [item for text in instructions for item in ("-i", text)]
    assert main(["play", str(story), *args, "--json", *QUICK]) == 0
    return json.loads(capsys.readouterr().out)


def test_play_json_says_what_the_sketch_engine_understood(story: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = _play_json(story, capsys, "Qiqi runs through the park at night, camera follows")
    assert isinstance(result, dict)
    read = result["understood"]
    assert (read["motion"], read["place"], read["time"], read["level"]) == ("run", "park", "night",
                                                                           result["motion_level"])
    assert read["camera"] == "follow" and read["character"] == "Qiqi"
    with Project.open(story, read_only=True) as project:  # the object is the take's, read back
        take = project.tree.takes[result["take"]]
        assert (take.conditioning["motion"], take.conditioning["location"]) == (read["motion"], read["place"])


def test_a_prose_key_is_read_as_its_motion_not_idle(story: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = _play_json(story, capsys, "Qiqi says: don't cry", "Then: she waves", "Note: Qiqi jumps in the park")
    assert isinstance(results, list)
    assert [r["understood"]["motion"] for r in results] == ["talk", "wave", "jump"]
    assert not any("no motion" in w for r in results for w in r["warnings"])


def test_the_plain_output_shows_it_on_one_line(story: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["play", str(story), "Character: Qiqi; Motion: quickly jump; Background: beach; Time: dusk",
                 *QUICK]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.strip().startswith("understood")]
    assert len(lines) == 1, lines
    assert lines[0].split() == ["understood", "character", "Qiqi", "motion", "jump", "place", "beach", "time",
                                "sunset", "camera", lines[0].split()[10], "level", "4"]


def test_reroll_and_fill_run_say_it_too(story: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played = _play_json(story, capsys, "Qiqi sits on a bench in the park")
    assert isinstance(played, dict)
    capsys.readouterr()
    assert main(["reroll", str(story), played["node"], "--json", *QUICK]) == 0
    [rerolled] = json.loads(capsys.readouterr().out)
    assert rerolled["understood"]["motion"] == played["understood"]["motion"] == "sit"
    capsys.readouterr()
    assert main(["reroll", str(story), played["node"], *QUICK]) == 0
    assert "  understood  character Qiqi  motion sit  place park" in capsys.readouterr().out
    with Project.open(story) as project:  # a turn without a take, for fill
        from studio.core.commands import AddTurn
        project.apply(AddTurn(played["node"], "Yuzu waves at the beach", node_id="fillme0001"))
    capsys.readouterr()
    assert main(["fill", str(story), "--run", "--quiet", "--json", *QUICK]) == 0
    [job] = json.loads(capsys.readouterr().out)
    assert job["node"] == "fillme0001" and job["status"] == "done"
    assert (job["understood"]["motion"], job["understood"]["place"]) == ("wave", "beach")


def test_fill_json_without_run_has_nothing_understood_yet(story: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played = _play_json(story, capsys, "Qiqi waves")
    assert isinstance(played, dict)
    with Project.open(story) as project:
        from studio.core.commands import AddTurn
        project.apply(AddTurn(played["node"], "Qiqi runs", node_id="fillme0002"))
    capsys.readouterr()
    assert main(["fill", str(story), "--json"]) == 0
    [job] = json.loads(capsys.readouterr().out)
    assert job["status"] == "queued" and job["understood"] is None


def test_use_takes_a_whole_id_that_starts_another(story: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played = _play_json(story, capsys, "Qiqi runs")
    assert isinstance(played, dict)
    node, first = played["node"], played["take"]
    with Project.open(story) as project:
        take = project.tree.takes[first]
        project.apply(AddTake(replace(take, id=first + "ab")))  # as another program might name a take
        project.apply(AddTake(replace(take, id=first.upper() + "CD")))
    capsys.readouterr()
    assert main(["use", str(story), node, first + "ab"]) == 0
    assert main(["use", str(story), node, first]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1].startswith(f"turn {node} uses take {first} (take ")
    assert main(["use", str(story), node, first.upper() + "AB"]) == 0  # case aside: the one id it names
    assert f"uses take {first}ab " in capsys.readouterr().out
    with Project.open(story, read_only=True) as project:
        assert project.tree.selected_take(node).id == first + "ab"  # type: ignore[union-attr]


def test_a_prefix_of_two_ids_is_still_refused(story: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played = _play_json(story, capsys, "Qiqi runs")
    assert isinstance(played, dict)
    node, first = played["node"], played["take"]
    with Project.open(story) as project:
        take = project.tree.takes[first]
        project.apply(AddTake(replace(take, id=first + "ab")))
    capsys.readouterr()
    assert main(["use", str(story), node, first[:6]]) != 0
    assert f"'{first[:6]}' starts 2 of turn {node}'s take ids" in capsys.readouterr().err
