"""The 2,000-character instruction limit counts characters as a reader sees them: a turn of
1,500 emoji with skin tones (two code points each, 3,000 in all) was refused as "3,050
characters long" though its author counted 1,550. The core check and `kamishibai play` now
count graphemes, and a turn over the limit is refused naming its count and the limit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.core.instruction import (
    MAX_INSTRUCTION_CHARS,
    InstructionError,
    instruction_length,
    instruction_too_long,
    too_long_message,
    validate_instruction_text,
)
from studio.storage import Project

ROOT = Path(__file__).resolve().parents[2]
THUMB = "👍🏽"  # a thumb and its skin tone: two code points, one character
FIELDS = "Character: Qiqi; Motion: wave; Background: park; "
QUICK = ("--setting", "frames=3", "--setting", "width=64", "--setting", "height=48")


def test_an_emoji_with_its_skin_tone_counts_once() -> None:
    assert len(THUMB) == 2 and instruction_length(THUMB * 3) == 3
    assert instruction_length("か\u3099") == 1  # a kana and its combining voicing mark


def test_a_turn_of_1500_emoji_with_skin_tones_is_accepted() -> None:
    text = FIELDS + THUMB * 1500
    assert len(text) > MAX_INSTRUCTION_CHARS
    assert validate_instruction_text(text) == text
    assert instruction_too_long(text) == 0


def test_exactly_the_limit_is_accepted_and_one_more_refused_with_its_count() -> None:
    assert validate_instruction_text(THUMB * MAX_INSTRUCTION_CHARS)
    with pytest.raises(InstructionError) as refused:
        validate_instruction_text(THUMB * (MAX_INSTRUCTION_CHARS + 1))
    assert refused.value.message == "The instruction is 2,001 characters long; the limit is 2,000."
    assert refused.value.message == too_long_message(MAX_INSTRUCTION_CHARS + 1)


def test_plain_text_is_counted_as_before() -> None:
    validate_instruction_text("x" * MAX_INSTRUCTION_CHARS)
    with pytest.raises(InstructionError, match="is 2,001 characters long; the limit is 2,000"):
        validate_instruction_text("x" * (MAX_INSTRUCTION_CHARS + 1))


def _kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=240,
                          cwd=ROOT, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8"})


def test_play_accepts_the_emoji_turn_and_refuses_a_longer_one(tmp_path: Path) -> None:
    path = tmp_path / "emoji.kamishibai"
    Project.create(path, name="Emoji").close()
    accepted = FIELDS + THUMB * 1500
    done = _kamishibai("play", str(path), accepted, *QUICK)
    assert done.returncode == 0, done.stderr
    project = Project.open(path)
    try:
        raws = [node.instruction.raw for node in project.tree.nodes.values()]
    finally:
        project.close()
    assert accepted in raws  # kept whole, all 3,000 code points of emoji

    too_long = FIELDS + THUMB * 1960  # 2,009 characters, 3,969 code points
    refused = _kamishibai("play", str(path), too_long, *QUICK)
    assert refused.returncode == 2, refused.stderr
    assert "The instruction is 2,009 characters long; the limit is 2,000." in refused.stderr
    project = Project.open(path)
    try:
        assert too_long not in [node.instruction.raw for node in project.tree.nodes.values()]
        assert len(project.tree.nodes) == len(raws)  # nothing added
    finally:
        project.close()
