"""Each section of docs/BENCHMARKS.md names the machine it was measured on. The GPU
benchmarks (animegamer, customx, cluster) used to be tied to a description without any
GPU, and a run confined to some cores (taskset, a container's cpuset) claimed all of the
host's. The description now names the GPUs the benchmarks could use and the usable cores."""

from __future__ import annotations

import os
import subprocess
from typing import Any

import pytest

from studio import benchmarks

SMI = ("0, NVIDIA H200, 143771, 580.159.04\n"
       "1, NVIDIA H200, 143771, 580.159.04\n"
       "2, NVIDIA L4, 23034, 580.159.04\n")


def _fake_smi(monkeypatch: pytest.MonkeyPatch, stdout: str, returncode: int = 0) -> list[list[str]]:
    calls: list[list[str]] = []
    real_run = subprocess.run

    def run(argv: Any, *args: Any, **kwargs: Any) -> Any:
        if argv and argv[0] == "/usr/bin/nvidia-smi":
            calls.append(list(argv))
            return subprocess.CompletedProcess(argv, returncode, stdout, "")
        return real_run(argv, *args, **kwargs)

    monkeypatch.setattr(benchmarks.shutil, "which",
                        lambda name: "/usr/bin/nvidia-smi" if name == "nvidia-smi" else None)
    monkeypatch.setattr(benchmarks.subprocess, "run", run)
    return calls


def test_the_gpus_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    calls = _fake_smi(monkeypatch, SMI)
    text = benchmarks.machine_description()
    assert calls
    assert "2 NVIDIA H200 (143771 MiB, driver 580.159.04), 1 NVIDIA L4 (23034 MiB, driver 580.159.04)" in text


def test_only_the_visible_gpus_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "2")
    _fake_smi(monkeypatch, SMI)
    text = benchmarks.machine_description()
    assert "1 NVIDIA L4" in text and "H200" not in text


def test_no_gpu_and_a_failing_nvidia_smi_add_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_smi(monkeypatch, "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.", 9)
    assert "NVIDIA" not in benchmarks.machine_description()
    monkeypatch.setattr(benchmarks.shutil, "which", lambda name: None)
    assert "NVIDIA" not in benchmarks.machine_description()


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="no CPU affinity on this system")
def test_the_cores_a_confined_run_could_use_are_said(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(benchmarks.shutil, "which", lambda name: None)
    monkeypatch.setattr(os, "cpu_count", lambda: 16)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    assert ", 2 of 16 cores," in benchmarks.machine_description()
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(16)))
    assert ", 16 cores," in benchmarks.machine_description()
