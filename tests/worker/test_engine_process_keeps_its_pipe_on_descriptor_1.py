"""An engine process started without a stdout may hold its pipe to the parent as descriptor
1: sending stdout to stderr must not overwrite it (the pipe was lost and the process died)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _run(keep: str) -> subprocess.CompletedProcess[str]:
    script = textwrap.dedent(f"""
        import os, sys
        from studio.worker.engine_process import _keep_stdout_for_the_parent

        read, write = os.pipe()
        os.dup2(write, 1)  # "the pipe to the parent" sits where stdout was
        os.close(write)
        _keep_stdout_for_the_parent(keep={keep})
        os.write(1, b"through the pipe")
        os.close(1)
        sys.stderr.write(os.read(read, 100).decode() or "nothing")
        print("python's print goes to stderr")
    """)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, cwd=REPO,
                          check=False)


def test_the_pipe_on_descriptor_1_is_kept() -> None:
    result = _run("1")
    assert result.returncode == 0, result.stderr
    # what was written to descriptor 1 came back out of the pipe; Python's print went to stderr
    assert result.stderr.splitlines() == ["through the pipepython's print goes to stderr"], result.stderr


def test_without_a_pipe_there_descriptor_1_goes_to_stderr() -> None:
    """Descriptor 1 is stdout as usual: it is sent to stderr (the pipe, no longer written to, reads empty)."""
    result = _run("-1")
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == ["through the pipenothingpython's print goes to stderr"], result.stderr
