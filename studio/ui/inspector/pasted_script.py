"""Several lines pasted into one of the instruction's fields: a script, made into turns.

An instruction is one line, so a field joined pasted lines into one without a word
("INT. BAKERY - MORNING Qiqi: "Good morning!" Yuzu waves. EXT. PARK - DAY ..."), and the
take made of it drew none of them. An author who pastes a scene means a turn of each thing
that happens, with its words said, so the editor offers that (:func:`offer_script_turns`),
or keeps the lines joined in the field when that is what was meant. The lines are read as a
script writes them (:func:`script_turns`):

- a scene heading (``INT. BAKERY - MORNING``, ``EXT. PARK - DAY``) makes no turn: it gives
  the turns after it their Background and Time;
- a line of dialogue (``Qiqi: "Good morning!"``) is said in the turn above it, as a line of
  its Story section's Dialogue (quotes around it dropped); with no turn above it, it makes a
  turn of its own, of the speaker talking;
- any other line (``Yuzu waves.``) is a turn of that text, as Free text.

Lines that read as one sentence wrapped in a document are joined without a question
(:func:`reads_as_script`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtWidgets import QMessageBox, QPushButton, QWidget

from studio.core.instruction import KEY_ALIASES, parse_instruction
from studio.core.story import DialogueLine, StoryFieldError, check_dialogue_line

_SCENE_HEADING = re.compile(r"^(?:INT\.?/EXT|EXT\.?/INT|I/E|INT|EXT|EST)\.?\s+(.+)$")
_DIALOGUE = re.compile(r"^([^\s:：\"“「][^:：\"“「]{0,39}?)\s*[:：]\s*(.+)$")
_QUOTES = (('"', '"'), ("“", "”"), ("「", "」"), ("『", "』"), ("'", "'"))
MOST_NAME_WORDS = 3
"""The most words a speaker's name before a colon has: a longer start is a sentence."""


@dataclass(frozen=True)
class ScriptTurn:
    """A turn a pasted script makes: its instruction line and the lines said in it."""

    text: str
    dialogue: tuple[DialogueLine, ...] = ()


def pasted_lines(text: str) -> list[str]:
    """The lines of ``text`` that hold something, each single-spaced (tabs as spaces)."""
    return [" ".join(line.replace("\t", " ").split()) for line in text.splitlines() if line.strip()]


_SENTENCE_ENDS = tuple('.!?。！？…"”」』)')


def reads_as_script(text: str) -> bool:
    """Whether ``text`` (a field's text with what was pasted) is lines of a script: two lines
    or more, of which a scene heading, a line of dialogue, or two that end a sentence each. A
    sentence wrapped over lines in a document ("gently sit / on the railing") is no script:
    joined, it is what was meant."""
    lines = pasted_lines(text)
    if len(lines) < 2:
        return False
    if any(_scene(line) is not None or _said(line) is not None for line in lines):
        return True
    return sum(line.endswith(_SENTENCE_ENDS) for line in lines) >= 2


def _scene(line: str) -> tuple[str, str] | None:
    """The place and time a scene heading gives (``EXT. PARK - DAY`` -> ``park``, ``day``),
    or None for a line that is none."""
    found = _SCENE_HEADING.match(line)
    if found is None:
        return None
    parts = [part.strip() for part in re.split(r"\s+[-–—]\s+", found.group(1)) if part.strip()]
    place = parts[0] if parts else ""
    time = parts[-1] if len(parts) > 1 else ""
    return (place.lower() if place.isupper() else place), (time.lower() if time.isupper() else time)


def _said(line: str) -> tuple[str, str] | None:
    """The speaker and words of a line of dialogue (``Qiqi: "Good morning!"``), or None: the
    name is a few words and no field name (``Background: park`` is no one speaking)."""
    found = _DIALOGUE.match(line)
    if found is None:
        return None
    name, words = found.group(1).strip(), found.group(2).strip()
    key = name.casefold()
    if len(name.split()) > MOST_NAME_WORDS or key in KEY_ALIASES:
        return None
    for opening, closing in _QUOTES:
        if len(words) > 1 and words.startswith(opening) and words.endswith(closing):
            words = words[1:-1].strip()
            break
    return (name, words) if words else None


def script_turns(text: str, compose: Callable[[str, str], str] | None = None) -> list[ScriptTurn]:
    """The turns a pasted script makes, in order (see the module's notes). ``compose(what,
    scene)`` writes a turn's line from its text and its scene's Background and Time
    (default: :func:`with_scene`)."""
    write = compose or with_scene
    turns: list[ScriptTurn] = []
    place, time = "", ""
    for line in pasted_lines(text):
        scene = _scene(line)
        if scene is not None:
            place, time = scene
            continue
        said = _said(line)
        if said is not None:
            try:
                spoken = check_dialogue_line(*said)
            except StoryFieldError:
                spoken = None
            if spoken is not None:
                if not turns:
                    turns.append(ScriptTurn(write(f"{said[0]} talks", f"{time} {place}".strip())))
                last = turns[-1]
                turns[-1] = ScriptTurn(last.text, (*last.dialogue, spoken))
                continue
        written = parse_instruction(line)
        if written.character or written.motion or written.background:  # a line of fields: the turn as written
            turns.append(ScriptTurn(line))
            continue
        turns.append(ScriptTurn(write(line, f"{time} {place}".strip())))
    return turns


def with_scene(what: str, scene: str) -> str:
    """A turn's line: ``what`` happens, as free text, in ``scene`` (its Background, the time
    first: ``Background: morning bakery; Yuzu waves.``), or ``what`` alone."""
    return f"Background: {scene}; {what}" if scene else what


@dataclass(frozen=True)
class ScriptOffer:
    """What the editor asks about lines pasted into a field (:func:`offer_script_turns`)."""

    field: str
    turns: list[ScriptTurn]
    lines: int


def offer_text(offer: ScriptOffer) -> tuple[str, str]:
    """The question's text and its details."""
    count = len(offer.turns)
    said = sum(len(turn.dialogue) for turn in offer.turns)
    made = f"{count} turn{'s' if count != 1 else ''}"
    text = (f"You pasted {offer.lines} lines into {offer.field}, but a turn's instruction is one line: "
            f"joined, they make one take that shows none of them well.")
    details = (f"Make {made} of them instead, one after another: each line that says what happens becomes a "
               "turn; a scene heading (INT. BAKERY - MORNING) gives the turns after it their Background and "
               "time; a line of dialogue (Qiqi: \"Good morning!\") is said in the turn above it, in its Story "
               "section's Dialogue" + (f" ({said} line{'s' if said != 1 else ''} here)." if said else ".")
               + "\n\nA whole story file (one turn a line, .txt, .md or .csv) can also be dropped on the window "
               "to import it as a new project.")
    return text, details


def offer_script_turns(parent: QWidget, offer: ScriptOffer, make: Callable[[], None],
                       keep: Callable[[], None]) -> QMessageBox:
    """Ask, in a box that is not modal, whether to make ``offer``'s turns (``make()``) or keep
    the lines joined in the field (``keep()``); closing the box keeps them."""
    text, details = offer_text(offer)
    box = QMessageBox(QMessageBox.Icon.Question, "Pasted lines", text, QMessageBox.StandardButton.NoButton, parent)
    box.setObjectName("pastedScript")
    box.setInformativeText(details)
    count = len(offer.turns)
    make_button = box.addButton(f"Make {count} turn{'s' if count != 1 else ''}",
                                QMessageBox.ButtonRole.AcceptRole)
    keep_button = box.addButton("Keep as one line", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(make_button)
    box.setEscapeButton(keep_button)

    def answered(button: QPushButton) -> None:
        (make if button is make_button else keep)()

    box.buttonClicked.connect(answered)
    box.setModal(False)
    box.show()
    return box
