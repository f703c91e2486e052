"""`kamishibai export` refusing to replace a file names its folder in full.

With a relative --out (run in the folder the episode goes to) the refusal read
"episode.mp4 already exists in .; the export would replace or remove it."."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .helpers import Fixture


def test_a_relative_out_is_refused_with_its_folder_named(story: Fixture, tmp_path: Path) -> None:
    folder = tmp_path / "episodes"
    folder.mkdir()
    (folder / "episode.mp4").write_bytes(b"last week's cut")
    story.project.close()  # the command opens the project itself
    done = subprocess.run([sys.executable, "-m", "studio", "export", str(story.project.path), "--leaf", story.leaf,
                           "--out", "episode.mp4", "-q"], capture_output=True, text=True, timeout=120, cwd=folder)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert f"episode.mp4 already exists in {folder}; the export would replace or remove it." in done.stderr, \
        done.stderr
    assert "--force" in done.stderr and "Traceback" not in done.stderr
    assert (folder / "episode.mp4").read_bytes() == b"last week's cut"
