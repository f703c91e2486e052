"""On a high-DPI screen (scale 2 and 1.5) a character's reference views, in the cast panel and
in their dialog, are drawn from as many pixels as the screen shows, not blown up from a
picture made for a 1x screen (which looked blurred beside the sharp text around it).

The scale is Qt's ``QT_SCALE_FACTOR``, read once when the application starts: each scale
runs in its own process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys
from pathlib import Path
from PySide6.QtWidgets import QApplication
app = QApplication([])
from studio.ui.dialogs.reference_views import ViewStrip
strip = ViewStrip(editable=True)
strip.set_views([Path(sys.argv[1]), None, None, None])
strip.show()
app.processEvents()
label = strip.pictures[0]
pixmap = label.pixmap()
print(json.dumps({"screen": strip.devicePixelRatioF(), "ratio": pixmap.devicePixelRatio(),
                  "pixels": [pixmap.width(), pixmap.height()], "box": [label.width(), label.height()]}))
"""


@pytest.mark.parametrize("scale", ["2", "1.5"])
def test_reference_views_carry_the_screens_pixels(tmp_path: Path, scale: str) -> None:
    front = tmp_path / "mei_front.png"
    Image.new("RGB", (600, 800), (200, 60, 90)).save(front)  # far larger than the box: nothing to blow up
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "QT_SCALE_FACTOR": scale, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", SCRIPT, str(front)], env=env, capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout.strip().splitlines()[-1])
    assert shown["screen"] == float(scale)
    assert shown["ratio"] == float(scale)
    _box_w, box_h = shown["box"]
    width, height = shown["pixels"]
    # the portrait fills the box's height, in device pixels (one pixel of rounding either way)
    assert abs(height - box_h * float(scale)) <= 1, shown
    assert abs(width - 600 / 800 * box_h * float(scale)) <= 1, shown
