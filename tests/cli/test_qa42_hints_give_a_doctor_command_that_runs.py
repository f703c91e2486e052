"""The command a refusal names to list every reason is one the user can paste: with their
device and checkpoints folder (it said `kamishibai doctor --device DEVICE`, which the doctor's
parser refuses); a mistyped --checkpoints is "no such folder" for play, reroll and eval as for
the doctor; and a damaged weights file, the cause a user can fix where the machine has no GPU,
is named rather than counted among the "more reasons"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.engines import devices, requirements
from studio.engines.requirements import Requirement, RequirementKind
from studio.storage import Project
from studio.worker.operations import cannot_run


@pytest.fixture
def no_gpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(devices, "cuda_devices", lambda: [])
    monkeypatch.setattr(requirements, "nvidia_driver_visible", lambda: False)


@pytest.fixture
def story(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    Project.create(tmp_path / "story").close()
    return tmp_path / "story.kamishibai"


def test_the_doctor_command_named_runs_as_pasted(no_gpu: None, story: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    weights = tmp_path / "my weights"
    weights.mkdir()
    capsys.readouterr()
    assert main(["play", str(story), "--engine", "animegamer", "--device", "cuda:0", "--checkpoints", str(weights),
                 "-i", "Qiqi waves."]) == 2
    err = capsys.readouterr().err
    command = f"kamishibai doctor --device cuda:0 --checkpoints '{weights}'"
    assert f"`{command}` lists every one." in err, err
    assert "DEVICE" not in err
    # pasted: the doctor reads it (it refused "--device DEVICE" with a usage error, exit status 2)
    assert main(["doctor", "--json", "--device", "cuda:0", "--checkpoints", str(weights)]) in (0, 1)
    report = json.loads(capsys.readouterr().out)
    assert report["checkpoints"] == str(weights)


@pytest.mark.parametrize("command", ["play", "reroll", "eval"])
def test_a_mistyped_checkpoints_folder_is_no_such_folder(story: Path, tmp_path: Path, command: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    typo = tmp_path / "chekpoints"
    args = {"play": ["play", str(story), "-i", "Qiqi waves.", "--engine", "mini"],
            "reroll": ["reroll", str(story), "root", "--engine", "mini"],
            "eval": ["eval", "mini", "--episodes", "1", "--no-report"]}[command]
    capsys.readouterr()
    assert main([*args, "--checkpoints", str(typo)]) == 2
    err = capsys.readouterr().err
    assert f"--checkpoints {typo}: no such folder." in err, err
    assert "Missing" not in err


def test_a_damaged_file_is_named_where_the_machine_lacks_a_gpu() -> None:
    missing = [Requirement(RequirementKind.FILE, f"Missing w{n}.safetensors", hint="Convert the weights.")
               for n in range(4)]
    damaged = Requirement(RequirementKind.FILE, "mllm.safetensors is 40,000 bytes, but its header describes "
                          "8,303,152 (incomplete copy?).", hint="Copy or convert the file again.")
    gpu = Requirement(RequirementKind.DEVICE, "The engine needs a CUDA GPU.", hint="Use a machine with one.")
    message, hint = cannot_run("big", [*missing, damaged, gpu], "kamishibai doctor --checkpoints ck")
    assert message == ("The big engine can't run here: The engine needs a CUDA GPU. mllm.safetensors is 40,000 "
                       "bytes, but its header describes 8,303,152 (incomplete copy?). And 4 more reasons: "
                       "`kamishibai doctor --checkpoints ck` lists every one."), message
    assert hint == "Use a machine with one. Copy or convert the file again."
