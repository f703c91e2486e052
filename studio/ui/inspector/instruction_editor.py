"""The instruction editor: structured fields composing AnimeGamer's line format.

``Character: Qiqi; Motion: gently sit on railing; Background: day town.`` The time of day
is written into the background as AnimeGamer does ("day town"); camera and free text are
extra parts the studio's parser understands. Ctrl+Enter generates.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.core.field_names import misspelled_field_names, unknown_field_message
from studio.core.graphemes import first_graphemes, script_of, scripts_in
from studio.core.instruction import (
    CJK_TIME_WORDS,
    MAX_INSTRUCTION_CHARS,
    TIME_WORDS,
    Instruction,
    InstructionError,
    composed_hangul,
    field_spans,
    instruction_length,
    instruction_too_long,
    parse_instruction,
    time_choices,
    time_note,
    time_words,
    too_long_message,
)
from studio.ui.icons import icon_on_accent
from studio.ui.inspector.carried_on import CarriedOn, as_before
from studio.ui.inspector.pasted_script import (
    ScriptOffer,
    offer_script_turns,
    pasted_lines,
    reads_as_script,
    script_turns,
)
from studio.ui.inspector.story_editor import one_line, utf16_length
from studio.ui.inspector.vocabulary import Vocabulary
from studio.ui.inspector.wheel_guard import FocusWheelComboBox
from studio.ui.text_wrap import breakable, copy_without_breaks

LINE_KEYS: dict[str, tuple[str, str, str, str, str]] = {
    "": ("Character", "Motion", "Background", "Time", "Camera"),
    "ja": ("キャラクター", "動作", "背景", "時間帯", "カメラ"),
    "zh": ("角色", "动作", "背景", "时间", "镜头"),
    "zh-hant": ("角色", "動作", "場景", "時間", "鏡頭"),
    "ko": ("캐릭터", "동작", "배경", "시간", "카메라"),
}
"""The field names of a composed line, by the language its fields are written in (character,
motion, background, time, camera): a Japanese, Chinese or Korean turn keeps field names its
author reads, which also tell the engines its language (角色, 动作, 场景, 镜头 and 鏡頭 are
names only Chinese writes; Hangul ones only Korean)."""

KOREAN_LINE_KEYS = LINE_KEYS["ko"]
"""The field names of a Korean line (character, motion, background, time, camera)."""


def turn_language(instruction: Instruction, names: Iterable[str] = ()) -> str:
    """The language ``instruction`` is written in: '' for English, 'ja', 'zh', 'zh-hant' for
    Chinese written in Traditional characters (說, 園, 時...), or 'ko' for Korean: Hangul
    besides the Character field and ``names`` (the cast's), in a turn without kana and not
    marked Chinese, as the sketch engine reads a turn as Korean. The one classifier of a
    turn's language for the chips and the editor (a key of :data:`LINE_KEYS`)."""
    from studio.core.sentence import TRADITIONAL_ONLY_CHARS

    language = instruction_language(instruction)
    if language != "zh" and written_in_korean(instruction, names):
        return "ko"
    if language == "zh" and any(char in TRADITIONAL_ONLY_CHARS for char in instruction.raw):
        return "zh-hant"
    return language


def written_in_korean(instruction: Instruction, names: Iterable[str] = ()) -> bool:
    """Whether ``instruction`` holds Hangul (its field names, its words) besides the names in
    it (its character's, ``names``) and no kana (a Japanese turn may name a Korean character)."""
    text = composed_hangul(instruction.raw)
    if "kana" in scripts_in(text):
        return False
    kept = {composed_hangul(" ".join(name.split())) for name in (instruction.character, *names)}
    for name in sorted((name for name in kept if name), key=len, reverse=True):
        text = text.replace(name, " ")
    return "hangul" in scripts_in(text)


def english_time(word: str) -> bool:
    """Whether ``word`` is an English time word (dawn, night...): an English line writes it into
    its background ("night town"); a Japanese or Chinese one (夜, 晚上) is written as a field
    of its own, and beside Japanese or Chinese words it makes the line theirs."""
    return " ".join(word.split()).lower() in TIME_WORDS


def line_language(character: str, motion: str, background: str, time: str = "", hint: str = "",
                  names: Iterable[str] = ()) -> str:
    """The language of the line composed from these fields, a key of :data:`LINE_KEYS`.

    Korean where what happens holds Hangul besides the cast's ``names`` (read as
    :func:`turn_language` reads a turn, :func:`written_in_korean`), or where ``hint`` is
    Korean and the fields hold Han characters alone.

    Japanese or Chinese when what happens (motion, place, and a time that is no English time
    word) is written in kana or Han characters alone, English otherwise (a Latin word among
    them keeps the English line). Kana (in those or in the character's name) make it Japanese;
    Han characters alone are Chinese where ``hint`` (the language of the turn shown, see
    :func:`instruction_language`) says so or the core reads them as Chinese
    (:func:`~studio.core.sentence.marked_chinese`), else Japanese. Chinese is written in
    Traditional field names when the fields hold a Traditional form (說, 園, 時...) or ``hint``
    is 'zh-hant': a Traditional turn given words common to both scripts (後院) keeps its own."""
    from studio.core.sentence import TRADITIONAL_ONLY_CHARS, marked_chinese

    said = (motion, background, "" if english_time(time) else time)
    scripts = scripts_in(*said)
    if not scripts or scripts - {"kana", "han", "hangul"}:
        return ""
    if "kana" in scripts | scripts_in(character):
        return "ja"
    if "hangul" in scripts:
        said_only = Instruction(raw=" ".join(said), character=character)
        return "ko" if written_in_korean(said_only, names) else ""
    if hint == "ko":
        return "ko"
    words = " ".join((character, *said))
    chinese = hint.startswith("zh") if hint else marked_chinese(Instruction(raw=words))
    if not chinese:
        return "ja"
    if hint == "zh-hant":  # a Traditional turn keeps its field names, whatever words it is given (後院)
        return "zh-hant"
    return "zh-hant" if any(char in TRADITIONAL_ONLY_CHARS for char in words) else "zh"


def instruction_language(ins: Instruction) -> str:
    """The language of ``ins`` as stored (a key of :data:`LINE_KEYS`), for
    :func:`line_language`'s hint: Chinese where the core reads the turn as Chinese, Japanese
    where it reads it as Japanese, else ''."""
    from studio.core.sentence import marked_chinese, written_in_japanese

    if marked_chinese(ins):
        return "zh"
    return "ja" if written_in_japanese(ins, ins.character) else ""


_TIME_JOINS = "の的之、，, \u3000"
"""What joins a Japanese or Chinese time word to the place it is said of (夜の公園, 晚上的公园)."""

_CJK_TIME_FORMS: tuple[str, ...] = tuple(sorted(
    {form for word in CJK_TIME_WORDS for form in (word.written, word.traditional)}, key=len, reverse=True))
"""Every form of the core's Japanese and Chinese time words, longest first (今夜 before 夜)."""


def _cjk_background_time(text: str) -> tuple[str, str]:
    """A Japanese or Chinese time word at either end of the background ``text``, joined to the
    place by の, 的, a comma or a space, and the place without it; ('', text) when none."""
    for word in _CJK_TIME_FORMS:
        if text == word:
            return word, ""
        if text.startswith(word) and text[len(word)] in _TIME_JOINS:
            place = text[len(word):].lstrip(_TIME_JOINS).strip()
            if place:
                return word, place
        if text.endswith(word) and text[-len(word) - 1] in _TIME_JOINS:
            place = text[:-len(word)].rstrip(_TIME_JOINS).strip()
            if place:
                return word, place
    return "", text


_KOREAN_TIME_SPELLINGS: dict[str, str] = {"해 질 녘": "해질녘", "해질 녘": "해질녘", "오늘 밤": "오늘밤",
                                          "어젯 밤": "어젯밤"}
"""Korean time words written with spaces, as often typed, by the core's spelling of them."""
_KOREAN_TIME_FORMS: dict[str, str] = {
    form: word for form, word in sorted(
        {**{w.written: w.written for w in time_words("ko")}, **_KOREAN_TIME_SPELLINGS}.items(),
        key=lambda item: len(item[0]), reverse=True)}
"""Every way a Korean time word of the core's is written -> the core's spelling, longest first."""
_KOREAN_TIME_JOINS = ("의 ", "에 ", "에는 ", ", ", ",", " ")
"""What joins a Korean time word to the place after it (밤의 공원, 밤에 공원, 밤 공원, 밤, 공원)."""
_KOREAN_TIME_ENDS = ("에는", "에", "의", "")
"""Particles a Korean time word may carry when it is all the background says ("밤에")."""
_KOREAN_PLACE_TIME_JOINS = ("의 ", ", ", ",", " ")
"""What joins a place to a Korean time word after it (공원의 밤, 공원, 밤)."""


def _korean_background_time(text: str) -> tuple[str, str]:
    """A Korean time word of the core's (:func:`time_words`) opening the background ``text``
    (밤의 공원, 밤에 공원, 밤 공원, 밤에) or closing it (공원의 밤, 공원, 밤), and the place
    without it; ('', text) when none is. A word that only starts with one (밤하늘, night sky;
    낮은 언덕) is a place."""
    for form, word in _KOREAN_TIME_FORMS.items():
        if any(text == form + end for end in _KOREAN_TIME_ENDS):
            return word, ""
        for join in _KOREAN_TIME_JOINS:
            rest = text.removeprefix(form + join).strip()
            if text.startswith(form + join) and rest:
                return word, rest
        for join in _KOREAN_PLACE_TIME_JOINS:
            for end in _KOREAN_TIME_ENDS:
                place = text.removesuffix(join + form + end).strip()
                if text.endswith(join + form + end) and place:
                    return word, place
    return "", text


def background_time(background: str) -> tuple[str, str]:
    """The time-of-day word written in ``background`` and the place without it, as the core
    reads a background (``night park`` -> ``('night', 'park')``, ``town at night`` -> ``('night',
    'town')``), and in Japanese, Chinese or Korean (``夜の公園`` -> ``('夜', '公園')``, ``公园的晚上`` ->
    ``('晚上', '公园')``, ``밤의 공원`` -> ``('밤', '공원')``); ``('', background)`` when it names no time."""
    text = " ".join(background.split())
    if not text or any(mark in text for mark in ";；:："):  # not one place: left as it is
        return "", text
    read = parse_instruction(f"Background: {text}")
    if read.time_of_day and not read.free_text and not read.extra:
        return read.time_of_day, read.background
    said, place = _cjk_background_time(text)
    return (said, place) if said else _korean_background_time(text)


def time_and_place(background: str, time: str) -> tuple[str, str]:
    """The time of day and the place a line is written with, from the Background and Time
    fields: a time word typed in the background is the time (it replaces the Time field's,
    see :func:`replaced_time`), so that the line never says it twice ("night night park") nor
    two times ("day night park")."""
    said, place = background_time(background)
    return (said, place) if said else (time.strip(), background.strip())


def replaced_time(background: str, time: str) -> str:
    """The Time field's word that a different time word typed in ``background`` replaces ('' if
    none): "day" for a background "night park" beside Time "day"."""
    said, _place = background_time(background)
    box = " ".join(time.split())
    return box if said and box and box.lower() != said.lower() else ""


def compose_instruction(character: str, motion: str, background: str, time: str = "", camera: str = "",
                        free_text: str = "", *, language: str = "", names: Iterable[str] = (),
                        time_apart: bool = False) -> str:
    """The AnimeGamer line for these fields (empty fields are left out).

    Fields written in Japanese, Chinese or Korean (see :func:`line_language`, ``language`` its
    hint, ``names`` the cast's) make a line with that language's field names and the time of
    day as a field of its own, written in that language (``キャラクター：美咲；動作：走る；背景：港；
    時間帯：夜。``, ``캐릭터: 민수; 동작: 걷다; 시간: 밤.``; an English time word becomes the
    language's, see :func:`time_in_language`): written into the background as an English line
    does, "夜 港" was read as a place called so and the time was lost. A time word typed in the
    background is the line's time (see :func:`time_and_place`).

    ``time_apart`` keeps an English time word in a ``Time:`` field of its own, where the line
    being edited was written so ("Background: park; Time: day."): saving it after another field
    changed rewrote it as "Background: day park.", a change the author never made."""
    time, background = time_and_place(background, time)
    lang = line_language(character, motion, background, time, language, names)
    if lang == "ko":
        time, background = korean_time_and_place(background, time)
        values = (character, motion, background, time_in_language(time, lang), camera)
        return korean_line(values, free_text)
    if lang:
        values = (character, motion, background, time_in_language(time, lang), camera)
        return _cjk_line(LINE_KEYS[lang], values, free_text)
    # a time word the core knows goes into the background, as AnimeGamer writes it ("day town");
    # another (晚上 beside an English motion) has a field of its own, not to be read as a place
    own_time = time.strip() if time.strip() and (time_apart or not english_time(time)) else ""
    place = " ".join(part for part in ("" if own_time else time.strip(), background.strip()) if part)
    parts = [f"{key}: {value.strip()}" for key, value in (
        ("Character", character), ("Motion", motion), ("Background", place), ("Time", own_time), ("Camera", camera))
        if value.strip()]
    text = "; ".join(parts)
    free = free_text.strip()
    if free:
        text = f"{text}; {free}" if text else free
    if text and not text.endswith((".", "!", "?", *_CJK_ENDS)):
        closed = text + ("。" if free and script_of(free[-1]) in ("kana", "han") else ".")  # a Japanese full stop
        # the editor's own full stop never takes a line over the limit, nor counts in what is over it:
        # a free text of 5,000 characters was "5,001 characters long"
        if not instruction_too_long(closed):
            text = closed
    return text


def time_in_language(word: str, language: str) -> str:
    """``word`` as a Japanese, Chinese or Korean line writes it (``language`` a key of
    :data:`LINE_KEYS`): an English time word becomes that language's word for the same time
    (``night`` -> ``밤`` for 'ko', ``夜`` for 'ja'), a menu's word first; any other word, and any
    word of an English line, stays as typed."""
    if not language or not english_time(word):
        return word.strip()
    key = " ".join(word.split()).lower()
    ranked = sorted(time_words("zh" if language.startswith("zh") else language), key=lambda w: not w.offered)
    drawn = TIME_WORDS[key]
    match = next((w for w in ranked if w.english == key), None) or \
        next((w for w in ranked if w.english == drawn), None)
    if match is None:
        return word.strip()
    return match.traditional if language == "zh-hant" else match.written


def korean_time_and_place(background: str, time: str) -> tuple[str, str]:
    """The time and the place of a Korean line: a time word of the core's (:func:`time_words`)
    that opens or closes the background is the time, and the rest the place (``밤의 공원`` ->
    ``('밤', '공원')``, see :func:`_korean_background_time`); else ``time`` and ``background``
    as they are."""
    said, place = _korean_background_time(" ".join(background.split()))
    return (said, place) if said else (time.strip(), background.strip())


def korean_line(values: tuple[str, str, str, str, str], free: str) -> str:
    """A Korean line: ``key: value`` fields (Korean is typed with a plain colon and spaces)
    joined by "; ", its free text after them, ending with a full stop."""
    parts = [f"{key}: {value.strip()}" for key, value in zip(KOREAN_LINE_KEYS, values, strict=True) if value.strip()]
    if free.strip():
        parts.append(free.strip())
    text = "; ".join(parts)
    return text if not text or text.endswith((".", "!", "?", "。")) else text + "."


_CJK_ENDS = ("。", "！", "？", "…")


def _cjk_line(keys: tuple[str, ...], values: tuple[str, ...], free_text: str) -> str:
    """A Japanese or Chinese line: ``key：value`` fields joined by "；", ending with "。"."""
    parts = [f"{key}：{value.strip()}" for key, value in zip(keys, values, strict=True) if value.strip()]
    if free_text.strip():
        parts.append(free_text.strip())
    text = "；".join(parts)
    return text if not text or text.endswith((*_CJK_ENDS, ".", "!", "?")) else text + "。"


def field_values(ins: Instruction) -> tuple[str, str, str, str, str]:
    """What the editor's line fields show for ``ins``: character, motion, background, camera,
    free text (the time of day has its own box)."""
    extra = "; ".join(f"{k}: {v}" for k, v in ins.extra)
    return (ins.character, " ".join(p for p in (ins.adverb, ins.motion) if p), ins.background, ins.camera,
            "; ".join(p for p in (ins.free_text, extra) if p))


def shown_line(ins: Instruction) -> str:
    """The line the editor reads back after showing ``ins`` (its own form of the stored text)."""
    character, motion, background, camera, free_text = field_values(ins)
    return compose_instruction(character, motion, background, ins.time_of_day, camera, free_text,
                               language=turn_language(ins))


def flat_line(text: str) -> str:
    """``text`` as one line: its line breaks (a pasted paragraph) and tabs (a pasted table's
    cells) become spaces. An instruction is one line of plain text, and in a one-line box
    they can't be seen: the document refused them, counting characters in the composed line."""
    return one_line(text).replace("\t", " ")


def keep_to_one_line(edit: QLineEdit, several_lines: Callable[[str, str], None] | None = None) -> None:
    """Hold ``edit`` to :func:`flat_line` text, typed, pasted or set; the cursor stays where
    the text ended (a pasted paragraph's end). ``several_lines(before, text)`` hears of lines
    of a script (:func:`~studio.ui.inspector.pasted_script.reads_as_script`) once they are
    joined: the field's text before they came, and the text with its lines."""
    before = [edit.text()]

    def flatten(text: str) -> None:
        previous = before[0]
        flat = flat_line(text)
        if flat != text:
            cursor = edit.cursorPosition()
            edit.setText(flat)
            edit.setCursorPosition(min(cursor, utf16_length(flat)))
            if several_lines is not None and reads_as_script(text):
                several_lines(previous, text)
        before[0] = flat  # not edit.text(): the time box's line edit may speak as its wrapper goes

    edit.textChanged.connect(flatten)


def _completer(words: list[str], parent: QWidget) -> QCompleter:
    completer = QCompleter(words, parent)
    completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    completer.setFilterMode(Qt.MatchFlag.MatchContains)
    completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
    return completer


def _choices_completer(box: QComboBox, parent: QWidget) -> QCompleter:
    """Completions of the words ``box`` offers, as the line fields complete theirs (from inside a
    word, in a list): they follow its choices (a Korean turn's time words), and, unlike a box's
    own inline completion, never change what was typed (夜 committed by an input method stayed
    夜, not 夜明け)."""
    completer = _completer([], parent)
    completer.setModel(box.model())
    return completer


def _characters(count: int) -> str:
    return f"{count:,} character{'' if count == 1 else 's'}"


def too_long_error(fields: Sequence[tuple[str, str]], line: str) -> InstructionError | None:
    """Why ``line``, composed from ``fields`` (each a field's label and its text as typed), is
    too long for a turn, in the editor's terms; None when it fits.

    The limit applies to the whole line the editor writes, which holds more than the fields:
    the field names (``Motion: ``), the ``; `` between fields and a closing period. Counted
    only from the document's side ("2,001 characters long") a free text of exactly 2,000
    characters read as a miscount: the message says how much of the line is the editor's, how
    much to remove, and from which field. Every count is of characters as a reader sees them
    (:func:`~studio.core.instruction.instruction_length`), as the core counts the limit."""
    length = instruction_too_long(line)
    if not length:
        return None
    over = length - MAX_INSTRUCTION_CHARS
    typed = [(label, instruction_length(text.strip())) for label, text in fields if text.strip()]
    added = max(length - sum(count for _label, count in typed), 0)
    longest_label, longest = max(typed, key=lambda item: item[1], default=("", 0))
    if longest >= over:
        where = f"from {longest_label} (it holds {_characters(longest)})"
    else:  # no one field is long enough to take it all
        where = "across the fields (" + ", ".join(
            f"{label} {count:,}" for label, count in sorted(typed, key=lambda item: -item[1])) + ")"
    notes = "Longer text can go in the turn's notes."
    return InstructionError(
        f"{too_long_message(length)} Remove at least {_characters(over)} {where}.",
        hint=f"The count is of the whole line: the {_characters(length - added)} in the fields and "
             f"{_characters(added)} the editor adds ({_added_parts(fields, line)}). {notes}" if added else notes)


def _added_parts(fields: Sequence[tuple[str, str]], line: str = "") -> str:
    """What :func:`compose_instruction` writes around ``fields`` (into ``line``), in words."""
    cjk = "；" in line and "; " not in line
    filled = [(label, text.strip()) for label, text in fields if text.strip()]
    parts = []
    if any(label != "Free text" for label, _text in filled):
        parts.append("the field names")
    if len(filled) > 1:
        parts.append("the '；' between fields" if cjk else "the spaces and '; ' between fields")
    if filled and line.endswith((".", "。")) and not filled[-1][1].endswith((".", "!", "?", *_CJK_ENDS)):
        parts.append("the closing period")  # "." or, after Japanese or Chinese, "。"
    return " and ".join((", ".join(parts[:-1]), parts[-1])) if len(parts) > 1 else "".join(parts)


def read_only_mode(reason: str) -> str:
    """The line above the fields in a read-only project: why nothing can be changed, in place of
    "Edit this turn's instruction; Generate makes a new take", which invited an edit that would
    only be refused."""
    return (f"{reason.rstrip('.')}. The instruction, notes and story can be read and copied, not changed: "
            "File › Save a copy… makes a copy you can edit.")


FIELD_NAME_HINT = ("Correct the field name: a take drawn now would go without that field (Save text keeps the "
                   "line as it is, to fix later).")


def misspelled_field_error(line: str) -> InstructionError | None:
    """Why ``line`` is not generated: it writes a field name that is none of ours
    ("Backgroud: day park", "Motoin: dance"), which the take would be drawn without, said in
    the words the command line uses (one reader, :mod:`studio.core.field_names`, decides, so
    that "Qiqi says: hello" is no field); None when it writes none."""
    names = misspelled_field_names(line)
    if not names:
        return None
    message = unknown_field_message(names, line)
    return InstructionError(message[:1].upper() + message[1:] + ".", hint=FIELD_NAME_HINT)


FIELD_NAMES = ("character", "motion", "background", "camera", "free_text")
"""The editor's line fields, in the order of :meth:`InstructionEditor.fields`."""

PREVIEW_CHARS = 300
"""The preview shows this much of a long line (the fields hold all of it)."""

GENERATE_TIP = "Generate a take of this turn (Ctrl+Enter)"
SAVE_TIP = "Keep the instruction without generating"
EMPTY_TIP = "The instruction is empty: fill in the fields first."


class InstructionEditor(QWidget):
    generate_requested = Signal(str)
    save_requested = Signal(str)
    cancel_requested = Signal()
    refused = Signal(object)
    """An InstructionError: Generate or Save text was asked for a line too long to keep."""
    generate_refused = Signal(object)
    """An InstructionError: Generate was asked for a line that writes a misspelled field name
    (see :func:`misspelled_field_error`). Only the take is refused: the line may still be kept."""
    script_turns_requested = Signal(object)
    """Lines pasted into a field are to be turns of their own (a list of
    :class:`~studio.ui.inspector.pasted_script.ScriptTurn`), after the turn shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._language = ""
        """The language of the turn shown (see :func:`turn_language`): Han characters typed
        into a Chinese turn's fields stay Chinese."""
        self._time_apart = False
        """Whether the instruction being edited writes its time in a Time field of its own (kept so)."""
        self._mode_text = ""
        """What the line above the fields says where the project can be changed (see :meth:`set_mode`)."""
        self._names: list[str] = []
        """The cast's names (see :meth:`set_vocabulary`): a Korean name is no Korean line."""
        self._times_language = ""
        """The language whose time words the Time box offers (see :meth:`_offer_times`)."""
        self._replaced_time = ""
        """The Time box's word that a time word typed in Background replaced when it moved into
        the box (see :meth:`move_background_time`): the note says so until the time changes."""
        self._moving_time = False
        self.read_only_reason: str | None = None
        self.script_offer: QMessageBox | None = None
        """The question about the last lines pasted into a field (see :meth:`_lines_pasted`)."""
        """Why the fields can't be changed (see :meth:`set_read_only`); None when they can."""
        self.mode_label = QLabel("", self)
        self.mode_label.setObjectName("modeLabel")
        self.mode_label.setWordWrap(True)
        self.character = QLineEdit(self)
        self.motion = QLineEdit(self)
        self.background = QLineEdit(self)
        self.time = FocusWheelComboBox(self)
        self.time.setEditable(True)
        self.time.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)  # Enter keeps a typed word, adds no choice
        self.time.addItems(["", *time_choices()])
        self.time.setCompleter(_choices_completer(self.time, self))
        self.time.setToolTip("Any time word: day, sunset and night are drawn as they are; dawn, morning, noon, "
                             "evening, midnight… are drawn with the nearest light")
        self.time_note = QLabel(self)
        self.time_note.setObjectName("dimLabel")
        self.camera = QLineEdit(self)
        self.free_text = QLineEdit(self)
        self.set_examples(True)
        self.preview = QLabel(self)
        self.preview.setObjectName("linePreview")
        self.preview.setWordWrap(True)
        self.preview.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        copy_without_breaks(self.preview)
        self.length_note = QLabel(self)
        """Says, while the line is over the limit, how much to remove and from which field."""
        self.length_note.setObjectName("errorLabel")
        self.length_note.setWordWrap(True)
        self.length_note.setTextFormat(Qt.TextFormat.PlainText)
        self.length_note.hide()
        self.field_name_note = QLabel(self)
        """Says, while the line writes a misspelled field name, which one and what the fields are."""
        self.field_name_note.setObjectName("errorLabel")
        self.field_name_note.setWordWrap(True)
        self.field_name_note.setTextFormat(Qt.TextFormat.PlainText)
        self.field_name_note.hide()
        self.generate_button = QPushButton(icon_on_accent("generate"), "Generate", self)
        self.generate_button.setObjectName("primaryButton")
        self.generate_button.setToolTip(GENERATE_TIP)
        self.save_button = QPushButton("Save text", self)
        self.save_button.setToolTip(SAVE_TIP)

        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)  # narrow: a label goes above its field
        form.addRow("Character", self.character)
        form.addRow("Motion", self.motion)
        form.addRow("Background", self.background)
        form.addRow("Time", self.time)
        form.addRow("", self.time_note)
        form.addRow("Camera", self.camera)
        form.addRow("Free text", self.free_text)
        buttons = QHBoxLayout()
        buttons.addWidget(self.save_button)
        buttons.addStretch(1)
        buttons.addWidget(self.generate_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.mode_label)
        layout.addLayout(form)
        layout.addWidget(self.preview)
        layout.addWidget(self.length_note)
        layout.addWidget(self.field_name_note)
        layout.addLayout(buttons)

        time_edit = self.time.lineEdit()
        for edit in (*self.fields(), *((time_edit,) if time_edit is not None else ())):
            keep_to_one_line(edit, functools.partial(self._lines_pasted, edit))
        for edit in self.fields():
            edit.textChanged.connect(self._update_preview)
        self.time.currentTextChanged.connect(self._update_preview)
        self.time.currentTextChanged.connect(self._time_changed)
        self.background.textChanged.connect(self._update_time_note)
        self.background.editingFinished.connect(self.move_background_time)
        self.generate_button.clicked.connect(self._generate)
        self.save_button.clicked.connect(self._save)
        self._update_preview()

    def _lines_pasted(self, field: QLineEdit, before: str, text: str) -> None:
        """Lines pasted into ``field`` (a script): once the paste is over, offer a turn of each
        (:mod:`studio.ui.inspector.pasted_script`), or keep them joined in the field."""
        if self.read_only_reason is not None:
            return
        turns = script_turns(text, self._script_line)
        if not turns:
            return
        names = {self.character: "Character", self.motion: "Motion", self.background: "Background",
                 self.camera: "Camera", self.free_text: "Free text"}
        offer = ScriptOffer(names.get(field, "Time"), turns, len(pasted_lines(text)))

        joined = flat_line(text)

        def make() -> None:
            if field.text() != joined:  # changed since (or generated and shown again): the offer is stale
                return
            field.setText(before)  # the lines go into turns of their own, not into this one
            self.script_turns_requested.emit(offer.turns)

        def ask() -> None:
            self._close_script_offer()
            if field.text() == joined:
                self.script_offer = offer_script_turns(self, offer, make, lambda: None)

        QTimer.singleShot(0, self, ask)  # after the paste; never once the editor is gone

    def _close_script_offer(self) -> None:
        if self.script_offer is not None:
            self.script_offer.close()
            self.script_offer = None

    def _script_line(self, what: str, scene: str) -> str:
        """A pasted script's turn: ``what`` happens, as free text, with its scene's Background."""
        return compose_instruction("", "", scene, "", "", what, language=self._language) if scene else what

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        """Ctrl+Enter generates; Esc cancels a draft, or on a turn hands the keyboard back to
        the tree. (The window's Generate action owns Ctrl+Enter as a shortcut; this catches
        it when the shortcut can't fire.)"""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and (
                event.modifiers() & Qt.KeyboardModifier.ControlModifier):
            self._generate()
            return
        if event.key() == Qt.Key.Key_Escape:
            self.cancel_requested.emit()
            return
        super().keyPressEvent(event)

    def fields(self) -> tuple[QLineEdit, ...]:
        return (self.character, self.motion, self.background, self.camera, self.free_text)

    def set_vocabulary(self, vocabulary: Vocabulary) -> None:
        self._names = list(vocabulary.characters)
        self.character.setCompleter(_completer(vocabulary.characters, self))
        self.motion.setCompleter(_completer(vocabulary.motions, self))
        self.background.setCompleter(_completer(vocabulary.backgrounds, self))
        self.camera.setCompleter(_completer(vocabulary.cameras, self))

    # -- content --------------------------------------------------------------------------

    def text(self) -> str:
        return compose_instruction(self.character.text(), self.motion.text(), self.background.text(),
                                   self.time.currentText(), self.camera.text(), self.free_text.text(),
                                   language=self._language, names=self._names, time_apart=self._time_apart)

    def set_instruction(self, instruction: Instruction | None) -> None:
        self._close_script_offer()  # another turn (or the turn made): the pasted lines' question is over
        ins = instruction or Instruction(raw="")
        self._language = turn_language(ins, self._names)
        self._time_apart = "time" in field_spans(ins.raw)
        for edit, value in zip(self.fields(), field_values(ins), strict=True):
            edit.blockSignals(True)
            edit.setText(value)
            edit.setCursorPosition(0)  # a value wider than its box shows its start, not its end
            edit.blockSignals(False)
        language = self._box_language()
        self._offer_times(language, time_in_language(ins.time_of_day, language))
        self.set_examples(not ins.raw.strip())
        self._replaced_time = ""
        self.move_background_time()  # a stored "Background: night night park" shows its time once
        self._update_time_note()
        self._update_preview()

    def _box_language(self) -> str:
        """The language of the line the fields make, leaving the time out (a time typed in the
        Time box does not change what the box offers while it is typed); the turn's own where
        motion and background say nothing yet."""
        motion, background = self.motion.text(), self.background.text()
        if not scripts_in(motion, background):
            return self._language
        return line_language(self.character.text(), motion, background, "", self._language, self._names)

    def _offer_times(self, language: str, word: str) -> None:
        """Fill the Time box with the time words of ``language`` (:func:`time_choices`) and show
        ``word``: a Korean turn is offered 밤, an English one "night". Only the turn's own word is
        added (a word of a turn shown before is not offered here)."""
        self._times_language = language
        self.time.blockSignals(True)
        try:
            self.time.clear()
            self.time.addItems(["", *time_choices(language)])
            self._show_time(word)
        finally:
            self.time.blockSignals(False)

    def _follow_language(self) -> None:
        """Offer the time words of the language the fields are now written in, the box's English
        time word put in that language (a time picked before the fields turned Korean is 밤)."""
        language = self._box_language()
        if language != self._times_language:
            self._offer_times(language, time_in_language(self.time.currentText(), language))
            self._update_time_note()

    def _show_time(self, word: str) -> None:
        """Show ``word`` in the Time box, added to its choices where it is none of them."""
        index = self.time.findText(word)
        if index < 0 and word:
            self.time.addItem(word)
            index = self.time.count() - 1
        self.time.setCurrentIndex(max(0, index))

    def move_background_time(self) -> None:
        """Move a time word typed in Background into the Time box (``night park`` -> Background
        ``park``, Time ``night``), where the line already puts it (:func:`time_and_place`); a
        different word it replaces there is said in the time's note."""
        background, time = self.background.text(), self.time.currentText()
        said, place = background_time(background)
        if not said or self.background.isReadOnly():
            return
        replaced = replaced_time(background, time)
        self._moving_time = True
        try:
            self.background.setText(place)
            self._show_time(said)
        finally:
            self._moving_time = False
        self._replaced_time = replaced or self._replaced_time
        self._update_time_note()

    def _time_changed(self, _text: str) -> None:
        if not self._moving_time:
            self._replaced_time = ""  # the author's own choice of time: nothing replaced to tell
        self._update_time_note()

    def set_examples(self, on: bool) -> None:
        """Grey examples in the empty fields of a blank instruction only: beside a turn's own
        words (a free-text turn, say) they would read as part of it."""
        examples = ("Qiqi", "gently sit on railing", "town", "static, follow, orbit…", "anything else (free text)")
        for edit, example in zip((self.character, self.motion, self.background, self.camera, self.free_text),
                                 examples, strict=True):
            edit.setPlaceholderText(example if on else "")
        time_edit = self.time.lineEdit()
        if time_edit is not None:
            time_edit.setPlaceholderText("")

    def show_carried_on(self, carried: CarriedOn) -> None:
        """A new turn's empty Character, Background and Time show, in grey, what the turn goes
        on with when they are left empty (never as their values: what the author types, in
        them or in the free text, wins)."""
        if any((carried.character, carried.place, carried.time)):
            self.set_examples(False)  # beside the hints, an example would read as carried on too
        for edit, value in ((self.character, carried.character), (self.background, carried.place),
                            (self.time.lineEdit(), carried.time)):
            if edit is not None:
                edit.setPlaceholderText(as_before(value, carried.first and edit is self.character))

    def _update_time_note(self) -> None:
        """Say how the time is drawn, and where a time word typed in Background replaces the
        Time box's (before and after it moved there: see :meth:`move_background_time`)."""
        background, time = self.background.text(), self.time.currentText()
        said, _place = background_time(background)
        pending = replaced_time(background, time)
        if pending:
            moved = f"'{said}' in Background is the time of day: it replaces '{pending}'."
        elif self._replaced_time and not said:
            moved = f"The time '{time.strip()}' was typed in Background: it replaced '{self._replaced_time}'."
        else:
            moved = ""
        note = " ".join(part for part in (moved, time_note(said or time)) if part)
        if self.time_note.text() != note:
            self.time_note.setText(note)
        self.time_note.setVisible(bool(note))

    def field_texts(self) -> list[str]:
        """What each line field holds, to be put back with :meth:`restore_fields`."""
        return [edit.text() for edit in self.fields()]

    def restore_fields(self, texts: list[str]) -> None:
        """Put ``texts`` back in the line fields; only a field that differs is set, so that the
        others keep their cursor and undo steps."""
        for edit, text in zip(self.fields(), texts, strict=True):
            if edit.text() != text:
                edit.setText(text)

    def rewrite_fields(self, rewrite: Callable[[str, str], str]) -> bool:
        """Pass every line field through ``rewrite`` (a cast rename, say), given the field's
        name (one of :data:`FIELD_NAMES`) and its text; whether any changed."""
        before = self.field_texts()
        self.restore_fields([rewrite(name, text) for name, text in zip(FIELD_NAMES, before, strict=True)])
        return self.field_texts() != before

    def set_text(self, text: str) -> None:
        self.set_instruction(parse_instruction(text))

    def set_mode(self, text: str, *, can_save: bool) -> None:
        self._mode_text = text
        self.mode_label.setText(read_only_mode(self.read_only_reason) if self.read_only_reason else text)
        self.save_button.setVisible(can_save)

    def focus_first_field(self) -> None:
        """Put the keyboard in the field that says what happens, its text selected (typing
        replaces it): the motion in a line of fields, the free text in a line written as a
        sentence, the character in an empty line. A fork (F) of a turn written as a sentence
        put the keyboard in the empty Character field, and the new sentence typed there became
        the name of the character."""
        if self.character.text() or self.motion.text() or not self.free_text.text():
            target = self.motion if self.character.text() or self.motion.text() else self.character
        else:
            target = self.free_text
        target.setFocus(Qt.FocusReason.ShortcutFocusReason)
        target.selectAll()

    def _update_preview(self) -> None:
        self._follow_language()
        text = self.text()
        if text:  # the author's words as they are (never read as markup), a long line cut short
            self.preview.setTextFormat(Qt.TextFormat.PlainText)
            length = instruction_length(text) if len(text) > PREVIEW_CHARS else len(text)
            shown = text if length <= PREVIEW_CHARS else \
                f"{first_graphemes(text, PREVIEW_CHARS)}… ({length:,} characters)"  # counted as the limit is
            self.preview.setText(breakable(shown))  # a long word wraps, not widens the inspector
        else:
            self.preview.setTextFormat(Qt.TextFormat.RichText)
            self.preview.setText("<i>Fill in the fields: the line appears here.</i>")
        error = self.length_error()
        note = error.message if error is not None else ""
        if self.length_note.text() != note:
            self.length_note.setText(note)
        self.length_note.setVisible(bool(note))
        misspelled = misspelled_field_error(text)
        field_note = misspelled.message if misspelled is not None else ""
        if self.field_name_note.text() != field_note:
            self.field_name_note.setText(field_note)
        self.field_name_note.setVisible(bool(field_note))
        self._update_buttons(text, note, field_note)

    def _update_buttons(self, text: str, too_long: str, misspelled: str = "") -> None:
        """Generate and Save text are on only for a line that can be sent; off, their tooltip
        says why (read-only, too long, empty): a click would only be refused. A misspelled
        field name turns Generate alone off: the line can be kept, but not drawn without it."""
        why = self.read_only_reason or too_long or ("" if text.strip() else EMPTY_TIP)
        for button, tip, off in ((self.generate_button, GENERATE_TIP, why or misspelled),
                                 (self.save_button, SAVE_TIP, why)):
            button.setEnabled(not off)
            button.setToolTip(off or tip)

    def set_read_only(self, reason: str | None) -> None:
        """Fields that can be read, selected and copied but not changed, with Generate and Save
        text off and ``reason`` as their tooltip; None makes them editable again."""
        self.read_only_reason = reason
        for edit in self.fields():
            edit.setReadOnly(reason is not None)
        self.time.set_locked(reason)
        self.mode_label.setText(read_only_mode(reason) if reason else self._mode_text)
        self._update_preview()

    def length_error(self) -> InstructionError | None:
        """Why the line is too long to keep (see :func:`too_long_error`), or None."""
        labelled = [("Character", self.character.text()), ("Motion", self.motion.text()),
                    ("Time", self.time.currentText()), ("Background", self.background.text()),
                    ("Camera", self.camera.text()), ("Free text", self.free_text.text())]
        return too_long_error(labelled, self.text())

    def refuse_if_too_long(self) -> bool:
        """Emit :attr:`refused` and say True when the line is too long to generate or save."""
        error = self.length_error()
        if error is not None:
            self.refused.emit(error)
        return error is not None

    def field_name_error(self) -> InstructionError | None:
        """Why the line is not generated for a misspelled field name (:func:`misspelled_field_error`), or None."""
        return misspelled_field_error(self.text())

    def refuse_if_misspelled(self) -> bool:
        """Emit :attr:`generate_refused` and say True when the line writes a misspelled field
        name: generated, the take would go without that field."""
        error = self.field_name_error()
        if error is not None:
            self.generate_refused.emit(error)
        return error is not None

    def _generate(self) -> None:
        if self.read_only_reason is not None:
            return  # the button is off and says why
        self.move_background_time()
        text = self.text()
        if text.strip() and not self.refuse_if_too_long() and not self.refuse_if_misspelled():
            self.generate_requested.emit(text)

    def _save(self) -> None:
        if self.read_only_reason is not None:
            return
        self.move_background_time()
        if not self.refuse_if_too_long():
            self.save_requested.emit(self.text())
