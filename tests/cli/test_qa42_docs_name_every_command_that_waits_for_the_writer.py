"""docs/CLI.md's "One writer at a time" names every command that waits for the project's
writer (each command with a --wait option), so a user reading it knows which ones do: it left
out `note TEXT` and `delete`."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from studio.cli import build_parser

DOCS = Path(__file__).resolve().parents[2] / "docs" / "CLI.md"


def _commands_that_wait() -> set[str]:
    parser = build_parser()
    (subparsers,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return {name for name, sub in subparsers.choices.items()
            if any("--wait" in action.option_strings for action in sub._actions)}


def test_the_writer_paragraph_names_each_command_that_waits() -> None:
    text = DOCS.read_text(encoding="utf-8")
    paragraph = text[text.index("**One writer at a time.**"):]
    holds = paragraph[:paragraph.index("holds it for writing")]
    named = {match.split()[0] for match in re.findall(r"`([^`]+)`", holds)}
    waiting = _commands_that_wait()
    assert {"note", "delete", "use"} <= waiting
    assert waiting - named == set(), f"{sorted(waiting - named)} wait for the writer but are not named"
