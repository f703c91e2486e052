"""`kamishibai play PROJECT "TEXT"` is how people first try it: the instruction was only an
option (--instruction), and the bare text was refused with "the following arguments are
required: --instruction/-i". Instructions are now arguments too (one turn each, before the
--instruction ones), and none at all says what to give."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180)


def test_instructions_given_as_arguments_make_a_turn_each_in_order(tmp_path: Path) -> None:
    path = tmp_path / "trip.kamishibai"
    assert kamishibai("new", str(path)).returncode == 0
    done = kamishibai("play", str(path), "Qiqi runs to the beach", "Qiqi waves", "-i", "Qiqi jumps", "--json")
    assert done.returncode == 0, done.stderr
    turns = json.loads(done.stdout)
    assert [turn["instruction"] for turn in turns] == ["Qiqi runs to the beach", "Qiqi waves", "Qiqi jumps"]
    tree = json.loads(kamishibai("tree", str(path), "--json").stdout)
    texts = [node["instruction"] for node in tree["nodes"] if node.get("instruction")]
    assert texts == ["Qiqi runs to the beach", "Qiqi waves", "Qiqi jumps"]


def test_no_instruction_says_what_to_give(tmp_path: Path) -> None:
    path = tmp_path / "trip.kamishibai"
    assert kamishibai("new", str(path)).returncode == 0
    refused = kamishibai("play", str(path))
    assert refused.returncode == 2, refused.stderr
    assert "Give the turn's instruction" in refused.stderr and "--instruction" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_instructions_after_an_option_are_turns_too(tmp_path: Path) -> None:
    """argparse takes a list of arguments only before the first option: "--seed 3 TEXT" was
    refused as an unrecognized argument."""
    path = tmp_path / "trip.kamishibai"
    assert kamishibai("new", str(path)).returncode == 0
    done = kamishibai("play", str(path), "--seed", "3", "Qiqi runs", "--json", "Qiqi naps")
    assert done.returncode == 0, done.stderr
    assert [turn["instruction"] for turn in json.loads(done.stdout)] == ["Qiqi runs", "Qiqi naps"]
    refused = kamishibai("play", str(path), "Qiqi runs", "--no-such-option")
    assert refused.returncode == 2 and "unrecognized arguments: --no-such-option" in refused.stderr


def test_the_state_printed_says_whose_it_is(tmp_path: Path) -> None:
    """"Yuzu waves at Qiqi ... stamina 40": the numbers are Yuzu's (the acting character's),
    which nothing said."""
    path = tmp_path / "trip.kamishibai"
    assert kamishibai("new", str(path)).returncode == 0
    done = kamishibai("play", str(path), "Yuzu waves at Qiqi")
    assert done.returncode == 0, done.stderr
    assert "  state (Yuzu)  stamina " in done.stdout, done.stdout
    result = json.loads(kamishibai("play", str(path), "Qiqi runs", "--json").stdout)
    assert result["character"] == "Qiqi"
