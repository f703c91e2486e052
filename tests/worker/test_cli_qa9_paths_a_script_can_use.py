"""Paths the command line hands back to a script work as given, from any folder:

- `info --json` gave the project's `path` as typed ("story.kamishibai", relative to where the
  command ran), where every other path in JSON output is absolute;
- the hint of `export --out 'out dir/'` (a folder, by its slash) suggested
  `--out out dir/episode.mp4`, which a shell splits into two arguments, and named .mp4 for a
  `--format pdf` export; `sketch-sheet 'out dir/'` did the same;
- `export --out -` and `bundle P -` wrote files named "-" and "-.zip" where standard output
  was meant (`import-demo -` reads standard input).
"""

from __future__ import annotations

import json
import os
import re
import shlex
from pathlib import Path

import pytest

from studio.cli import EXIT_BAD_INPUT, main

QUICK = ("--setting", "frames=2", "--setting", "width=64", "--setting", "height=48")


def _hinted_value(err: str, before: str) -> str:
    """The one shell word after ``before`` in the error's hint, as a shell reads it."""
    found = re.search(rf"hint: .*?{re.escape(before)}(.+?)`?\.$", err, re.MULTILINE)
    assert found, err
    words = shlex.split(found.group(1))
    assert len(words) == 1, (words, err)
    return words[0]


def test_info_json_names_the_project_folder_absolutely(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["new", "my story ü"]) == 0
    capsys.readouterr()
    for given in ("my story ü", "my story ü.kamishibai/", "./my story ü.kamishibai"):
        assert main(["info", given, "--json"]) == 0
        info = json.loads(capsys.readouterr().out)
        assert info["path"] == str(tmp_path / "my story ü.kamishibai"), (given, info["path"])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(["info", "../my story ü", "--json"]) == 0
    assert Path(json.loads(capsys.readouterr().out)["path"]) == (tmp_path / "my story ü.kamishibai").resolve()


def test_info_json_of_a_damaged_project_names_it_absolutely(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["new", "broken"]) == 0
    (tmp_path / "broken.kamishibai" / "project.db").write_bytes(b"not a database at all" * 100)
    capsys.readouterr()
    assert main(["info", "broken", "--json"]) == EXIT_BAD_INPUT
    info = json.loads(capsys.readouterr().out)
    assert info["damaged"] is True and info["path"] == str(tmp_path / "broken.kamishibai")


def test_export_hint_for_an_out_folder_is_one_shell_word_that_exports(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    assert main(["new", "story"]) == 0
    assert main(["play", "story", "-i", "Character: Qiqi; Motion: run; Background: day town.", *QUICK]) == 0
    (tmp_path / "out dir").mkdir()
    capsys.readouterr()
    assert main(["export", "story", "--out", "out dir/", "--format", "pdf", "-q"]) == EXIT_BAD_INPUT
    suggested = _hinted_value(capsys.readouterr().err, "--out ")
    assert suggested == "out dir/episode.pdf"
    assert main(["export", "story", "--out", suggested, "-q"]) == 0
    assert (tmp_path / "out dir" / "episode.pdf").read_bytes().startswith(b"%PDF")


def test_sketch_sheet_hint_for_a_folder_is_a_command_a_shell_runs_as_meant(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out dir").mkdir()
    assert main(["sketch-sheet", "out dir/"]) == EXIT_BAD_INPUT
    suggested = _hinted_value(capsys.readouterr().err, "kamishibai sketch-sheet ")
    assert suggested == "out dir/motions.png"
    assert main(["sketch-sheet", suggested]) == 0
    assert (tmp_path / "out dir" / "motions.png").read_bytes().startswith(b"\x89PNG")


def test_out_dash_is_refused_as_standard_output_where_a_file_named_dash_was_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`import-demo -` reads standard input; `export --out -` wrote a file named "-" and
    `bundle P -` one named "-.zip". A file of that name is still written when asked as ./-."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    assert main(["new", "story"]) == 0
    assert main(["play", "story", "-i", "Character: Qiqi; Motion: run; Background: day town.", *QUICK]) == 0
    capsys.readouterr()
    assert main(["export", "story", "--out", "-", "--format", "srt", "-q"]) == EXIT_BAD_INPUT
    assert "--out - names standard output" in capsys.readouterr().err
    assert main(["bundle", "story", "-"]) == EXIT_BAD_INPUT
    assert "The bundle can't go to standard output (-)" in capsys.readouterr().err
    assert sorted(os.listdir(tmp_path)) == ["story.kamishibai"]
    assert main(["export", "story", "--out", "./-", "--format", "srt", "-q"]) == 0
    assert main(["bundle", "story", "./-"]) == 0
    assert main(["bundle", "story", "./-", "-f"]) == 0  # -f replaces it, as export's and sketch-sheet's -f do
    assert sorted(os.listdir(tmp_path)) == ["-", "-.zip", "story.kamishibai"]
