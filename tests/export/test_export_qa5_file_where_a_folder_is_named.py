"""An --out whose folder, or a folder above it, is a file says which file is in the way and
what to do (QA: ``--out notes.txt/e.srt`` read "notes.txt is not a folder." with no hint, and
``--out notes.txt/sub/e.srt`` "The folder notes.txt/sub does not exist. hint: Create it", which
can't be done while a file holds the name notes.txt)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main

from .helpers import Fixture


@pytest.mark.parametrize("fmt", ["srt", "otio", "pdf", "png"])
@pytest.mark.parametrize("inside", ["", "sub/deeper/"])
def test_a_file_in_the_way_is_named_with_a_hint(story: Fixture, tmp_path: Path, fmt: str, inside: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("keep me", encoding="utf-8")
    out = f"{blocker}/{inside}episode.{fmt}"
    code = main(["export", str(story.project.path), "--leaf", story.leaf, "--out", out, "-q"])
    error = capsys.readouterr().err
    assert code != 0
    assert f"{blocker} is a file, not a folder." in error
    assert "hint: Choose a file in a folder that exists" in error
    assert "Create it" not in error
    assert blocker.read_text(encoding="utf-8") == "keep me"
