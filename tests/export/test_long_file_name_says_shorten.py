"""An export whose file name is longer than the file system takes (255 bytes; a Japanese name
of 84 characters is 252) is refused before anything is made, with a message that says so and
what to do, naming the file that can't be made.

The name of the file itself failed with the system's own error, outside every export message
(the window showed an unexpected error); a sheet's page ("NAME-01.png", longer than the name
given) was refused as "File name too long", without a hint."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.export import ExportError, ExportOptions, export_branch

from .helpers import build

LONG = "日" * 83  # 249 bytes: NAME.png fits in 255, NAME-01.png does not


def _needs_255_byte_names(folder: Path) -> None:
    if os.pathconf(folder, "PC_NAME_MAX") != 255:
        pytest.skip("needs a file system whose names take at most 255 bytes")


@pytest.mark.parametrize("suffix", [".mp4", ".srt", ".pdf", ".otio"])
def test_a_file_name_too_long_is_refused_with_a_hint(tmp_path: Path, suffix: str) -> None:
    _needs_255_byte_names(tmp_path)
    story = build(tmp_path)
    out = tmp_path / f"日{LONG}{suffix}"
    try:
        with pytest.raises(ExportError) as caught:
            export_branch(story.project, story.leaf, out)
    finally:
        story.project.close()
    assert f"Can't write {out}" in caught.value.message
    assert "too long" in caught.value.message and "shorter" in caught.value.hint
    assert sorted(p.name for p in tmp_path.iterdir()) == [story.project.path.name]  # nothing written, no work folder


def test_a_sheet_page_name_too_long_is_named(tmp_path: Path) -> None:
    _needs_255_byte_names(tmp_path)
    story = build(tmp_path, turns=4)  # two pages of three panels
    out = tmp_path / f"{LONG}.png"
    try:
        with pytest.raises(ExportError) as caught:
            export_branch(story.project, story.leaf, out, options=ExportOptions(panels_per_page=3))
    finally:
        story.project.close()
    assert f"Can't write {tmp_path / f'{LONG}-01.png'}" in caught.value.message, caught.value.message
    assert "too long" in caught.value.message and "shorter" in caught.value.hint
    assert sorted(p.name for p in tmp_path.iterdir()) == [story.project.path.name]
