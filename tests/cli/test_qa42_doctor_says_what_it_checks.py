"""``kamishibai doctor``'s help says when it exits 1 as the code decides it, and its GPU line
says which engines run without a GPU.

The help said "Exit status 1 when an engine can't run here", while the doctor exits 1 only
when a component is broken or no engine at all can run (here the GPU engines can't and it
exits 0); and "no CUDA device; engines run on the CPU" stood above two engines refused for
want of a CUDA GPU.
"""

from __future__ import annotations

import json

import pytest
from test_cli_help_texts import _subparsers  # tests/ is on sys.path

from studio.cli import build_parser, main
from studio.engines import devices


def _doctor_json(capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["doctor", "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_the_help_names_the_exit_status_the_doctor_gives(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(devices, "cuda_devices", lambda: [])
    code, report = _doctor_json(capsys)
    refused = [e["name"] for e in report["engines"] if not e["available"]]
    assert refused, "a machine without a GPU can't run the GPU engines"
    assert code == 0  # an engine that can't run, with another that can: exit 0
    description = " ".join((_subparsers(build_parser())["doctor"].description or "").split())
    assert "Exit status 1 when an engine can't run here" not in description
    assert "no engine at all can run here" in description
    assert "with exit status 0" in description


def test_the_gpu_line_names_the_engines_that_need_a_gpu(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(devices, "cuda_devices", lambda: [])
    _, report = _doctor_json(capsys)
    need_gpu = sorted(e["name"] for e in report["engines"] if any(r["kind"] == "device" for r in e["reasons"]))
    assert need_gpu, "the GPU engines are refused for their device"
    assert main(["doctor"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("  gpu  none"))
    assert "engines run on the CPU" not in line
    assert "sketch" in line.split("run on the CPU")[0]
    assert all(name in line.split(";")[-1] for name in need_gpu) and line.endswith("need a CUDA GPU)")
