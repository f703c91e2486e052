"""Instructions: the text a user writes for a turn, and its parsed fields.

AnimeGamer writes one turn as ``Character: Qiqi; Motion: gently sit on railing;
Background: day town.``. We accept that format with any field order, extra spaces,
lowercase keys, commas instead of semicolons between fields, a missing final period,
extra fields (``Time:``, ``Camera:``, ``Mood:``) and free text. A ``Key: value`` part whose
key is none of ours is an extra field only where the instruction is written as fields; in
prose ("Qiqi says: don't cry", "Then: she waves") it is free text (see
:func:`parse_instruction`). The raw text is always kept; the parsed fields are a convenience
for engines and views and never replace it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from studio.core.errors import StudioError
from studio.core.speech import is_script_line
from studio.core.text import UNICODE_LINE_BREAKS, describe_character, is_control

MAX_INSTRUCTION_CHARS = 2000
"""Longest instruction a node accepts. AnimeGamer's own lines are under 100 characters."""

KEY_ALIASES: dict[str, str] = {
    "character": "character",
    "char": "character",
    "who": "character",
    "name": "character",
    "motion": "motion",
    "action": "motion",
    "move": "motion",
    "background": "background",
    "bg": "background",
    "location": "background",
    "place": "background",
    "scene": "background",
    "where": "background",
    "time": "time",
    "time of day": "time",
    "camera": "camera",
    "cam": "camera",
    "shot": "camera",
    "adverb": "adverb",
    "manner": "adverb",
    # Japanese field names, for authors who write their instructions in Japanese
    "キャラクター": "character",
    "キャラ": "character",
    "人物": "character",
    "動作": "motion",
    "動き": "motion",
    "モーション": "motion",
    "背景": "background",
    "場所": "background",
    "時間帯": "time",
    "時間": "time",
    "カメラ": "camera",
}

TIME_WORDS: dict[str, str] = {
    "day": "day",
    "daytime": "day",
    "morning": "day",
    "noon": "day",
    "afternoon": "day",
    "midday": "day",
    "sunny": "day",
    "sunset": "sunset",
    "dusk": "sunset",
    "evening": "sunset",
    "dawn": "sunset",
    "sunrise": "sunset",
    "twilight": "sunset",
    "night": "night",
    "nighttime": "night",
    "midnight": "night",
}
"""Words that name a time of day, mapped to the three times the studio renders."""

RENDERED_TIMES: tuple[str, ...] = ("day", "sunset", "night")
TIME_CHOICES: tuple[str, ...] = ("day", "sunset", "night", "dawn", "morning", "noon", "afternoon", "evening",
                                 "dusk", "midnight")
"""Time words offered to authors, in the order of a day (the first three are drawn as they are)."""

_TIME_LIGHT = {"day": "daylight", "sunset": "low warm light of sunset", "night": "night light"}


def time_shown(word: str) -> str:
    """The time an engine draws for ``word`` (``dawn`` -> ``sunset``); '' for an unknown word."""
    return TIME_WORDS.get(" ".join(word.split()).lower(), "")


def time_note(word: str) -> str:
    """A plain sentence saying how ``word`` is drawn, or '' when it is drawn as it is.

    ``time_note("dawn")`` -> ``"'dawn' is drawn with the low warm light of sunset."``
    """
    key = " ".join(word.split()).lower()
    if not key or key in RENDERED_TIMES:
        return ""
    shown = TIME_WORDS.get(key)
    if not shown:
        return f"'{key}' is not a time of day the studio knows; it is drawn by day."
    return f"'{key}' is drawn with the {_TIME_LIGHT[shown]}."

KNOWN_ADVERBS: frozenset[str] = frozenset(
    {"gently", "slowly", "calmly", "softly", "lazily", "smoothly", "steadily", "normally",
     "quickly", "fast", "rapidly", "briskly", "wildly", "energetically", "furiously", "happily",
     "sadly", "carefully", "quietly", "excitedly", "playfully", "proudly", "shyly"}
)

_LINK_WORDS = frozenset({"in", "at", "on", "during", "by", "the", "of"})
_JAPANESE_KEYS = "|".join(sorted((key for key in KEY_ALIASES if not key.isascii()), key=len, reverse=True))
_FIELD_RE = re.compile(rf"^\s*([A-Za-z][A-Za-z ]{{0,20}}?|{_JAPANESE_KEYS})\s*[:：]\s*(.*)$", re.DOTALL)
_ANY_KEY = "|".join(re.escape(key).replace(r"\ ", r"\s+") for key in sorted(KEY_ALIASES, key=len, reverse=True))
_SPLIT_RE = re.compile(rf"[;；\n]|[,，、](?=\s*(?:{_ANY_KEY})\s*[:：])", re.IGNORECASE)
"""Where one field ends: a semicolon or a line break, or a comma followed by a known field
key and its colon (``Character: Qiqi, Motion: run``: people write commas). A comma followed
by anything else stays in the value (``Motion: waves, smiling``). Every separator is one
character long (:func:`field_spans` counts on it)."""


class InstructionError(StudioError):
    """An instruction that a node cannot hold (empty or too long)."""


@dataclass(frozen=True, slots=True)
class Instruction:
    """A turn's instruction: the raw text and what could be read from it."""

    raw: str
    character: str = ""
    motion: str = ""
    adverb: str = ""
    background: str = ""
    time_of_day: str = ""
    camera: str = ""
    free_text: str = ""
    extra: tuple[tuple[str, str], ...] = field(default=())

    @property
    def is_empty(self) -> bool:
        return not self.raw.strip()

    def fields(self) -> dict[str, str]:
        """The parsed fields that are set, by name (for display and JSON)."""
        out = {
            name: getattr(self, name)
            for name in ("character", "motion", "adverb", "background", "time_of_day", "camera", "free_text")
            if getattr(self, name)
        }
        out.update(dict(self.extra))
        return out

    def with_raw(self, raw: str) -> Instruction:
        return replace(parse_instruction(raw), raw=raw)


def validate_instruction_text(text: str) -> str:
    """Return ``text`` if a node may hold it, else raise :class:`InstructionError`."""
    if not isinstance(text, str) or not text.strip():
        raise InstructionError(
            "The instruction is empty.",
            hint="Write what happens in this turn, e.g. 'Character: Qiqi; Motion: gently sit on railing; "
            "Background: day town.'",
        )
    if len(text) > MAX_INSTRUCTION_CHARS:
        raise InstructionError(
            f"The instruction is {len(text):,} characters long; the limit is {MAX_INSTRUCTION_CHARS:,}.",
            hint="Shorten it, or move the extra text into the node's notes.",
        )
    for position, char in enumerate(text, start=1):
        code = ord(char)
        if 0xD800 <= code < 0xE000:
            raise InstructionError(
                f"The instruction is not valid UTF-8 text (a bad byte at character {position}).",
                hint="Check the text's encoding; instructions are UTF-8.",
            )
        if is_control(char):  # the tab too: README promises one line of plain text
            raise InstructionError(
                f"The instruction holds a control character ({describe_character(char)}) at character {position}.",
                hint="An instruction is one line of plain text; remove line breaks, tabs and other control "
                     "characters (a space separates words).",
            )
        if char in UNICODE_LINE_BREAKS:  # one line, as the demo reader and the window see it
            raise InstructionError(
                f"The instruction holds a line break ({describe_character(char)}) at character {position}.",
                hint="An instruction is one line of plain text; put each turn on a line of its own.",
            )
    _check_repeated_fields(text)
    return text


def _field(part: str) -> tuple[str, str, str] | None:
    """A ``Key: value`` part as (key in lower case, key as written, value); None for text."""
    match = _FIELD_RE.match(part)
    if match is None:
        return None
    return " ".join(match.group(1).lower().split()), match.group(1).strip(), _clean(match.group(2))


def _fields(text: str) -> list[tuple[str, str, str]]:
    """The known fields of ``text`` in order: (field name, key as written, value)."""
    fields = (_field(part) for part in _SPLIT_RE.split(text))
    return [(KEY_ALIASES[key], written, value) for key, written, value in filter(None, fields) if key in KEY_ALIASES]


def field_spans(text: str) -> dict[str, tuple[int, int]]:
    """Where ``text`` states each of its fields' values: field name (``character``, ``motion``,
    ``background``, ``time``...) -> (start, end) of the first non-empty value, its closing full
    stop left out."""
    spans: dict[str, tuple[int, int]] = {}
    at = 0
    for part in _SPLIT_RE.split(text):  # one-character separators
        match = _FIELD_RE.match(part)
        name = KEY_ALIASES.get(" ".join(match.group(1).lower().split())) if match else None
        if match is not None and name is not None and name not in spans:
            value = match.group(2).rstrip().rstrip(".。").rstrip()
            if value:
                spans[name] = (at + match.start(2), at + match.start(2) + len(value))
        at += len(part) + 1
    return spans


def _check_repeated_fields(text: str) -> None:
    """A turn has one character, one motion, one place...: a field given twice is refused
    rather than one of the two silently dropped."""
    seen: dict[str, tuple[str, str]] = {}
    for name, key, value in _fields(text):
        if not value:
            continue
        if name in seen:
            first_key, first = seen[name]
            what = _FIELD_WORDS.get(name, name)
            raise InstructionError(
                f"The instruction gives its {what} twice ('{first_key}: {first}' and '{key}: {value}').",
                hint=f"Keep one; a turn has one {what}"
                     + (" (another character can speak in the turn's dialogue)." if name == "character" else "."))
        seen[name] = (key, value)
    if "time" in seen and "background" in seen:
        said, _place = _split_time(seen["background"][1])
        time_key, time = seen["time"]
        if said and time_shown(said) != time_shown(time):
            raise InstructionError(
                f"The instruction gives two times of day: '{said}' in '{seen['background'][0]}: "
                f"{seen['background'][1]}' and '{time_key}: {time}'.",
                hint="Keep one of them.")


_FIELD_WORDS = {"background": "place", "time": "time of day", "adverb": "manner"}


def _split_adverb(motion: str) -> tuple[str, str]:
    words = motion.split()
    if len(words) >= 2:
        first = words[0].lower()
        if first in KNOWN_ADVERBS or (first.endswith("ly") and len(first) > 3):
            return first, " ".join(words[1:])
        last = words[-1].lower()
        if last in KNOWN_ADVERBS:
            return last, " ".join(words[:-1])
    return "", motion


def _split_time(background: str) -> tuple[str, str]:
    """Pull a time-of-day word out of a background ('day town' -> ('day', 'town'))."""
    words = background.split()
    kept: list[str] = []
    time = ""
    for word in words:
        key = word.lower().strip(",")
        if not time and key in TIME_WORDS:
            time = key  # the author's word; engines map it (see time_shown)
            continue
        kept.append(word)
    if time:
        # "town at night" -> "town"; "at dusk in the park" -> "park"
        while kept and kept[-1].lower() in _LINK_WORDS:
            kept.pop()
        while len(kept) > 1 and kept[0].lower() in _LINK_WORDS:
            kept.pop(0)
    return time, " ".join(kept)


def _clean(value: str) -> str:
    value = " ".join(value.split())
    return value.rstrip(".。").strip()


SENTENCE_VERBS: frozenset[str] = frozenset(
    {"says", "said", "asks", "asked", "whispers", "whispered", "shouts", "shouted", "yells", "yelled", "replies",
     "replied", "answers", "answered", "cries", "cried", "calls", "called", "screams", "screamed", "mutters",
     "muttered", "murmurs", "murmured", "exclaims", "exclaimed", "adds", "added", "tells", "told", "thinks",
     "thought", "sings", "sang", "sighs", "sighed", "laughs", "laughed", "sobs", "sobbed", "begs", "begged",
     "pleads", "pleaded", "insists", "insisted", "announces", "announced", "declares", "declared", "explains",
     "explained", "continues", "continued", "repeats", "repeated", "wonders", "wondered", "writes", "wrote",
     "reads", "notices", "noticed", "remembers", "remembered", "giggles", "giggled", "grumbles", "grumbled",
     "smiles", "smiled", "nods", "nodded", "waves", "waved", "runs", "ran", "walks", "walked", "jumps", "jumped",
     "sits", "sat", "stands", "stood", "dances", "danced", "goes", "went", "comes", "came", "looks", "looked",
     "turns", "turned", "does", "did", "feels", "felt", "wants", "wanted", "decides", "decided"})
"""Verbs that, second in a key ("Qiqi says: don't cry", "Aoi whispers: come here"), make the
key a sentence's subject and verb rather than a field's name."""
_PRONOUNS = frozenset({"i", "you", "he", "she", "it", "we", "they"})
LEAD_IN_WORDS: frozenset[str] = frozenset(
    {"then", "and then", "next", "later", "meanwhile", "suddenly", "finally", "first", "afterwards",
     "after that", "and", "but", "so", "also", "now", "again", "still", "soon"})
"""Words that lead into a sentence ("Then: she waves"): never a field's name."""
LABEL_WORDS: frozenset[str] = frozenset(
    {"note", "notes", "nb", "ps", "prompt", "description", "desc", "summary", "text", "instruction", "comment",
     "remark", "memo", "idea", "caption", "beat"})
"""Keys that label what follows ("Note: Qiqi runs to the park"): written alone, the words after
them are the instruction; beside other fields, they are a field of their own."""


def _is_said(key: str) -> bool:
    """Whether the (lower-case) key is a sentence's subject and verb: "qiqi says", "she whispers"."""
    words = key.split()
    return len(words) == 2 and (words[1] in SENTENCE_VERBS or words[0] in _PRONOUNS)


def _field_like(field: tuple[str, str, str] | None) -> bool:
    """Whether a part reads as a field of a field list: a known key, or an unknown key of two
    words at most that leads into no sentence and is none."""
    if field is None:
        return False
    key = field[0]
    if key in KEY_ALIASES:
        return True
    return len(key.split()) <= 2 and key not in LEAD_IN_WORDS and not _is_said(key)


def _as_extra(field: tuple[str, str, str], as_fields: bool) -> bool:
    """Whether an unknown key's part is an extra field (else it is free text). It is one where
    the instruction is written as fields (``Character: Qiqi; Mood: happy``), and where its value
    is a script line (``Aoi: "I am home"``: the engines read who speaks from it)."""
    return _field_like(field) and (as_fields or is_script_line(field[2]))


def _free_part(part: str, field: tuple[str, str, str] | None) -> str:
    """The free text of a part that is no field: the words after a lead-in or a label ("Then:
    she waves" -> "she waves"), else the whole part ("Qiqi says: don't cry" keeps its subject)."""
    if field is not None and (field[0] in LEAD_IN_WORDS or field[0] in LABEL_WORDS) and field[2]:
        return field[2]
    return _clean(part)


def parse_instruction(text: str) -> Instruction:
    """Parse an instruction; never raises (unknown parts go to ``free_text``).

    An unknown ``Key: value`` part is an extra field only where the instruction is written as
    fields: beside a known field, or in a list of two or more such parts (``Mood: happy;
    Weather: rain``), or where its value is a script line. Elsewhere it is prose and its text
    is free text: a subject and verb ("Qiqi says: don't cry"), a lead-in ("Then: she waves")
    or one label or name before a sentence ("Note: Qiqi runs to the park")."""
    raw = text if isinstance(text, str) else str(text)
    values: dict[str, str] = {}
    extra: list[tuple[str, str]] = []
    free: list[str] = []
    parts = [(part, _field(part)) for part in _SPLIT_RE.split(raw) if part.strip()]
    as_fields = any(keyed is not None and keyed[0] in KEY_ALIASES for _, keyed in parts) \
        or sum(_field_like(keyed) for _, keyed in parts) >= 2
    for part, keyed in parts:
        if keyed and keyed[0] in KEY_ALIASES:
            # A field given twice (refused for new text, see validate_instruction_text): the later wins.
            name, value = KEY_ALIASES[keyed[0]], keyed[2]
            if value or name not in values:
                values[name] = value
        elif keyed and _as_extra(keyed, as_fields):
            extra.append((keyed[0], keyed[2]))
        else:
            cleaned = _free_part(part, keyed)
            if cleaned:
                free.append(cleaned)

    adverb, motion = _split_adverb(values.get("motion", ""))
    if values.get("adverb"):
        adverb = values["adverb"].lower()
    time, background = _split_time(values.get("background", ""))
    if values.get("time"):
        time = " ".join(values["time"].lower().split())
    return Instruction(
        raw=raw,
        character=values.get("character", ""),
        motion=motion,
        adverb=adverb,
        background=background,
        time_of_day=time,
        camera=values.get("camera", "").lower(),
        free_text="; ".join(free),
        extra=tuple(extra),
    )
