"""A location's scene clip imported into the project: probed, re-encoded, confined to the project."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from studio.storage import Project, media
from studio.storage.media_import import VideoImportError, import_video, is_video


def _clip(path: Path, frames: int = 12, size: tuple[int, int] = (96, 64)) -> np.ndarray:
    width, height = size
    video = np.zeros((frames, height, width, 3), dtype=np.uint8)
    for index in range(frames):
        video[index, :, : (index + 1) * width // frames] = (220, 60, 30)
    media.write_clip(path, video, 12)
    return video


def test_a_video_is_copied_into_the_project_and_reads_back(project: Project, tmp_path: Path) -> None:
    source = tmp_path / "harbour walk.mov"
    video = _clip(source.with_suffix(".mp4"))
    source.with_suffix(".mp4").rename(source)
    rel = import_video(project, source)
    assert rel.startswith("media/scenes/harbour-walk-") and rel.endswith(".mp4")
    stored = project.resolve(rel)
    assert stored.is_relative_to(project.path) and is_video(stored)
    frames, fps = media.read_clip(stored)
    assert frames.shape == video.shape and fps == 12
    assert np.abs(frames.astype(int) - video).mean() < 6, "the same pictures"
    assert not [p for p in stored.parent.iterdir() if p != stored], "no temporary file is left"


def test_a_large_video_is_scaled_down_and_cut(project: Project, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.storage import media_import

    monkeypatch.setattr(media_import, "MAX_SCENE_SIDE", 48)
    monkeypatch.setattr(media_import, "MAX_SCENE_FRAMES", 5)
    source = tmp_path / "wide.mp4"
    _clip(source, frames=9, size=(160, 90))
    frames, _fps = media.read_clip(project.resolve(import_video(project, source)))
    assert frames.shape == (5, 26, 48, 3)


@pytest.mark.parametrize("kind", ["missing", "image", "text"])
def test_what_is_not_a_video_is_refused_clearly(project: Project, tmp_path: Path, kind: str) -> None:
    path = tmp_path / "scene.mp4"
    if kind == "image":
        from PIL import Image

        Image.new("RGB", (8, 8)).save(path, format="PNG")
    elif kind == "text":
        path.write_text("not a video")
    with pytest.raises(VideoImportError, match="does not exist" if kind == "missing" else "scene.mp4"):
        import_video(project, path)
    assert not list((project.path / "media").rglob("*.mp4"))
