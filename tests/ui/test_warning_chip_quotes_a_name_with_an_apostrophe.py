"""A warning that quotes a name holding an apostrophe ("'Grandma's Garden' is a place of this
project...") is matched to the field holding the whole name, and its chip offers that name to
replace, not "Grandma"."""

from __future__ import annotations

from studio.core.instruction import parse_instruction
from studio.core.model import Take
from studio.ui.inspector.understanding import ChipField, understanding_chips

WARNING = ("'Grandma's Garden' is a place of this project with its own picture; the mini model does not use "
           "pictures, it draws the places it learnt: it read it as 'garden'")


def _warning_chips(text: str, *warnings: str) -> list[tuple[ChipField, str]]:
    take = Take(id="t1", node_id="n1", engine="mini", warnings=warnings)
    chips = understanding_chips(parse_instruction(text), take)
    return [(chip.field, chip.word) for chip in chips if chip.warning]


def test_the_whole_name_is_offered_on_its_field() -> None:
    text = "Character: Qiqi; Motion: run; Background: Grandma's Garden."
    assert _warning_chips(text, WARNING) == [(ChipField.PLACE, "Grandma's Garden")]


def test_plain_quotes_read_as_before() -> None:
    text = "Character: Qiqi; Motion: juggle; Background: park."
    assert _warning_chips(text, "'juggle' unknown, shown as 'wave'") == [(ChipField.MOTION, "juggle")]
