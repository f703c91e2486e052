"""`kamishibai sketch-sheet` past a file-size limit (``ulimit -f``) said the export's words:
"The disk is full (or a file size limit was reached) ... Free some space or choose another
folder, then export again", though no export was asked for and freeing space does nothing
for a limit. It now says the limit was reached and how to raise it, exits with 1 (a disk
without room), and leaves no sheet (nor a half-written one) behind."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 16 * 1024
"""Less than the sheet (a grid of every motion) takes."""


def _limited() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def _sheet(out: Path, *, limited: bool) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", "sketch-sheet", str(out)], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, preexec_fn=_limited if limited else None,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})


def test_a_sheet_past_the_file_size_limit_says_raise_it(tmp_path: Path) -> None:
    out = tmp_path / "motions.png"

    done = _sheet(out, limited=True)

    assert done.returncode == 1, done.stderr
    assert "file-size limit" in done.stderr and "ulimit -f unlimited" in done.stderr, done.stderr
    assert str(out) in done.stderr and "export" not in done.stderr, done.stderr
    assert "internal error" not in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == []

    done = _sheet(out, limited=False)
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > LIMIT
