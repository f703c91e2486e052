"""The window on a real X server (Xvfb): open a generated story and take a screenshot."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

SCRIPT = Path(__file__).with_name("screenshot_script.py")


def _free_display() -> int:
    for number in range(90, 140):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(f"/tmp/.X{number}-lock").exists():
            return number
    raise RuntimeError("no free X display number between :90 and :139")


@pytest.fixture
def xvfb_display():  # type: ignore[no-untyped-def]
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb libxcb-cursor0 libxkbcommon-x11-0 …)")
    number = _free_display()
    process = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1920x1200x24", "-nolisten", "tcp"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    socket = Path(f"/tmp/.X11-unix/X{number}")
    deadline = time.monotonic() + 10
    while not socket.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    if not socket.exists():
        process.kill()
        pytest.skip(f"Xvfb :{number} did not start: {process.stderr.read().decode()[-300:] if process.stderr else ''}")
    yield f":{number}"
    process.terminate()
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.mark.xvfb
@pytest.mark.slow
def test_screenshot_of_a_generated_story(xvfb_display: str, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage

    out = Path(__file__).resolve().parents[2] / "test-output" / "screenshot.png"  # kept after the run
    out.parent.mkdir(exist_ok=True)
    out.unlink(missing_ok=True)
    env = {**os.environ, "DISPLAY": xvfb_display, "QT_QPA_PLATFORM": "xcb"}
    result = subprocess.run([sys.executable, str(SCRIPT), str(out), "--workdir", str(tmp_path / "work")],
                            env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    info = json.loads(result.stdout.strip().splitlines()[-1])
    with capsys.disabled():
        print(f"\nscreenshot of the studio window: {info['path']}")
    assert out.is_file()
    image = QImage(str(out))
    assert (image.width(), image.height()) == (info["width"], info["height"])
    # not blank: the pixels vary (sample a grid of pixels, compute the variance of their grey level)
    greys = [QImage.pixelColor(image, x, y).lightness()
             for x in range(0, image.width(), 17) for y in range(0, image.height(), 13)]
    mean = sum(greys) / len(greys)
    variance = sum((g - mean) ** 2 for g in greys) / len(greys)
    assert variance > 50, f"the screenshot looks blank (grey variance {variance:.1f})"
