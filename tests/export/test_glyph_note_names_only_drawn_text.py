"""The note on characters no font has names only text the export draws (QA: a turn whose
instruction held a character no font has, with a dialogue line, burned only the line into the
video, yet the export said that character "shows as empty boxes in titles, captions and
sheets"; a sheet, which shows the action's sentence, said so of an instruction field the
sentence leaves out)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.core import AddDialogueLine
from studio.export import ExportOptions, export_branch
from studio.export.glyphs import export_fonts, missing_glyphs
from studio.export.options import CaptionMode, ExportFormat

from .helpers import COLOURS, Fixture, add_turn

NO_FONT = "\U00013000"  # EGYPTIAN HIEROGLYPH A001: in none of the fonts an export uses
BURNED = ExportOptions(captions=CaptionMode.BURN)


def _boxes_noted(notes: tuple[str, ...]) -> bool:
    return any("none of the export's fonts" in note for note in notes)


@pytest.fixture(autouse=True)
def _no_font_has_it() -> None:
    for fmt in (ExportFormat.MP4, ExportFormat.PNG):
        if not missing_glyphs([NO_FONT], export_fonts(fmt)):
            pytest.skip(f"a font of this machine has U+{ord(NO_FONT):04X}")


def test_a_caption_of_dialogue_names_nothing_of_the_instruction_it_does_not_show(story: Fixture,
                                                                                 tmp_path: Path) -> None:
    turn = add_turn(story.project, story.leaf, f"Character: Qiqi; Motion: wave; Background: day town. {NO_FONT}",
                    COLOURS[3])
    silent = export_branch(story.project, turn, tmp_path / "silent.mp4", options=BURNED)
    assert _boxes_noted(silent.notes)  # its caption is the action's sentence, which holds it
    story.project.apply(AddDialogueLine(turn, "Qiqi", "See you tomorrow!"))
    spoken = export_branch(story.project, turn, tmp_path / "spoken.mp4", options=BURNED)
    assert not _boxes_noted(spoken.notes), spoken.notes  # its caption is the line alone


def test_a_sheet_names_nothing_of_an_instruction_field_its_action_leaves_out(story: Fixture, tmp_path: Path) -> None:
    turn = add_turn(story.project, story.leaf, f"Character: Qiqi; Motion: wave; Background: day town; "
                    f"Camera: {NO_FONT} zoom", COLOURS[3])
    result = export_branch(story.project, turn, tmp_path / "board.png")
    assert not _boxes_noted(result.notes), result.notes
