"""What the author typed in the inspector that the project does not hold: read when the
project turns read-only under the typing (its database found damaged as a change was being
saved), so that the fields can show what is stored while the typing is still offered."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TypedText:
    """One field's typing the project does not hold."""

    field: str
    """Where it was typed, in the user's words: "the instruction of turn 2"."""
    text: str


def typing_for_clipboard(typed: list[TypedText]) -> str:
    """The typing as "Copy what I typed" puts it on the clipboard: one field's text as it
    was typed; several, each after the name of its field."""
    if len(typed) == 1:
        return typed[0].text
    return "\n\n".join(f"{item.field[0].upper()}{item.field[1:]}:\n{item.text}" for item in typed)


QUOTED_CHARS = 160
"""The typing quoted in a message: longer typing is cut there (the whole is copied)."""


def typing_in_words(typed: list[TypedText]) -> str:
    """"What you typed in the instruction of turn 2 ("jumps over the fence") was not saved",
    for the message that says the window turned read-only."""
    parts = []
    for item in typed:
        text = " ".join(item.text.split())
        quoted = text if len(text) <= QUOTED_CHARS else text[:QUOTED_CHARS - 1].rstrip() + "…"
        parts.append(f"{item.field} (“{quoted}”)")
    return "What you typed in " + "; in ".join(parts) + " was not saved"


TIP_CHARS = 600
"""The typing a tooltip shows: longer typing is cut there (the whole is copied)."""


def typing_tip(text: str) -> str:
    """``text`` as a tooltip shows it, cut at :data:`TIP_CHARS`."""
    return text if len(text) <= TIP_CHARS else text[:TIP_CHARS - 1].rstrip() + "…"
