"""`kamishibai run-queue` says which queued jobs it cancelled because their turn was deleted.

QA: opening a project for writing cancels the waiting jobs of turns deleted since they were
queued; the window says why, but `run-queue` (and every other writing command) did it without
a word: the job just vanished from the run, and the summary counted nothing. Now a line on
stderr names each such job and why, the summary counts them as cancelled (not as failures),
and the exit status stays 0 when every other job ran."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.worker.job_queue import DELETED_AFTER_INTERRUPT
from studio.worker.runner import NODE_DELETED_BEFORE_MESSAGE
from tests.test_cli_qa2_queue_jobs_of_deleted_turns import queued_then_deleted


def _queued_then_deleted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
                         ) -> tuple[Path, str, str]:
    """Both demo turns queued by `fill`, the second turn deleted since, and an interrupted job of a
    deleted third turn: (project, the second turn's job, the interrupted one)."""
    path, _first, second, interrupted = queued_then_deleted(tmp_path, monkeypatch, capsys)
    return path, second, interrupted


def test_run_queue_names_the_jobs_of_deleted_turns_and_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    path, second, interrupted = _queued_then_deleted(tmp_path, monkeypatch, capsys)
    code = main(["run-queue", str(path), "--quiet"])
    err = capsys.readouterr().err
    assert code == 0, err  # the first turn was made; the others are no failure
    lines = err.splitlines()
    assert f"kamishibai: job(s) {second} cancelled: {NODE_DELETED_BEFORE_MESSAGE}" in lines
    assert f"kamishibai: job(s) {interrupted} cancelled: {DELETED_AFTER_INTERRUPT}" in lines
    assert "1 done, 0 failed, 2 cancelled" in lines
    assert "failed:" not in err


def test_nothing_left_to_run_still_says_what_was_cancelled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    path, second, _interrupted = _queued_then_deleted(tmp_path, monkeypatch, capsys)
    assert main(["run-queue", str(path), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["run-queue", str(path), "--quiet"]) == 0  # said once: they are cancelled for good now
    err = capsys.readouterr().err
    assert second not in err and "nothing to run" in err
