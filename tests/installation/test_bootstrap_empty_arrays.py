"""packaging/bootstrap.sh runs under ``set -u``: an empty bash array expanded bare
(``"${name[@]}"``) is an "unbound variable" error in bash before 4.4 (macOS ships 3.2), so
`packaging/bootstrap.sh` without --yes stopped at once there (QA). Every array that may be
empty is expanded with ``${name[@]+"${name[@]}"}``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.installation.conftest import PACKAGING

SCRIPT = PACKAGING / "bootstrap.sh"


def _code(text: str) -> str:
    """The script without its comment lines."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))


def _maybe_empty_arrays(code: str) -> set[str]:
    """Arrays the script starts empty (``name=()``)."""
    return set(re.findall(r"^\s*([A-Za-z_]\w*)=\(\)", code, flags=re.MULTILINE))


def bare_expansions(text: str) -> list[str]:
    """Expansions of a possibly empty array that fail under ``set -u`` in bash < 4.4."""
    code = _code(text)
    found = []
    for name in sorted(_maybe_empty_arrays(code)):
        n = re.escape(name)
        safe = re.sub(rf'\$\{{{n}\[[@*]\]\+"\$\{{{n}\[[@*]\]\}}"\}}|\$\{{#{n}\[[@*]\]\}}', "", code)
        found += re.findall(rf"\$\{{!?{n}\[[@*]\][^}}]*\}}", safe)
    return found


def test_no_possibly_empty_array_is_expanded_bare() -> None:
    text = SCRIPT.read_text(encoding="utf-8")
    assert {"check_args", "extras"} <= _maybe_empty_arrays(_code(text))
    assert bare_expansions(text) == []


def test_the_check_finds_a_bare_expansion() -> None:
    assert bare_expansions('args=()\nrun "${args[@]}" x\necho "${args[*]}"\n') == ["${args[@]}", "${args[*]}"]
    assert bare_expansions('args=()\nrun ${args[@]+"${args[@]}"} "${#args[@]}"\n') == []


@pytest.mark.skipif(sys.platform == "win32" or shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize(("options", "expected"), [((), ["setup", "--again", "packaging/bootstrap.sh"]),
                                                   (("--yes",), ["setup", "--yes", "--again",
                                                                 "packaging/bootstrap.sh"])])
def test_the_system_check_gets_exactly_the_options_given(options: tuple[str, ...], expected: list[str],
                                                          tmp_path: Path) -> None:
    """Run up to the system check, with a stand-in Python that records its arguments and
    stops the script there (nothing is installed)."""
    record = tmp_path / "args"
    python = tmp_path / "python"
    python.write_text('#!/bin/sh\nif [ "$1" = -c ]; then echo 3.11; exit 0; fi\n'  # the version check passes
                      f'for a in "$@"; do echo "$a"; done > {str(record)!r}\nexit 7\n', encoding="utf-8")
    python.chmod(0o755)
    done = subprocess.run(["bash", str(SCRIPT), *options], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHON": str(python), "VENV": str(tmp_path / "venv"), "ENGINES": ""})
    assert done.returncode == 7, done.stderr
    assert "unbound variable" not in done.stderr
    assert record.read_text(encoding="utf-8").splitlines() == ["packaging/check_system.py", *expected]
    assert not (tmp_path / "venv").exists()
