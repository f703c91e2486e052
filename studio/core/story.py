"""A turn's story fields: what a storyboard artist writes beside the picture.

The instruction says what the engine should draw; the story fields say what the audience
reads and hears (dialogue, narration), how long the turn lasts in the episode (the clip is
held on its last frame or trimmed at export) and notes for the shot. They never change
what an engine generates, so editing them marks no take stale.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from studio.core.errors import StudioError
from studio.core.text import (
    BIDI_CONTROLS,
    UNICODE_LINE_BREAKS,
    describe_character,
    first_few,
    is_control,
    shows_something,
    zero_width_problem,
)

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
    plural = what.endswith("notes")  # "the shot notes hold", "the narration holds"
    if len(value) > limit:
        raise StoryFieldError(f"The {what} {'are' if plural else 'is'} {len(value):,} characters long; "
                              f"the limit is {limit:,}.")
    for position, char in enumerate(value, start=1):
        if char == "\n" and multiline:
            continue
        if is_control(char) or 0xD800 <= ord(char) < 0xE000:  # tabs too: the README promises it
            raise StoryFieldError(
                f"The {what} {'hold' if plural else 'holds'} a control character ({describe_character(char)}) "
                f"at character {position}.",
                hint="Remove it (a space separates words); line breaks are allowed in narration and notes only.")
        if char in UNICODE_LINE_BREAKS and not multiline:
            raise StoryFieldError(
                f"The {what} {'hold' if plural else 'holds'} a line break ({describe_character(char)}) "
                f"at character {position}.", hint="A speaker's name and a dialogue line are one line each.")
    return value.strip()


def _refuse_directional_controls(speaker: str) -> None:
    """A speaker's name is a name, as a cast member's is: an override, embedding or isolate in
    it reorders the line it starts ("Qiqi: ..." in subtitles and on sheets), as it would a name
    in the cast, which refuses them."""
    for position, char in enumerate(speaker, start=1):
        if char in BIDI_CONTROLS:
            raise StoryFieldError(
                f"The speaker's name holds {describe_character(char)} at character {position}: it would show the "
                "rest of the line reordered.",
                hint="Remove it; a right-to-left name needs none (the marks U+200E and U+200F are allowed).")


def _refuse_zero_width(speaker: str) -> None:
    """A speaker is told apart by name: one holding a character that shows as nothing
    ("Qi", U+200B, "qi") prints as "Qiqi" and is still another speaker. The joiners that an
    emoji sequence or a joining script needs between two characters are kept."""
    problem = zero_width_problem(speaker, "The speaker's name")
    if problem:
        raise StoryFieldError(problem, hint="Remove it (retype the name rather than paste it).")


def invisible_characters(text: str) -> str:
    """The distinct characters of ``text`` named for a message ("U+3000, U+200B, a zero-width
    space"), white space included: what a text that shows nothing is made of."""
    return first_few([describe_character(char) for char in dict.fromkeys(text)], separator="; ", limit=4)


def _refuse_showing_nothing(text: str, what: str, hint: str, *, given: str = "",
                            shown_as: str = "an empty line") -> None:
    """Refuse a non-empty ``text`` that draws nothing: only format characters (zero-width
    spaces, joiners, direction marks, variation selectors) and spaces. Stripping white space
    leaves U+200B, so such a text was stored, and shown as an empty line (or an empty name
    before the colon) in captions, subtitles and sheets. ``given``: the text as typed, named
    in the message (the ideographic spaces that stripping took away included); ``shown_as``:
    what it would look like there."""
    if text and not shows_something(text):
        shown = given.strip(" ") or text
        raise StoryFieldError(f"{what} {shown!r} holds only {invisible_characters(shown)}: it shows as nothing, "
                              f"so it would be {shown_as} in captions, subtitles and sheets.", hint=hint)


def check_dialogue_line(speaker: str, text: str) -> DialogueLine:
    """A clean dialogue line, or :class:`StoryFieldError` saying what is wrong."""
    speaker = " ".join(_check_text(speaker, "speaker's name", MAX_SPEAKER_CHARS, multiline=False).split())
    _refuse_directional_controls(speaker)
    _refuse_zero_width(speaker)
    _refuse_showing_nothing(speaker, "The speaker's name", shown_as="an empty name before the line",
                            hint="Type the name (retype it rather than paste it), or leave it empty for nobody.")
    written = _check_text(text, "dialogue line", MAX_LINE_CHARS, multiline=False)
    if not written:
        raise StoryFieldError("The dialogue line is empty.", hint='Write what is said, e.g. --speaker Qiqi "Hello!"')
    _refuse_showing_nothing(written, "The dialogue line", given=text,
                            hint='Write what is said, e.g. --speaker Qiqi "Hello!" (retype it rather than paste it).')
    text = written
    return DialogueLine(speaker, text)


def _check_multiline(value: str, what: str, limit: int) -> str:
    """Narration or shot notes, cleaned: text that shows nothing (only zero-width spaces,
    marks, ideographic spaces...) is stored as empty, as blank text is (stripped), so that
    the turn has no narration rather than one that exports as an empty caption."""
    text = _check_text(value, what, limit, multiline=True)
    return text if shows_something(text) else ""


def check_duration(seconds: float | None) -> float | None:
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise StoryFieldError(f"A duration is a number of seconds, not {seconds!r}.")
    if not math.isfinite(seconds):
        raise StoryFieldError(f"A duration is a finite number of seconds ({MIN_DURATION_S:g} to {MAX_DURATION_S:g}), "
                              f"not {seconds!r}.", hint=_DURATION_HINT)
    if not MIN_DURATION_S <= seconds <= MAX_DURATION_S:
        raise StoryFieldError(f"A duration of {seconds:g} s is outside {MIN_DURATION_S:g}..{MAX_DURATION_S:g} s.",
                              hint=_DURATION_HINT)
    return round(float(seconds), 3)


_DURATION_HINT = "Give the seconds the turn should last, or 'clip' for the clip's own length."
_DURATION_RE = re.compile(r"([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))[ ]*(?:s|sec|secs|seconds?)?", re.IGNORECASE)


def parse_duration(text: str, *, alternatives: str = "") -> float:
    """Seconds written as a person writes them (``3``, ``3.5``, ``3.5s``, ``3.5 s``, ``2 seconds``),
    checked as :func:`check_duration` checks them; anything else (``3ss``, ``1e3``, ``inf``,
    ``1_0``, digits of other scripts) is a :class:`StoryFieldError` quoting what was written;
    ``alternatives`` (``", or 'clip'"``) names what else the caller takes."""
    written = text.strip()
    shown = repr(written) if len(written) <= 40 else f"{written[:40]!r}... ({len(written):,} characters)"
    match = _DURATION_RE.fullmatch(written)
    if match is None:
        raise StoryFieldError(f"A duration is a number of seconds such as 3, 3.5 or 3.5s{alternatives}, not {shown}.",
                              hint=_DURATION_HINT)
    number = match.group(1)
    seconds = float(number)  # 400 nines read as inf: say the number as written
    if not MIN_DURATION_S <= seconds <= MAX_DURATION_S:
        said = number if len(number) <= 20 else f"{number[:20]}... ({len(number):,} digits)"
        raise StoryFieldError(f"A duration of {said} s is outside {MIN_DURATION_S:g}..{MAX_DURATION_S:g} s.",
                              hint=_DURATION_HINT)
    result = check_duration(seconds)
    assert result is not None
    return result


def check_story(story: StoryFields, kept: StoryFields | None = None) -> StoryFields:
    """``story`` cleaned (text stripped), or :class:`StoryFieldError`.

    What ``story`` has as ``kept`` has it (the turn's fields before an edit) is taken as it
    is: text stored by an older version or another program (a tab in its narration, say)
    does not stop an edit of the turn's other fields; only the fields the edit changes are
    checked."""
    if len(story.dialogue) > MAX_DIALOGUE_LINES:
        raise StoryFieldError(f"A turn holds at most {MAX_DIALOGUE_LINES} dialogue lines, not {len(story.dialogue)}.")

    def same(name: str) -> bool:
        return kept is not None and getattr(story, name) == getattr(kept, name)

    return StoryFields(
        dialogue=tuple(line if kept is not None and line in kept.dialogue
                       else check_dialogue_line(line.speaker, line.text) for line in story.dialogue),
        narration=(story.narration if same("narration")
                   else _check_multiline(story.narration, "narration", MAX_NARRATION_CHARS)),
        duration=story.duration if same("duration") else check_duration(story.duration),
        shot_notes=(story.shot_notes if same("shot_notes")
                    else _check_multiline(story.shot_notes, "shot notes", MAX_NOTES_CHARS)),
    )
