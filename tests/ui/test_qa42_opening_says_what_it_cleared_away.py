"""Opening a project for editing clears away the take folders no take uses (their turns were
deleted); the status bar says so as news of the opening, with what went and how much, not as
a problem (the command line only said it on stderr, the window as "Opened with 1 problem(s)")."""

from __future__ import annotations

import os
import time
from pathlib import Path


def test_the_take_folders_cleared_away_are_named_as_the_project_opens(make_window, sample_project: Path) -> None:
    folder = sample_project / "media" / "takes" / "0123456789"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "clip.mp4").write_bytes(b"x" * 300_000)
    long_ago = time.time() - 3600  # (a folder touched just now may be a generation still running)
    os.utime(folder / "clip.mp4", (long_ago, long_ago))
    os.utime(folder, (long_ago, long_ago))

    window = make_window(sample_project)
    said = window.status_text()
    assert not folder.exists()
    assert said.startswith("Opened Qiqi's first delivery (in sample.kamishibai); removed"), said
    assert "removed 1 take folder(s) (0.3 MB) from media/takes/ that no take uses" in said, said
    assert "problem" not in said, said
