"""``kamishibai eval mini`` and ``kamishibai bench`` with a report on a read-only file system
(``/proc``): ``os.access`` says root may write there, so the check let the run go on for
minutes and the write then ended in an internal error. Now it is refused before anything
runs, and eval's hint names its own options (it has no ``--quick``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio import benchmarks
from studio.cli import main
from studio.core.errors import StudioError

READ_ONLY = Path("/proc")


def _needs_a_read_only_folder() -> None:
    if not READ_ONLY.is_dir() or not os.access(READ_ONLY, os.W_OK):
        pytest.skip("needs /proc, a folder os.access calls writable (as root) that takes no new file")


def test_the_bench_report_check_tries_the_folder(tmp_path: Path) -> None:
    _needs_a_read_only_folder()
    with pytest.raises(StudioError, match="can't be created"):
        benchmarks.check_report(READ_ONLY / "kamishibai-BENCHMARKS.md", ["sketch"])
    benchmarks.check_report(tmp_path / "BENCHMARKS.md", ["sketch"])  # a folder that takes files still passes


def test_eval_refuses_the_report_before_running_with_its_own_hint(capsys: pytest.CaptureFixture[str]) -> None:
    _needs_a_read_only_folder()
    assert main(["eval", "mini", "--episodes", "1", "--report", str(READ_ONLY / "kamishibai-BENCHMARKS.md")]) == 2
    captured = capsys.readouterr()
    assert "can't be created" in captured.err and "--no-report" in captured.err and "--quick" not in captured.err
    assert "internal error" not in captured.err and "played" not in captured.out  # nothing ran
