"""An empty ``--device`` (``--device "$GPU"`` with GPU unset), or a stage given no device
(``predict=$GPU0,decode=cuda:0``), is refused when the arguments are read. QA: the engines'
configuration read it as the CPU, so `doctor` checked the CPU and `play` generated there,
without a word."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main

COMMANDS = (
    ("doctor",),
    ("play", "{project}", "-i", "Motion: wave."),
    ("reroll", "{project}", "root"),
    ("fill", "{project}"),
    ("run-queue", "{project}"),
    ("eval", "mini", "--no-report"),
    ("import-demo", "{project}.txt", "{project}", "--generate"),
)


@pytest.mark.parametrize("device", ["", "  "])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command[0])
def test_an_empty_device_is_refused(command: tuple[str, ...], device: str, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    args = [part.format(project=tmp_path / "story.kamishibai") for part in command]
    with pytest.raises(SystemExit) as exit_:
        main([*args, "--device", device])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "argument --device: an empty value names no device (give cpu, cuda:N" in err, err
    assert list(tmp_path.iterdir()) == [], "nothing was written"


def test_an_empty_devices_list_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["run-queue", str(tmp_path / "story.kamishibai"), "--devices", ""])
    assert exit_.value.code == 2
    assert "argument --devices: an empty value names no device" in capsys.readouterr().err


@pytest.mark.parametrize(("device", "stage"), [
    ("predict=", "predict"),
    ("predict=,decode=cuda:0", "predict"),
    ("predict=cpu,decode= ", "decode"),
])
def test_a_stage_without_a_device_is_refused(device: str, stage: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["doctor", "--device", device])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --device: {stage}= names no device in {device!r}" in err, err


@pytest.mark.parametrize("device", ["cpu", "CPU", "predict=cpu"])
def test_a_device_that_is_given_still_runs(device: str, capsys: pytest.CaptureFixture[str]) -> None:
    main(["doctor", "--json", "--device", device])
    assert '"sketch"' in capsys.readouterr().out
