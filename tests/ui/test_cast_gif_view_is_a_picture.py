"""A GIF chosen as a character's view is stored as a picture (its first frame).

By its suffix it was taken for a scene video: the character's front view became an mp4, the
Cast & world list showed the plain person icon for it, and no engine could read it as a
picture. A video file typed in as a view is refused, saying it is no picture.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from PySide6.QtGui import QImage

from studio.core.errors import StudioError
from studio.ui.dialogs.reference_views import IMAGE_FILTER

from .solid_clips import solid_clips

RED = (210, 20, 20)


def _animated_gif(path: Path) -> Path:
    frames = [Image.new("RGB", (64, 64), RED)] + [Image.new("RGB", (64, 64), (0, 0, 40 * i)) for i in range(1, 4)]
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=100)
    return path


def test_gif_view_is_stored_as_its_first_frame(make_window, sample_project: Path, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    cast = window.workspace.cast
    cast.add_character("Mei", [_animated_gif(tmp_path / "mei.gif")])
    tree = lambda: window.session.project.tree  # noqa: E731
    qtbot.waitUntil(lambda: any(m.name == "Mei" for m in tree().cast.values()), timeout=10_000)
    member = next(m for m in tree().cast.values() if m.name == "Mei")
    stored = window.session.project.resolve(member.reference_images[0])
    assert stored.suffix == ".png", stored
    with Image.open(stored) as picture:
        assert picture.size == (64, 64) and picture.convert("RGB").getpixel((32, 32)) == RED

    qtbot.waitUntil(lambda: any(cast.characters.item(row).text() == "Mei" for row in range(cast.characters.count())),
                    timeout=10_000)
    cast.select_character("Mei")
    item = cast.characters.currentItem()
    shown = item.icon().pixmap(32, 32).toImage().convertToFormat(QImage.Format.Format_RGB32)
    colour = shown.pixelColor(16, 16)
    assert (colour.red(), colour.green(), colour.blue()) == RED, "the list shows the view itself"


def test_a_video_typed_in_as_a_view_is_refused(make_window, sample_project: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    clip = Path(solid_clips(tmp_path, 1, frames=4)[0])
    with pytest.raises(StudioError, match="front view"):
        window.workspace.cast.add_character("Ren", [clip])
    assert not any(m.name == "Ren" for m in window.session.project.tree.cast.values())


def test_the_view_picker_offers_gifs() -> None:
    assert "*.gif" in IMAGE_FILTER
