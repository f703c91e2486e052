"""An export over a video whose earlier export left captions beside it notes the old .srt:
the note ended "...if its captions are not wanted.." (the note's own full stop, and one
more added when it was printed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180)


def test_the_earlier_captions_note_ends_with_one_full_stop(tmp_path: Path) -> None:
    path = tmp_path / "trip.kamishibai"
    assert kamishibai("new", str(path)).returncode == 0
    assert kamishibai("play", str(path), "Qiqi runs").returncode == 0
    out = tmp_path / "episode.mp4"
    first = kamishibai("export", str(path), "--out", str(out), "--captions", "srt", "-q")
    assert first.returncode == 0, first.stderr
    assert (tmp_path / "episode.srt").is_file()

    again = kamishibai("export", str(path), "--out", str(out), "--force", "-q")
    assert again.returncode == 0, again.stderr
    notes = [line for line in again.stderr.splitlines() if "episode.srt beside the video" in line]
    assert len(notes) == 1, again.stderr
    assert notes[0].startswith("kamishibai: note: ") and notes[0].endswith("not wanted.") \
        and not notes[0].endswith(".."), notes[0]
