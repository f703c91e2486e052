"""A project imported from a two-turn AnimeGamer demo file (Qiqi runs, then jumps, in the
day town), for the command-line tests that need turns without writing them one by one."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main

DEMO_TURNS = ("Character: Qiqi; Motion: run; Background: day town.",
              "Character: Qiqi; Motion: jump; Background: day town.")
"""The demo file's turns, in order: the second continues the first."""


def import_demo_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, turns: tuple[str, ...] = DEMO_TURNS,
                        *, generate: bool = False) -> Path:
    """``tmp_path/story.kamishibai`` imported from ``turns`` with `kamishibai import-demo`
    (engines run in the test's own process); ``generate``: each turn's take made too (`fill --run`)."""
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    demo = tmp_path / "demo.txt"
    demo.write_text("".join(f"{turn}\n" for turn in turns), encoding="utf-8")
    project = tmp_path / "story.kamishibai"
    assert main(["import-demo", str(demo), "--project", str(project)]) == 0
    if generate:
        assert main(["fill", str(project), "--run", "--quiet"]) == 0
    return project
