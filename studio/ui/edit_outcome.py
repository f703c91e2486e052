"""What the status bar says after an edit changed more of the story than the edited turn."""

from __future__ import annotations


def _turns(count: int) -> str:
    return f"{count} turn{'' if count == 1 else 's'}"


def saved_instruction_message(has_take: bool, stale_after: int) -> str:
    """After Save text: whether the turn's take still matches its instruction, and how many of
    the turns after it are stale now (their takes were drawn from the story as it was)."""
    said = "Instruction saved"
    parts = []
    if has_take:
        parts.append("its take no longer matches it")
    if stale_after:
        parts.append(f"{_turns(stale_after)} after it {'is' if stale_after == 1 else 'are'} stale")
    if not parts:
        return f"{said}."
    return f"{said}; {', and '.join(parts)}: Shift+R re-rolls it and the turns after it."

