"""CustomX reads odd pictures as a user would give them: a 16-bit greyscale PNG, a phone's
sideways-stored JPEG, CMYK, an animated GIF, a 1 x 1 pixel; a text file named .png, a missing
file or a picture declaring billions of pixels is refused naming the file and what it is."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.engines.customx import media

HEIGHT, WIDTH = 32, 48


def _png_header_only(path: Path, width: int, height: int) -> None:
    """A PNG whose header declares ``width`` x ``height`` (and holds no pixels)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b""))


def test_a_16_bit_grey_png_keeps_its_grey(tmp_path: Path) -> None:
    path = tmp_path / "scan.png"
    Image.fromarray(np.full((60, 40), 40000, np.uint16)).save(path)
    with Image.open(path) as check:
        assert check.mode.startswith("I"), "the file really is 16-bit"
    frame = media.read_image(path, HEIGHT, WIDTH)
    assert tuple(frame[HEIGHT // 2, WIDTH // 2]) == (156, 156, 156)  # 40000 >> 8, not clipped to white


def test_a_sideways_stored_phone_photo_is_turned_upright(tmp_path: Path) -> None:
    """Stored 60 wide x 40 tall with EXIF orientation 6: shown 40 wide x 60 tall, its stored
    left edge (yellow) on top."""
    stored = Image.new("RGB", (60, 40), (0, 0, 255))
    stored.paste((255, 255, 0), (0, 0, 12, 40))
    exif = stored.getexif()
    exif[0x0112] = 6
    path = tmp_path / "IMG_0001.jpg"
    stored.save(path, exif=exif.tobytes(), quality=95)
    frame = media.read_image(path, 60, 40).astype(int)
    assert np.abs(frame[2, 20] - (255, 255, 0)).max() < 40, "the top is the stored left edge"
    assert np.abs(frame[50, 20] - (0, 0, 255)).max() < 40
    assert np.abs(frame[30, 2] - (0, 0, 255)).max() < 40, "fills the portrait frame: no grey sides"


def test_cmyk_animated_tiny_and_transparent_pictures_just_work(tmp_path: Path) -> None:
    cmyk = tmp_path / "print.jpg"
    Image.new("CMYK", (40, 60), (0, 255, 255, 0)).save(cmyk, quality=95)
    gif = tmp_path / "blink.gif"
    frames = [Image.new("RGB", (40, 60), (200 - 60 * i, 20, 20)) for i in range(3)]
    frames[0].save(gif, save_all=True, append_images=frames[1:], duration=100, loop=0)
    dot = tmp_path / "dot.png"
    Image.new("RGB", (1, 1), (10, 200, 30)).save(dot)
    clear = tmp_path / "cutout.png"
    Image.new("RGBA", (40, 60), (255, 0, 0, 0)).save(clear)
    centre = (HEIGHT // 2, WIDTH // 2)
    assert np.abs(media.read_image(cmyk, HEIGHT, WIDTH)[centre].astype(int) - (255, 0, 0)).max() < 10
    assert tuple(media.read_image(gif, HEIGHT, WIDTH)[centre]) == (200, 20, 20), "the first frame"
    assert tuple(media.read_image(dot, HEIGHT, WIDTH)[centre]) == (10, 200, 30)
    assert tuple(media.read_image(clear, HEIGHT, WIDTH)[centre]) == (media.GREY,) * 3


@pytest.mark.parametrize(("name", "make", "said"), [
    ("front.png", lambda p: p.write_text("not a picture"), "is not a picture (PNG, JPEG"),
    ("gone.png", lambda p: None, "is missing"),
    ("folder.png", lambda p: p.mkdir(), "is not a file"),
    ("bomb.png", lambda p: _png_header_only(p, 30_000, 30_000), "megapixels"),
    ("large.png", lambda p: _png_header_only(p, 10_000, 10_000), "10,000 x 10,000 pixels"),
])
def test_a_bad_picture_is_refused_naming_it(tmp_path: Path, name: str, make: object, said: str) -> None:
    path = tmp_path / name
    make(path)  # type: ignore[operator]
    with pytest.raises(media.MediaInputError) as raised:
        media.read_image(path, HEIGHT, WIDTH)
    message = str(raised.value)
    assert str(path) in message and said in message, message
    assert message.count(str(path)) == 1, "the file is named once"
