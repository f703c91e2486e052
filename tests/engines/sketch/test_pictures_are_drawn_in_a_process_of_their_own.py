"""The window's cast and place pictures are drawn in a process of their own (the window's
process loads no engine), kept once drawn, and the drawing process ends when idle."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def test_pictures_come_from_another_process_which_ends_when_idle() -> None:
    script = textwrap.dedent("""
        import json, sys, time
        from studio.composition import SketchPictures

        pictures = SketchPictures()
        pictures.IDLE_SECONDS = 0.5
        first = pictures.character("Qiqi", {"hair_color": "#202020"})
        again = pictures.character("Qiqi", {"hair_color": "#202020"})
        beach = pictures.place("Beach")
        nowhere = pictures.place("my porch")
        started = pictures._pool is not None
        time.sleep(2.0)
        print(json.dumps({
            "shape": list(first.shape), "kept": again is first, "beach": list(beach.shape),
            "nowhere": nowhere is None, "started": started, "ended": pictures._pool is None,
            "engines": sorted(m for m in sys.modules if m.startswith("studio.engines.sketch")),
        }))
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=REPO,
                            check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["shape"][2] == 3 and report["shape"][0] == report["shape"][1] > 32
    assert report["kept"] and report["beach"][2] == 3 and report["nowhere"]
    assert report["started"] and report["ended"], report
    assert report["engines"] == [], "the sketch engine is loaded in the drawing process only"


def test_a_killed_drawing_process_is_replaced_at_the_next_picture() -> None:
    script = textwrap.dedent("""
        import json, os, signal, time
        from studio.composition import SketchPictures

        pictures = SketchPictures()
        assert pictures.place("park") is not None
        [pid] = [process.pid for process in pictures._pool._processes.values()]
        os.kill(pid, signal.SIGKILL)
        time.sleep(0.5)
        lost = pictures.place("beach")  # the pool finds its process gone
        again = pictures.place("beach")
        print(json.dumps({"lost": lost is None, "again": again is not None}))
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=REPO,
                            check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["again"], report
