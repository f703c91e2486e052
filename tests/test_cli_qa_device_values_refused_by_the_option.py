"""A `--device` or `--devices` value the engines can't use is refused when the arguments
are read, in one line that names the option, and nothing is written. QA: `+offload` alone
(an unset ``$GPU`` before it) and `Placement.parse("")` were read as the CPU; a stage placed
twice (``predict=cpu,predict=cuda:0``) kept the last without a word; an unknown device in
`--devices` was refused only once the project was open, without naming the option; and a
`--devices` worker with an empty stage (``cpu;``) was quoted back as ``'cpu,'`` with a hint
to part its stages with commas, which `--devices` reads as two workers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.engines.config import ConfigError, EngineConfig, Placement


@pytest.mark.parametrize("text", ["", "  ", "+offload", " +OFFLOAD "])
def test_a_placement_that_names_no_device_is_refused(text: str) -> None:
    with pytest.raises(ConfigError) as error:
        Placement.parse(text)
    assert "names no device" in error.value.message or error.value.message == "No device given."
    assert "cuda:N" in error.value.hint


def test_placements_that_name_a_device_still_parse() -> None:
    assert Placement.parse(" CPU ") == Placement("cpu")
    assert Placement.parse("cuda:1+offload") == Placement("cuda:1", offload=True)
    assert EngineConfig.parse("").describe() == "cpu"  # no spec at all: the engines' default


@pytest.mark.parametrize(("spec", "words"), [
    ("predict=cpu,predict=cuda:0", "places the predict stage twice"),
    ("predict=+offload", "'+offload' names no device"),
    ("decode= ", "decode= names no device"),
])
def test_a_stage_without_one_device_is_refused(spec: str, words: str) -> None:
    with pytest.raises(ConfigError) as error:
        EngineConfig.parse(spec)
    assert words in error.value.message


def test_stages_parted_by_semicolons_are_quoted_as_written() -> None:
    with pytest.raises(ConfigError) as error:
        EngineConfig.parse("cpu;", separator=";")
    assert "'cpu;'" in error.value.message
    assert "one semicolon, e.g. predict=cuda:0;decode=cuda:1" in error.value.hint


COMMANDS = (
    ("doctor",),
    ("play", "{project}", "-i", "Motion: wave."),
    ("reroll", "{project}", "root"),
    ("fill", "{project}", "--run"),
    ("run-queue", "{project}"),
    ("import-demo", "{project}.txt", "{project}", "--generate"),
)


@pytest.mark.parametrize(("value", "words"), [
    ("+offload", "'+offload' names no device"),
    ("cuda:x", "Unknown device 'cuda:x'"),
    ("predict=cpu,predict=cuda:0", "'predict=cpu,predict=cuda:0' places the predict stage twice"),
    ("cpu+offload", "Offloading only makes sense onto a GPU"),
])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command[0])
def test_device_is_refused_naming_the_option(command: tuple[str, ...], value: str, words: str, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    args = [part.format(project=tmp_path / "story.kamishibai") for part in command]
    with pytest.raises(SystemExit) as exit_:
        main([*args, "--device", value])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --device: {words}" in err, err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == [], "nothing was written"


@pytest.mark.parametrize(("value", "words"), [
    ("cpu,cuda:x", "Unknown device 'cuda:x'"),
    ("cpu,+offload", "'+offload' names no device"),
    ("cpu;", "An empty entry in the device 'cpu;'. Separate a worker's stages with one semicolon"),
    ("predict=;decode=cpu", "predict= names no device in 'predict=;decode=cpu' (give cpu, cuda:N, per stage "
                            "predict=cuda:0;decode=cuda:1"),
    ("predict=cpu;predict=cpu", "'predict=cpu;predict=cpu' places the predict stage twice"),
    ("cpu;cuda:0", "'cpu;cuda:0' names 2 devices for one worker"),
    ("cpu,,cpu", "an empty entry in the device list 'cpu,,cpu'"),
])
def test_devices_is_refused_naming_the_option(value: str, words: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "story.kamishibai"
    main(["new", str(project)])
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(["run-queue", str(project), "--devices", value])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --devices: {words}" in err, err
    assert "Traceback" not in err


def test_devices_that_can_be_used_still_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "story.kamishibai"
    main(["new", str(project)])
    capsys.readouterr()
    assert main(["play", str(project), "-i", "Motion: wave.", "--json", "--engine-host", "in-process",
                 "--devices", "predict=cpu;decode=cpu,cpu"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "done"


@pytest.mark.parametrize("value", ["cuda:0+offload", "predict=cpu", "cpu,cpu", "+offload"])
def test_eval_takes_one_whole_device(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    """eval evaluated on ``cuda:0`` when told ``cuda:0+offload`` (the offload was dropped),
    and refused a per-stage value only after checking the report, without naming the option."""
    with pytest.raises(SystemExit) as exit_:
        main(["eval", "mini", "--no-report", "--device", value])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --device: eval runs the model on one device, without offloading: give cpu or cuda:N, " \
           f"not {value!r}" in err, err
