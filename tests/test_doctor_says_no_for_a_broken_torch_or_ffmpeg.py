"""`kamishibai doctor` is what a user runs when something is wrong, so it must survive what
is wrong. A torch that is installed but does not import (a CUDA library missing) used to end
the doctor with "internal error: OSError"; an ffmpeg that does not run (missing libraries,
exit status 127, or IMAGEIO_FFMPEG_EXE naming something else) was reported "ok, unknown
version". Both are now NO lines saying why, with the exit status that says the studio
can't run, in the text and in --json; the hint names IMAGEIO_FFMPEG_EXE when it is the cause."""

from __future__ import annotations

import importlib.util
import json
import stat
from pathlib import Path

import pytest

from studio.cli import main
from studio.engines import devices

_real_find_spec = importlib.util.find_spec


def _components(capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, dict[str, object]]]:
    code = main(["doctor", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is (code == 0)
    return code, {c["name"]: c for c in report["components"]}


def test_a_torch_that_does_not_import_is_a_no_line(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    def broken() -> list[devices.DeviceInfo]:
        raise OSError("libcudnn.so.9: cannot open shared object file: No such file or directory")

    monkeypatch.setattr(devices, "cuda_devices", broken)
    monkeypatch.setattr("importlib.util.find_spec",
                        lambda name, *a: object() if name == "torch" else _real_find_spec(name, *a))
    code, components = _components(capsys)
    assert code == 1
    torch = components["torch"]
    assert torch["ok"] is False
    assert "does not work: OSError: libcudnn.so.9" in str(torch["detail"])
    assert "pip install --force-reinstall torch" in str(torch["hint"])

    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "NO  torch" in out and "The studio can't run here yet" in out


def _script(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "ffmpeg"
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.mark.parametrize(("body", "said"), [
    ('echo "error while loading shared libraries: libavdevice.so.60" >&2; exit 127',
     "exit status 127: error while loading shared libraries: libavdevice.so.60"),
    ("exit 1", "exit status 1"),
    ('echo "usage: convert IN OUT"', "it does not print ffmpeg's version"),
])
def test_an_ffmpeg_that_does_not_work_is_a_no_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str], body: str, said: str) -> None:
    exe = _script(tmp_path, body)
    monkeypatch.setenv("IMAGEIO_FFMPEG_EXE", str(exe))
    monkeypatch.setattr(devices, "cuda_devices", lambda: [])
    code, components = _components(capsys)
    ffmpeg = components["ffmpeg"]
    assert code == 1 and ffmpeg["ok"] is False
    assert said in str(ffmpeg["detail"])
    assert f"IMAGEIO_FFMPEG_EXE={exe}" in str(ffmpeg["hint"])


def test_a_working_ffmpeg_off_path_is_still_found(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("IMAGEIO_FFMPEG_EXE", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")  # the studio uses imageio-ffmpeg's own ffmpeg, not PATH's
    monkeypatch.setattr(devices, "cuda_devices", lambda: [])
    _code, components = _components(capsys)
    assert components["ffmpeg"]["ok"] is True
    assert "imageio_ffmpeg" in str(components["ffmpeg"]["detail"])
