"""What a fork copies, and what the window says it copied.

A fork is another way to tell the same moment: it copies everything the author wrote for the
turn (the instruction, to edit, and the story fields and notes, which belong to the moment,
not to a take: editing them marks no take stale) and nothing that was made or marked on it
(its takes, the chosen take, the bookmark): :class:`~studio.core.commands.Fork`. The window
saves notes being typed just before forking, so that the fork has them.
"""

from __future__ import annotations

from studio.core.model import Node


def fork_copied(node: Node) -> str:
    """What the status bar says after forking ``node``: what its alternative starts from."""
    story = node.story
    copied = ["instruction"] + [name for name, there in (
        ("dialogue", bool(story.dialogue)), ("narration", bool(story.narration)),
        ("duration", story.duration is not None), ("shot notes", bool(story.shot_notes)),
        ("notes", bool(node.notes))) if there]
    words = copied[0] if len(copied) == 1 else f"{', '.join(copied[:-1])} and {copied[-1]}"
    return (f"New alternative: a copy of this turn's {words}, without its takes. "
            "Edit it, then Generate (Ctrl+Enter); Undo (Ctrl+Z) removes it.")
