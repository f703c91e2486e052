"""`kamishibai new`, `sample`, `bundle` and `unbundle` print the path they made through the
same escaping as every other command: a folder name holding ESC or a line break reached the
terminal raw (an escape sequence run by the terminal, a line that looked like two)."""

from __future__ import annotations

from pathlib import Path

import pytest

ODD = "odd\x1b[31mred\nline"


def _printed(capsys: pytest.CaptureFixture[str]) -> str:
    out = capsys.readouterr().out
    assert "\x1b" not in out, repr(out)
    return out


def test_new_escapes_the_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studio.cli import main

    assert main(["new", str(tmp_path / ODD)]) == 0
    out = _printed(capsys)
    assert out.count("\n") == 1 and "odd\\x1b[31mred⏎line" in out, repr(out)


def test_sample_escapes_the_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studio.cli import main

    assert main(["sample", str(tmp_path / ODD), "--no-generate"]) == 0
    out = _printed(capsys)
    assert out.count("\n") == 1 and "odd\\x1b[31mred⏎line" in out, repr(out)


def test_bundle_and_unbundle_escape_the_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studio.cli import main

    assert main(["new", str(tmp_path / "plain")]) == 0
    capsys.readouterr()
    assert main(["bundle", str(tmp_path / "plain.kamishibai"), str(tmp_path / f"{ODD}.zip")]) == 0
    out = _printed(capsys)
    assert out.count("\n") == 1, repr(out)
    bundles = list(tmp_path.glob("odd*.zip"))
    assert len(bundles) == 1
    assert main(["unbundle", str(bundles[0]), str(tmp_path / f"{ODD}2")]) == 0
    out = _printed(capsys)
    assert out.splitlines()[0].endswith("odd\\x1b[31mred⏎line2.kamishibai"), repr(out)


def test_checkpoints_doctor_escapes_the_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studio.cli import main

    folder = tmp_path / "odd\x1b[31mred"
    folder.mkdir()
    for engine in ("animegamer", "customx"):
        main(["checkpoints", "doctor", "--engine", engine, "--checkpoints", str(folder)])
        out = _printed(capsys)
        assert "odd\\x1b[31mred" in out, repr(out)


def test_a_line_break_in_the_checkpoints_folder_keeps_each_report_line_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studio.cli import main

    folder = tmp_path / "two\nlines"
    folder.mkdir()
    main(["checkpoints", "doctor", "--engine", "animegamer", "--checkpoints", str(folder)])
    lines = _printed(capsys).splitlines()
    assert lines[0].startswith("AnimeGamer checkpoints in ") and "two⏎lines" in lines[0], lines[0]
    assert not any(line.startswith("lines") for line in lines), lines  # no path's tail on a line of its own
    listed = [line for line in lines if line.startswith(("  ok", "  MISSING"))]
    assert listed and all("two⏎lines" in line for line in listed), listed
