"""Takes' clips name their colour matrix too, so an HD-sized clip, and an episode joined from
such clips without re-encoding, show their colours in players.

The clips are written from RGB frames with BT.601; a clip that names no matrix is decoded
with BT.709 from 1280 wide (mpv, VLC, browsers), and the stream copy carried that over into
the episode untouched.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from studio.export import ExportOptions, export_branch
from studio.storage.media import write_clip

from .helpers import FRAMES, build, close_to
from .test_qa36_hd_video_names_its_colour_matrix import HD, decode_as_a_player, tagged_matrix


def test_an_hd_clip_names_its_matrix(tmp_path: Path) -> None:
    frames = np.empty((3, HD[1], HD[0], 3), dtype=np.uint8)
    frames[:] = (40, 200, 60)
    clip = tmp_path / "clip.mp4"
    write_clip(clip, frames, 8.0)
    assert tagged_matrix(clip) == "smpte170m"
    assert close_to(decode_as_a_player(clip, HD)[1][HD[1] // 2, HD[0] // 2], (40, 200, 60), tolerance=8)


def test_an_episode_joined_from_hd_clips_keeps_their_colours(tmp_path: Path) -> None:
    story = build(tmp_path, turns=2, sizes=[HD, HD])
    try:
        out = tmp_path / "episode.mp4"
        result = export_branch(story.project, story.leaf, out, options=ExportOptions())
        assert result.used_stream_copy, "joined without re-encoding"
        frames = decode_as_a_player(out, HD)
        for index, colour in enumerate(story.colours):
            centre = frames[index * FRAMES + FRAMES // 2][HD[1] // 2, HD[0] // 2]
            assert close_to(centre, colour, tolerance=8), (index, centre, colour)
    finally:
        story.project.close()
