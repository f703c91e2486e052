"""A re-roll (or a `play` that continues a turn) with some `--setting`s starts from the
settings of the take it follows, when the engine is the same, and replaces only the names
given: `reroll NODE --setting frames=3` of a 64x48 take made a 720x480 one (the engine's
defaults for everything not given). Another engine's settings are never carried over."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
QUICK = ("--setting", "frames=2", "--setting", "width=64", "--setting", "height=48")
LINE = "Character: Qiqi; Motion: run; Background: day town."


def _kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=300, check=False, env={**os.environ, "KAMISHIBAI_ENGINE_HOST": "in-process"})


def _json(done: subprocess.CompletedProcess[str]) -> Any:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_reroll_and_play_change_only_the_settings_given(tmp_path: Path) -> None:
    assert _kamishibai("new", str(tmp_path / "story")).returncode == 0
    folder = str(tmp_path / "story.kamishibai")
    turn = _json(_kamishibai("play", folder, "-i", LINE, *QUICK, "--json"))
    assert (turn["settings"]["width"], turn["settings"]["height"], turn["settings"]["frames"]) == (64, 48, 2)

    [again] = _json(_kamishibai("reroll", folder, turn["node"], "--setting", "frames=3", "--json"))
    assert (again["settings"]["width"], again["settings"]["height"], again["settings"]["frames"]) == (64, 48, 3)

    # the default value given by name replaces the take's value too
    [wide] = _json(_kamishibai("reroll", folder, turn["node"], "--setting", "width=720", "--json"))
    assert (wide["settings"]["width"], wide["settings"]["height"], wide["settings"]["frames"]) == (720, 48, 3)

    # play continues the turn's selected take (the last re-roll) with one setting changed
    after = _json(_kamishibai("play", folder, "--parent", turn["node"], "-i", LINE, "--setting", "frames=4",
                              "--json"))
    assert (after["settings"]["width"], after["settings"]["height"], after["settings"]["frames"]) == (720, 48, 4)


def test_a_reroll_with_another_engine_does_not_carry_the_takes_settings(project, make_service) -> None:  # type: ignore[no-untyped-def]
    service = make_service()
    node_id, first = service.generate(project.tree.root_id, "x", settings={"width": 32, "frames": 2})
    assert service.wait_jobs([first], 10)
    same = service.reroll(node_id, settings={"frames": 5})
    assert service.wait_jobs([same], 10)
    kept = project.tree.takes[service.job(same).take_id].settings
    assert (kept["width"], kept["frames"]) == (32, 5)
    other = service.reroll(node_id, engine="other", settings={"frames": 5})
    assert service.wait_jobs([other], 10)
    made = project.tree.takes[service.job(other).take_id]
    assert made.engine == "other" and (made.settings["width"], made.settings["frames"]) == (24, 5)
