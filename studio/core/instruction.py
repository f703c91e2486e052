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
import unicodedata
from dataclasses import dataclass, field, replace

from studio.core.errors import StudioError
from studio.core.graphemes import is_wide
from studio.core.speech import is_script_line
from studio.core.text import UNICODE_LINE_BREAKS, describe_character, is_control, shows_something

MAX_INSTRUCTION_CHARS = 2000
"""Longest instruction a node accepts, in characters as a reader sees them (see
:func:`instruction_length`). AnimeGamer's own lines are under 100 characters."""


def instruction_length(text: str) -> int:
    """How long ``text`` is as the instruction limit counts it: in characters as a reader sees
    them (:func:`~studio.core.graphemes.grapheme_count`), so that an emoji with its skin tone,
    two code points, is one character, as the author counts it. The core, the window's editor
    and the game_demo import all count with this."""
    from studio.core.graphemes import grapheme_count

    return grapheme_count(text)


def too_long_message(length: int) -> str:
    """What is said of an instruction ``length`` characters long, over the limit (the same
    words wherever it is refused)."""
    return f"The instruction is {length:,} characters long; the limit is {MAX_INSTRUCTION_CHARS:,}."


def instruction_too_long(text: str) -> int:
    """``text``'s length (:func:`instruction_length`) when it is over the limit, else 0. A
    text of at most the limit in code points is never over it (no character a reader sees is
    shorter than one code point), so it is not split into characters at all."""
    if len(text) <= MAX_INSTRUCTION_CHARS:
        return 0
    length = instruction_length(text)
    return length if length > MAX_INSTRUCTION_CHARS else 0

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
    # Chinese field names, Simplified and Traditional, for authors who write in Chinese (人物,
    # 動作, 背景 and 時間 are written the same in Japanese and Traditional Chinese: above)
    "角色": "character",
    "动作": "motion",
    "地点": "background",
    "地點": "background",
    "场景": "background",
    "場景": "background",
    "场所": "background",
    "时间": "time",
    "时段": "time",
    "時段": "time",
    "镜头": "camera",
    "鏡頭": "camera",
    "运镜": "camera",
    "運鏡": "camera",
    "方式": "adverb",
    # Korean field names, for authors who write in Korean
    "캐릭터": "character",
    "인물": "character",
    "등장인물": "character",
    "이름": "character",
    "동작": "motion",
    "행동": "motion",
    "움직임": "motion",
    "모션": "motion",
    "배경": "background",
    "장소": "background",
    "위치": "background",
    "시간": "time",
    "시간대": "time",
    "카메라": "camera",
    "촬영": "camera",
    "방식": "adverb",
    "태도": "adverb",
}

CHINESE_KEYS: frozenset[str] = frozenset(
    {"角色", "动作", "地点", "地點", "场景", "場景", "场所", "时间", "时段", "時段", "镜头", "鏡頭", "运镜", "運鏡",
     "方式"})
"""The field names of :data:`KEY_ALIASES` only Chinese writes: a turn written with one is Chinese."""

KOREAN_KEYS: frozenset[str] = frozenset(
    {"캐릭터", "인물", "등장인물", "이름", "동작", "행동", "움직임", "모션", "배경", "장소", "위치", "시간",
     "시간대", "카메라", "촬영", "방식", "태도"})
"""The field names of :data:`KEY_ALIASES` written in Korean (Hangul): a turn written with one is Korean."""

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
    """The time an engine draws for ``word`` (``dawn`` -> ``sunset``, ``夕方`` and ``저녁`` ->
    ``sunset``); '' for an unknown word."""
    key = " ".join(word.split()).lower()
    cjk = _CJK_TIME_BY_WRITTEN.get(key)
    return TIME_WORDS.get(key, "") or (cjk.shown if cjk else "")


def time_note(word: str) -> str:
    """A plain sentence saying how ``word`` is drawn, or '' when it is drawn as it is.

    ``time_note("dawn")`` -> ``"'dawn' is drawn with the low warm light of sunset."``, and a
    Japanese or Chinese word is quoted as written: ``"'夕方' is drawn with the low warm light of sunset."``
    """
    key = " ".join(word.split()).lower()
    cjk = _CJK_TIME_BY_WRITTEN.get(key)
    if not key or key in RENDERED_TIMES or (cjk and cjk.english in RENDERED_TIMES):
        return ""  # 夜 is night, drawn as it is
    shown = TIME_WORDS.get(key) or (cjk.shown if cjk else "")
    if not shown:
        return f"'{key}' is not a time of day the studio knows; it is drawn by day."
    return f"'{key}' is drawn with the {_TIME_LIGHT[shown]}."


@dataclass(frozen=True, slots=True)
class TimeWord:
    """A Japanese, Chinese or Korean word for a time of day: as written, the English time word
    the engines read it as, and the time drawn for it (day, sunset or night).

    ``traditional``: a Chinese word in Traditional characters (the same as ``written`` where
    both write it alike, and for Japanese)."""

    written: str
    english: str
    shown: str
    language: str
    """'ja', 'zh' or 'ko'."""
    traditional: str
    offered: bool
    """Whether menus offer it (a few common words; every word is read)."""


_CJK_TIME_TABLE: dict[str, dict[str, str]] = {
    "ja": {
        "day": "*昼=day, 昼間=daytime, 日中=daytime, *正午=noon, *午後=afternoon, *朝=morning, 午前=morning",
        "sunset": "早朝=dawn, *夕方=evening, *夕暮れ=dusk, 夕ぐれ=dusk, *夕焼け=sunset, 夕日=sunset, 日没=sunset,"
                  "日暮れ=dusk, 黄昏=twilight, たそがれ=twilight, *夜明け=dawn, 明け方=dawn, 朝焼け=sunrise,"
                  "日の出=sunrise, 晩=evening",
        "night": "今晩=tonight, *夜=night, 夜中=midnight, *真夜中=midnight, *深夜=night, 夜間=nighttime, 今夜=tonight,"
                 "夜空=night sky",
    },
    "zh": {
        "day": "*白天=day, 日间/日間=daytime, *中午=noon, 正午=noon, *下午=afternoon, *上午=morning, *早上=morning,"
               "早晨=morning",
        "sunset": "*傍晚=evening, *黄昏/黃昏=dusk, *日落=sunset, 夕阳/夕陽=sunset, 落日=sunset, 晚霞=sunset,"
                  "清晨=dawn, *黎明=dawn, 拂晓/拂曉=dawn, 破晓/破曉=dawn, 日出=sunrise, 朝霞=sunrise",
        "night": "*晚上=night, *夜晚=night, 夜里/夜裡=night, 夜间/夜間=nighttime, *深夜=night, 半夜=midnight,"
                 "*午夜=midnight, 今晚=tonight, 今夜=tonight, 昨晚=night, 昨夜=night, 夜=night",
    },
    "ko": {
        "day": "*아침=morning, *낮=day, 대낮=day, 한낮=daytime, 주간=daytime, *정오=noon, 오전=morning,"
               "*오후=afternoon",
        "sunset": "*저녁=evening, *해질녘=dusk, 황혼=dusk, 땅거미=dusk, *노을=sunset, 저녁노을=sunset, 일몰=sunset,"
                  "석양=sunset, *새벽=dawn, 여명=dawn, 일출=sunrise, 해돋이=sunrise",
        "night": "*밤=night, 밤중=night, 야간=nighttime, *심야=night, *한밤중=midnight, 자정=midnight, 오늘밤=tonight,"
                 "어젯밤=night",
    },
}
"""The Japanese, the Chinese (Simplified/Traditional) and the Korean words for each time the
studio draws, each ``written=english``; a word marked ``*`` is offered in menus. The one list
of them: the sketch engine's Japanese, Chinese and Korean readers read a turn's times with it."""


def _time_entries(language: str, groups: dict[str, str]) -> tuple[TimeWord, ...]:
    out: list[TimeWord] = []
    for shown, pairs in groups.items():
        for pair in pairs.split(","):
            if not pair.strip():
                continue
            forms, english = (part.strip() for part in pair.split("="))
            offered = forms.startswith("*")
            written, _, traditional = forms.lstrip("*").partition("/")
            out.append(TimeWord(written, english, shown, language, traditional or written, offered))
    return tuple(out)


_ALL_TIME_WORDS: tuple[TimeWord, ...] = tuple(
    word for language, groups in _CJK_TIME_TABLE.items() for word in _time_entries(language, groups))
"""Every Japanese, Chinese and Korean time word the studio knows, in the order of :data:`_CJK_TIME_TABLE`."""

CJK_TIME_WORDS: tuple[TimeWord, ...] = tuple(word for word in _ALL_TIME_WORDS if word.language in ("ja", "zh"))
"""Every Japanese and Chinese time word the studio knows (the Han and kana ones; the Korean
ones are :func:`time_words` ``("ko")``)."""


def _by_written(words: tuple[TimeWord, ...]) -> dict[str, TimeWord]:
    """``words`` by each of their forms (the first of two words written alike: 深夜 is night in
    Japanese and in Chinese)."""
    found: dict[str, TimeWord] = {}
    for word in words:
        found.setdefault(word.written, word)
        found.setdefault(word.traditional, word)
    return found


_CJK_TIME_BY_WRITTEN = _by_written(_ALL_TIME_WORDS)


def time_words(language: str) -> tuple[TimeWord, ...]:
    """The time words of ``language`` ('ja', 'zh' or 'ko'; none for another)."""
    return tuple(word for word in _ALL_TIME_WORDS if word.language == language)


def time_choices(language: str = "") -> tuple[str, ...]:
    """The time words menus offer in ``language``: :data:`TIME_CHOICES` for '' (English), the
    common Japanese ones for 'ja', Chinese ones in Simplified for 'zh' and Traditional for
    'zh-hant', Korean ones for 'ko'."""
    if not language:
        return TIME_CHOICES
    words = time_words("zh" if language.startswith("zh") else language)
    forms = (word.traditional if language == "zh-hant" else word.written for word in words if word.offered)
    return tuple(dict.fromkeys(forms))

KNOWN_ADVERBS: frozenset[str] = frozenset(
    {"gently", "slowly", "calmly", "softly", "lazily", "smoothly", "steadily", "normally",
     "quickly", "fast", "rapidly", "briskly", "wildly", "energetically", "furiously", "happily",
     "sadly", "carefully", "quietly", "excitedly", "playfully", "proudly", "shyly"}
)

_LINK_WORDS = frozenset({"in", "at", "on", "during", "by", "the", "of"})


def _full_width(key: str) -> str:
    """``key`` in full-width letters (``Ｍｏｔｉｏｎ``), as a Japanese input method types it."""
    return "".join("\u3000" if char == " " else chr(ord(char) + 0xFEE0) for char in key)


def _key_pattern(keys: list[str]) -> str:
    return "|".join(re.escape(key).replace(r"\ ", r"\s+") for key in sorted(keys, key=len, reverse=True))


_JAPANESE_KEY_NAMES = [key for key in KEY_ALIASES if not key.isascii()]
_JAPANESE_KEYS = _key_pattern(_JAPANESE_KEY_NAMES)
_LATIN_KEY = "[A-Za-zＡ-Ｚａ-ｚ][A-Za-zＡ-Ｚａ-ｚ \u3000]{0,20}?"
_MARKS = "\u200e\u200f\u061c"
"""The direction marks (left-to-right, right-to-left, Arabic letter mark): an editor for
right-to-left text puts them around punctuation, so a key or a value may carry them at its
edges ("Character\u200f: سارة"). There they are read as white space; inside a value they stay."""
_GAP = rf"[\s{_MARKS}]*"
_FIELD_RE = re.compile(rf"^{_GAP}({_LATIN_KEY}|{_JAPANESE_KEYS}){_GAP}[:：]{_GAP}(.*)$", re.DOTALL)
_ANY_KEY = _key_pattern([*KEY_ALIASES, *(_full_width(key) for key in KEY_ALIASES if key.isascii())])
_FIELD_NAMES = ("character", "char", "motion", "action", "background", "bg", "location", "time of day", "camera",
                "cam", "adverb", "manner")
"""The English keys that are only ever a field's name (``time``, ``where``, ``name``... also
open sentences: "She waits. Time is short")."""
_NAME_KEY = _key_pattern([*_FIELD_NAMES, *(_full_width(key) for key in _FIELD_NAMES), *_JAPANESE_KEY_NAMES])
_SPLIT_RE = re.compile(rf"[;；\n]|[,，、。．](?={_GAP}(?:{_ANY_KEY}){_GAP}[:：])|\.(?={_GAP}(?:{_NAME_KEY}){_GAP}[:：])"
                       rf"|\u3000(?={_GAP}(?:{_ANY_KEY}){_GAP}[:：])|\s(?={_GAP}(?:{_JAPANESE_KEYS}){_GAP}[:：])",
                       re.IGNORECASE)
"""Where one field ends: a semicolon or a line break; a comma or a full stop followed by a
known field key and its colon (``Character: Qiqi, Motion: run``, ``キャラクター：美咲。動作：走る``:
people write them); an ideographic space followed by a known key and its colon, or any space
followed by a Japanese key and its colon (``キャラクター：美咲　動作：走る``: Japanese authors
separate with spaces). A comma, a full stop or a space followed by anything else stays in the
value (``Motion: waves, smiling``). Every separator is one character long (:func:`field_spans`
counts on it)."""

_BARE_KEYS = frozenset({*_FIELD_NAMES, *_JAPANESE_KEY_NAMES}) - {"action"}
"""Field names that, written alone with no colon (``Character: Qiqi; Motion``, a turn that is
only ``キャラクター``), are a field left blank, never the turn's text: no sentence is made of
them, and an engine does not read the word as an action. (Words that are also plain English
instructions, ``Move``, ``Time``, ``Scene``, ``Action!``, stay text.)"""


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
        """Whether the instruction draws nothing: blank, or only invisible characters (a zero-width
        space, a direction mark; see :func:`~studio.core.text.shows_something`)."""
        return not shows_something(self.raw)

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
    if not isinstance(text, str) or not shows_something(text):  # "", spaces, or only a zero-width space
        raise InstructionError(
            "The instruction is empty." if not isinstance(text, str) or not text.strip()
            else "The instruction is empty: it holds only characters that show as nothing "
                 f"({', '.join(dict.fromkeys(describe_character(char) for char in text if not char.isspace()))}).",
            hint="Write what happens in this turn, e.g. 'Character: Qiqi; Motion: gently sit on railing; "
            "Background: day town.'",
        )
    length = instruction_too_long(text)
    if length:
        raise InstructionError(too_long_message(length),
                               hint="Shorten it, or move the extra text into the turn's notes.")
    for index, char in enumerate(text):
        code = ord(char)
        if not (0xD800 <= code < 0xE000 or is_control(char) or char in UNICODE_LINE_BREAKS):
            continue
        position = _position(text, index)
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
    _check_blank_character(text)
    return text


def _position(text: str, index: int) -> int:
    """Where ``text[index]`` is, counted from 1 as the author counts (a character as a reader
    sees it: an emoji with its skin tone before it is one, not two)."""
    from studio.core.graphemes import grapheme_count

    return grapheme_count(text[:index]) + 1


def _as_written(key: str, value: str) -> str:
    """A field quoted as the author wrote it: a Japanese, Chinese or full-width key with its
    full-width colon (``人物：Aoi``), others with a colon and a space. A Korean key is one of the
    others (``동작: 달린다``): Korean is typed with the plain colon, though Hangul is wide."""
    from studio.core.graphemes import script_of

    korean = any(script_of(char) == "hangul" for char in key)
    return f"{key}：{value}" if not korean and any(is_wide(char) for char in key) else f"{key}: {value}"


def _key(written: str) -> str:
    """A key as looked up: full-width letters as plain ones, lower case, one space between words."""
    return " ".join(unicodedata.normalize("NFKC", written).lower().split())


def _field(part: str) -> tuple[str, str, str] | None:
    """A ``Key: value`` part as (key in lower case, key as written, value); None for text. A
    part that is only a field name (:data:`_BARE_KEYS`) is that field, left blank."""
    match = _FIELD_RE.match(part)
    if match is None:
        bare = _clean(part)
        return (_key(bare), bare, "") if bare and _key(bare) in _BARE_KEYS else None
    return _key(match.group(1)), match.group(1).strip(), _clean(match.group(2))


def _fields(text: str) -> list[tuple[str, str, str]]:
    """The known fields of ``text`` in order: (field name, key as written, value)."""
    fields = (_field(part) for part in _SPLIT_RE.split(text))
    return [(KEY_ALIASES[key], written, value) for key, written, value in filter(None, fields) if key in KEY_ALIASES]


def only_blank_fields(text: str) -> bool:
    """Whether ``text`` is nothing but field names left blank (``Character: ; Motion:``, a turn
    that is only ``動作``): a form with nothing filled in, which no sentence should quote."""
    parts = [part for part in _SPLIT_RE.split(text) if part.strip()]
    fields = [_field(part) for part in parts]
    return bool(parts) and all(field is not None and field[0] in KEY_ALIASES and not field[2] for field in fields)


def field_spans(text: str) -> dict[str, tuple[int, int]]:
    """Where ``text`` states each of its fields' values: field name (``character``, ``motion``,
    ``background``, ``time``...) -> (start, end) of the first non-empty value, its closing full
    stop left out."""
    spans: dict[str, tuple[int, int]] = {}
    at = 0
    for part in _SPLIT_RE.split(text):  # one-character separators
        match = _FIELD_RE.match(part)
        name = KEY_ALIASES.get(_key(match.group(1))) if match else None
        if match is not None and name is not None and name not in spans:
            value = match.group(2).rstrip().rstrip(_MARKS + ".。").rstrip()
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
                f"The instruction gives its {what} twice ('{_as_written(first_key, first)}' and "
                f"'{_as_written(key, value)}').",
                hint=f"Keep one; a turn has one {what}"
                     + (" (another character can speak in the turn's dialogue)." if name == "character" else "."))
        seen[name] = (key, value)
    if "time" in seen and "background" in seen:
        said, _place = _split_time(seen["background"][1])
        time_key, time = seen["time"]
        if said and time_shown(said) != time_shown(time):
            raise InstructionError(
                f"The instruction gives two times of day: '{said}' in '{_as_written(*seen['background'])}' and "
                f"'{_as_written(time_key, time)}'.",
                hint="Keep one of them.")


def _check_blank_character(text: str) -> None:
    """A ``Character:`` written with nothing after it in a turn that says what happens
    (``Character: ; Motion: run``) is refused, as the demo file reader refuses it: the author
    meant to name who acts and did not, and the turn's caption would have no one in it. Leaving
    the field out goes on with the branch's character; a turn of blank fields only is left as
    it is (it says nothing, and reads as its character)."""
    blank = ""
    for part in _SPLIT_RE.split(text):
        match = _FIELD_RE.match(part)
        if match and KEY_ALIASES.get(_key(match.group(1))) == "character" and not shows_something(
                _clean(match.group(2))):
            blank = match.group(1).strip()
            break
    if not blank:
        return
    said = parse_instruction(text)
    if any((said.motion, said.adverb, said.background, said.time_of_day, said.camera, said.free_text, said.extra)):
        where = f" in {text!r}" if len(text) <= 60 else ""
        raise InstructionError(
            f"The instruction leaves its character empty ('{_as_written(blank, '').rstrip()}'{where}).",
            hint=f"Write who acts after it ('{_as_written(blank, 'Qiqi')};'), or leave the field out to go on "
                 "with the branch's character.")


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
    # "the park, evening" -> "park": the comma stood before the time word taken out
    return time, " ".join(kept).rstrip(",;").rstrip() if time else " ".join(kept)


def _clean(value: str) -> str:
    """A value as read: white space as single spaces, without direction marks at its edges nor
    its closing full stop."""
    value = " ".join(value.split()).strip(" " + _MARKS)
    return value.rstrip(".。").strip(" " + _MARKS)


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


@dataclass(slots=True)
class _Parts:
    """What :func:`parse_instruction` finds in the text, before it is put into fields: each
    known field's value and its key as written, the extra fields and the free text."""

    values: dict[str, str] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)
    extra: list[tuple[str, str, str]] = field(default_factory=list)  # (key, key as written, value)
    free: list[str] = field(default_factory=list)


def _read_parts(raw: str) -> _Parts:
    found = _Parts()
    parts = [(part, _field(part)) for part in _SPLIT_RE.split(composed_hangul(raw)) if part.strip()]
    as_fields = any(keyed is not None and keyed[0] in KEY_ALIASES for _, keyed in parts) \
        or sum(_field_like(keyed) for _, keyed in parts) >= 2
    for part, keyed in parts:
        if keyed and keyed[0] in KEY_ALIASES:
            # A field given twice (refused for new text, see validate_instruction_text): the later wins.
            name, value = KEY_ALIASES[keyed[0]], keyed[2]
            if value or name not in found.values:
                found.values[name] = value
                found.keys[name] = keyed[1]
        elif keyed and _as_extra(keyed, as_fields):
            found.extra.append(keyed)
        else:
            cleaned = _free_part(part, keyed)
            if cleaned:
                found.free.append(cleaned)
    return found


def _built(raw: str, found: _Parts, free_text: str | None = None) -> Instruction:
    values = found.values
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
        free_text="; ".join(found.free) if free_text is None else free_text,
        extra=tuple((key, value) for key, _written, value in found.extra),
    )


_HANGUL_APART_RE = re.compile("[\uac00-\ud7a3]?[\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff]+")
"""Hangul typed as separate letters (conjoining jamo: ᄃ ᅩ ᆼ, as macOS file names and some
input methods write 동), with the syllable before them that a final letter may belong to."""


def composed_hangul(text: str) -> str:
    """``text`` with its Hangul typed as separate letters composed into syllables (NFC), so that
    "동작: 달린다" reads the same whichever way it was typed. Only those runs change: another
    script's decomposed letters (か and a combining dakuten, an accent typed apart) are left as
    written, as is all of ``text`` where it has none."""
    return _HANGUL_APART_RE.sub(lambda run: unicodedata.normalize("NFC", run.group(0)), text)


def parse_instruction(text: str) -> Instruction:
    """Parse an instruction; never raises (unknown parts go to ``free_text``).

    An unknown ``Key: value`` part is an extra field only where the instruction is written as
    fields: beside a known field, or in a list of two or more such parts (``Mood: happy;
    Weather: rain``), or where its value is a script line. Elsewhere it is prose and its text
    is free text: a subject and verb ("Qiqi says: don't cry"), a lead-in ("Then: she waves")
    or one label or name before a sentence ("Note: Qiqi runs to the park")."""
    raw = text if isinstance(text, str) else str(text)
    return _built(raw, _read_parts(raw))


@dataclass(frozen=True, slots=True)
class FieldCut:
    """A field of an instruction longer than what an engine reads of it (see :func:`read_within`)."""

    field: str
    """The field: ``character``, ``motion``, ``background``, ``time``, ``camera``, ``adverb``,
    ``free text``, or an extra field's key."""
    written_key: str
    """Its key as the author wrote it (``Motion``, ``動作``); '' for the free text."""
    length: int
    """Its length in characters as a reader sees them (:func:`~studio.core.graphemes.grapheme_count`)."""
    limit: int

    @property
    def warning(self) -> str:
        """The cut in words, naming the field as written and the limit."""
        what = f"the {self.written_key} field" if self.written_key else "the free text"
        return (f"{what} is {self.length:,} characters long; only its first {self.limit:,} characters were "
                "read (the instruction keeps all of it)")


def read_within(instruction: Instruction, limit: int) -> tuple[Instruction, tuple[FieldCut, ...]]:
    """``instruction`` as an engine that reads at most ``limit`` characters of each field reads
    it, and the fields that were cut, each with a warning that names it.

    Each field is held to ``limit`` on its own, counted in characters as a reader sees them
    (an emoji with its skin tone is one, and is never cut in two); no field's length counts
    against another's, whatever language either is written in. The instruction returned keeps
    the raw text whole: only the fields read from it are shorter. Its fields are read again
    from ``instruction.raw``."""
    from studio.core.graphemes import first_graphemes, grapheme_count

    found = _read_parts(instruction.raw)
    cuts: list[FieldCut] = []

    def cut(name: str, key: str, value: str) -> str:
        if len(value) <= limit:  # no text of n code points holds more than n characters
            return value
        length = grapheme_count(value)
        if length <= limit:
            return value
        cuts.append(FieldCut(name, key, length, limit))
        return first_graphemes(value, limit).rstrip()

    for name, value in list(found.values.items()):
        found.values[name] = cut(name, found.keys[name], value)
    found.extra = [(key, written, cut(key, written, value)) for key, written, value in found.extra]
    free_text = cut("free text", "", "; ".join(found.free))
    return _built(instruction.raw, found, free_text), tuple(cuts)
