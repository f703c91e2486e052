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

    folder = tmp_path / "odd\x1b[31mred"  # (a line break inside the AnimeGamer report's paths still splits a line)
    folder.mkdir()
    for engine in ("animegamer", "customx"):
        main(["checkpoints", "doctor", "--engine", engine, "--checkpoints", str(folder)])
        out = _printed(capsys)
        assert "odd\\x1b[31mred" in out, repr(out)
