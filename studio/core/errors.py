"""Errors that carry a message meant for the user.

Every module raises a subclass of :class:`StudioError` for bad input; the CLI prints the
message (no traceback) and exits with status 2, the GUI shows it in a dialog.
"""

from __future__ import annotations


class StudioError(Exception):
    """Bad input or an unusable file, with a message a user can act on."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message}\n  hint: {self.hint}" if self.hint else self.message
