"""A turn's story fields: what a storyboard artist writes beside the picture.

The instruction says what the engine should draw; the story fields say what the audience
reads and hears (dialogue, narration), how long the turn lasts in the episode (the clip is
held on its last frame or trimmed at export) and notes for the shot. They never change
what an engine generates, so editing them marks no take stale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from studio.core.errors import StudioError

MAX_SPEAKER_CHARS = 60
MAX_LINE_CHARS = 1000
MAX_DIALOGUE_LINES = 50
MAX_NARRATION_CHARS = 4000
MAX_NOTES_CHARS = 4000
MIN_DURATION_S = 0.1
MAX_DURATION_S = 600.0


class StoryFieldError(StudioError):
    """A story field that a turn cannot hold (too long, a control character, a bad duration)."""


@dataclass(frozen=True, slots=True)
class DialogueLine:
    """One spoken line: who says it and what they say."""

    speaker: str
    text: str

    def shown(self) -> str:
        """``Qiqi: Hello!`` (or the text alone when nobody is named)."""
        return f"{self.speaker}: {self.text}" if self.speaker else self.text


@dataclass(frozen=True, slots=True)
class StoryFields:
    """Dialogue, narration, duration and shot notes of one turn (all optional)."""

    dialogue: tuple[DialogueLine, ...] = ()
    narration: str = ""
    duration: float | None = None
    """Seconds the turn lasts in the episode; None: its clip's own length."""
    shot_notes: str = ""

    @property
    def is_empty(self) -> bool:
        return not (self.dialogue or self.narration or self.duration is not None or self.shot_notes)

    @property
    def has_text(self) -> bool:
        """Whether there is anything for captions and subtitles to show."""
        return bool(self.dialogue or self.narration)

    def with_line(self, line: DialogueLine) -> StoryFields:
        return replace(self, dialogue=(*self.dialogue, line))


def _check_text(value: str, what: str, limit: int, *, multiline: bool) -> str:
    if not isinstance(value, str):
        raise StoryFieldError(f"The {what} must be text, not {type(value).__name__}.")
    if len(value) > limit:
        raise StoryFieldError(f"The {what} is {len(value):,} characters long; the limit is {limit:,}.")
    for position, char in enumerate(value, start=1):
        code = ord(char)
        if char == "\n" and multiline:
            continue
        if (code < 0x20 and char != "\t") or 0x7F <= code < 0xA0 or 0xD800 <= code < 0xE000:
            raise StoryFieldError(f"The {what} holds a control character (U+{code:04X}) at character {position}.",
                                  hint="Remove it; line breaks are allowed in narration and notes only.")
    return value.strip()


def check_dialogue_line(speaker: str, text: str) -> DialogueLine:
    """A clean dialogue line, or :class:`StoryFieldError` saying what is wrong."""
    speaker = " ".join(_check_text(speaker, "speaker's name", MAX_SPEAKER_CHARS, multiline=False).split())
    text = _check_text(text, "dialogue line", MAX_LINE_CHARS, multiline=False)
    if not text:
        raise StoryFieldError("The dialogue line is empty.", hint='Write what is said, e.g. --speaker Qiqi "Hello!"')
    return DialogueLine(speaker, text)


def check_duration(seconds: float | None) -> float | None:
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not math.isfinite(seconds):
        raise StoryFieldError(f"A duration is a number of seconds, not {seconds!r}.")
    if not MIN_DURATION_S <= seconds <= MAX_DURATION_S:
        raise StoryFieldError(f"A duration of {seconds:g} s is outside {MIN_DURATION_S:g}..{MAX_DURATION_S:g} s.",
                              hint="Give the seconds the turn should last, or 'clip' for the clip's own length.")
    return round(float(seconds), 3)


def check_story(story: StoryFields) -> StoryFields:
    """``story`` cleaned (text stripped), or :class:`StoryFieldError`."""
    if len(story.dialogue) > MAX_DIALOGUE_LINES:
        raise StoryFieldError(f"A turn holds at most {MAX_DIALOGUE_LINES} dialogue lines, not {len(story.dialogue)}.")
    return StoryFields(
        dialogue=tuple(check_dialogue_line(line.speaker, line.text) for line in story.dialogue),
        narration=_check_text(story.narration, "narration", MAX_NARRATION_CHARS, multiline=True),
        duration=check_duration(story.duration),
        shot_notes=_check_text(story.shot_notes, "shot notes", MAX_NOTES_CHARS, multiline=True),
    )
