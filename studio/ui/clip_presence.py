"""Chosen clips found gone behind the window's back (deleted or moved by hand), and what the
window says of them.

Nothing watches the media folder: a clip is looked for (one ``is_file``) when it is about to
be shown or played and when the export dialog opens, so a missing clip is flagged there and
then rather than at the end of an export. The export library's messages name a turn's node
id, which the command line needs; the window names turns by number only."""

from __future__ import annotations

import re
from collections.abc import Sequence

from studio.core.errors import StudioError

CLIP_MISSING_PILL = "clip missing"
"""A card's label while its chosen take's clip file is gone."""

CLIP_MISSING_CARD_TIP = ("Clip missing: the chosen take's clip file was moved or deleted. Re-roll the turn (R): "
                         "its new take is used in place of the missing one. Or put the file back.")

REROLL_AND_USE_HINT = ("Re-roll the turn (R): while its chosen clip is missing, the new take is used in its place. "
                       "Putting the file back works too.")
"""What fixes a missing clip: a plain re-roll kept the new take beside the chosen one (the turns
after it follow that one), so the next export failed the same way."""

_EXPORT_REMAKE_HINT = "Re-roll the turn to make its clip again."
"""The export library's hint for a missing or unreadable clip (studio.export.errors)."""

_NODE_PART = re.compile(r"""\(node [0-9a-f]{6,}(?:: ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"))?\)""")


def turn_list(numbers: Sequence[int]) -> str:
    """``turn 4``, ``turns 4 and 9``, ``turns 2, 4 and 9``."""
    shown = [str(number) for number in numbers]
    if len(shown) == 1:
        return f"turn {shown[0]}"
    return f"turns {', '.join(shown[:-1])} and {shown[-1]}"


def without_node_ids(text: str) -> str:
    """``text`` with the "(node 89a45f922a: '…')" an export message gives after "turn 4" cut
    to its quoted words ("turn 4 ('…')"), or left out where it quotes none."""
    def shorter(found: re.Match[str]) -> str:
        quoted = found.group(1)
        return f"({quoted})" if quoted else ""

    return re.sub(r" +\)", ")", re.sub(r" {2,}", " ", _NODE_PART.sub(shorter, text))).replace(" .", ".")


def in_window_words(error: StudioError) -> StudioError:
    """An export's refusal as the window says it: no node ids, and a missing clip's hint naming
    what really makes it again here (see :data:`REROLL_AND_USE_HINT`)."""
    message = without_node_ids(error.message)
    hint = without_node_ids(error.hint).replace(_EXPORT_REMAKE_HINT, REROLL_AND_USE_HINT)
    if message == error.message and hint == error.hint:
        return error
    said = StudioError(message, hint=hint)
    said.__cause__ = error
    return said


def missing_clips_message(numbers: Sequence[int], *, playing: bool = False) -> str:
    """The status bar's word on chosen clips found gone (``playing``: as Play starts)."""
    which = turn_list(numbers)
    verb = "is" if len(numbers) == 1 else "are"
    clip = "clip" if len(numbers) == 1 else "clips"
    said = f"The {clip} of {which} {verb} missing (moved or deleted?)"
    if playing:
        said += ": the player shows a stand-in in " + ("its place" if len(numbers) == 1 else "their places")
    again = "it" if len(numbers) == 1 else "each"
    return f"{said}. Re-roll {again} (R): the new take is used in place of the missing one."
