"""`reroll --json` describes each turn as `play --json` does: the same keys for the take, its
predicted deltas, motion level and state, and `kept`; a take that did not finish reports no
prediction, whichever command made it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from studio.cli import main
from studio.storage import Project

from .fake_engine import FakeScript, fake_registry

REPO = Path(__file__).resolve().parents[2]
QUICK = ("--setting", "frames=2", "--setting", "width=64", "--setting", "height=48")
LINE = "Character: Qiqi; Motion: run; Background: day town."
MADE = {"deltas", "motion_level", "state", "clip", "poster", "representation"}


def _kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=300, check=False, env={**os.environ, "KAMISHIBAI_ENGINE_HOST": "in-process"})


def test_reroll_json_has_the_keys_play_json_has_for_a_turn(tmp_path: Path) -> None:
    """With the sketch engine, in real processes: one object per turn, the same keys."""
    assert _kamishibai("new", str(tmp_path / "story")).returncode == 0
    folder = str(tmp_path / "story.kamishibai")
    played = _kamishibai("play", folder, "-i", LINE, *QUICK, "--seed", "5", "--json")
    assert played.returncode == 0, played.stderr
    turn: dict[str, Any] = json.loads(played.stdout)
    rerolled = _kamishibai("reroll", folder, turn["node"], *QUICK, "--seed", "6", "--json")
    assert rerolled.returncode == 0, rerolled.stderr
    results = json.loads(rerolled.stdout)
    assert isinstance(results, list) and len(results) == 1, "reroll prints a list, as before"
    [again] = results
    assert set(again) == set(turn), (sorted(set(again) ^ set(turn)))
    assert again["kept"] is True and turn["kept"] is True
    assert again["node"] == turn["node"] and again["take"] != turn["take"] and again["seed"] == 6
    assert set(again["deltas"]) == set(turn["deltas"]) == {"stamina", "social", "entertainment"}
    assert 1 <= again["motion_level"] <= 5 and set(again["state"]) == set(turn["state"])
    with Project.open(folder, read_only=True) as project:
        take = project.tree.takes[again["take"]]
        assert again["deltas"] == take.deltas.as_dict() and again["motion_level"] == take.motion_level


@pytest.fixture
def fake_cli(monkeypatch: pytest.MonkeyPatch, script: FakeScript) -> FakeScript:
    import studio.composition as composition

    monkeypatch.setattr(composition, "default_registry", lambda: fake_registry(script, "sketch", "fake"))
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")  # the fake engines share the test's script
    return script


def test_a_failed_reroll_reports_no_prediction_as_a_failed_play_does(tmp_path: Path, fake_cli: FakeScript,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A failed take's zero deltas, motion level and state were printed as if predicted."""
    Project.create(tmp_path / "story").close()
    folder = str(tmp_path / "story.kamishibai")
    assert main(["play", folder, "-i", "a", "--json"]) == 0
    turn = json.loads(capsys.readouterr().out)
    assert main(["play", folder, "-i", "b [fail]", "--json"]) == 1
    failed_play = json.loads(capsys.readouterr().out)
    fake_cli.fail_on.add("a")
    assert main(["reroll", folder, turn["node"], "--json"]) == 1
    captured = capsys.readouterr()
    [failed] = json.loads(captured.out)
    assert "told to fail" in captured.err
    assert failed["job_status"] == "failed" and failed["status"] == "failed" and "told to fail" in failed["error"]
    assert not MADE & set(failed), failed
    assert not MADE & set(failed_play), failed_play
    # the turn stays (a re-roll never removes it), with its failed take listed beside the first
    assert failed["kept"] is True and failed["node"] == turn["node"]
    assert failed_play["kept"] is False
    with Project.open(folder, read_only=True) as project:
        assert {t.id for t in project.tree.takes_of(turn["node"])} == {turn["take"], failed["take"]}
    assert main(["reroll", folder, turn["node"]]) == 1
    printed = capsys.readouterr().out
    assert "failed" in printed and "state" not in printed and "motion" not in printed, printed
