"""`play` made a turn from "Backgroud: day park" in the previous place, and from "Motoin:
dance" with no motion, saying nothing, while `import-demo` refused the same line. Now `play`
refuses it too, before generating anything, with import-demo's words (a take made without
the field meant is a take wasted); a sentence with a colon still plays."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from studio.core.field_names import misspelled_field_names


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180)


def _turn_count(project: Path) -> int:
    return len(json.loads(kamishibai("tree", str(project), "--json").stdout)["nodes"]) - 1


@pytest.mark.parametrize(("text", "named"), [
    ("Character: Yuzu; Motion: run; Backgroud: day park", "'Backgroud:'"),
    ("Motoin: dance", "'Motoin:'"),
])
def test_play_refuses_a_misspelled_field_as_import_demo_does(tmp_path: Path, text: str, named: str) -> None:
    project = tmp_path / "f.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    played = kamishibai("play", str(project), "Qiqi runs in the park", text)
    assert played.returncode == 2, played.stderr
    assert f"Instruction 2 of 2: Unknown field name {named}" in played.stderr
    assert "the fields are Character, Motion, Background, Time, Camera and Adverb" in played.stderr
    assert _turn_count(project) == 0  # nothing generated, not even the first turn

    demo = tmp_path / "d.txt"
    demo.write_text(f"{text}\n", encoding="utf-8")
    imported = kamishibai("import-demo", str(demo), "--project", str(tmp_path / "g.kamishibai"))
    assert imported.returncode != 0 and f"unknown field name {named}" in imported.stderr


def test_a_sentence_with_a_colon_is_no_field_name() -> None:
    assert misspelled_field_names("Qiqi says: hello") == []
    assert misspelled_field_names("Character: Qiqi; Motion: run; Background: day park") == []
    assert misspelled_field_names("Character: Qiqi; Mood: happy") == ["Mood"]
