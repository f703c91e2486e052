"""A place, a character or a warning with an "&" in it ("Tom & Jerry's café") lost the "&" on
its understanding chip and in the chip's menu of words, its next letter underlined and bound
to Alt+that letter (Qt read it as a keyboard mnemonic): "place: Tom  Jerry's café"."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence

from studio.core.instruction import parse_instruction
from studio.core.model import Take
from studio.ui.inspector.chips_view import ChipsView
from studio.ui.inspector.understanding import ChipField
from studio.ui.inspector.vocabulary import Vocabulary

PLACE = "Tom & Jerry's café"


def _shown(label: str) -> str:
    """What Qt draws for a button's or a menu item's label (``&&`` is one "&"); it fails when
    the label has a mnemonic (a lone "&" that Qt drops, binding Alt+the next letter)."""
    assert QKeySequence.mnemonic(label).isEmpty(), f"{label!r} has a keyboard mnemonic"
    return label.replace("&&", "&")


def test_chips_and_their_words_show_an_ampersand_as_written(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = ChipsView()
    qtbot.addWidget(view)
    view.set_vocabulary(Vocabulary(backgrounds=["Rock & Roll hall", "town"]))
    instruction = parse_instruction(f"Character: Qiqi; Motion: run; Background: {PLACE}.")
    take = Take(id="t", node_id="n", engine="sketch", conditioning={"location": PLACE},
                warnings=(f"'{PLACE}' unknown, shown as 'town & fields'",))
    view.set_turn(instruction, take)

    shown = [_shown(button.text()) for button in view.buttons]
    assert f"place: {PLACE}" in shown
    assert f"⚠ '{PLACE}' unknown, shown as 'town & fields'" in shown

    place = next(chip for chip in view.chips if chip.field is ChipField.PLACE and not chip.warning)
    menu = view.menu_for(place)
    labels = [_shown(action.text()) for action in menu.actions()]
    assert labels[0] == f"Replace '{PLACE}' with…"
    assert "Rock & Roll hall" in labels
    rock = next(action for action in menu.actions() if action.data() == "Rock & Roll hall")
    seen: list[str] = []
    view.fix_requested.connect(seen.append)
    rock.trigger()
    assert seen and "Background: Rock & Roll hall" in seen[0]
