"""Limits that hold for any file: images are checked before they are decoded, media files
before they are read (issue 11: limits for any file type)."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.storage import Project, media
from studio.storage.media_import import ImageImportError, import_image

from .conftest import png_bomb


def test_an_image_bomb_is_refused_before_it_is_decoded(project: Project, tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.png"
    png_bomb(bomb, 20_000)
    start = time.monotonic()
    with pytest.raises(ImageImportError, match=r"400,000,000 pixels; the limit is 89.5 megapixels"):
        import_image(project, bomb)
    assert time.monotonic() - start < 2
    assert not list((project.path / "media").rglob("*.png"))
    png_bomb(bomb, 10_000)  # just over Pillow's own limit: refused from the header alone
    with pytest.raises(ImageImportError,
                       match=r"10,000 x 10,000 pixels \(100.0 megapixels\); the limit is 89.5 megapixels"):
        import_image(project, bomb)


def test_a_large_photo_is_imported_scaled_down(project: Project, tmp_path: Path) -> None:
    photo = tmp_path / "photo.png"
    Image.new("RGB", (5000, 1000), (10, 200, 30)).save(photo)
    rel = import_image(project, photo)
    with Image.open(project.resolve(rel)) as stored:
        assert stored.size == (4096, 819)


@pytest.mark.parametrize("source", ["/dev/zero", "folder"])
def test_an_image_that_is_not_a_file_is_refused_clearly(project: Project, tmp_path: Path, source: str) -> None:
    path = Path(source) if source.startswith("/") else tmp_path
    with pytest.raises(ImageImportError, match="not a regular file"):
        import_image(project, path)


def test_a_representation_over_the_limit_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "representation.safetensors"
    media.write_representation(path, np.zeros((226, 64), dtype=np.float32))
    assert media.read_representation(path)[0].shape == (226, 64)
    monkeypatch.setattr(media, "MAX_REPRESENTATION_BYTES", 1000)
    with pytest.raises(media.MediaError, match="the limit is 1,000"):
        media.read_representation(path)


def test_a_clip_over_the_limits_is_not_decoded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "clip.mp4"
    media.write_clip(path, np.zeros((6, 48, 64, 3), dtype=np.uint8), 8)
    assert media.read_clip(path)[0].shape == (6, 48, 64, 3)
    monkeypatch.setattr(media, "MAX_CLIP_DECODED_BYTES", 48 * 64 * 3 * 4)
    with pytest.raises(media.MediaError, match="more than 4 frames"):
        media.read_clip(path)
    monkeypatch.setattr(media, "MAX_CLIP_FRAME_PIXELS", 1000)
    with pytest.raises(media.MediaError, match="64 x 48 pixels"):
        media.read_clip(path)
