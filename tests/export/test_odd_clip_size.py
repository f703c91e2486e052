"""A branch whose first clip has an odd width or height re-encodes to mp4 and webm (QA: with
no --size the output took the first clip's 97x65, and every re-encoded mp4 or webm of the
branch failed with "mp4 needs an even width and height, not 97x65", a size nobody asked for).
Without --size the frames lose the odd side's last pixel; a --size that is odd is still
refused, and clips that can be joined as they are keep their size."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from studio.core import AddTake, AddTurn, StateDeltas, Take, TakeStatus
from studio.export import ExportError, ExportOptions, export_branch
from studio.storage import Project
from studio.storage.media import ffmpeg_exe

from .helpers import COLOURS, build, close_to, decode, video_facts

ODD = (97, 65)


def _odd_clip(path: Path, colour: tuple[int, int, int], frames: int = 6) -> None:
    """An H.264 clip of an odd size (4:4:4 holds one, as another engine's clip might)."""
    hex_colour = "".join(f"{c:02x}" for c in colour)
    subprocess.run([ffmpeg_exe(), "-v", "error", "-y", "-f", "lavfi", "-i",
                    f"color=c=0x{hex_colour}:size={ODD[0]}x{ODD[1]}:rate=8", "-frames:v", str(frames),
                    "-pix_fmt", "yuv444p", "-c:v", "libx264", str(path)], check=True)


def _odd_first_turn(project: Project) -> str:
    """A first turn whose take's clip is ODD in size, before the fixture's turns."""
    root = project.tree.root_id
    project.apply(AddTurn(root, "Character: Qiqi; Motion: jump; Background: day town.", node_id="oddturn001"))
    folder = project.take_media_dir("toddturn001")
    clip = f"{folder}/clip.mp4"
    project.resolve(clip).parent.mkdir(parents=True, exist_ok=True)
    _odd_clip(project.resolve(clip), COLOURS[0])
    project.apply(AddTake(Take(id="toddturn001", node_id="oddturn001", engine="test", deltas=StateDeltas(1, 0, 0),
                               clip_path=clip, status=TakeStatus.DONE,
                               instruction_raw="Character: Qiqi; Motion: jump; Background: day town.")))
    return "oddturn001"


@pytest.mark.parametrize("suffix", ["mp4", "webm"])
def test_an_odd_first_clip_reencodes_at_the_even_size_below(tmp_path: Path, suffix: str) -> None:
    fixture = build(tmp_path, turns=0)
    leaf = _odd_first_turn(fixture.project)
    out = tmp_path / f"episode.{suffix}"
    result = export_branch(fixture.project, leaf, out, options=ExportOptions(stream_copy=False))
    facts = video_facts(out)
    assert (facts.width, facts.height) == (ODD[0] - 1, ODD[1] - 1)
    assert facts.frames == result.frames == 6
    assert close_to(decode(out)[0][32, 48], COLOURS[0], tolerance=24)
    fixture.project.close()


def test_an_odd_size_asked_for_is_still_refused(tmp_path: Path) -> None:
    fixture = build(tmp_path, turns=1)
    with pytest.raises(ExportError, match="even width and height"):
        export_branch(fixture.project, fixture.leaf, tmp_path / "episode.mp4", options=ExportOptions(size=(97, 64)))
    assert not (tmp_path / "episode.mp4").exists()
    fixture.project.close()


def test_odd_clips_joined_as_they_are_keep_their_size(tmp_path: Path) -> None:
    fixture = build(tmp_path, turns=0)
    leaf = _odd_first_turn(fixture.project)
    out = tmp_path / "episode.mp4"
    result = export_branch(fixture.project, leaf, out)
    assert result.used_stream_copy
    facts = video_facts(out)
    assert (facts.width, facts.height) == ODD
    fixture.project.close()
