"""What the window says, and does, when a project's database turns out damaged while open.

A change that can't be saved because ``project.db`` is damaged will not save on a second
try either: the window turns read-only (no more edits or generations that would be lost),
says so in plain words, and offers Save a copy…, which then writes the story the window
still holds to a new, healthy project (:mod:`studio.storage.rescue`)."""

from __future__ import annotations

from pathlib import Path

from studio.core.errors import StudioError
from studio.storage import DB_NAME
from studio.storage.errors import existing_backups
from studio.ui.inspector.typed_not_saved import TypedText, typing_in_words
from studio.ui.session import ReadOnlyReason


def _backup_words(folder: Path) -> str:
    backups = existing_backups(folder)
    if not backups:
        return ""
    names = ", ".join(path.name for path in backups)
    return (f" A backup made before an upgrade is in the project folder ({names}): it holds the story as it "
            "was then.")


def damaged_reason(folder: Path) -> ReadOnlyReason:
    """The read-only reason of the open project ``folder`` whose database is damaged."""
    todo = ("Changes can no longer be saved. Use File › Save a copy… to save the story as this window shows it "
            "(with every clip that can still be read) to a new project, which opens for editing."
            + _backup_words(folder))
    return ReadOnlyReason(f"{DB_NAME} of {folder.name} is damaged", todo, damaged=True)


def damaged_notice(folder: Path, typed: list[TypedText] | None = None) -> StudioError:
    """The one message the window shows when it finds the open project's database damaged.
    ``typed``: what the author typed that could not be saved; the window shows what the
    project holds, and the message quotes the typing and says where to get it whole."""
    reason = damaged_reason(folder)
    kept = ""
    if typed:
        kept = (f" {typing_in_words(typed)}: the window shows the turn as the project holds it. “Copy what I "
                "typed”, on the read-only line over the story, puts your typing on the clipboard, to paste "
                "into the copy.")
    return StudioError(f"The project file {DB_NAME} of {folder.name} is damaged: the last change could not be "
                       f"saved, and the window is now read-only.{kept}", hint=reason.todo)


UNREADABLE_NAMED = 5
"""The media files left out of a rescued copy that its notice names one by one."""


def rescued_notice(copy: Path, damaged: Path, unreadable: list[str]) -> StudioError:
    """What the window says after saving a copy of a project whose database was damaged:
    the copy holds the story as the window held it; media that could not be read are named."""
    left_out = ""
    if unreadable:
        shown = ", ".join(unreadable[:UNREADABLE_NAMED])
        more = f" and {len(unreadable) - UNREADABLE_NAMED} more" if len(unreadable) > UNREADABLE_NAMED else ""
        left_out = (f" {len(unreadable)} media file{'s' if len(unreadable) != 1 else ''} could not be read and "
                    f"{'are' if len(unreadable) != 1 else 'is'} missing from it ({shown}{more}): re-roll those "
                    "turns to make them again.")
    return StudioError(f"Saved a copy at {copy} from the story the window held ({DB_NAME} of {damaged.name} is "
                       f"damaged); the copy is open for editing.{left_out}",
                       hint=f"The damaged project is left as it was at {damaged}.")
