"""``kamishibai doctor``: no CUDA, a faked list of GPUs, a checkpoints folder missing a file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio import composition
from studio.cli import main
from studio.engines import devices
from studio.engines.devices import DeviceInfo

GIB = 1024**3


@pytest.fixture
def heavy_registered(monkeypatch: pytest.MonkeyPatch) -> Path:
    """The app's engines plus a fake heavy one that loads ``heavy/weights.safetensors``."""
    from engines.contract.heavy_engine import INFO  # tests/ is on sys.path

    monkeypatch.setattr(composition, "ENGINE_INFOS", (*composition.ENGINE_INFOS, INFO))
    return Path("heavy") / "weights.safetensors"


def _doctor(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["doctor", "--json", *args])
    return code, json.loads(capsys.readouterr().out)


def test_no_cuda(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(devices, "cuda_devices", lambda: [])
    code, report = _doctor(capsys)
    assert code == 0 and report["ok"]
    assert report["gpus"] == []
    names = {c["name"]: c for c in report["components"]}
    assert set(names) == {"python", "torch", "ffmpeg", "qt"} and all(c["ok"] for c in names.values())
    engines = {e["name"]: e for e in report["engines"]}
    assert engines["sketch"]["available"] and engines["sketch"]["reasons"] == []
    assert main(["doctor"]) == 0
    text = capsys.readouterr().out
    assert "no CUDA device" in text and "sketch" in text and "The studio can run here." in text


def test_faked_gpus_and_placement(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                  heavy_registered: Path, tmp_path: Path) -> None:
    from engines.contract.heavy_engine import write_weights

    write_weights(tmp_path / "heavy")
    gpus = [DeviceInfo("cuda:0", "NVIDIA H200", 141 * GIB, 139 * GIB),
            DeviceInfo("cuda:1", "NVIDIA H200", 141 * GIB, 30 * 1024**2)]
    monkeypatch.setattr(devices, "cuda_devices", lambda: gpus)
    code, report = _doctor(capsys, "--checkpoints", str(tmp_path), "--device", "predict=cuda:0,decode=cuda:1")
    assert [g["name"] for g in report["gpus"]] == ["NVIDIA H200", "NVIDIA H200"]
    engines = {e["name"]: e for e in report["engines"]}
    assert engines["sketch"]["available"]  # CPU-only engines stay on the CPU
    heavy = engines["heavy"]
    assert not heavy["available"]
    assert [r["kind"] for r in heavy["reasons"]] == ["memory"]
    assert "cuda:1" in heavy["reasons"][0]["message"] and "30.0 MiB free" in heavy["reasons"][0]["message"]
    assert code == 0  # the studio still runs (sketch), the heavy engine says why it can't
    code, report = _doctor(capsys, "--checkpoints", str(tmp_path), "--device", "cuda:0")
    available = {e["name"]: e["available"] for e in report["engines"]}
    assert (available["sketch"], available["heavy"]) == (True, True)
    assert available["mini"], "a folder without mini/ leaves the app's own mini weights in use"
    assert not available["animegamer"], "no converted AnimeGamer weights here"
    code, report = _doctor(capsys, "--checkpoints", str(tmp_path), "--device", "cuda:3")
    reasons = {e["name"]: e["reasons"] for e in report["engines"]}["heavy"]
    assert reasons and all(r["kind"] == "device" and "cuda:3" in r["message"] for r in reasons)


def test_checkpoints_folder_missing_a_file(capsys: pytest.CaptureFixture[str], heavy_registered: Path,
                                           tmp_path: Path) -> None:
    (tmp_path / "heavy").mkdir()
    missing = tmp_path / heavy_registered
    _code, report = _doctor(capsys, "--checkpoints", str(tmp_path))
    heavy = {e["name"]: e for e in report["engines"]}["heavy"]
    assert not heavy["available"]
    assert heavy["reasons"][0]["kind"] == "file" and heavy["reasons"][0]["path"] == str(missing)
    assert heavy["files"] == [str(missing)]
    assert main(["doctor", "--checkpoints", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert f"Missing {missing}" in text and "heavy" in text and "not available" in text


def test_no_engine_available_fails(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                   tmp_path: Path) -> None:
    from engines.contract.heavy_engine import INFO

    monkeypatch.setattr(composition, "ENGINE_INFOS", (INFO,))
    code, report = _doctor(capsys, "--checkpoints", str(tmp_path))
    assert code == 1 and not report["ok"]
    assert main(["doctor", "--checkpoints", str(tmp_path)]) == 1
    assert "can't run here yet" in capsys.readouterr().out


def test_bad_device_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:  # refused with the arguments, naming the option
        main(["doctor", "--device", "tpu:0"])
    assert stop.value.code == 2
    assert "argument --device: Unknown device 'tpu:0'" in capsys.readouterr().err
