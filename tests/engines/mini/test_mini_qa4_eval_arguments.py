"""`kamishibai eval mini` names the one argument that is out of range, with its value and its
range (QA 4: `--episodes 0`, `--steps 65` or `--candidates 9` all gave the same sentence
listing the three ranges, leaving the user to guess which value was wrong). Each is refused
when the arguments are read, before anything loads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def _eval(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", "eval", "mini", "--no-report", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("option", "value", "says"), [
    ("--episodes", "0", "argument --episodes: must be at least 1, not 0"),
    ("--episodes", "-2", "argument --episodes: must be at least 1, not -2"),
    ("--steps", "0", "argument --steps: must be from 1 to 64, not 0"),
    ("--steps", "65", "argument --steps: must be from 1 to 64, not 65"),
    ("--candidates", "0", "argument --candidates: must be from 1 to 8, not 0"),
    ("--candidates", "9", "argument --candidates: must be from 1 to 8, not 9"),
    ("--episodes", "two", "argument --episodes: expected a whole number, not 'two'"),
    ("--steps", "2.5", "argument --steps: expected a whole number, not '2.5'"),
])
def test_an_out_of_range_count_is_named_with_its_value(option: str, value: str, says: str, tmp_path: Path) -> None:
    result = _eval(option, value, "--checkpoints", str(tmp_path))
    assert result.returncode == 2
    assert says in result.stderr
    assert "Traceback" not in result.stderr
    other = {"--episodes", "--steps", "--candidates"} - {option}
    assert not any(f"argument {name}" in result.stderr for name in other), "only the wrong one is named"
