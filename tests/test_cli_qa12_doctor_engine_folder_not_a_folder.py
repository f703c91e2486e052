"""An engine's weights folder that is a file (or a link to nothing) is named as such, once.

QA: with ``checkpoints/animegamer`` a file, ``kamishibai doctor`` listed each of the engine's
12 files "Missing .../animegamer/tokenizer/tokenizer.model" and said to put the weights
there, which can't be done; ``checkpoints doctor`` only listed them MISSING."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.engines import devices


@pytest.fixture
def odd_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A checkpoints folder whose animegamer/ and mini/ are files and customx/ a link to
    nothing; no GPU."""
    monkeypatch.setattr(devices, "cuda_devices", lambda: [])
    (tmp_path / "animegamer").write_text("not a folder", encoding="utf-8")
    (tmp_path / "mini").write_bytes(b"")
    (tmp_path / "customx").symlink_to(tmp_path / "gone")
    return tmp_path


def test_doctor_names_the_folder_not_its_files(odd_folders: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["doctor", "--json", "--checkpoints", str(odd_folders)])
    engines = {e["name"]: e for e in json.loads(capsys.readouterr().out)["engines"]}
    for name, what in (("animegamer", "is a file"), ("mini", "is a file"), ("customx", "is a link to")):
        files = [r for r in engines[name]["reasons"] if r["kind"] == "file"]
        assert len(files) == 1, files
        assert files[0]["path"] == str(odd_folders / name), files
        assert files[0]["message"].startswith(f"{odd_folders / name} {what}"), files
        assert not engines[name]["available"]
    main(["doctor", "--checkpoints", str(odd_folders)])
    text = capsys.readouterr().out
    assert "Missing" not in text and "Put the mini weights in" not in text, text
    assert f"Move or rename {odd_folders / 'mini'}, then put the mini weights there." in text, text
    assert f"Point the link {odd_folders / 'customx'} at the folder" in text, text


@pytest.mark.parametrize("engine", ["animegamer", "customx"])
def test_checkpoints_doctor_says_it_is_not_a_folder(odd_folders: Path, capsys: pytest.CaptureFixture[str],
                                                    engine: str) -> None:
    assert main(["checkpoints", "doctor", "--engine", engine, "--checkpoints", str(odd_folders)]) == 1
    text = capsys.readouterr().out
    assert f"NOT A FOLDER {odd_folders / engine} is " in text, text
    assert main(["checkpoints", "doctor", "--engine", engine, "--checkpoints", str(odd_folders), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["folder_problem"].startswith(f"{odd_folders / engine} is "), report
    assert report["ok"] is False


def test_a_real_folder_has_no_folder_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "animegamer").mkdir()
    main(["checkpoints", "doctor", "--checkpoints", str(tmp_path), "--json"])
    assert json.loads(capsys.readouterr().out)["folder_problem"] is None
    main(["checkpoints", "doctor", "--checkpoints", str(tmp_path)])
    assert "NOT A FOLDER" not in capsys.readouterr().out
