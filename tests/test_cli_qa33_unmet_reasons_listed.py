"""An engine that can't run here says every reason, or the first few and how to see the rest.

QA: `kamishibai play P --engine mini --device cuda:0 "x"` on a machine without a GPU said
"The mini engine's predict stage is placed on cuda:0, ... (and 1 more reason(s))": the
other reason (the decode stage is placed there too) was hidden, and nothing said where to
read it."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.engines import devices, requirements
from studio.engines.requirements import Requirement, RequirementKind
from studio.storage import Project
from studio.ui.queue_panel import first_lines
from studio.worker.operations import REASONS_IN_FULL, cannot_run

PREDICT = "The mini engine's predict stage is placed on cuda:0, but this machine has no CUDA device."
DECODE = "The mini engine's decode stage is placed on cuda:0, but this machine has no CUDA device."


@pytest.fixture
def no_gpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without an NVIDIA driver or a CUDA device, whatever runs the tests."""
    monkeypatch.setattr(devices, "cuda_devices", lambda: [])
    monkeypatch.setattr(requirements, "nvidia_driver_visible", lambda: False)


@pytest.fixture
def story(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    Project.create(tmp_path / "story").close()
    return tmp_path / "story.kamishibai"


def test_play_on_a_missing_gpu_names_both_stages(no_gpu: None, story: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "checkpoints"
    (empty / "mini").mkdir(parents=True)  # its own, empty: else the app's mini weights are used
    assert main(["play", str(story), "--engine", "mini", "--device", "cuda:0", "--checkpoints", str(empty),
                 "x"]) == 2
    err = capsys.readouterr().err
    # the device reason (the hardest) is said in full, once for both stages, with the device that
    # works; the missing weights files are counted
    assert "No CUDA GPU here (cuda:0 was asked for); the mini engine runs on the CPU with --device cpu." in err, err
    assert PREDICT not in err and DECODE not in err, err
    assert "Missing" not in err.split("hint:")[0], err
    assert f"And 5 more reasons: `kamishibai doctor --device cuda:0 --checkpoints {empty}` lists every one" in err, err
    assert "(and" not in err, err
    with Project.open(story) as project:  # refused before anything was written
        assert len(project.tree.nodes) == 1


def test_a_few_reasons_are_all_said_with_no_count() -> None:
    unmet = [Requirement(RequirementKind.FILE, "Missing a.bin", hint="Put the weights there."),
             Requirement(RequirementKind.DEVICE, PREDICT, hint="Choose another device."),
             Requirement(RequirementKind.DEVICE, DECODE, hint="Choose another device.")]
    message, hint = cannot_run("mini", unmet)
    assert message == f"The mini engine can't run here: {PREDICT} {DECODE} Missing a.bin."
    assert hint == "Choose another device. Put the weights there."  # each hint once, hardest first


def test_many_reasons_say_the_hard_ones_and_count_the_files() -> None:
    files = [Requirement(RequirementKind.FILE, f"Missing w{n}.bin", hint="Convert the weights.") for n in range(12)]
    unmet = [*files,
             Requirement(RequirementKind.PACKAGE, "The torch package is not installed", hint="pip install torch"),
             Requirement(RequirementKind.DEVICE, "No CUDA GPU.", hint="Use a GPU.")]
    message, hint = cannot_run("big", unmet)
    assert message == ("The big engine can't run here: No CUDA GPU. The torch package is not installed. And 12 more "
                       "reasons: `kamishibai doctor` lists every one.")
    assert hint == "Use a GPU. pip install torch."
    only_files = cannot_run("big", files)[0]
    assert only_files.startswith("The big engine can't run here: Missing w0.bin. And 11 more reasons:"), only_files
    assert len(files) > REASONS_IN_FULL


def test_one_reason_reads_as_before() -> None:
    message, hint = cannot_run("mini", [Requirement(RequirementKind.CONFIG, "No engine 'mini' on this node.")])
    assert message == "The mini engine can't run here: No engine 'mini' on this node."
    assert hint == "Run `kamishibai doctor` for every reason."


def test_the_queue_panel_shows_the_whole_message_of_a_failed_job() -> None:
    """The window stores the message as the job's error and shows it under the queue: one
    line, which its detail keeps whole (cut only past 8 lines or 800 characters)."""
    unmet = [Requirement(RequirementKind.DEVICE, PREDICT), Requirement(RequirementKind.DEVICE, DECODE),
             *(Requirement(RequirementKind.FILE, f"Missing /a/long/path/to/the/weights/{n}.bin") for n in range(5))]
    message, _hint = cannot_run("mini", unmet)
    shown, cut = first_lines(message)
    assert not cut and shown == message and "\n" not in message
