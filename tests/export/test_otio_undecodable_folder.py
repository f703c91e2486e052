"""An OTIO timeline is written into any folder the other formats are written into.

A folder whose name is not valid UTF-8 (made on an old Latin-1 system, or copied from a
Samba share or a USB stick) holds an mp4, a PDF and an SRT fine, but the OTIO export ended
in "internal error: TypeError: _serialize_json_to_file(): incompatible function
arguments": OpenTimelineIO's C++ writer only takes a path it can encode as UTF-8.
"""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import opentimelineio as otio
import pytest

from studio.export import export_branch

from .helpers import Fixture, undecodable_folder


@pytest.fixture
def latin1_folder(tmp_path: Path) -> Path:
    return undecodable_folder(tmp_path, b"caf\xe9 exports")


@pytest.mark.skipif(sys.platform == "win32", reason="Windows names are UTF-16")
def test_otio_is_written_into_a_folder_whose_name_is_not_utf8(story: Fixture, latin1_folder: Path) -> None:
    out = latin1_folder / "episode.otio"
    result = export_branch(story.project, story.leaf, out)
    assert result.paths == (out, latin1_folder / "episode_media")
    timeline = otio.adapters.read_from_string(out.read_text(encoding="utf-8"), "otio_json")
    clips = list(timeline.find_clips())
    assert len(clips) == len(story.nodes)
    for clip in clips:
        assert (latin1_folder / url2pathname(urlparse(clip.media_reference.target_url).path)).is_file()
    assert sorted(p.name for p in latin1_folder.iterdir()) == ["episode.otio", "episode_media"], \
        "no work folder left behind"
