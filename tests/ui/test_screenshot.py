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


def _shoot(display: str, workdir: Path, name: str, *options: str) -> tuple[Path, dict]:  # type: ignore[type-arg]
    """Run the screenshot script on ``display``; the PNG is kept in test-output/NAME."""
    out = Path(__file__).resolve().parents[2] / "test-output" / name  # kept after the run
    out.parent.mkdir(exist_ok=True)
    out.unlink(missing_ok=True)
    env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}
    result = subprocess.run([sys.executable, str(SCRIPT), str(out), "--workdir", str(workdir), *options],
                            env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert out.is_file()
    return out, json.loads(result.stdout.strip().splitlines()[-1])


def _greys(image) -> list[int]:  # type: ignore[no-untyped-def]
    """The grey level of a grid of pixels."""
    width, height = image.width(), image.height()
    return [image.pixelColor(x, y).lightness() for x in range(0, width, 17) for y in range(0, height, 13)]


def _variance(values: list[int]) -> float:
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / len(values)


@pytest.mark.xvfb
@pytest.mark.slow
@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_screenshot_of_a_generated_story(scheme: str, xvfb_display: str, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage

    name = "screenshot.png" if scheme == "dark" else f"screenshot-{scheme}.png"
    out, info = _shoot(xvfb_display, tmp_path / "work", name, "--scheme", scheme)
    with capsys.disabled():
        print(f"\nscreenshot of the studio window ({scheme}): {info['path']}")
    image = QImage(str(out))
    assert (image.width(), image.height()) == (info["width"], info["height"])
    greys = _greys(image)
    variance = _variance(greys)
    assert variance > 50, f"the screenshot looks blank (grey variance {variance:.1f})"
    median = sorted(greys)[len(greys) // 2]
    assert (median < 100) if scheme == "dark" else (median > 155), f"a {scheme} window with median grey {median}"


@pytest.mark.xvfb
@pytest.mark.slow
@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_screenshot_of_the_welcome_page(scheme: str, xvfb_display: str, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage

    out, info = _shoot(xvfb_display, tmp_path / "work", f"welcome-{scheme}.png", "--welcome", "--scheme", scheme)
    with capsys.disabled():
        print(f"\nscreenshot of the welcome page ({scheme}): {info['path']}")
    image = QImage(str(out))
    assert (image.width(), image.height()) == (info["width"], info["height"])
    greys = _greys(image)
    assert _variance(greys) > 20, "the welcome page looks blank"
    median = sorted(greys)[len(greys) // 2]
    assert (median < 100) if scheme == "dark" else (median > 155), f"a {scheme} page with median grey {median}"


@pytest.fixture(scope="module")
def generated_sample(tmp_path_factory):  # type: ignore[no-untyped-def]
    """The screenshot script's sample project, generated once for every size and view."""
    sys.path.insert(0, str(SCRIPT.parent))
    from screenshot_script import build_project  # type: ignore[import-not-found]

    return build_project(tmp_path_factory.mktemp("sample"))


@pytest.mark.xvfb
@pytest.mark.slow
@pytest.mark.parametrize("view", ["fit", "default"])
@pytest.mark.parametrize("size", ["1280x720", "1920x1080"])
def test_screenshot_at_laptop_and_desktop_sizes(size: str, view: str, xvfb_display: str, tmp_path: Path,
                                                generated_sample: Path) -> None:
    """The sample story fitted (Ctrl+0) and at the zoom it opens at, at 1280x720 and 1920x1080:
    the canvas keeps half the width, the cards show their pictures."""
    from PySide6.QtGui import QImage

    out, info = _shoot(xvfb_display, tmp_path / "work", f"window-{size}-{view}.png", "--size", size,
                       "--view", view, "--project", str(generated_sample))
    width, height = (int(v) for v in size.split("x"))
    assert (info["width"], info["height"]) == (width, height)
    assert info["canvas_width"] >= width / 2, info
    assert info["cards_with_posters"] >= (8 if view == "fit" else 3), info
    image = QImage(str(out))
    assert _variance(_greys(image)) > 50
