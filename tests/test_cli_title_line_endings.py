"""A title or end card pasted from a Windows text file ends its lines in CR LF: `export
--title $'A\\r\\nB'` was refused for "a control character (U+000D)". Windows and old Mac line
ends are read as line breaks, which cards allow; other control characters are still refused,
at the position where they were typed."""

from __future__ import annotations

from pathlib import Path

import opentimelineio as otio
import pytest

from studio.cli import main
from studio.cli.common import refuse_control_characters
from studio.core.errors import StudioError
from tests.export.helpers import build


@pytest.mark.parametrize(("typed", "meant"), [("A\r\nB", "A\nB"), ("A\rB", "A\nB"), ("A\r\n\r\nB\r", "A\n\nB\n"),
                                             ("A\nB", "A\nB"), ("Plain", "Plain")])
def test_line_ends_are_line_breaks_where_line_breaks_are_allowed(typed: str, meant: str) -> None:
    assert refuse_control_characters(typed, "--title", line_breaks=True) == meant


def test_other_controls_are_still_refused_where_they_were_typed() -> None:
    with pytest.raises(StudioError, match=r"--title holds a control character \(U\+0007\) at character 4\."):
        refuse_control_characters("A\r\n\x07B", "--title", line_breaks=True)
    with pytest.raises(StudioError, match=r"U\+0009"):
        refuse_control_characters("A\r\n\tB", "--end-card", line_breaks=True)
    with pytest.raises(StudioError, match=r"--character holds a control character \(U\+000D\) at character 2"):
        refuse_control_characters("Q\r\niqi", "--character")  # a one-line option keeps refusing them


@pytest.mark.parametrize("title", ["Episode 1\r\nThe Rain", "Episode 1\rThe Rain"])
def test_export_takes_a_title_with_windows_line_ends(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     title: str) -> None:
    story = build(tmp_path, turns=2)
    path, leaf = story.project.path, story.leaf
    story.project.close()
    out = tmp_path / "episode.otio"
    code = main(["export", str(path), "--leaf", leaf, "--out", str(out), "--title", title,
                 "--end-card", "The End\r\nSee you"])
    assert code == 0, capsys.readouterr().err
    track = otio.adapters.read_from_file(str(out)).tracks[0]
    cards = {item.metadata["kamishibai"]["card"]: item for item in track if "card" in item.metadata["kamishibai"]}
    assert cards["title"].metadata["kamishibai"]["text"] == "Episode 1\nThe Rain"
    assert cards["end"].metadata["kamishibai"]["text"] == "The End\nSee you"
    assert cards["title"].name == "Title card: Episode 1 The Rain"


def test_export_still_refuses_a_bell_in_the_title(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    story = build(tmp_path, turns=1)
    path = story.project.path
    story.project.close()
    out = tmp_path / "episode.otio"
    assert main(["export", str(path), "--out", str(out), "--title", "A\r\n\x07"]) == 2
    assert "U+0007" in capsys.readouterr().err and not out.exists()
