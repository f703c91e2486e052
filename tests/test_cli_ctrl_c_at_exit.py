"""A Ctrl+C that comes as a command starts or ends gives a clean exit status 130, never
-2 (QA: a SIGINT while the command parsed its arguments, or once it was done, between
`main()` returning and Python's shutdown, killed it: a traceback and exit status -2,
which a script takes for a crash)."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT sent with os.kill is POSIX")

_PRELUDE = """
import os, signal, sys, time
import studio.cli as cli

def ctrl_c():
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.3)  # Python runs a pending signal's handler here
"""


def _run_script(body: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(_PRELUDE) + textwrap.dedent(body), encoding="utf-8")
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[1])


def test_ctrl_c_once_the_command_is_done_exits_130(tmp_path: Path) -> None:
    done = _run_script(f"""
        sys.argv = ["kamishibai", "new", {str(tmp_path / "made")!r}]
        code = cli.main()
        print("returned", code, flush=True)
        ctrl_c()  # as `sys.exit(main())` ends the process
        sys.exit(code)
    """, tmp_path)
    assert done.returncode == 130, done.stderr
    assert "returned 0" in done.stdout
    assert "Traceback" not in done.stderr
    assert done.stderr.rstrip().endswith("kamishibai: interrupted"), done.stderr
    assert (tmp_path / "made.kamishibai").is_dir(), "the command's work stays"


def test_ctrl_c_during_the_shutdown_exits_130(tmp_path: Path) -> None:
    done = _run_script(f"""
        import threading
        sys.argv = ["kamishibai", "new", {str(tmp_path / "made")!r}]
        code = cli.main()
        threading.Thread(target=ctrl_c).start()  # Python's shutdown waits for it
        sys.exit(code)
    """, tmp_path)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr


def test_ctrl_c_while_the_arguments_are_read_exits_130(tmp_path: Path) -> None:
    done = _run_script("""
        build = cli.build_parser
        def slow_build():
            ctrl_c()
            return build()
        cli.build_parser = slow_build
        sys.argv = ["kamishibai", "--version"]
        sys.exit(cli.main())
    """, tmp_path)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip() == "kamishibai: interrupted"


def test_main_called_by_a_program_leaves_ctrl_c_alone(tmp_path: Path) -> None:
    from studio.cli import main

    assert main(["new", str(tmp_path / "made")]) == 0
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
