"""A clip whose container is whole but whose pictures can't be decoded (bit rot, a cloud
folder's half-synced copy) names its turn when a video export stops on it.

Such a clip passes the probe (its packets are all there), so the export only finds out while
composing the frames. It used to end in ffmpeg's own words about a hidden take file ("Can't
decode /…/media/takes/t…/clip.mp4: [out#0/rawvideo @ 0x…] Nothing was written…") with no
turn named and no hint, where an unreadable clip found by the probe says which turn to re-roll.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from studio.export import ExportError, ExportOptions, export_branch

from .helpers import Fixture

SLICE_TYPES = (1, 5)
"""H.264 NAL unit types of coded pictures (a slice, an IDR slice)."""


def scramble_pictures(clip: Path) -> None:
    """Overwrite every coded picture of an mp4 (length-prefixed NAL units in its ``mdat``)
    with 0xFF, leaving the container and the parameter sets as they were."""
    data = bytearray(clip.read_bytes())
    at = data.index(b"mdat")
    end = at - 4 + struct.unpack(">I", data[at - 4:at])[0]
    pos = at + 4
    while pos + 4 <= end:
        length = struct.unpack(">I", data[pos:pos + 4])[0]
        if data[pos + 4] & 0x1F in SLICE_TYPES:
            data[pos + 5:pos + 4 + length] = b"\xff" * (length - 1)
        pos += 4 + length
    clip.write_bytes(bytes(data))


@pytest.mark.parametrize("name", ["e.mp4", "e.gif"])
def test_an_undecodable_clip_names_its_turn(story: Fixture, tmp_path: Path, name: str) -> None:
    take = story.project.tree.selected_take(story.nodes[1])
    assert take is not None
    scramble_pictures(story.project.resolve(take.clip_path))
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(ExportError) as info:
        export_branch(story.project, story.leaf, out / name, options=ExportOptions(stream_copy=False))
    error = info.value
    assert "turn 2" in error.message and story.nodes[1] in error.message
    assert ".." not in error.message
    assert "re-roll" in (error.hint or "").lower()
    assert list(out.iterdir()) == []
