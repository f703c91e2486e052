"""`--device cuda:0` on a machine without a CUDA GPU: the mini engine (which runs on the CPU
too) says so once, with the device that works, and the doctor no longer counts it among the
engines that need a CUDA GPU. `play --engine mini --device cuda:0` gave two near-identical
sentences (one per stage), and `doctor --device cuda:0` said "animegamer, customx and mini need
a CUDA GPU"."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.engines import devices, requirements
from studio.storage import Project


@pytest.fixture
def no_gpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(devices, "cuda_devices", lambda: [])
    monkeypatch.setattr(requirements, "nvidia_driver_visible", lambda: False)


def test_play_says_it_once_with_the_cpu(no_gpu: None, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    Project.create(tmp_path / "story").close()
    capsys.readouterr()
    assert main(["play", str(tmp_path / "story.kamishibai"), "-i", "Qiqi waves.", "--engine", "mini",
                 "--device", "cuda:0"]) == 2
    err = capsys.readouterr().err
    assert ("The mini engine can't run here: No CUDA GPU here (cuda:0 was asked for); the mini engine runs on the "
            "CPU with --device cpu.") in err, err
    assert "stage is placed on" not in err, err
    assert "--device cpu" in err.split("hint:")[1]


def test_the_doctor_counts_mini_among_the_cpu_engines(no_gpu: None, capsys: pytest.CaptureFixture[str]) -> None:
    main(["doctor", "--device", "cuda:0"])
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if line.lstrip().startswith("gpu"))
    assert "mini and sketch run on the CPU" in line, line
    assert "mini need" not in line and line.endswith("animegamer and customx need a CUDA GPU)"), line
    assert "No CUDA GPU here (cuda:0 was asked for); the mini engine runs on the CPU with --device cpu." in out
