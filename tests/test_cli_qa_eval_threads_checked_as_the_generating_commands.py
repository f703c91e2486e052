"""`eval --threads N` is checked as `play`, `reroll`, `fill` and `run-queue` check it: from 1
to the cores the studio may use, refused with the same message when the arguments are read.
QA: eval had its own check (at least 1, after the arguments were read), so `--threads 99` on
a 2-core computer was taken, and `--threads two` got argparse's "invalid int value"."""

from __future__ import annotations

import pytest

from studio.cli import build_parser, main
from studio.engines.config import usable_cores


@pytest.mark.parametrize("value", ["0", str(usable_cores() + 1), "two"])
def test_eval_refuses_the_threads_play_refuses(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    messages = []
    for command in (["eval", "mini", "--no-report"], ["play", "unused", "-i", "x"]):
        with pytest.raises(SystemExit) as exit_:
            main([*command, "--threads", value])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err
        messages.append(err.strip().splitlines()[-1].split("argument --threads: ", 1)[1])
    assert messages[0] == messages[1], messages


def test_eval_keeps_its_default_and_takes_every_usable_core() -> None:
    parser = build_parser()
    assert parser.parse_args(["eval", "mini"]).threads is None  # run_evaluation's default: the window's
    assert parser.parse_args(["eval", "mini", "--threads", str(usable_cores())]).threads == usable_cores()
