"""Files a user picks for a place or a character's view that can't be used say what they are
and what to do, and leave nothing in the project.

Before: a sound-only .mp4 (a voice memo) was refused with ffmpeg's "Error opening output files:
Invalid argument"; a picture moved away after it was chosen was refused with "... does not
exist." and no word on what to do; a text file named .png, or a video chosen as a picture,
with Pillow's "cannot identify image file"."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.ffmpeg import ffmpeg_exe
from studio.storage.media_import import ImageImportError, VideoImportError, import_image, import_media


def _media_files(project: Project) -> list[Path]:
    media = project.path / "media"
    return [p for p in media.rglob("*") if p.is_file()] if media.exists() else []


def _sound_only(path: Path) -> None:
    """A one-second sine tone in an mp4: sound, no picture."""
    subprocess.run([ffmpeg_exe(), "-y", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1",
                    str(path)], check=True)


def test_a_sound_only_video_says_it_has_no_picture(project: Project, tmp_path: Path) -> None:
    source = tmp_path / "voice memo.mp4"
    _sound_only(source)
    with pytest.raises(VideoImportError) as refused:
        import_media(project, source, "scenes")
    message = refused.value.message
    assert "voice memo.mp4 holds sound only" in message and "no video track" in message, message
    assert "Invalid argument" not in message and "output files" not in message, message
    assert "video with a picture" in refused.value.hint and "still picture" in refused.value.hint
    assert _media_files(project) == []


@pytest.mark.parametrize("name", ["gone.png", "gone scene.mp4"])
def test_a_file_moved_away_after_it_was_chosen_says_so(project: Project, tmp_path: Path, name: str) -> None:
    source = tmp_path / "Downloads" / name
    with pytest.raises((ImageImportError, VideoImportError)) as refused:
        import_media(project, source, "locations")
    message = refused.value.message
    assert message.startswith(f"{name} does not exist in {source.parent} any more"), message
    assert "moved, renamed or deleted" in message
    assert refused.value.hint == "Choose it again from where it is now."
    assert _media_files(project) == []


def test_a_text_file_named_png_says_its_contents_are_no_picture(project: Project, tmp_path: Path) -> None:
    source = tmp_path / "notes.png"
    source.write_text("shopping list: bread, milk\n")
    with pytest.raises(ImageImportError) as refused:
        import_image(project, source, "locations")
    message = refused.value.message
    assert "cannot identify image file" not in message, message
    assert f"what {source} holds is in no picture format the studio reads" in message
    assert "whatever its name says" in message and "renamed, or damaged" in message
    assert _media_files(project) == []


def test_a_video_chosen_as_a_picture_is_named_a_video(project: Project, tmp_path: Path) -> None:
    source = tmp_path / "walk.mp4"
    subprocess.run([ffmpeg_exe(), "-y", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=5",
                    "-t", "0.4", "-pix_fmt", "yuv420p", str(source)], check=True)
    with pytest.raises(ImageImportError) as refused:
        import_image(project, source, "characters")
    assert "by its name it is a video, not a picture (export a picture from it first)" in refused.value.message
    assert _media_files(project) == []
