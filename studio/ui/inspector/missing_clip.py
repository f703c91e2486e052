"""A take whose clip file is gone can't be chosen, in the take tiles and in Compare alike:
the turn would play "clip missing" and stop every export of its branch."""

from __future__ import annotations

from pathlib import Path

from studio.ui.media_cache import ClipCache

CLIP_MISSING_TEXT = "Clip missing"
CLIP_MISSING_TIP = ("This take's clip file is missing or damaged (moved or deleted?), so it can't be used: put the "
                    "file back, or re-roll this turn for a new take (it joins this window).")


def clip_missing(path: str, clips: ClipCache) -> bool:
    """Whether the clip at ``path`` can't be played: no file there (deleted or moved since), a
    stored path the project refused (""), or a file that failed to decode and is unchanged
    since. Check it each time: the file may go or come back meanwhile."""
    return not path or not Path(path).is_file() or clips.is_broken(path)
