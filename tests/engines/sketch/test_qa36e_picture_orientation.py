"""A place's picture stored sideways with an EXIF "rotate 90°" tag (as cameras and other programs
write them) is drawn the way up a photo viewer shows it. Before, the sketch engine drew the
pixels as stored: the place lay on its side in the clip."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.core.model import Location
from studio.engines.sketch import SketchEngine
from studio.storage.media import read_clip, write_clip

from ..sketch_helpers import MEDIUM, options, predict

ORIENTATION = 0x0112
RED, GREEN, BLUE, YELLOW = (230, 20, 20), (20, 200, 20), (20, 20, 230), (230, 220, 20)
SEEN = {"top left": RED, "top right": GREEN, "bottom left": BLUE, "bottom right": YELLOW}
"""Where each colour is as a photo viewer shows the picture."""


def _upright(width: int = 240, height: int = 160) -> Image.Image:
    arr = np.zeros((height, width, 3), dtype=np.uint8)
    arr[: height // 2, : width // 2] = RED
    arr[: height // 2, width // 2:] = GREEN
    arr[height // 2:, : width // 2] = BLUE
    arr[height // 2:, width // 2:] = YELLOW
    return Image.fromarray(arr)


def _sideways_jpeg(path: Path, orientation: int, stored: Image.Image) -> Path:
    exif = Image.Exif()
    exif[ORIENTATION] = orientation
    stored.save(path, "JPEG", quality=95, exif=exif.tobytes())
    return path


def _quadrants(frame: np.ndarray) -> dict[str, np.ndarray]:
    """The mean colour of a patch near each corner of ``frame`` (clear of the character in the middle)."""
    h, w = frame.shape[:2]
    ys, xs = (slice(2, h // 5), slice(h - h // 5, h - 2)), (slice(2, w // 6), slice(w - w // 6, w - 2))
    return {"top left": frame[ys[0], xs[0]], "top right": frame[ys[0], xs[1]],
            "bottom left": frame[ys[1], xs[0]], "bottom right": frame[ys[1], xs[1]]}


def _drawn(picture: Path, tmp_path: Path) -> np.ndarray:
    """The first frame of the clip the engine draws on ``picture``, written to an mp4 and read back."""
    place = Location(id="porch", name="Porch", kind="image", params={"scene": "town"}, image_path=str(picture))
    engine = SketchEngine()
    settings = {**MEDIUM, "camera": "static"}
    prediction = predict(engine, "Character: Qiqi; Motion: wave; Background: Porch; Time: day",
                         locations=(place,), settings=settings)
    assert prediction.conditioning["image_path"] == str(picture)
    assert not any("could not be read" in w for w in prediction.warnings), prediction.warnings
    clip = engine.decode(prediction, options(settings), 0)
    mp4 = tmp_path / "clip.mp4"
    write_clip(mp4, clip.frames, clip.fps)
    frames, _ = read_clip(mp4)
    return frames[0]


def _assert_as_seen(frame: np.ndarray) -> None:
    for corner, patch in _quadrants(frame).items():
        mean = patch.reshape(-1, 3).mean(axis=0)
        assert np.abs(mean - np.array(SEEN[corner])).max() < 45, (corner, mean.round(), SEEN[corner])


@pytest.mark.parametrize(("orientation", "turn"), [
    (6, Image.Transpose.ROTATE_90),   # "rotate 90° clockwise to show": stored turned a quarter anticlockwise
    (8, Image.Transpose.ROTATE_270),  # "rotate 90° anticlockwise to show"
    (3, Image.Transpose.ROTATE_180),
], ids=["rotate-90-cw", "rotate-90-ccw", "rotate-180"])
def test_a_tagged_picture_is_drawn_upright(tmp_path: Path, orientation: int, turn: Image.Transpose) -> None:
    picture = _sideways_jpeg(tmp_path / "porch.jpg", orientation, _upright().transpose(turn))
    with Image.open(picture) as stored:  # the file really is stored sideways, with the tag
        assert stored.getexif()[ORIENTATION] == orientation
        if orientation != 3:
            assert stored.size == (160, 240)
    _assert_as_seen(_drawn(picture, tmp_path))


def test_an_untagged_picture_is_drawn_as_stored(tmp_path: Path) -> None:
    picture = tmp_path / "porch.jpg"
    _upright().save(picture, "JPEG", quality=95)
    _assert_as_seen(_drawn(picture, tmp_path))


@pytest.mark.parametrize("exif", [
    b"Exif\x00\x00garbage, no tags at all",
    b"Exif\x00\x00II*\x00\x08\x00\x00\x00\x01\x00\x12\x01\x02\x00\x04\x00\x00\x00abc\x00",  # a word, no number
], ids=["garbage", "orientation-as-text"])
@pytest.mark.filterwarnings("ignore:Corrupt EXIF data")
def test_a_picture_with_a_broken_tag_is_still_drawn_as_stored(tmp_path: Path, exif: bytes) -> None:
    picture = tmp_path / "porch.jpg"
    _upright().save(picture, "JPEG", quality=95, exif=exif)
    _assert_as_seen(_drawn(picture, tmp_path))
