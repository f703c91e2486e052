"""The stat the window calls Fun is "fun" on the command line too.

The top-level help, the chart and the take tiles said "fun" while ``start-state --help``
said "entertainment", ``play`` printed "entertainment 55 (+5)", ``story`` "entertainment 50"
and ``tree`` "[st 50 so 50 en 50]". The JSON outputs keep the key "entertainment", which
scripts read.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_cli_help_texts import _subparsers  # tests/ is on sys.path

from studio.cli import build_parser, main

ENTERTAINMENT = re.compile(r"\bentertain", re.IGNORECASE)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def test_no_help_text_says_entertainment() -> None:
    said = [name for name, parser in {"": build_parser(), **_subparsers(build_parser())}.items()
            if ENTERTAINMENT.search(parser.format_help())]
    assert not said, said
    assert "stamina social fun" in _subparsers(build_parser())["start-state"].format_usage()


def test_outputs_say_fun_and_json_keeps_entertainment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = str(tmp_path / "fun.kamishibai")
    _run(capsys, "new", project)
    started = _run(capsys, "start-state", project, "--character", "Qiqi", "--new", "40", "50", "60")
    assert "Qiqi starts at stamina 40, social 50, fun 60" in started, started
    played = _run(capsys, "play", project, "--seed", "1", "Character: Qiqi; Motion: runs; Background: park")
    assert re.search(r"  state \(Qiqi\)  stamina \d+ \([-+]\d+\)  social \d+ \([-+]\d+\)  fun \d+ \([-+]\d+\)",
                     played), played
    tree = _run(capsys, "tree", project)
    assert "Qiqi st 40 so 50 fun 60" in tree and " fun " in tree.splitlines()[1], tree
    shown = tree + _run(capsys, "story", project, tree.splitlines()[1].split()[0]) + _run(capsys, "takes", project,
                                                                                          tree.splitlines()[1].split()[0])
    assert not ENTERTAINMENT.search(started + played + shown)
    result = json.loads(_run(capsys, "play", project, "--json", "--seed", "2", "Qiqi waves"))
    assert "entertainment" in result["state"] and "fun" not in result["state"]
