"""Options a format can't honour are refused, never silently ignored (the CLI, the API and the
window's dialog all go through :func:`studio.export.encoding.check_options`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.export import CaptionMode, ExportError, ExportFormat, ExportOptions, export_branch
from studio.export.encoding import check_options
from studio.export.options import PanelAspect

from .helpers import Fixture

VIDEO = "video exports (mp4, webm, gif)"
TIMED = "videos, subtitles and timelines (mp4, webm, gif, srt, vtt, otio)"
SHEETS = "storyboard sheets (pdf, png)"


@pytest.mark.parametrize(("fmt", "extra", "needle"), [
    ("pdf", ["--overlay"], f"--overlay (the stamina, social and fun bars) applies only to {VIDEO}, not to pdf"),
    ("png", ["--overlay"], f"--overlay (the stamina, social and fun bars) applies only to {VIDEO}, not to png"),
    ("srt", ["--overlay"], f"applies only to {VIDEO}, not to srt"),
    ("pdf", ["--crossfade", "0.25"], f"--crossfade (a dissolve between turns) applies only to {TIMED}, not to pdf"),
    ("png", ["--crossfade", "0.25"], f"--crossfade (a dissolve between turns) applies only to {TIMED}, not to png"),
    ("pdf", ["--size", "320x240"], f"--size (the output size) applies only to {VIDEO}, not to pdf"),
    ("png", ["--size", "320x240"], f"--size (the output size) applies only to {VIDEO}, not to png"),
    ("otio", ["--size", "320x240"], f"--size (the output size) applies only to {VIDEO}, not to otio"),
    ("pdf", ["--fps", "12"], f"--fps (the frame rate) applies only to {TIMED}, not to pdf"),
    ("srt", ["--captions", "burn"], f"--captions burn (captions drawn into the frames) applies only to {VIDEO}, "
                                    "not to srt"),
    ("otio", ["--captions", "srt"], f"--captions srt (an .srt beside the video) applies only to {VIDEO}, "
                                    "not to otio"),
    ("pdf", ["--captions", "burn"], "not to pdf"),
    ("pdf", ["--end-card", "Bye"], f"--end-card (the end card) applies only to {TIMED}, not to pdf"),
    ("png", ["--title", "Hi", "--title-duration", "3"], f"--title-duration (how long the title card shows) "
                                                        f"applies only to {TIMED}, not to png"),
    ("mp4", ["--panels", "1"], f"--panels (storyboard panels per page) applies only to {SHEETS}, not to mp4"),
    ("srt", ["--aspect", "16:9"], f"--aspect (the storyboard panels' shape) applies only to {SHEETS}, not to srt"),
    ("pdf", ["--reencode"], f"--reencode (never join clips by stream copy) applies only to {VIDEO}, not to pdf"),
    # given on the command line, even at a value that would change nothing, it was asked for
    ("pdf", ["--crossfade", "0"], "--crossfade (a dissolve between turns) applies only to"),
    ("gif", ["--panels", "3"], "--panels (storyboard panels per page) applies only to"),
])
def test_cli_refuses_an_option_its_format_cannot_honour(story: Fixture, tmp_path: Path, fmt: str, extra: list[str],
                                                         needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"episode.{fmt}"
    assert main(["export", str(story.project.path), "--leaf", story.leaf, "--out", str(out), "-q", *extra]) == 2
    err = capsys.readouterr().err
    assert needle in err, err
    assert not out.exists() and not list(tmp_path.glob("episode*")), "nothing was written"


@pytest.mark.parametrize("fmt", [f.value for f in ExportFormat])
def test_cli_defaults_never_refuse(story: Fixture, tmp_path: Path, fmt: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"episode.{fmt}"
    assert main(["export", str(story.project.path), "--leaf", story.leaf, "--out", str(out), "-q",
                 "--title", "A day in town"]) == 0, capsys.readouterr().err


@pytest.mark.parametrize(("fmt", "extra"), [
    ("srt", ["--crossfade", "0.25", "--fps", "16", "--title", "Hi", "--title-duration", "1", "--end-card", "Bye",
             "--end-card-duration", "1"]),  # timings that match the video made with the same options
    ("otio", ["--crossfade", "0.25", "--fps", "16", "--end-card", "Bye"]),
    ("srt", ["--captions", "srt"]),  # the subtitles are the captions
    ("pdf", ["--panels", "2", "--aspect", "16:9", "--title", "Storyboard", "--captions", "none"]),
    ("mp4", ["--size", "96x64", "--overlay", "--captions", "burn", "--reencode", "--crf", "30"]),
])
def test_cli_accepts_what_the_format_honours(story: Fixture, tmp_path: Path, fmt: str, extra: list[str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"episode.{fmt}"
    assert main(["export", str(story.project.path), "--leaf", story.leaf, "--out", str(out), "-q", *extra]) == 0, \
        capsys.readouterr().err
    assert out.is_file()


def test_the_api_refuses_what_the_format_cannot_honour(story: Fixture, tmp_path: Path) -> None:
    """The same check guards export_branch and export_task (the window's export goes through them)."""
    for name, options, needle in (
            ("e.pdf", ExportOptions(overlay=True), "--overlay (the stamina, social and fun bars) applies only to"),
            ("e.png", ExportOptions(size=(320, 240)), "not to png"),
            ("e.srt", ExportOptions(captions=CaptionMode.BURN), "--captions burn"),
            ("e.otio", ExportOptions(captions=CaptionMode.SRT), "--captions srt"),
            ("e.mp4", ExportOptions(panel_aspect=PanelAspect.WIDE), "--aspect"),
            ("e.webm", ExportOptions(sheet_title="Board"),
             "sheet title applies only to storyboard sheets (pdf, png), not to webm"),
    ):
        with pytest.raises(ExportError) as info:
            export_branch(story.project, story.leaf, tmp_path / name, options=options)
        assert needle in str(info.value), info.value
        assert info.value.hint
    assert not list(tmp_path.glob("e.*"))


def test_check_options_passes_defaults_and_a_title_for_every_format() -> None:
    """What the window's dialog sends when only the format changes: the defaults and the
    project's name as the title (a sheet's heading, a timeline's card)."""
    for fmt in ExportFormat:
        check_options(fmt, ExportOptions())
        check_options(fmt, ExportOptions(title="My story"))
