"""A CUDA-only engine placed on a GPU this machine lacks gets advice that fits it.

QA: ``kamishibai doctor --device cuda:0`` on a machine without a GPU told the user to
"Choose another device" for AnimeGamer, which runs on CUDA only: it needs a machine with an
NVIDIA GPU (and that much memory). An engine that also runs on the CPU, and a machine that
has another GPU, keep "Choose another device"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.engines import devices, requirements
from studio.engines.capabilities import GIB
from studio.engines.devices import DeviceInfo


def _engines(capsys: pytest.CaptureFixture[str], folder: Path, device: str) -> dict[str, list[dict[str, str]]]:
    main(["doctor", "--json", "--device", device, "--checkpoints", str(folder)])
    return {e["name"]: e["reasons"] for e in json.loads(capsys.readouterr().out)["engines"]}


@pytest.mark.parametrize("device", ["cuda:0", "predict=cuda:0,decode=cpu", "cuda:1+offload"])
def test_without_a_gpu_the_advice_is_a_machine_with_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str], device: str) -> None:
    monkeypatch.setattr(devices, "cuda_devices", lambda: [])
    monkeypatch.setattr(requirements, "nvidia_driver_visible", lambda: False)
    engines = _engines(capsys, tmp_path, device)
    animegamer = "24 GB or more, or of 16 GB with --device cuda:0+offload"
    for name, memory in (("animegamer", animegamer), ("customx", "80 GB")):
        said = [r for r in engines[name] if r["kind"] == "device"]
        assert len(said) == 1, said  # one cause, said once (not once per stage)
        assert "needs a CUDA GPU" in said[0]["message"], said
        assert said[0]["hint"] == f"Use it on a machine with an NVIDIA GPU of {memory}.", said
    # it runs on the CPU, and says so
    assert any("give --device cpu" in r["hint"] for r in engines["mini"]), engines["mini"]

    main(["doctor", "--device", device, "--checkpoints", str(tmp_path)])
    text = capsys.readouterr().out
    ag = text[text.index("  animegamer "):text.index("  customx ")]
    assert "Choose another device" not in ag and "NVIDIA GPU of 24 GB or more" in ag, ag


def test_a_driver_without_a_cuda_torch_says_to_install_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(devices, "cuda_devices", lambda: [])
    monkeypatch.setattr(requirements, "nvidia_driver_visible", lambda: True)
    said = [r for r in _engines(capsys, tmp_path, "cuda:0")["animegamer"] if r["kind"] == "device"]
    assert len(said) == 1 and "CPU-only build" in said[0]["message"], said
    assert "CUDA build of torch" in said[0]["hint"] and "Choose another device" not in said[0]["hint"], said


def test_a_missing_second_gpu_still_says_choose_another(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(devices, "cuda_devices", lambda: [DeviceInfo("cuda:0", "NVIDIA H100", 80 * GIB, 79 * GIB)])
    monkeypatch.setattr(requirements, "nvidia_driver_visible", lambda: True)
    said = [r for r in _engines(capsys, tmp_path, "cuda:1")["animegamer"] if r["kind"] == "device"]
    assert said and all("Choose another device" in r["hint"] for r in said), said
    assert all("cuda:0 (NVIDIA H100)" in r["message"] for r in said), said
