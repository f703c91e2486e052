"""Large videos and memory: a GIF is encoded frame by frame in two passes (one palette for
all frames, as before, without ffmpeg holding every frame: a large GIF was killed for memory
with only "stopped by signal SIGKILL"), and an export that would not fit in the memory this
machine has is refused before it starts, naming the size and what to do instead."""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import imageio.v3 as iio
import pytest

from studio.export import ExportError, ExportOptions, export_branch, export_task, memory
from studio.export.encoding import filter_quoted
from studio.export.options import MAX_SIZE, ExportFormat

from .helpers import Fixture, build, close_to, gif_delays, video_facts


@contextlib.contextmanager
def encoder_peak() -> Iterator[list[int]]:
    """The largest resident size (bytes) seen of any ffmpeg this process feeds frames to,
    polled every few milliseconds while the block runs: ``[peak]``."""
    peak = [0]
    done = threading.Event()

    def poll() -> None:
        me = os.getpid()
        while not done.is_set():
            with contextlib.suppress(OSError):
                for task in os.listdir(f"/proc/{me}/task"):
                    with contextlib.suppress(OSError), open(f"/proc/{me}/task/{task}/children") as handle:
                        for child in handle.read().split():
                            with contextlib.suppress(OSError, ValueError):
                                with open(f"/proc/{child}/cmdline", "rb") as cmd:
                                    if b"pipe:0" not in cmd.read().split(b"\0"):
                                        continue  # a clip's decoder, not the encoder
                                with open(f"/proc/{child}/status") as status:
                                    for line in status:
                                        if line.startswith("VmRSS:"):
                                            peak[0] = max(peak[0], int(line.split()[1]) * 1024)
            time.sleep(0.005)

    watcher = threading.Thread(target=poll, daemon=True)
    watcher.start()
    try:
        yield peak
    finally:
        done.set()
        watcher.join()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_gif_is_encoded_without_holding_its_frames(tmp_path: Path) -> None:
    fixture = build(tmp_path, turns=3, frames=[40, 40, 40])
    try:
        size = (1024, 768)
        out = tmp_path / "large.gif"
        with encoder_peak() as peak:
            result = export_branch(fixture.project, fixture.leaf, out, options=ExportOptions(size=size, overlay=True))
        held = result.frames * size[0] * size[1] * 4  # every frame, as the one-pass filter graph held them
        assert result.frames == 120 and peak[0] > 0
        assert peak[0] < held / 3, f"ffmpeg held {peak[0] / 2**20:.0f} MB (all frames: {held / 2**20:.0f} MB)"
        frames = iio.imread(out, index=None)
        assert frames.shape[:3] == (120, 768, 1024)
        assert close_to(frames[0][600, 512, :3], fixture.colours[0], tolerance=24)
        assert close_to(frames[-1][600, 512, :3], fixture.colours[-1], tolerance=24)
        assert sum(gif_delays(out)) == round(result.duration * 100)
        facts = video_facts(out)
        assert (facts.codec, facts.width, facts.height, facts.frames) == ("gif", *size, 120)
    finally:
        fixture.project.close()


def test_the_gif_palette_is_found_in_a_folder_of_any_name(tmp_path: Path) -> None:
    fixture = build(tmp_path, turns=2)
    try:
        folder = tmp_path / "it's [a], b;c:d\\e =f"
        folder.mkdir()
        result = export_branch(fixture.project, fixture.leaf, folder / "odd.gif", options=ExportOptions(overlay=True))
        assert result.frames == sum(fixture.frames)
        assert iio.imread(result.path, index=None).shape[0] == result.frames
        assert sorted(path.name for path in folder.iterdir()) == ["odd.gif"]  # the palette went with the work folder
    finally:
        fixture.project.close()


def test_filter_quoting_keeps_every_character() -> None:
    assert filter_quoted("/tmp/plain.png") == "\\'/tmp/plain.png\\'"
    assert filter_quoted("a'b") == "\\'a\\'\\\\\\'\\'b\\'"
    assert filter_quoted("x,y;[z]:w") == "\\'x\\,y\\;\\[z\\]:w\\'"


def _little_memory(monkeypatch: pytest.MonkeyPatch, gib: float) -> None:
    monkeypatch.setattr(memory, "available_bytes", lambda meminfo=None: int(gib * memory.GIB))


@pytest.mark.parametrize("name", ["huge.gif", "huge.mp4", "huge.webm"])
def test_a_video_too_large_for_the_memory_is_refused_before_it_starts(story: Fixture, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch,
                                                                      name: str) -> None:
    _little_memory(monkeypatch, 2)
    folder = tmp_path / "exports"
    folder.mkdir()
    out = folder / name
    with pytest.raises(ExportError) as refused:
        export_task(story.project, story.leaf, out, ExportOptions(size=(8192, 8192), overlay=True))  # nothing runs
    message = str(refused.value)
    assert "8192x8192" in message and "memory" in message and "2.0 GB" in message
    assert "--size " in message  # a size that fits, of the same shape
    suggested = message.split("--size ", 1)[1].split(")", 1)[0]
    width, height = (int(side) for side in suggested.split("x"))
    assert width == height and 16 <= width < 8192
    assert memory.estimate_bytes(ExportFormat(name.rsplit(".", 1)[1]), (width, height)) <= 2 * memory.GIB * 0.8
    if name.endswith(".gif"):
        assert "mp4" in message
    assert sorted(folder.iterdir()) == []


def test_the_clips_own_size_is_checked_once_the_clips_are_read(story: Fixture, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    _little_memory(monkeypatch, 0.1)  # less than any export needs
    folder = tmp_path / "exports"
    folder.mkdir()
    out = folder / "clips.gif"
    with pytest.raises(ExportError, match=r"96x64 gif \(the clips' own size\) needs about") as refused:
        export_branch(story.project, story.leaf, out)
    assert "smaller size" in str(refused.value)
    assert sorted(folder.iterdir()) == []
    # joining the clips by stream copy composes no frames: it needs no such room
    assert export_branch(story.project, story.leaf, folder / "joined.mp4").used_stream_copy


def test_the_available_memory_is_read_from_meminfo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       32000000 kB\nMemFree:  1000 kB\nMemAvailable:   20971520 kB\n")
    assert memory.available_bytes(str(meminfo)) == 20 * memory.GIB
    assert memory.available_bytes(str(tmp_path / "absent")) is None
    monkeypatch.setattr(memory, "MEMINFO", str(tmp_path / "absent"))
    limit, why = memory.memory_limit()
    assert limit == memory.FALLBACK_LIMIT and "can't be read" in why


def test_fewer_frames_are_decoded_ahead_when_they_are_large() -> None:
    assert memory.prefetch_depth((720, 480)) == 48
    assert memory.prefetch_depth((1920, 1080)) == 43
    assert memory.prefetch_depth((MAX_SIZE, MAX_SIZE)) == 2
    small, large = (memory.estimate_bytes(ExportFormat.GIF, (side, side)) for side in (1024, 8192))
    assert large > 2 * memory.GIB and small < memory.GIB


def test_a_size_past_the_largest_is_refused_with_the_range() -> None:
    with pytest.raises(ExportError, match=f"outside 16..{MAX_SIZE} pixels") as refused:
        ExportOptions(size=(MAX_SIZE + 2, 1080))
    assert "1920x1080" in str(refused.value)


def test_a_gifs_progress_keeps_one_total_over_both_passes(tmp_path: Path) -> None:
    """The bar's total is both passes' frames from the first report on (it was one pass's in
    the first report, then doubled, so the bar jumped back), and the count never goes back."""
    fixture = build(tmp_path, turns=2, frames=[30, 30])
    reports: list[tuple[int, int, str]] = []
    try:
        export_branch(fixture.project, fixture.leaf, tmp_path / "out.gif",
                      progress=lambda p: reports.append((p.step, p.total, p.message)))
    finally:
        fixture.project.close()
    encoding = [r for r in reports if r[2].startswith("encoding gif")]
    assert {total for _, total, _ in encoding} == {120}
    assert [done for done, _, _ in encoding] == sorted(done for done, _, _ in encoding)
    assert encoding[-1][0] == 120 and any("pass 2 of 2" in what for _, _, what in encoding)
