"""The window's modules load no numpy (0.1-0.3 s of a start that is mostly Qt): it came in
through the worker's context, job and result modules and the media reader, which use it only
when an engine runs or a clip is decoded. Now it loads with the first clip or engine."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_importing_the_window_and_its_worker_loads_no_numpy() -> None:
    script = ("import sys\n"
              "import studio.ui.main_window, studio.worker.runner, studio.worker.service, studio.storage.media\n"
              "print(sorted(m for m in ('numpy', 'PIL', 'torch') if m in sys.modules))\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip() == "[]", result.stdout


def test_the_media_functions_still_handle_frames(tmp_path: Path) -> None:
    import numpy as np

    from studio.storage.media import read_clip, read_representation, write_clip, write_poster, write_representation
    from studio.worker.results import jsonable

    frames = np.full((3, 16, 24, 3), 90, np.uint8)
    write_clip(tmp_path / "clip.mp4", frames, 8.0)
    decoded, fps = read_clip(tmp_path / "clip.mp4")
    assert decoded.shape == (3, 16, 24, 3) and fps == 8.0
    write_poster(tmp_path / "poster.png", frames[1])
    assert (tmp_path / "poster.png").stat().st_size > 0
    write_representation(tmp_path / "r.safetensors", np.arange(6, dtype=np.float64).reshape(2, 3), {"seed": 4})
    array, metadata = read_representation(tmp_path / "r.safetensors")
    assert array.dtype == np.float32 and array.tolist() == [[0, 1, 2], [3, 4, 5]] and metadata == {"seed": 4}
    assert jsonable({"a": np.int64(3), "b": (np.float32(0.5), np.arange(2))}) == {"a": 3, "b": [0.5, [0, 1]]}
