"""``kamishibai doctor`` names absolute paths, and never tells the user to run itself.

QA: ``doctor --checkpoints ./ckpt`` printed "checkpoints  ckpt" and "Missing ckpt/mini/...",
which say nothing about where they were once copied into a bug report or read from another
folder; and the mini engine's missing weights hint ended "(see `kamishibai doctor`)" inside
doctor's own report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.engines import devices


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The current folder is ``tmp_path``, which holds ``ckpt/`` with an empty ``mini/`` (a folder
    without one would leave the app's own mini weights in use); no GPU."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(devices, "cuda_devices", lambda: [])
    (tmp_path / "ckpt" / "mini").mkdir(parents=True)
    return Path.cwd() / "ckpt"


def test_a_relative_checkpoints_folder_is_shown_absolute(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["doctor", "--checkpoints", "./ckpt"])
    out = capsys.readouterr().out
    assert f"  checkpoints  {in_tmp} (given as ckpt)\n" in out, out
    assert f"Missing {in_tmp / 'mini' / 'config.json'}" in out
    assert f"Put the mini weights in {in_tmp / 'mini'}." in out
    assert " ckpt/" not in out, "every path is absolute"

    main(["doctor", "--json", "--checkpoints", "./ckpt"])
    report = json.loads(capsys.readouterr().out)
    assert report["checkpoints"] == str(in_tmp) and report["checkpoints_given"] == "ckpt"
    mini = next(e for e in report["engines"] if e["name"] == "mini")
    assert mini["folder"] == str(in_tmp / "mini")
    assert all(Path(reason["path"]).is_absolute() for reason in mini["reasons"] if reason["path"])


def test_an_absolute_folder_is_shown_as_given(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["doctor", "--checkpoints", str(in_tmp)])
    assert f"  checkpoints  {in_tmp}\n" in capsys.readouterr().out


def test_the_doctor_does_not_send_the_user_to_the_doctor(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["doctor", "--checkpoints", str(in_tmp)])
    out = capsys.readouterr().out
    assert "Put the mini weights in" in out
    assert "kamishibai doctor" not in out, out
    main(["doctor", "--json", "--checkpoints", str(in_tmp)])
    assert "kamishibai doctor" not in capsys.readouterr().out


def test_outside_the_doctor_the_hint_still_points_to_it(in_tmp: Path) -> None:
    from studio import composition
    from studio.engines.config import EngineConfig

    reasons = composition.default_registry().check("mini", EngineConfig(checkpoints=in_tmp))
    assert any(r.hint == f"Put the mini weights in {in_tmp / 'mini'} (see `kamishibai doctor`)." for r in reasons)


def test_checkpoints_doctor_names_a_relative_folder_by_its_full_path(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "ck").mkdir()
    done = subprocess.run([sys.executable, "-m", "studio", "checkpoints", "doctor", "--checkpoints", "ck"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    first = done.stdout.splitlines()[0]
    assert first == f"AnimeGamer checkpoints in {tmp_path / 'ck' / 'animegamer'}", done.stdout
    assert f"MISSING {tmp_path / 'ck' / 'animegamer'}" in done.stdout
