"""SRT and OTIO exports of a long branch spent seconds probing every clip with ffmpeg (and
laying the captions out twice). A clip as the studio writes it is now read from its MP4 index,
and a probe is remembered for the file as it is (size and modification time): these must give
the lengths ffmpeg's probe gives, and a clip changed since is read again."""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

import pytest

from studio.core.progress import never_cancelled, no_progress
from studio.export import ExportOptions, export_branch, plan
from studio.export import subtitles as subtitles_module
from studio.export.branch import collect_branch
from studio.storage.ffmpeg import probe
from studio.storage.media import write_clip

from .helpers import COLOURS, Fixture, add_turn, build, clip_frames, parse_srt


@pytest.fixture
def varied(tmp_path: Path) -> Fixture:
    """Turns whose clips differ in length and rate (5, 9 and 17 frames; 8, 12 and 24 fps)."""
    story = build(tmp_path, turns=1, frames=[5])
    parent = story.nodes[-1]
    for colour, frames, fps in ((COLOURS[1], 9, 12.0), (COLOURS[2], 17, 24.0)):
        parent = add_turn(story.project, parent, "Character: Qiqi; Motion: wave; Background: day town.", colour,
                          frames=frames, fps=fps)
        story.nodes.append(parent)
    return story


def _clips(story: Fixture) -> list[Path]:
    return [turn.clip for turn in collect_branch(story.project, story.leaf).turns]


def test_index_lengths_equal_ffmpegs_probe(varied: Fixture) -> None:
    branch = collect_branch(varied.project, varied.leaf)
    for turn in branch.turns:
        indexed = plan.indexed_info(turn)
        probed = probe(turn.clip)
        assert indexed is not None, turn.clip
        assert (indexed.frames, indexed.fps) == (probed.frames, probed.fps), turn.clip
    quick = plan.plan_episode(branch, ExportOptions(), no_progress, never_cancelled, lengths_only=True)
    full = plan.plan_episode(branch, ExportOptions(), no_progress, never_cancelled)
    assert [(i.frames, i.fps) for i in quick.infos] == [(5, Fraction(8)), (9, Fraction(12)), (17, Fraction(24))]
    assert [(i.frames, i.fps) for i in quick.infos] == [(i.frames, i.fps) for i in full.infos]
    assert quick.timeline == full.timeline


def test_text_exports_run_no_probe_for_studio_clips(varied: Fixture, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(path: Path) -> None:
        raise AssertionError(f"{path} was probed")

    monkeypatch.setattr(plan, "probe", refused)
    srt = export_branch(varied.project, varied.leaf, tmp_path / "e.srt")
    assert len(parse_srt(srt.path.read_text(encoding="utf-8"))) == 3
    # the timeline copies the clips beside it and draws a still of each held last frame: only
    # a held turn's clip is probed (for its picture's size), turn 3's (17 frames at 24 fps hold
    # their last for a part of an 8 fps frame)
    probed: list[Path] = []
    monkeypatch.setattr(plan, "probe", lambda path: (probed.append(path), probe(path))[1])
    monkeypatch.setattr(plan, "_probes", {})
    assert export_branch(varied.project, varied.leaf, tmp_path / "e.otio").path.is_file()
    assert len(probed) == 1


def test_a_probe_is_remembered_until_the_clip_changes(story: Fixture, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Path] = []

    def counted(path: Path):  # type: ignore[no-untyped-def]
        calls.append(path)
        return probe(path)

    monkeypatch.setattr(plan, "probe", counted)
    monkeypatch.setattr(plan, "_probes", {})
    clip = _clips(story)[0]
    first = plan.remembered_probe(clip)
    assert plan.remembered_probe(clip) == first and len(calls) == 1, "read again unchanged: not probed"

    write_clip(clip, clip_frames(COLOURS[0], first.frames + 7, (96, 64)), 8.0)  # the clip made again, longer
    stat = clip.stat()
    os.utime(clip, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))  # a new time even on a coarse clock
    again = plan.remembered_probe(clip)
    assert len(calls) == 2, "a changed clip is probed again"
    assert again.frames == first.frames + 7 == probe(clip).frames


def test_a_changed_clip_changes_the_next_text_export(story: Fixture, tmp_path: Path) -> None:
    clip = _clips(story)[0]
    before = parse_srt(export_branch(story.project, story.leaf, tmp_path / "a.srt").path.read_text(encoding="utf-8"))
    frames = probe(clip).frames
    write_clip(clip, clip_frames(COLOURS[0], frames * 3, (96, 64)), 8.0)
    after = parse_srt(export_branch(story.project, story.leaf, tmp_path / "b.srt").path.read_text(encoding="utf-8"))
    assert after[-1][1] - before[-1][1] == pytest.approx(frames * 2 / 8, abs=1e-3)


def test_captions_are_laid_out_once_an_export(story: Fixture, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = subtitles_module._laid_out

    def counted(branch, timeline):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(branch, timeline)

    monkeypatch.setattr(subtitles_module, "_laid_out", counted)
    export_branch(story.project, story.leaf, tmp_path / "e.srt")
    assert len(calls) == 1
