"""Control characters in free text given on the command line that ends up drawn on frames,
written into subtitles and timelines or stored in the project (`export --title` and
`--end-card`, `start-state --character`, `new --name`) are refused, naming the option and
the character; a line break is allowed where the text is drawn in lines (the cards)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

QUICK = ("--setting", "frames=2", "--setting", "width=64", "--setting", "height=48")
LINE = "Character: Qiqi; Motion: run; Background: day town."


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180,
                          env={**os.environ, "KAMISHIBAI_ENGINE_HOST": "in-process"})


def _refused(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    for needle in needles:
        assert needle in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr


@pytest.fixture(scope="module")
def story(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A project with one generated turn (the sketch engine): its folder and the turn's id."""
    folder = tmp_path_factory.mktemp("projects") / "story.kamishibai"
    assert kamishibai("new", str(folder)).returncode == 0
    played = kamishibai("play", str(folder), "-i", LINE, *QUICK, "--seed", "1", "--json")
    assert played.returncode == 0, played.stderr
    return folder, json.loads(played.stdout)["node"]


@pytest.mark.parametrize("option", ["--title", "--end-card"])
@pytest.mark.parametrize("text,code,position", [
    ("The\x01end", "U+0001", 4), ("Bell\x07", "U+0007", 5), ("\x1b[2JHi", "U+001B", 1), ("A\tB", "U+0009", 2),
    ("A\r\n\x0bB", "U+000B", 4), ("Del\x7f", "U+007F", 4), ("C1\x85next", "U+0085", 3), ("CSI\x9b", "U+009B", 4),
])
def test_export_refuses_control_characters_in_the_cards(story: tuple[Path, str], tmp_path: Path, option: str,
                                                        text: str, code: str, position: int) -> None:
    folder, leaf = story
    for out in (tmp_path / "ep.mp4", tmp_path / "ep.otio", tmp_path / "sheet.png"):
        done = kamishibai("export", str(folder), "--leaf", leaf, "--out", str(out), option, text, "-q")
        _refused(done, f"{option} holds a control character ({code}) at character {position}.",
                 "line breaks (\\n) are the only control characters")
        assert "\x1b" not in done.stderr and "\x01" not in done.stderr
    assert list(tmp_path.iterdir()) == [], "nothing was written"


def test_export_takes_line_breaks_in_the_cards(story: tuple[Path, str], tmp_path: Path) -> None:
    folder, leaf = story
    out = tmp_path / "ep.mp4"
    done = kamishibai("export", str(folder), "--leaf", leaf, "--out", str(out), "--title", "Qiqi's\nfirst day",
                      "--end-card", "The end\n(for now)", "-q")
    assert done.returncode == 0, done.stderr
    assert out.is_file() and out.stat().st_size > 0
    timeline = tmp_path / "ep.otio"
    done = kamishibai("export", str(folder), "--leaf", leaf, "--out", str(timeline), "--end-card", "The end\nbye",
                      "-q")
    assert done.returncode == 0, done.stderr
    assert "The end\\nbye" in timeline.read_text(encoding="utf-8"), "the timeline keeps the card's text whole"


def test_export_help_says_the_cards_take_line_breaks() -> None:
    text = " ".join(kamishibai("export", "--help").stdout.split())
    assert text.count("a line break starts a new line on the card") == 2, text


def test_start_state_refuses_a_character_name_with_a_control_character(story: tuple[Path, str]) -> None:
    folder, _leaf = story
    before = kamishibai("tree", str(folder), "--json").stdout
    for name, code in (("Qi\x1bqi", "U+001B"), ("Qiqi\n", "U+000A"), ("Mei\x9d", "U+009D")):
        _refused(kamishibai("start-state", str(folder), "10", "20", "30", "--character", name, "--new"),
                 f"--character holds a control character ({code})")
    assert kamishibai("tree", str(folder), "--json").stdout == before, "no start state was set"


def test_new_names_the_control_character_in_a_project_name(tmp_path: Path) -> None:
    _refused(kamishibai("new", str(tmp_path / "a"), "--name", "Qiqi\x85"), "holds a control character (U+0085)")
    _refused(kamishibai("new", str(tmp_path / "b"), "--name", "Qi\nqi"), "holds a line break (U+000A)")
    assert list(tmp_path.iterdir()) == []
