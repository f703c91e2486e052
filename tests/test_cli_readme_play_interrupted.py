"""The command line reference's description of `play --json` (docs/CLI.md, moved there from the
README) names what a play stopped by Ctrl+C prints: the turn it was making with
`"interrupted": true`, its keys, and the exit status."""

from __future__ import annotations

import argparse
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "docs" / "CLI.md"  # the command line's reference, from the README


def test_readme_describes_the_interrupted_turn() -> None:
    from studio.cli.generate_cmds import _stopped_turn

    text = " ".join(README.read_text(encoding="utf-8").split())
    start = text.index("When Ctrl+C stops a `play --json`")
    paragraph = text[start:start + 700]
    assert '`"interrupted": true`' in paragraph and "130" in paragraph
    stopped = _stopped_turn(argparse.Namespace(instruction=["Character: Qiqi; Motion: run."]), 0, None, None)
    assert stopped["interrupted"] is True and stopped["kept"] is False
    for key in stopped:
        assert f"`{key}`" in paragraph or f'`"{key}"' in paragraph, key
