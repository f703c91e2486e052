"""Generating commands on the command line give their engines every core the studio may use
(no window needs one), `--threads N` chooses, several `--devices` share the cores out, and
`--devices` finds the weights where `--device` does (QA: `--devices` configurations were built
without the checkpoints folders, so from another working folder an engine with weights found
none; and on a 2-core computer a CLI turn of the mini engine ran on one thread)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from studio.cli import build_parser
from studio.cli.generate_cmds import _service
from studio.engines.config import usable_cores


def _args(*extra: str) -> argparse.Namespace:
    return build_parser().parse_args(["play", "unused", "-i", "x", "--engine-host", "in-process", *extra])


def test_one_worker_gets_every_core_unless_told(project, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    service = _service(project, _args("--checkpoints", str(tmp_path)))
    try:
        assert service.config.threads == usable_cores()
        assert service.config.checkpoints == tmp_path
    finally:
        service.stop(timeout=None)
    service = _service(project, _args("--threads", "1"))
    try:
        assert service.config.threads == 1
    finally:
        service.stop(timeout=None)


def test_devices_carry_the_checkpoints_folder_and_share_the_cores(project, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    service = _service(project, _args("--devices", "cpu,cpu", "--checkpoints", str(tmp_path)))
    try:
        assert service.config.checkpoints == tmp_path
        assert service.config.threads == max(1, usable_cores() // 2)
    finally:
        service.stop(timeout=None)
    service = _service(project, _args("--devices", "cpu", "--checkpoints", str(tmp_path)))
    try:
        assert service.config.checkpoints == tmp_path and service.config.threads == usable_cores()
    finally:
        service.stop(timeout=None)


@pytest.mark.parametrize("value", ["0", str(usable_cores() + 1), "two"])
def test_threads_outside_the_usable_cores_are_refused(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        _args("--threads", value)
    err = capsys.readouterr().err
    assert "argument --threads:" in err and "Traceback" not in err
