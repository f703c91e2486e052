"""`kamishibai info` (:func:`take_clip_faults`, which reads MP4 box headers and asks ffmpeg
only where it can't be sure) and export (``_probe_turn``, which runs ffmpeg over each clip of
the branch) must judge every clip alike: a clip that export would refuse is listed as damaged,
one that export accepts is not.

Each case is a real clip made by ffmpeg, then damaged by hand the way copies, downloads and
other programs damage files. Before, they disagreed: a clip cut inside (or just before) its
last frame, or one whose first frame was zeroed, was passed by one and refused by the other; a
clip whose index sat in a ``free`` box, or with a few bytes of junk at its end, was called cut
short by info and exported fine; a clip with an audio track longer than its video was refused
by export as "cut short"."""

from __future__ import annotations

import random
import struct
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from studio.core import AddTake, AddTurn, Take, TakeStatus
from studio.export.branch import collect_branch
from studio.export.errors import ExportError
from studio.export.plan import _probe_turn  # export's own judge of a turn's clip
from studio.storage import Project, clip_check
from studio.storage.clip_check import ClipFault, ClipVerdict, take_clip_faults
from studio.storage.ffmpeg import StreamInfo, encode_mp4, ffmpeg_exe

LINE = "Character: Qiqi; Motion: run; Background: day town"
FRAMES = 17


def _ffmpeg(*args: str) -> None:
    subprocess.run([ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-nostdin", "-y", *args], check=True,
                   capture_output=True)


CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl", b"edts"}


def _boxes(data: bytes, start: int, end: int) -> Iterator[tuple[bytes, int, int]]:
    offset = start
    while offset + 8 <= end:
        length, kind = struct.unpack_from(">I4s", data, offset)
        length = length or end - offset
        yield kind, offset, offset + length
        offset += length


def _box(data: bytes, kind: bytes, start: int = 0, end: int | None = None) -> tuple[int, int]:
    """(start, end) of the first ``kind`` box in ``data[start:end]``, looked for depth first
    (sample entries of ``stsd`` included)."""
    found = _all_boxes(data, kind, start, len(data) if end is None else end)
    return next(found)


def _all_boxes(data: bytes, kind: bytes, start: int, end: int) -> Iterator[tuple[int, int]]:
    for child, first, stop in _boxes(data, start, end):
        if child == kind:
            yield first, stop
        if child in CONTAINERS:
            yield from _all_boxes(data, kind, first + 8, stop)
        if child == b"stsd":
            yield from ((s, e) for k, s, e in _boxes(data, first + 16, stop) if k == kind)


def _patched(data: bytes, offset: int, value: bytes) -> bytes:
    changed = bytearray(data)
    changed[offset:offset + len(value)] = value
    return bytes(changed)


def _u32(value: int) -> bytes:
    return struct.pack(">I", value)


@dataclass(frozen=True)
class Clips:
    """The source files the cases are made from."""

    folder: Path
    whole: bytes  # the studio's own kind of clip: H.264, index first, one track

    def made(self, name: str, *args: str) -> bytes:
        target = self.folder / name
        _ffmpeg(*args, str(target))
        return target.read_bytes()

    @property
    def whole_path(self) -> Path:
        return self.folder / "whole.mp4"

    def first_frame(self) -> tuple[int, int]:
        """(offset, size) of the whole clip's first frame."""
        stco, stsz = _box(self.whole, b"stco"), _box(self.whole, b"stsz")
        return struct.unpack_from(">I", self.whole, stco[0] + 16)[0], struct.unpack_from(">I", self.whole,
                                                                                           stsz[0] + 20)[0]


def _whole(clips: Clips) -> bytes:
    return clips.whole


def _cut_inside_last_frame(clips: Clips) -> bytes:
    return clips.whole[:-1]


def _cut_before_last_frame(clips: Clips) -> bytes:
    stsz = _box(clips.whole, b"stsz")
    return clips.whole[:-struct.unpack_from(">I", clips.whole, stsz[1] - 4)[0]]


def _cut_halfway(clips: Clips) -> bytes:
    return clips.whole[:len(clips.whole) // 2]


def _cut_inside_index(clips: Clips) -> bytes:
    return clips.whole[:_box(clips.whole, b"moov")[0] + 300]


def _index_zeroed(clips: Clips) -> bytes:
    start, end = _box(clips.whole, b"moov")
    return _patched(clips.whole, start + 8, bytes(end - start - 8))


def _index_renamed_free(clips: Clips) -> bytes:
    """ffmpeg still finds an index kept in a ``free`` box."""
    return _patched(clips.whole, _box(clips.whole, b"moov")[0] + 4, b"free")


def _frames_box_renamed_free(clips: Clips) -> bytes:
    """The index points at the frames by offset: the type of the box around them is not read."""
    return _patched(clips.whole, _box(clips.whole, b"mdat")[0] + 4, b"free")


def _video_track_said_to_be_sound(clips: Clips) -> bytes:
    return _patched(clips.whole, _box(clips.whole, b"hdlr")[0] + 16, b"soun")


def _unknown_codec(clips: Clips) -> bytes:
    return _patched(clips.whole, _box(clips.whole, b"avc1")[0] + 4, b"xxxx")


def _frames_zeroed(clips: Clips) -> bytes:
    start, end = _box(clips.whole, b"mdat")
    return _patched(clips.whole, start + 8, bytes(end - start - 8))


def _first_frame_zeroed(clips: Clips) -> bytes:
    offset, size = clips.first_frame()
    return _patched(clips.whole, offset, bytes(size))


def _first_frame_garbled(clips: Clips) -> bytes:
    offset, size = clips.first_frame()
    noise = random.Random(1)
    return _patched(clips.whole, offset + 40, bytes(noise.randrange(256) for _ in range(size - 40)))


def _second_frame_zeroed(clips: Clips) -> bytes:
    offset, size = clips.first_frame()
    stsz = _box(clips.whole, b"stsz")
    second = struct.unpack_from(">I", clips.whole, stsz[0] + 24)[0]
    return _patched(clips.whole, offset + size, bytes(second))


def _movie_duration_ten_times(clips: Clips) -> bytes:
    mvhd = _box(clips.whole, b"mvhd")
    duration = struct.unpack_from(">I", clips.whole, mvhd[0] + 24)[0]
    return _patched(clips.whole, mvhd[0] + 24, _u32(duration * 10))


def _edit_halved(clips: Clips) -> bytes:
    elst = _box(clips.whole, b"elst")
    duration = struct.unpack_from(">I", clips.whole, elst[0] + 16)[0]
    return _patched(clips.whole, elst[0] + 16, _u32(duration // 2))


def _frame_durations_doubled(clips: Clips) -> bytes:
    stts = _box(clips.whole, b"stts")
    delta = struct.unpack_from(">I", clips.whole, stts[0] + 20)[0]
    return _patched(clips.whole, stts[0] + 20, _u32(delta * 2))


def _index_of_no_frames(clips: Clips) -> bytes:
    return _patched(clips.whole, _box(clips.whole, b"stsz")[0] + 16, _u32(0))


def _png_named_mp4(clips: Clips) -> bytes:
    return clips.made("still.png", "-f", "lavfi", "-i", "color=c=red:s=64x48", "-frames:v", "1")


def _audio_only(clips: Clips) -> bytes:
    return clips.made("audio.mp4", "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "aac")


def _with_audio(clips: Clips, seconds: float, name: str) -> bytes:
    return clips.made(name, "-i", str(clips.whole_path), "-f", "lavfi", "-i", f"sine=frequency=440:duration={seconds}",
                      "-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "aac", "-movflags", "+faststart")


def _audio_longer_than_video(clips: Clips) -> bytes:
    return _with_audio(clips, 10, "long-audio.mp4")


def _audio_chunk_past_the_end(clips: Clips) -> bytes:
    """Only the audio track's last chunk points past the end: export reads only the video."""
    data = _with_audio(clips, 2, "audio.mp4")
    for start, end in _all_boxes(data, b"trak", 0, len(data)):
        hdlr = _box(data, b"hdlr", start + 8, end)
        if data[hdlr[0] + 16:hdlr[0] + 20] == b"soun":
            stco = _box(data, b"stco", start + 8, end)
            chunks = struct.unpack_from(">I", data, stco[0] + 12)[0]
            return _patched(data, stco[0] + 16 + 4 * (chunks - 1), _u32(len(data) + 1000))
    raise AssertionError("no audio track")


def _index_last(clips: Clips) -> bytes:
    return clips.made("late.mp4", "-i", str(clips.whole_path), "-c", "copy", "-movflags", "-faststart")


def _index_last_cut_inside_frames(clips: Clips) -> bytes:
    data = _index_last(clips)
    start, end = _box(data, b"mdat")
    return data[:(start + end) // 2]


def _index_last_cut_inside_index(clips: Clips) -> bytes:
    data = _index_last(clips)
    return data[:_box(data, b"moov")[0] + 200]


def _fragmented(clips: Clips) -> bytes:
    return clips.made("frag.mp4", "-i", str(clips.whole_path), "-c", "copy", "-movflags", "frag_keyframe+empty_moov")


def _fragmented_cut(clips: Clips) -> bytes:
    data = _fragmented(clips)
    return data[:len(data) * 2 // 3]


def _made_with_no_frames(clips: Clips) -> bytes:
    return clips.made("none.mp4", "-f", "lavfi", "-i", "color=c=red:s=64x48:r=8", "-frames:v", "0", "-c:v", "libx264")


def _trailing_box_cut(clips: Clips) -> bytes:
    return clips.whole + struct.pack(">I4s", 5000, b"free") + bytes(100)


def _trailing_junk(clips: Clips) -> bytes:
    return clips.whole + b"\x00\x00\x00"


SOUND, REFUSED = True, False
CASES: dict[str, tuple[Callable[[Clips], bytes], bool | None]] = {
    "whole": (_whole, SOUND),
    "cut-inside-last-frame": (_cut_inside_last_frame, REFUSED),
    "cut-before-last-frame": (_cut_before_last_frame, REFUSED),
    "cut-halfway": (_cut_halfway, REFUSED),
    "cut-inside-index": (_cut_inside_index, REFUSED),
    "index-zeroed": (_index_zeroed, REFUSED),
    "index-renamed-free": (_index_renamed_free, SOUND),
    "frames-box-renamed-free": (_frames_box_renamed_free, SOUND),
    "video-track-said-to-be-sound": (_video_track_said_to_be_sound, REFUSED),
    "unknown-codec": (_unknown_codec, None),  # ffmpeg copies what it can't decode: agreement only
    "frames-zeroed": (_frames_zeroed, REFUSED),
    "first-frame-zeroed": (_first_frame_zeroed, REFUSED),
    "first-frame-garbled": (_first_frame_garbled, REFUSED),
    "second-frame-zeroed": (_second_frame_zeroed, None),
    "movie-duration-ten-times": (_movie_duration_ten_times, SOUND),
    "edit-halved": (_edit_halved, SOUND),
    "frame-durations-doubled": (_frame_durations_doubled, SOUND),
    "index-of-no-frames": (_index_of_no_frames, REFUSED),
    "png-named-mp4": (_png_named_mp4, None),  # ffmpeg reads a still image as a clip of one frame
    "audio-only": (_audio_only, REFUSED),
    "audio-longer-than-video": (_audio_longer_than_video, SOUND),
    "audio-chunk-past-the-end": (_audio_chunk_past_the_end, SOUND),
    "index-last": (_index_last, SOUND),
    "index-last-cut-inside-frames": (_index_last_cut_inside_frames, REFUSED),
    "index-last-cut-inside-index": (_index_last_cut_inside_index, REFUSED),
    "fragmented": (_fragmented, SOUND),
    "fragmented-cut": (_fragmented_cut, REFUSED),
    "made-with-no-frames": (_made_with_no_frames, REFUSED),
    "trailing-box-cut": (_trailing_box_cut, SOUND),
    "trailing-junk": (_trailing_junk, SOUND),
    "empty": (lambda _clips: b"", REFUSED),
    "text": (lambda _clips: b"this is a note, not a video\n", REFUSED),
}
"""Each case: how its clip is made, and whether export must accept it (None: whatever export
says, info must say the same)."""


@dataclass
class Judged:
    project: Project
    info: dict[str, ClipVerdict | None]  # by case: info's verdict


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Judged]:
    """One project, a turn per case under the story's start, each with a take whose clip is
    the case's file; info's verdicts of all of them, read as `kamishibai info` reads them."""
    folder = tmp_path_factory.mktemp("clips")
    frames = np.random.default_rng(7).integers(0, 256, size=(FRAMES, 96, 128, 3), dtype=np.uint8)
    encode_mp4(folder / "whole.mp4", frames, 8.0, crf=17)
    clips = Clips(folder, (folder / "whole.mp4").read_bytes())
    project = Project.create(tmp_path_factory.mktemp("project") / "story")
    for number, (case, (make, _expected)) in enumerate(CASES.items(), start=1):
        node, take = f"n{number}", f"t{number}"
        project.apply(AddTurn(project.tree.root_id, LINE, node_id=node))
        rel = f"media/takes/{take}/clip.mp4"
        project.resolve(rel).parent.mkdir(parents=True)
        project.resolve(rel).write_bytes(make(clips))
        project.apply(AddTake(Take(id=take, node_id=node, engine="test", clip_path=rel, status=TakeStatus.DONE)))
        assert case
    faults, checked = take_clip_faults(project)
    assert checked == len(CASES)
    by_take = {fault.take_id: fault.verdict for fault in faults}
    yield Judged(project, {case: by_take.get(f"t{number}") for number, case in enumerate(CASES, start=1)})
    project.close()


def _export_verdict(project: Project, case: str) -> StreamInfo | ExportError:
    node = f"n{list(CASES).index(case) + 1}"
    (turn,) = collect_branch(project, node).turns
    return _probe_turn(turn)


@pytest.mark.parametrize("case", list(CASES))
def test_info_and_export_judge_the_clip_alike(judged: Judged, case: str) -> None:
    exported = _export_verdict(judged.project, case)
    listed = judged.info[case]
    accepted = isinstance(exported, StreamInfo)
    told = exported.message if isinstance(exported, ExportError) else f"accepted, {exported.frames} frames"
    assert accepted == (listed is None), f"export: {told}; info: {listed}"
    expected = CASES[case][1]
    if expected is not None:
        assert accepted is expected, told
    if isinstance(exported, ExportError):
        assert listed is not None and listed.message
        if "cut short" in exported.message:
            assert listed.fault is ClipFault.CUT_SHORT, listed
        if "holds no frames" in exported.message:
            assert listed.fault in (ClipFault.EMPTY, ClipFault.CUT_SHORT), listed


FAST_CASES = ["whole", "cut-inside-last-frame", "cut-before-last-frame", "cut-halfway", "index-of-no-frames"]


@pytest.mark.parametrize("case", FAST_CASES)
def test_the_studios_own_clips_are_judged_from_their_headers(judged: Judged, case: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The header read stays the fast path: the clips the studio writes, whole or cut short in
    a copy, are judged without running ffmpeg, and alike."""

    def no_ffmpeg(path: Path) -> StreamInfo:
        raise AssertionError(f"ffmpeg was run on {path}")

    monkeypatch.setattr(clip_check, "probe", no_ffmpeg)
    number = list(CASES).index(case) + 1
    path = judged.project.path / f"media/takes/t{number}/clip.mp4"
    assert clip_check.check_clip(path) == judged.info[case]


def test_a_clip_cut_just_before_its_last_frame_is_named_by_both(judged: Judged) -> None:
    """Both say how many frames are whole: the cut lost the last frame, and nothing else."""
    exported = _export_verdict(judged.project, "cut-before-last-frame")
    listed = judged.info["cut-before-last-frame"]
    assert isinstance(exported, ExportError) and listed is not None
    assert f"only {FRAMES - 1} of {FRAMES} frames can be read" in exported.message, exported.message
    assert f"only {FRAMES - 1} of its {FRAMES} frames are whole" in listed.message, listed.message


def test_a_longer_audio_track_does_not_make_a_clip_cut_short(judged: Judged) -> None:
    exported = _export_verdict(judged.project, "audio-longer-than-video")
    assert isinstance(exported, StreamInfo) and exported.frames == FRAMES
