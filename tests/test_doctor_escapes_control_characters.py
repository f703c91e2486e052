"""`kamishibai doctor` shows control characters in the paths it prints (a checkpoints folder
named with ESC, a line break...) as escapes, as the other commands do. QA: it printed them
raw, so a folder's name could recolour or rewrite the terminal, and a line break in it split
a reason over two lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main


def test_a_checkpoints_folder_with_control_characters_prints_escaped(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "weights\x1b[31mred\nline"
    (folder / "mini").mkdir(parents=True)  # its own, empty: else the app's mini weights are used
    capsys.readouterr()
    assert main(["doctor", "--checkpoints", str(folder)]) == 0  # the sketch engine runs here
    out = capsys.readouterr().out
    assert "\x1b" not in out, out
    shown = f"{tmp_path}/weights\\x1b[31mred⏎line"
    assert f"  checkpoints  {shown}\n" in out, out
    assert f"      - Missing {shown}/mini/config.json" in out, out
    assert all(not line.startswith("line/") for line in out.splitlines()), "no reason is split over two lines"
