"""`kamishibai sample` (what `make run` runs before the window opens) says what it is doing
while it generates: it printed nothing until every turn was made."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_the_sample_says_what_it_generates_and_how_it_went(tmp_path: Path) -> None:
    path = tmp_path / "sample.kamishibai"
    result = subprocess.run([sys.executable, "-m", "studio", "sample", str(path)], capture_output=True, text=True,
                            cwd=REPO, timeout=600, check=False,
                            env={**os.environ, "KAMISHIBAI_ENGINE_HOST": "in-process"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(path)  # stdout stays the path alone, for scripts
    assert "generating the sample story's 8 turns with sketch" in result.stderr
    assert "8/8" in result.stderr and "8 done, 0 failed, 0 cancelled" in result.stderr
