"""`--json` output stays valid JSON whatever the output's encoding. With an encoding that
lacks a character (PYTHONIOENCODING=ascii or latin-1, a Latin-1 locale, a Windows console),
an emoji in a name was written `\\U0001f3ac` (Python's own escape, which JSON does not
have) and `json.loads` failed; now such a document uses JSON's escapes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
QUICK = ("--setting", "frames=2", "--setting", "width=64", "--setting", "height=48")
NAME = 'O"Brien 🎬 مرحبا ü'


def _kamishibai(*args: str, encoding: str = "utf-8") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, cwd=REPO, timeout=300,
                          check=False, env={**os.environ, "KAMISHIBAI_ENGINE_HOST": "in-process",
                                            "PYTHONIOENCODING": encoding})


def _texts(value: Any) -> list[str]:
    """Every string in a JSON document, keys and values."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in (key, *_texts(item))]
    if isinstance(value, list):
        return [text for item in value for text in _texts(item)]
    return []


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "utf-8"])
def test_json_with_an_emoji_and_arabic_parses_in_any_output_encoding(tmp_path: Path, encoding: str) -> None:
    folder = str(tmp_path / "story ü.kamishibai")
    assert _kamishibai("new", folder).returncode == 0
    assert _kamishibai("start-state", folder, "--character", NAME, "--new", "10", "20", "30").returncode == 0
    played = _kamishibai("play", folder, "-i", f"Character: {NAME}; Motion: wave; Background: day town", *QUICK,
                         "--json", encoding=encoding)
    assert played.returncode == 0, played.stderr
    turn = json.loads(played.stdout.decode(encoding))
    assert turn["character"] == NAME and turn["instruction"].startswith(f"Character: {NAME};")
    assert Path(turn["clip"]).is_file()
    said = _kamishibai("say", folder, turn["node"], "שלום 🎉")
    assert said.returncode == 0, said.stderr
    info = _kamishibai("info", folder, "--json", encoding=encoding)
    assert json.loads(info.stdout.decode(encoding))["path"] == folder
    for args in (["story", folder, turn["node"], "--json"], ["tree", folder, "--json"],
                 ["queue", folder, "--all", "--json"], ["story", folder, "root", "--json"]):
        shown = _kamishibai(*args, encoding=encoding)
        assert shown.returncode == 0, (args, shown.stderr)
        document = json.loads(shown.stdout.decode(encoding))
        assert any(NAME in text for text in _texts(document)), args
    story = json.loads(_kamishibai("story", folder, turn["node"], "--json", encoding=encoding).stdout.decode(encoding))
    assert story["dialogue"] == [{"speaker": NAME, "text": "שלום 🎉"}]
