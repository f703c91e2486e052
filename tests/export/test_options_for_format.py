"""A form that keeps every control's value across a change of format sends only what the
chosen format uses: the window's export is never refused for a control it can't use."""

from __future__ import annotations

import pytest

from studio.export import CaptionMode, ExportError, ExportFormat, ExportOptions
from studio.export.encoding import check_options, for_format
from studio.export.options import PanelAspect

EVERYTHING_SET = ExportOptions(size=(640, 360), fps=12.0, crossfade=0.5, captions=CaptionMode.BURN, overlay=True,
                               panels_per_page=1, panel_aspect=PanelAspect.CLIP, title="Day one",
                               end_card="Fin")


@pytest.mark.parametrize("fmt", list(ExportFormat))
def test_every_control_set_then_any_format_chosen_passes_the_check(fmt: ExportFormat) -> None:
    with pytest.raises(ExportError):  # the raw options ask for something fmt can't do
        check_options(fmt, EVERYTHING_SET)
    check_options(fmt, for_format(EVERYTHING_SET, fmt))


def test_what_a_format_uses_is_kept() -> None:
    video = for_format(EVERYTHING_SET, ExportFormat.MP4)
    assert (video.size, video.crossfade, video.overlay, video.captions) == ((640, 360), 0.5, True, CaptionMode.BURN)
    assert video.panels_per_page == ExportOptions().panels_per_page
    sheet = for_format(EVERYTHING_SET, ExportFormat.PDF)
    assert (sheet.panels_per_page, sheet.panel_aspect, sheet.title) == (1, PanelAspect.CLIP, "Day one")
    assert (sheet.size, sheet.crossfade, sheet.overlay, sheet.captions) == (None, 0.0, False, CaptionMode.NONE)
    srt = for_format(ExportOptions(captions=CaptionMode.SRT, crossfade=0.5), ExportFormat.SRT)
    assert (srt.captions, srt.crossfade) == (CaptionMode.SRT, 0.5)  # an srt export is the captions, timed as the video
    assert for_format(EVERYTHING_SET, ExportFormat.SRT).captions is CaptionMode.NONE  # burn: not for subtitles


def test_the_window_form_sends_only_what_its_format_uses() -> None:
    from pathlib import Path

    from studio.ui.dialogs.export_dialog import ExportChoices

    form = ExportChoices(out=Path("/tmp/x.pdf"), fmt="pdf", size=(640, 360), fps=12.0, crossfade=0.5,
                         captions="burn", overlay=True, panels=2, aspect="clip", title="Day one")
    check_options(ExportFormat.PDF, form.options())
    assert form.options().panels_per_page == 2 and form.options().crossfade == 0.0
