"""A warning chip about a word that two fields of the turn hold (a character named like the
place: "Character: River; ... Background: day river"): the chip was taken for the place (the
first field holding the word), so the words it offered were places, and choosing one
rewrote the turn's Background, not the character the warning was about."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from studio.core.instruction import parse_instruction
from studio.core.model import Take
from studio.ui.inspector.chips_view import ChipsView
from studio.ui.inspector.understanding import ChipField, warning_field
from studio.ui.inspector.vocabulary import Vocabulary

LINE = "Character: River; Motion: wave; Background: day river."
UNKNOWN_CHARACTER = "'River' is not a character the mini model knows; it draws one of its cast"


def test_the_warning_goes_to_the_field_it_speaks_of() -> None:
    ins = parse_instruction(LINE)
    assert warning_field(UNKNOWN_CHARACTER, ins) is ChipField.CHARACTER
    assert warning_field("'river' unknown location, drawn as 'town'", ins) is ChipField.PLACE


def test_choosing_a_word_for_it_changes_the_character(qtbot) -> None:  # type: ignore[no-untyped-def]
    host = QWidget()
    qtbot.addWidget(host)
    chips = ChipsView(host)
    chips.set_vocabulary(Vocabulary(characters=["Qiqi", "River"], backgrounds=["river", "town"]))
    take = Take(id="t", node_id="n", engine="mini", motion_level=3, conditioning={"character": "Qiqi"},
                warnings=(UNKNOWN_CHARACTER,))
    chips.set_turn(parse_instruction(LINE), take)
    warning = next(chip for chip in chips.chips if chip.warning)
    offered = [action.data() for action in chips.menu_for(warning).actions() if action.data()]
    assert "Qiqi" in offered and "town" not in offered
    with qtbot.waitSignal(chips.fix_requested) as fixed:
        chips.fix(warning.field, "Qiqi")
    assert fixed.args == ["Character: Qiqi; Motion: wave; Background: day river."]
