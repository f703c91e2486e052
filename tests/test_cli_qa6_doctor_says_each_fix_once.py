"""`kamishibai doctor` with an empty checkpoints folder says each engine's fix once, after
the lines it fixes (QA: "Convert the released weights: ..." came under every one of
AnimeGamer's 12 missing files, and CustomX's under its 7: 19 copies to read past)."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path


def test_each_hint_comes_once_after_the_missing_files_it_fixes(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    done = subprocess.run([sys.executable, "-m", "studio", "doctor", "--checkpoints", str(tmp_path / "empty")],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr  # sketch still runs
    lines = done.stdout.splitlines()
    animegamer_fix = [i for i, line in enumerate(lines) if "kamishibai checkpoints convert PATH/TO" in line]
    customx_fix = [i for i, line in enumerate(lines) if "kamishibai checkpoints convert-customx" in line]
    assert len(animegamer_fix) == 1 and len(customx_fix) == 1, done.stdout
    missing = [i for i, line in enumerate(lines) if "Missing" in line and "/animegamer/" in line]
    assert len(missing) == 12 and max(missing) + 1 == animegamer_fix[0], done.stdout
    missing_customx = [i for i, line in enumerate(lines) if "Missing" in line and "/customx/" in line]
    assert len(missing_customx) == 7 and max(missing_customx) + 1 == customx_fix[0], done.stdout
    starts = [next(i for i, line in enumerate(lines) if line.startswith(f"  {name} "))
              for name in ("animegamer", "customx", "mini")]
    for start, end in itertools.pairwise(starts):  # no line twice in an engine's lines
        assert len(lines[start:end]) == len(set(lines[start:end])), done.stdout
