"""SRT subtitles: each turn's cues (narration in italics, dialogue as ``Speaker: line``, or
the readable sentence of its action) over the stretch of the episode where the turn shows
(from the cut before it to the cut after it, see :mod:`studio.export.timeline`).

A cue longer than two lines of :data:`SRT_LINE` columns (fewer in Japanese, Chinese and
Korean: :func:`line_columns`) becomes consecutive cues (:func:`srt_pieces`: at sentence
ends first, then at clause punctuation, then between words, a word wider than a line cut
between its characters). The turn's stretch is shared
among all its pieces by length, each up at least :data:`MIN_SRT_CUE_SECONDS` where the
turn has time for it (:func:`srt_cues`); burned-in captions and OTIO markers show the same
subtitles, broken into the same lines (:func:`subtitle_lines`), so all three agree.
A turn too short for its captions to be read lends them time from its neighbours, or shares
one caption with the short turns next to it (:mod:`studio.export.caption_timing`), for all
three alike (:func:`episode_captions`); a shared caption too long for two lines is cut into
consecutive subtitles of two lines too, and each is a caption and a marker of its own
(:func:`shared_caption`). A turn whose lines still have too little time for a subtitle each
of at least that time shows them joined, two short lines to a subtitle; text that even then
can't show as cues of at least that time each is cut after a whole word, with "…", to what
can (:func:`fitted_cues`, :func:`readable_cues`): no subtitle ever shows for less, except in
an episode shorter than that minimum."""

from __future__ import annotations

import bisect
import itertools
import math
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from studio.core.graphemes import cluster_starts, grapheme_clusters, is_wide
from studio.core.text import first_few
from studio.export.bidi_text import LRM, RLM, directed_lines
from studio.export.branch import Branch
from studio.export.caption_timing import CaptionBlock, caption_blocks
from studio.export.cues import (
    MERGED_SEPARATOR,
    MIN_CUE_WEIGHT,
    Cue,
    CueKind,
    TimedCue,
    direction_at,
    joined_text,
    part_starts,
    share_frames,
    split_span,
    turn_cues,
)
from studio.export.drawing import wide_breaks
from studio.export.reading import caption_language, reading_weight
from studio.export.spaces import IDEOGRAPHIC_SPACE, single_spaced
from studio.export.timeline import Timeline


def srt_timestamp(frame: int, fps: Fraction) -> str:
    """The time of output frame ``frame``, rounded *down* to SRT's milliseconds.

    A player shows a cue on the frames whose time is at least its start and before its end.
    A time rounded to the nearest millisecond came after its frame's about half the time
    (frame 71 at 30 fps is at 2.36667 s, the cue at 2.367 s), so that cue showed a frame later
    than the burned captions and the timeline's markers, and the one before it a frame longer.
    Rounded down, it lies within a millisecond before its frame, after the frame before it
    (frames are 4 ms or more apart at any rate an export allows), and a container that rounds
    frame times to milliseconds (WebM) rounds them to the same or a later millisecond."""
    millis = Fraction(frame) * 1000 // fps
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, millis = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d},{millis:03d}"


SRT_LINE = 42
"""Columns a subtitle line holds by convention (broadcast and streaming style guides): a
Latin character takes one, a Japanese, Chinese or Korean one two. English and other
languages written with spaces get all 42; Japanese, Chinese and Korean lines are shorter
(:data:`LINE_COLUMNS`)."""

LINE_COLUMNS = {"ja": 26, "zh": 32, "ko": 32}
"""Columns a subtitle line holds in Japanese, Chinese and Korean (:func:`line_columns`): the
timed-text style guides' 13 full-width characters a line for Japanese and 16 for Chinese
(Simplified and Traditional) and Korean, a full-width character taking two columns, a
half-width one (a Latin letter, a digit, a space) one. Japanese wrapped at 42 columns made
lines of 21 characters, wider than a Japanese viewer's eye takes in at a glance."""


class CharacterColumns(int):
    """A line's columns where every character takes two (:func:`measure_for`): Korean, whose
    16 characters a line count its spaces, and a speaker's Latin name, as characters. Counted
    as Japanese and Chinese are (a half-width character one column), a Korean line of dialogue
    held 17 to 19 characters ("Qiqi: " and the spaces between words took half a character
    each), where its narration kept 16."""


def line_columns(text: str, context: str = "") -> int:
    """The columns a subtitle line of ``text`` holds: :data:`LINE_COLUMNS` for its language
    (:func:`studio.export.reading.caption_language`, the classifier its reading speed follows;
    ``context``: the text it was cut from), else :data:`SRT_LINE`. A mixed line follows its
    main language: ``Qiqi: こんにちは`` is Japanese. Korean's are :class:`CharacterColumns`."""
    language = caption_language(text, context)
    if language == "ko":
        return CharacterColumns(LINE_COLUMNS["ko"])
    return SRT_LINE if language is None else LINE_COLUMNS[language]


def display_width(text: str) -> int:
    """The columns ``text`` takes: two for East Asian wide and full-width characters, none
    for combining marks, one for the rest."""
    return sum(0 if unicodedata.combining(char) else 2 if is_wide(char) else 1 for char in text)


def character_width(text: str) -> int:
    """The columns ``text`` takes where every character takes two (combining marks none)."""
    return sum(0 if unicodedata.combining(char) else 2 for char in text)


def measure_for(width: int) -> Callable[[str], int]:
    """How a line of ``width`` columns measures its text: :func:`character_width` for
    :class:`CharacterColumns`, else :func:`display_width`."""
    return character_width if isinstance(width, CharacterColumns) else display_width


SPEAKER_LABEL = re.compile(r"(?:^|(?<=/ ))(?:[^\s:/.,!?\u3001\u3002\uff01\uff1f]+ ){0,2}"
                           r"[^\s:/.,!?\u3001\u3002\uff01\uff1f]+: (?=\S)")
"""A speaker's name before their line (``Yuzu: ``, ``Mr Tanaka: ``): at the start of a
subtitle's text or after the `` / `` that joins lines; at most three words, none with
sentence or clause punctuation, the last ending in a colon."""


def caption_words(text: str) -> list[str]:
    """Single-spaced ``text`` split at the spaces where a line may break: every space but those
    inside a speaker's name and the one after it (:data:`SPEAKER_LABEL`), so ``Yuzu: Wait!``
    never breaks into ``Yuzu:`` at the end of one line and ``Wait!`` on the next. Joined with
    single spaces they give ``text`` back."""
    glued = [match.span() for match in SPEAKER_LABEL.finditer(text)]
    words: list[str] = []
    start = 0
    for at, char in enumerate(text):
        if char == " " and not any(first <= at < last for first, last in glued):
            words.append(text[start:at])
            start = at + 1
    words.append(text[start:])
    return words


def _label_length(word: str) -> int:
    """The length of the speaker's name (with its colon and space) that ``word`` starts with
    (:func:`caption_words`), or 0."""
    match = SPEAKER_LABEL.match(word) if " " in word else None
    return match.end() if match else 0


def _pieces(word: str) -> list[str]:
    """``word`` (no spaces, but for a speaker's name glued to their line's first word:
    :func:`caption_words`) cut where a line may break inside it: next to a wide character
    (Japanese and Chinese have no spaces), but not inside a Latin word, never inside a
    character as a reader sees it (a letter and its combining marks, an emoji with its
    variation selector, skin tone or joined emoji: :mod:`studio.core.graphemes`), nor inside
    a run of Latin letters and digits, half- or full-width, and keeping the strict line-breaking
    rules of JIS X 4051 (kinsoku: :data:`studio.export.drawing.NO_LINE_START`); never inside a
    speaker's name nor right after it."""
    label = _label_length(word)
    cuts = [0, *(label + at for at in wide_breaks(word[label:])), len(word)]
    return [word[start:end] for start, end in itertools.pairwise(cuts)]


LONG_WORD_BREAKS = frozenset("/_.-?&=#~\\")
"""Characters after which a word wider than a line (a web address, a file name joined by
underscores) is cut: ``https://example.com/`` / ``index.html``, not inside ``exampl`` / ``e``."""

SHORT_RUN = 3
"""A line of a cut word this narrow or narrower (``l``, ``tml``) is avoided wherever the word
can be cut elsewhere (:func:`_hard_cut`)."""


def long_word_breaks(piece: str) -> list[int]:
    """The offsets inside ``piece`` after one of :data:`LONG_WORD_BREAKS` (not after the first
    of a run of them: ``https://`` is not cut between its slashes)."""
    return [at + 1 for at, char in enumerate(piece[:-1])
            if char in LONG_WORD_BREAKS and piece[at + 1] not in LONG_WORD_BREAKS]


def _hard_cut(piece: str, width: int) -> list[str]:
    """``piece`` cut into as few runs of at most ``width`` columns as it takes, between the
    characters a reader sees (a character wider than ``width`` alone on its run): after a
    slash, underscore, full stop or hyphen where it can (:func:`long_word_breaks`), and never
    leaving a run of :data:`SHORT_RUN` columns or fewer where another cut avoids it."""
    starts = cluster_starts(piece)
    offsets = sorted({0, *starts, len(piece)})
    preferred = set(long_word_breaks(piece))
    measure = measure_for(width)
    columns = {offset: measure(piece[:offset]) for offset in offsets}
    # best[j]: (runs, runs of SHORT_RUN columns or fewer, cuts between letters) for piece[:j], and the cut before j
    best: dict[int, tuple[tuple[int, int, int], int]] = {0: ((0, 0, 0), 0)}
    for index, end in enumerate(offsets[1:], start=1):
        found: tuple[tuple[int, int, int], int] | None = None
        for start in reversed(offsets[:index]):
            taken = columns[end] - columns[start]
            if taken > width and found is not None:
                break
            if start not in best:
                continue
            (runs, short, unkind), _ = best[start]
            score = (runs + 1, short + (taken <= SHORT_RUN), unkind + (end != len(piece) and end not in preferred))
            if found is None or score < found[0]:
                found = (score, start)
            if taken > width:  # a single character wider than a run: alone
                break
        assert found is not None
        best[end] = found
    cuts = [len(piece)]
    while cuts[-1]:
        cuts.append(best[cuts[-1]][1])
    return [piece[start:end] for start, end in itertools.pairwise(reversed(cuts))]


def wrap_columns(text: str, width: int = SRT_LINE, *, break_long_words: bool = False) -> list[str]:
    """Greedy wrap of single-spaced ``text`` into lines of at most ``width`` columns
    (:func:`display_width`), at spaces and between wide characters; a Latin word longer than
    a line keeps a line of its own, unbroken, or with ``break_long_words`` starts a line and
    is cut between its characters (as burned captions cut it, :func:`studio.export.drawing.wrap_text`).
    Lines joined with their spaces (or nothing, where a break fell between wide characters
    or inside a long word) give ``text`` back."""
    lines: list[str] = []
    current, used = "", 0
    measure = measure_for(width)
    for word in caption_words(text):
        for at, piece in enumerate(_pieces(word)):
            gap = " " if at == 0 and current else ""
            needed = measure(piece)
            if break_long_words and needed > width:
                if current:
                    lines.append(current)
                *full, current = _hard_cut(piece, width)
                lines.extend(full)
                used = measure(current)
                continue
            if current and used + measure(gap) + needed > width:
                lines.append(current)
                current, used, gap = "", 0, ""
            current += gap + piece
            used += measure(gap) + needed
    return [*lines, current] if current else lines


PARTICLES = frozenset("はがをにでともへのや")
"""Japanese particles: a line broken after one (``美咲が`` / ``夜の港で``) breaks between
phrases, not inside a word (:func:`balanced_lines`)."""

BALANCE_SLACK = 5
"""A balanced line may be wider than the narrowest possible widest line by a fifth of a
line (two full-width characters in Japanese, three in Chinese and Korean, eight columns in
English) where that lets it break after punctuation or a particle (:func:`balanced_lines`)."""

BALANCED_MOST_LINES = 8
"""A text wrapping to more lines than this (only a caption merged where time is short) keeps
:func:`wrap_columns`'s lines: balancing it would cost time out of proportion."""


@dataclass(frozen=True)
class _Token:
    """A stretch of a line that is never broken (:func:`_pieces`), and whether a space comes
    before it (a line broken there drops the space)."""

    text: str
    spaced: bool


def _tokens(text: str) -> list[_Token]:
    return [_Token(piece, at == 0 and index > 0)
            for index, word in enumerate(caption_words(text)) for at, piece in enumerate(_pieces(word))]


def _hiragana(char: str) -> bool:
    return "\u3041" <= char <= "\u309f"


def _break_penalty(before: str, token: _Token) -> int:
    """How much a reader minds a line broken after ``before`` (the text up to the break) and
    before ``token``: least after punctuation (a comma, a full stop, a closing bracket), then
    at a space or after a Japanese particle, then where kana meets a kanji or katakana, most
    elsewhere inside a run of Japanese or Chinese (it may split a word: ``歩`` / ``く。``), and
    before the slash that joins merged cues (a line opened by it reads as a fraction). After
    that slash, before a speaker's name, is best of all: each speaker's words then start a
    line (``Qiqi: Hi there! /`` / ``Yuzu: Hello, how are you?``)."""
    if token.text == "/":
        return 4
    if before.endswith(" /") and _label_length(token.text):  # each speaker's line a line of its own
        return -1
    last = before[-1]
    if unicodedata.category(last).startswith("P"):
        return 0
    if token.spaced or (last in PARTICLES and len(before) > 1 and not _hiragana(before[-2])):
        return 1
    if _hiragana(last) and not _hiragana(token.text[0]):
        return 2
    return 3


class _Lines:
    """The tokens of a text and what :func:`balanced_lines` asks of them."""

    def __init__(self, text: str, measure: Callable[[str], int] = display_width) -> None:
        self.tokens = _tokens(text)
        self.count = len(self.tokens)
        self.space = measure(" ")
        self.before = list(itertools.accumulate(
            (measure(token.text) + self.space * token.spaced for token in self.tokens), initial=0))
        ends = list(itertools.accumulate((len(token.text) + token.spaced for token in self.tokens), initial=0))
        self.penalty = [0, *(_break_penalty(text[:ends[end]], self.tokens[end]) for end in range(1, self.count)), 0]

    def width(self, start: int, end: int) -> int:
        """The columns of a line of tokens ``start..end`` (the space before the first dropped)."""
        return self.before[end] - self.before[start] - self.space * self.tokens[start].spaced

    def ends(self, start: int, most: int) -> Iterator[int]:
        """The ends of the lines from token ``start`` of at most ``most`` columns."""
        end = start + 1
        while end <= self.count and self.width(start, end) <= most:
            yield end
            end += 1

    def text(self, start: int, end: int) -> str:
        return "".join((" " if token.spaced and at else "") + token.text
                       for at, token in enumerate(self.tokens[start:end]))


def balanced_lines(text: str, width: int = SRT_LINE) -> list[str]:
    """Single-spaced ``text`` wrapped into as few lines of at most ``width`` columns as
    :func:`wrap_columns` takes, with the breaks chosen so the lines are of about one width
    rather than full lines and a short last one: ``美咲が夜の港で`` / ``ゆっくり歩く。``, not
    ``美咲が夜の港でゆっくり歩`` / ``く。``, which cut the word 歩く and left two characters
    alone. Among the breaks that keep the widest line within :data:`BALANCE_SLACK` of the
    narrowest it can be, it takes those a reader minds least (:func:`_break_penalty`), then
    the most even lines (the least sum of squared widths), then a shorter top line. Text on
    one line, on more than :data:`BALANCED_MOST_LINES`, or with a word wider than a line (cut
    as :func:`wrap_columns` cuts it) is wrapped as :func:`wrap_columns` wraps it."""
    greedy = wrap_columns(text, width, break_long_words=True)
    if not 2 <= len(greedy) <= BALANCED_MOST_LINES:
        return greedy
    measure = measure_for(width)
    lines = _Lines(text, measure)
    if any(measure(token.text) > width for token in lines.tokens):
        return greedy
    most = min(width, _narrowest_widest(lines, len(greedy), width) + max(2, width // BALANCE_SLACK))
    breaks = _best_breaks(lines, len(greedy), most)
    return [lines.text(start, end) for start, end in itertools.pairwise([0, *breaks, lines.count])]


def _narrowest_widest(lines: _Lines, count: int, width: int) -> int:
    """The least width the widest of ``count`` lines can have, none wider than ``width``."""
    best = {lines.count: 0}  # from a token on, in the lines left: the least widest line
    for _ in range(count):
        step: dict[int, int] = {}
        for start in range(lines.count):
            options = [max(lines.width(start, end), best[end]) for end in lines.ends(start, width) if end in best]
            if options:
                step[start] = min(options)
        best = step
    return best[0]


def _best_breaks(lines: _Lines, count: int, most: int) -> list[int]:
    """The token offsets where ``count`` lines of at most ``most`` columns each break: least
    minded first (:func:`_break_penalty`), then most even, then with the shortest top line."""
    best: dict[int, tuple[tuple[int, int, int], list[int]]] = {lines.count: ((0, 0, 0), [])}
    for left in range(1, count + 1):
        step: dict[int, tuple[tuple[int, int, int], list[int]]] = {}
        for start in range(lines.count):
            for end in lines.ends(start, most):
                if end not in best:
                    continue
                (minded, squares, top), after = best[end]
                line = lines.width(start, end)
                score = (minded + lines.penalty[end], squares + line * line, top + (line if left == count else 0))
                if start not in step or score < step[start][0]:
                    step[start] = (score, [end, *after] if end < lines.count else after)
        best = step
    return best[0][1]

LOOK_ALIKES = str.maketrans({"<": "\u2039", ">": "\u203a", "{": "\u2774", "}": "\u2775"})
"""SRT has no escapes, and players read markup in its text: ``<b>``, ``<i>`` and ``<font>``
tags, ASS override blocks (``{\\an8}`` moves a cue to the top, ``{\\i1}`` turns it italic,
libass hides any ``{...}``) and MicroDVD tags (``{y:i}``). The brackets become look-alikes
(‹ › ❴ ❵), so what was typed shows and does nothing."""

WORD_JOINER = "\u2060"
ASS_ESCAPES = re.compile(r"(?<=\\)(?=[Nnh])")
"""``\\N``, ``\\n`` and ``\\h``: line breaks and a hard space to players that render SRT
with libass; an invisible word joiner after the backslash keeps them as typed."""


SRT_CUE_LINES = 2
"""Lines a cue holds at most (the same style guides); a longer text takes consecutive cues."""

MIN_SRT_CUE_SECONDS = Fraction(5, 6)
"""The least time a cue stays up where its turn has time for it (Netflix's timed-text style
guide: 5/6 s, 20 frames at 24 fps), so even a short last piece can be read."""

_CLOSERS = "\"'\u201d\u2019\u00bb)\\]\u300d\u300f\uff09\u3011\u3015\u3009\u300b"
SENTENCE_END = re.compile(
    rf"[.!?\u2026\u203c\u2047-\u2049\u061f\u06d4]+[{_CLOSERS}]*(?= )|[\u3002\uff01\uff0e\uff1f]+[{_CLOSERS}]*")
"""Where a sentence ends: Latin, Arabic (``؟``, ``۔``) and Hebrew end punctuation (and the
quotes or brackets closing with it) before a space, or Japanese and Chinese end punctuation
(``。！？``), which needs no space."""
CLAUSE_END = re.compile(
    rf"[,;:\u060c\u061b]+[{_CLOSERS}]*(?= )|[\u3001\uff0c\uff1a\uff1b]+[{_CLOSERS}]*| [\u2013\u2014/](?= )")
"""Where a clause ends: a comma, semicolon or colon (Latin, Arabic ``،`` ``؛``, or
full-width ``、，：；``), or a spaced dash or slash (merged cues are joined with `` / ``)."""


def _fits(text: str, width: int) -> bool:
    """Whether ``text`` wraps to at most :data:`SRT_CUE_LINES` lines of ``width`` columns, each
    part of a joined subtitle that changes direction on lines of its own (:func:`_parts`)."""
    return sum(len(wrap_columns(text[start:end], width, break_long_words=True))
               for start, end, _rtl in _parts(text)) <= SRT_CUE_LINES


def _parts(text: str, rtl: bool = False) -> list[tuple[int, int, bool | None]]:
    """``text`` as the parts of a joined subtitle that read in different directions, each as
    (start, end, its direction): one part (direction None: the cue's own, ``rtl`` being
    unused) where it holds no part mark (:func:`studio.export.cues.part_starts`); else the
    first part (ending with its separator's "/", direction None) and each part of another
    direction from its mark on."""
    starts = part_starts(text)
    if not starts:
        return [(0, len(text), None)]
    bounds: list[tuple[int, int, bool | None]] = []
    at: int = 0
    direction: bool | None = None
    for start, part_rtl in starts:
        bounds.append((at, start - 1, direction))  # the space before the mark is where the line breaks
        at, direction = start, part_rtl
    bounds.append((at, len(text), direction))
    return bounds


def _word_ends(text: str, width: int, *, within: bool = True) -> list[int]:
    """Every offset of single-spaced ``text`` where a line may end: before each space, where a
    word may break (next to a wide character) and, in a word wider than a line of ``width``
    columns, between any two of its characters. Not ``within``: inside a word only where it is
    wider than a subtitle's lines, and there only after a slash, underscore, full stop or hyphen
    (:func:`long_word_breaks`): a subtitle then never ends inside a word that the next one could
    show whole, nor inside ``example`` of a web address."""
    ends: list[int] = []
    at = 0
    room = SRT_CUE_LINES * width
    measure = measure_for(width)
    for word in caption_words(text):
        for piece in _pieces(word):
            wide = measure(piece)
            if within and wide > width:
                ends.extend(at + start for start in cluster_starts(piece))
            elif not within and wide > room:
                ends.extend(at + start for start in long_word_breaks(piece))
            at += len(piece)
            ends.append(at)
        at += 1  # the space
    return ends


def _farthest_fitting(text: str, start: int, ends: list[int], columns: list[int], width: int,
                      least: int = 0) -> int | None:
    """The farthest of ``ends`` after ``start`` where ``text[start:end]`` still fits a cue and
    takes at least ``least`` columns, or None (lines of ``width`` columns). Ends are tried in order until one no longer
    fits (a longer text never wraps to fewer lines); ``columns`` (the columns before each
    offset) turns away at once a stretch wider than a cue's lines and the spaces between them
    could hold, so a long text without a break is not wrapped again for every cue."""
    room = SRT_CUE_LINES * width + (SRT_CUE_LINES - 1) * measure_for(width)(" ")
    found = None
    for index in range(bisect.bisect_right(ends, start), len(ends)):
        end = ends[index]
        taken = columns[end] - columns[start]
        if taken > room or not _fits(text[start:end], width):
            break
        if taken >= least:
            found = end
    return found


def _chunk_bounds(text: str, width: int) -> list[tuple[int, int]]:
    """Single-spaced ``text`` cut into consecutive stretches that each wrap to at most
    :data:`SRT_CUE_LINES` lines of ``width`` columns, as ``(start, end)``: each as long as it may be when it ends
    at a sentence end; else at a clause end, if that fills at least half a line (so a
    speaker's ``Qiqi:`` or a short ``Well,`` is not a cue of its own); else between words."""
    names = [match.span() for match in SPEAKER_LABEL.finditer(text)]  # a name's colon ends no clause
    levels = [(sorted({*ends, len(text)}), least) for ends, least in (
        ([match.end() for match in SENTENCE_END.finditer(text)], 0),
        ([match.end() for match in CLAUSE_END.finditer(text)
          if not any(first < match.end() <= last for first, last in names)], width // 2),
        (_word_ends(text, width, within=False), 0),
        (_word_ends(text, width), 0))]
    measure = measure_for(width)
    columns = list(itertools.accumulate((measure(char) for char in text), initial=0))
    bounds: list[tuple[int, int]] = []
    start = 0
    while start < len(text):
        end = None
        for ends, least in levels:
            end = _farthest_fitting(text, start, ends, columns, width, least)
            if end is not None:
                break
        if end is None:  # a single character wider than two lines: a cue of its own
            end = start + len(grapheme_clusters(text[start:])[0])
        bounds.append((start, end))
        start = end + (1 if text[end:end + 1] in (" ", IDEOGRAPHIC_SPACE) else 0)
    return bounds


def srt_pieces(cue: Cue, most: int | None = None, context: str = "") -> list[Cue]:
    """``cue`` as the SRT shows it: one cue, or, when its text wraps to more than
    :data:`SRT_CUE_LINES` lines of its language's length (:func:`line_columns`; ``context``:
    the text it was cut from), consecutive cues of the same kind that each fit (see
    :func:`_chunk_bounds`; the speaker's name leads the first). Read in order (joined with a
    space where the text had one) they give the text back. With ``most`` and more pieces
    than that, neighbouring pieces share one, so none is lost where time is short."""
    text = single_spaced(cue.shown)
    if not text:
        return []
    bounds = _chunk_bounds(text, line_columns(text, context))
    if most is not None and len(bounds) > most:
        count = len(bounds)
        bounds = [(bounds[count * k // most][0], bounds[count * (k + 1) // most - 1][1]) for k in range(most)]
    if len(bounds) == 1:
        return [cue]
    return [Cue(cue.kind, text[start:end], paragraph_rtl=direction_at(text, start, cue.reads_rtl))
            for start, end in bounds]


def srt_cues(cues: list[Cue], start: int, end: int, minimum: int) -> list[TimedCue]:
    """A turn's SRT cues over frames ``start..end``: every cue's pieces (:func:`srt_pieces`),
    sharing the frames by length as :func:`studio.export.cues.share_frames` does, each at
    least ``minimum`` frames where the turn has them. With more pieces than frames, the cues
    share the frames as the captions do (:func:`studio.export.cues.split_span`) and each
    cue's pieces its own frames, merged where they must be."""
    return [piece for _, pieces in _cue_pieces(cues, start, end, minimum) for piece in pieces]


def _cue_pieces(cues: list[Cue], start: int, end: int, minimum: int) -> list[tuple[TimedCue, list[TimedCue]]]:
    """Each cue shown (a merged one where frames are short) with its timed SRT pieces; a
    cue with no text to show is left out."""
    each = [srt_pieces(cue) for cue in cues]
    count = sum(len(pieces) for pieces in each)
    if not count or count > end - start:
        shared_cues = [(shared, _timed(srt_pieces(shared.cue, shared.end - shared.start), shared.start, shared.end,
                                       minimum, shared.cue.shown)) for shared in split_span(cues, start, end)]
        return [(shared, pieces) for shared, pieces in shared_cues if pieces]
    contexts = [cue.shown for cue, pieces in zip(cues, each, strict=True) for _ in pieces]
    timed = iter(_timed([piece for pieces in each for piece in pieces], start, end, minimum, contexts))
    grouped = [(cue, [next(timed) for _ in pieces]) for cue, pieces in zip(cues, each, strict=True)]
    return [(TimedCue(cue, pieces[0].start, pieces[-1].end), pieces) for cue, pieces in grouped if pieces]


def _timed(pieces: list[Cue], start: int, end: int, minimum: int,
           contexts: str | list[str] = "") -> list[TimedCue]:
    """``pieces`` sharing frames ``start..end`` by the time each takes to read, in the
    language of the cue it was cut from (``contexts``: that cue's text, one for all or one
    a piece), each at least ``minimum`` frames where they fit."""
    if not pieces:
        return []
    each = [contexts] * len(pieces) if isinstance(contexts, str) else contexts
    weights = [max(MIN_CUE_WEIGHT, reading_weight(piece.shown, context))
               for piece, context in zip(pieces, each, strict=True)]
    return [TimedCue(piece, first, stop)
            for piece, (first, stop) in zip(pieces, share_frames(weights, start, end, minimum), strict=True)]


def min_cue_frames(fps: Fraction) -> int:
    """The least output frames an SRT cue stays up where its turn has them (:data:`MIN_SRT_CUE_SECONDS`)."""
    return math.ceil(MIN_SRT_CUE_SECONDS * fps)


@dataclass(frozen=True)
class ShownCaptions:
    """One turn's captions (or those of a run of short turns, merged) where the episode shows
    them: its ``subtitles``, each at most two lines, as the SRT writes them, burned-in captions
    draw them and OTIO markers name them, one each.

    Burned-in captions and markers once showed each whole line of the turn over the frames
    of its subtitles: a long line was two subtitles in the SRT but one marker of all its text
    and a burned caption of three lines broken wherever the frame's width ran out."""

    block: CaptionBlock
    subtitles: list[TimedCue]
    shortened: bool = False
    """Whether its text was more than its time could show, and shows only its start, ending
    in "…" (:func:`readable_cues`)."""


_last_laid_out: list[tuple[Branch, Timeline, tuple[ShownCaptions, ...]]] = []
"""The last branch and timeline whose captions were laid out (the very objects), with them:
an export asks twice (to write them, then for its notes), and a long branch took seconds each."""


def episode_captions(branch: Branch, timeline: Timeline) -> list[ShownCaptions]:
    """Every caption of the episode, in order, laid out by
    :func:`studio.export.caption_timing.caption_blocks` (so none only flashes by)."""
    last = list(_last_laid_out)  # another thread may replace it meanwhile
    if last and last[0][0] is branch and last[0][1] is timeline:
        return list(last[0][2])
    shown = _laid_out(branch, timeline)
    _last_laid_out[:] = [(branch, timeline, tuple(shown))]
    return shown


def _laid_out(branch: Branch, timeline: Timeline) -> list[ShownCaptions]:
    """:func:`episode_captions`, worked out."""
    minimum = min_cue_frames(timeline.fps)
    shown: list[ShownCaptions] = []
    said = [turn_cues(turn) for turn in branch.turns]
    counts = [sum(len(srt_pieces(cue)) for cue in cues) for cues in said]

    def fewest(index: int) -> int:
        """A turn of several lines asks for a subtitle's minimum for each line, or for fewer where
        its lines join two to a subtitle; a turn of one long line for one (its text is cut)."""
        cues = said[index]
        return min(len(cues), len(shared_pieces(cues))) if len(cues) > 1 else 1

    for block in caption_blocks(said, timeline.turns, timeline.fps, counts,
                                lambda cues: len(shared_pieces(list(cues))), fewest):
        if block.merged:
            shared = shared_caption(block, [cue for index in block.turns for cue in said[index]], minimum)
            if shared is not None:
                shown.append(shared)
            continue
        if block.end <= block.start:  # a turn shown for no whole frame (within a dissolve)
            continue
        fitted = fitted_cues(list(block.cues), block.end - block.start, minimum, joined=False)
        if fitted.joined:  # more subtitles than its time holds: its lines share subtitles
            timed = _timed(fitted.cues, block.start, block.end, minimum, _context(block.cues))
            if timed:
                shown.append(ShownCaptions(block, timed, fitted.shortened))
            continue
        grouped = _cue_pieces(fitted.cues, block.start, block.end, minimum)
        if grouped:
            shown.append(ShownCaptions(block, [piece for _, pieces in grouped for piece in pieces], fitted.shortened))
    return shown


def shared_caption(block: CaptionBlock, cues: list[Cue], minimum: int) -> ShownCaptions | None:
    """The caption that a run of short turns shares (``cues``: theirs, in order) over the
    block's frames: consecutive subtitles of at most two lines each (:func:`shared_pieces`),
    each a burned-in caption and an OTIO marker of its own, each up at least ``minimum``
    frames where the block has them. Where it has too few, the turns' cues are cut as one
    turn's are (:func:`fitted_cues`: never to subtitles up less than ``minimum``).

    Why consecutive two-line subtitles, not one cue of all the turns' text: five or six lines
    at once are more than a viewer takes in while the pictures run on (they read the top and
    miss the rest), and the SRT style guides, the burned caption's room and an editor's marker
    all expect two. Why the turns still share rather than each keeping a caption of its own:
    each lasts half a second or less, and its neighbours are as short, so a caption of its own
    would only flash by; shared, the text follows the pictures in order and the run as a whole
    borrows the time its subtitles want (:mod:`studio.export.caption_timing`).
    None when there is nothing to show."""
    frames = block.end - block.start
    if frames <= 0 or not cues:
        return None
    fitted = fitted_cues(cues, frames, minimum, joined=True)
    timed = _timed(fitted.cues, block.start, block.end, minimum, _context(cues))
    if not timed:
        return None
    return ShownCaptions(block, timed, fitted.shortened)


def shared_pieces(cues: list[Cue]) -> list[Cue]:
    """The subtitles of a caption that short turns share, or of a turn whose lines have too
    little time for a subtitle each: each cue's own (:func:`srt_pieces`), in order, a cue's
    first one joined to the subtitle before it (``Qiqi waves. / Yuzu jumps.``) where the two
    still fit two lines; a speaker's next line after their own joins without their name
    again (``Yuzu: Hi! Let's go.``: :func:`_joined`); narration joins only narration, so it
    keeps its italics and stays apart from the dialogue (:func:`_may_join`). So a subtitle
    changes where a turn's line starts, never with a "/" leading it, and the run takes no more
    subtitles than its cues do apart (which is what :func:`readable_cues` counts)."""
    shown: list[Cue] = []
    last_speaker = ""  # who says the line that ends shown[-1]; '' after narration or an action
    context = _context(cues)
    for cue in cues:
        speaker = cue.speaker if cue.kind is CueKind.DIALOGUE else ""
        for index, piece in enumerate(srt_pieces(cue)):
            text = single_spaced(piece.shown)
            joined = _joined(shown[-1], text, piece.reads_rtl, speaker if speaker == last_speaker else "") \
                if index == 0 and shown and _may_join(shown[-1], piece) else ""
            if joined and _fits(joined, line_columns(joined, context)):
                before = shown[-1]
                kind = before.kind if before.kind is piece.kind else CueKind.DIALOGUE
                shown[-1] = Cue(kind, joined, paragraph_rtl=before.reads_rtl)
            else:  # a whole line keeps its speaker (an OTIO marker names it)
                shown.append(cue if piece is cue else Cue(piece.kind, text, paragraph_rtl=piece.reads_rtl))
            last_speaker = speaker
    return shown


def _may_join(before: Cue, after: Cue) -> bool:
    """Whether ``after`` may share a subtitle with ``before``: never narration with a line of
    dialogue or an action, whichever comes first. Narration shows in italics, the rest upright,
    and a subtitle has one style; joined, ``The town wakes up. / Qiqi: First!`` lost its italics
    and read as part of the dialogue."""
    return (before.kind is CueKind.NARRATION) == (after.kind is CueKind.NARRATION)


def _joined(cue: Cue, text: str, rtl: bool, same_speaker: str) -> str:
    """Subtitle ``cue``'s text and a line's ``text`` (read right to left when ``rtl``) as one
    subtitle: apart by :data:`MERGED_SEPARATOR`, the line opening with its direction's mark
    where it reads in another direction than the end of ``cue`` (its own lines then:
    :func:`studio.export.cues.joined_text`); where the line goes on with ``same_speaker``
    (its speaker, who also said the line ending ``cue``) in the same direction, without the
    name again, after a space, or directly after a full-width full stop (Japanese and
    Chinese put no space between sentences)."""
    before = single_spaced(cue.shown)
    name = single_spaced(f"{same_speaker}:") + " "
    same_direction = direction_at(before, len(before), cue.reads_rtl) == rtl
    if not same_speaker or not text.startswith(name) or not same_direction:
        return joined_text(before, cue.reads_rtl, text, rtl)
    rest = text.removeprefix(name)
    last = before[-1:]
    if not unicodedata.category(last).startswith("P"):  # no sentence end: the slash still parts them
        return f"{before}{MERGED_SEPARATOR}{rest}"
    return f"{before}{'' if is_wide(last) else ' '}{rest}"


def _context(cues: tuple[Cue, ...] | list[Cue]) -> str:
    """The text of ``cues`` together: what decides the language of a piece cut from them that
    is all Han characters (:func:`line_columns`)."""
    return " ".join(cue.shown for cue in cues)


SHORTENED_CAPTIONS_HINT = ("a longer duration for the turn (`kamishibai story PROJECT NODE --duration SECONDS`, or "
                           "Duration in the window's Story section) or a shorter text shows all of it")
"""How a note on captions cut for time says to show all of their text; the window says it
in its own words (:func:`studio.ui.export_notes.note_in_window_words`)."""


def cut_caption_turns(branch: Branch, timeline: Timeline) -> list[int]:
    """The numbers of the turns whose caption text was cut to fit its time (:func:`fitted_cues`),
    in order. Where short turns share a caption and only its end is cut, only the turns whose
    own words are not all shown are named: a turn shown whole beside a cut one is not."""
    cut: set[int] = set()
    for shown in episode_captions(branch, timeline):
        if not shown.shortened:
            continue
        said = _unspaced(" ".join(timed.cue.text for timed in shown.subtitles))
        for index in shown.block.turns:
            if any(_unspaced(cue.text) not in said for cue in turn_cues(branch.turns[index])):
                cut.add(branch.turns[index].number)
    return sorted(cut)


def _unspaced(text: str) -> str:
    """``text`` without spaces and direction marks: a turn's words are found in its subtitles
    however they were wrapped, cut into pieces or joined to their neighbours' (" / ")."""
    return "".join(char for char in text if not char.isspace() and char not in (LRM, RLM))


def shortened_captions_note(branch: Branch, timeline: Timeline) -> str:
    """A note naming the turns whose caption had more text than its time shows (it shows the
    start, ending in "…": :func:`readable_cues`), and how to show all of it, or ''."""
    numbers = cut_caption_turns(branch, timeline)
    if not numbers:
        return ""
    if len(numbers) == 1:
        which = f"turn {numbers[0]}'s caption has more text than can be read in its time, so it shows"
    else:
        named = [str(number) for number in numbers]
        listed = first_few(named, ", ") if len(named) > 8 else f"{', '.join(named[:-1])} and {named[-1]}"
        which = f"turns {listed} have captions with more text than can be read in their time, so each shows"
    return f"{which} only its start, ending in '\u2026' ({SHORTENED_CAPTIONS_HINT})"


ELLIPSIS = "\u2026"


def subtitle_slots(frames: int, minimum: int) -> int:
    """How many subtitles ``frames`` frames hold, each up ``minimum`` frames: at least one
    (an episode shorter than the minimum still shows one)."""
    return max(1, frames // max(1, minimum))


@dataclass(frozen=True)
class FittedCues:
    """A caption's cues as its time can show them (:func:`fitted_cues`)."""

    cues: list[Cue]
    joined: bool
    """Whether ``cues`` are subtitles, each of at most two lines (lines joined where time was
    short), shown one caption each; else they are the turn's cues, each cut into its SRT cues."""
    shortened: bool
    """Whether some text was cut (ending in "…") to give every subtitle its time."""


def fitted_cues(cues: list[Cue], frames: int, minimum: int, *, joined: bool) -> FittedCues:
    """A caption's ``cues`` as ``frames`` frames can show them with every subtitle up at least
    ``minimum`` frames (:func:`subtitle_slots` subtitles at most). ``joined``: the caption of
    several short turns, always shown as joined subtitles (:func:`shared_pieces`).

    In order of preference: each cue its own subtitles (:func:`srt_pieces`); the lines joined
    into shared two-line subtitles (``Yuzu: Hi! / Qiqi: Hello.``), none of their text lost;
    each cue cut to fewer subtitles (:func:`readable_cues`: each keeps at least one); each cue
    cut to its first subtitle, joined where they fit; and, with more lines than subtitles,
    neighbouring lines sharing one subtitle, each cut to an equal part of its two lines
    (:func:`_one_subtitle`). A turn of three short lines in 1 s showed each for a third of a
    second, too short to read; now they show together, for the whole second."""
    cues = [cue for cue in cues if single_spaced(cue.shown)]
    slots = subtitle_slots(frames, minimum)
    if not joined and sum(len(srt_pieces(cue)) for cue in cues) <= slots:
        return FittedCues(cues, False, False)
    together = shared_pieces(cues)
    if len(together) <= slots:
        return FittedCues(together, True, False)
    if len(cues) <= slots:
        readable = readable_cues(cues, frames, minimum)
        return FittedCues(shared_pieces(readable) if joined else readable, joined, True)
    firsts = [shortened_cue(cue, 1) if len(srt_pieces(cue)) > 1 else cue for cue in cues]
    together = shared_pieces(firsts)
    if len(together) <= slots:
        return FittedCues(together, True, True)
    return FittedCues([_one_subtitle(group) for group in _subtitle_groups(cues, slots)], True, True)


def _subtitle_groups(cues: list[Cue], slots: int) -> list[list[Cue]]:
    """``cues`` in ``slots`` runs of neighbours, each to show as one subtitle, as even in number
    as they can be; narration never in one run with dialogue or an action (:func:`_may_join`),
    so a turn's narration and its lines take two subtitles even where its time holds one."""
    runs: list[list[Cue]] = []
    for cue in cues:
        if runs and _may_join(runs[-1][-1], cue):
            runs[-1].append(cue)
        else:
            runs.append([cue])
    shares = [1] * len(runs)
    for _ in range(max(0, slots - len(runs))):  # each slot left to the run with most cues a slot
        wanting = [index for index, run in enumerate(runs) if shares[index] < len(run)]
        if not wanting:
            break
        most = max(wanting, key=lambda index: Fraction(len(runs[index]), shares[index]))
        shares[most] += 1
    return [run[len(run) * k // share:len(run) * (k + 1) // share]
            for run, share in zip(runs, shares, strict=True) for k in range(share)]


def _one_subtitle(cues: list[Cue]) -> Cue:
    """``cues`` as one subtitle of at most two lines: each cut after a whole word to at most
    as many columns as lets them all fit, the same for all (a short line stays whole and
    leaves the others its room), ending in "…". Where not even each line's first word fits,
    the start of them all."""
    context = _context(cues)
    low, high, best = 1, SRT_CUE_LINES * line_columns(context, context), None
    while low <= high:  # more columns a line never makes the subtitle fewer lines: bisect
        most = (low + high) // 2
        together = _together([_cut_to_columns(cue, most) for cue in cues])
        if _fits(together.text, line_columns(together.text, context)):
            best, low = together, most + 1
        else:
            high = most - 1
    if best is not None:
        return best
    start = shortened_cue(_together([_cut_to_columns(cue, 1) for cue in cues]), 1)
    text = start.text.rstrip(ELLIPSIS).rstrip().removesuffix(MERGED_SEPARATOR.strip()).rstrip().rstrip(ELLIPSIS)
    return Cue(start.kind, text + ELLIPSIS, paragraph_rtl=start.paragraph_rtl)


def _together(cues: list[Cue]) -> Cue:
    """``cues`` joined into one text as :func:`shared_pieces` joins them, however long."""
    text, last_speaker = "", ""
    for cue in cues:
        speaker = cue.speaker if cue.kind is CueKind.DIALOGUE else ""
        shown = single_spaced(cue.shown)
        so_far = Cue(CueKind.ACTION, text, paragraph_rtl=cues[0].reads_rtl)
        text = _joined(so_far, shown, cue.reads_rtl, speaker if speaker == last_speaker else "") if text else shown
        last_speaker = speaker
    kinds = {cue.kind for cue in cues}
    return Cue(kinds.pop() if len(kinds) == 1 else CueKind.DIALOGUE, text, paragraph_rtl=cues[0].reads_rtl)


def _cut_to_columns(cue: Cue, most: int) -> Cue:
    """``cue`` whole where its shown text takes at most ``most`` columns, else cut after the
    last whole word that leaves it that many with its "…" (at least its first word)."""
    if display_width(single_spaced(cue.shown)) <= most:
        return cue
    text = single_spaced(cue.text)
    name = display_width(single_spaced(cue.shown)) - display_width(text)
    ends = [end for end in _word_ends(text, line_columns(text, cue.shown)) if 0 < end < len(text)]
    if not ends:
        return cue
    fitting = [end for end in ends if name + display_width(text[:end].rstrip()) + 1 <= most]
    end = fitting[-1] if fitting else ends[0]
    return Cue(cue.kind, text[:end].rstrip() + ELLIPSIS, cue.speaker, cue.paragraph_rtl)


def readable_cues(cues: list[Cue], frames: int, minimum: int) -> list[Cue]:
    """``cues`` as a caption stretch of ``frames`` frames can show them: whole where all their
    SRT cues (:func:`srt_pieces`) can each stay up ``minimum`` frames; else cut, at a word end
    and with an ellipsis, to as many SRT cues as get that time.

    Each cue keeps at least its first SRT cue (a turn's line is never dropped, and a turn
    too short for even one is as it was); the SRT cues left go to the turn's cues in
    reading order (:func:`shortened_cue`). A 2,000-character instruction as the caption of
    a 9 s turn became 26 subtitles of about 0.35 s each, flashing all of it by."""
    counts = [len(srt_pieces(cue)) for cue in cues]
    spare = max(len(cues), frames // max(1, minimum)) - len(cues)
    if sum(counts) - len(cues) <= spare:
        return cues
    shown: list[Cue] = []
    for cue, count in zip(cues, counts, strict=True):
        extra = min(max(0, count - 1), spare)
        spare -= extra
        shown.append(cue if extra >= count - 1 else shortened_cue(cue, extra + 1))
    return shown


def shortened_cue(cue: Cue, most: int) -> Cue:
    """``cue`` cut to a start of its text that ends in "…" and takes at most ``most`` SRT cues
    (at least 1), as long as such a start may be. It ends where a line may end (before a
    space, between two Japanese or Chinese characters, or, inside a word wider than a line,
    between two characters as a reader sees them: :func:`_word_ends`), never inside a word,
    an emoji sequence or a letter with its marks; at worst it is its first word, or the first
    character of a word wider than a line."""
    text = single_spaced(cue.text)

    def cut(end: int) -> Cue:
        return Cue(cue.kind, text[:end].rstrip() + ELLIPSIS, cue.speaker, cue.paragraph_rtl)

    ends = [end for end in _word_ends(text, line_columns(text)) if 0 < end < len(text)]
    if not ends:
        return cue
    # more text never takes fewer SRT cues, near enough: bisect for the last end that fits
    # (cheap: a cue is cut into pieces a few times, not once for each word)
    low, high, best = 0, len(ends) - 1, 0
    while low <= high:
        middle = (low + high) // 2
        if len(srt_pieces(cut(ends[middle]), context=cue.shown)) <= most:
            best, low = middle, middle + 1
        else:
            high = middle - 1
    while best > 0 and len(srt_pieces(cut(ends[best]), context=cue.shown)) > most:
        best -= 1
    return cut(ends[best])


def subtitle_lines(cue: Cue, context: str = "") -> list[str]:
    """The lines of a subtitle: its text wrapped to its language's line length
    (:func:`line_columns`; ``context``: the text of the caption it was cut from) in lines of
    about one width, broken after punctuation or a particle where one is near the middle
    (:func:`balanced_lines`), never between a speaker's name and their line. The SRT writes
    these lines and burned captions draw them (:func:`studio.export.compose.frame_patches`),
    so a subtitle reads alike in both: burned captions wrapped on their own broke a Japanese
    line inside a word, wherever the frame's width ran out.

    A part of a joined subtitle that reads in another direction (an Arabic line after an
    English one: :func:`studio.export.cues.joined_text`) starts a line of its own, and each of
    its lines opens with its direction's mark, which the SRT, the burned captions and the OTIO
    markers keep (:func:`studio.export.bidi_text.directed_lines`)."""
    text = single_spaced(cue.shown)
    if not text:
        return []
    lines: list[str] = []
    for start, end, rtl in _parts(text):
        part = text[start:end]
        # broken where the SRT's text, its markup disarmed (srt_cue_text), breaks: a look-alike
        # bracket is punctuation where the bracket it stands for is not, and the lines must agree
        broken: list[str] = []
        at = 0
        for line in balanced_lines(part.translate(LOOK_ALIKES), line_columns(text, context)):
            broken.append(part[at:at + len(line)])
            at += len(line)
            at += part[at:at + 1] == " "  # the space a line broke at
        if rtl is not None:  # a part of another direction: every line of it opens with its mark
            mark = RLM if rtl else LRM
            broken = [line if line.startswith(mark) else mark + line for line in broken]
        lines.extend(broken)
    # a line that ends where two joined lines meet keeps no "/": the line break parts them
    # ("Qiqi walks step 12." / "Qiqi: Line number 12, hello.", not "Qiqi walks step 12. /")
    separator = MERGED_SEPARATOR.rstrip()
    return [line.removesuffix(separator) if line.endswith(separator) and at < len(lines) - 1 else line
            for at, line in enumerate(lines)]


def srt_cue_text(cue: Cue, context: str = "") -> str:
    """The cue as an SRT block's text: wrapped to its language's line length
    (:func:`line_columns`; ``context``: the text of the caption it was cut from) in lines of
    about one width (:func:`balanced_lines`), its markup
    disarmed, each line marked with its paragraph's direction where its own first letter says
    otherwise.

    Players (mpv and VLC through libass and FriBiDi, editors through ICU, DirectWrite or
    CoreText) take the direction of a line, or of the whole cue, from its first strong letter:
    "Yuzu: مرحبا يا صديقتي" read left to right, the name's way, and the Arabic line was laid out
    as if it were English. Such a line now begins with an invisible RIGHT-TO-LEFT MARK
    (U+200F), a strong right-to-left letter that all of them have known since Unicode 1.1 and
    draw as nothing, so the cue and each of its lines read right to left and the
    name sits at its right end (a LEFT-TO-RIGHT MARK likewise before a line of an English
    paragraph that starts with an Arabic word). Isolating the name (FSI ... PDI) was not
    chosen: isolates are newer (Unicode 6.3), and older renderers and fonts show them as boxes.
    A cue that is all of one direction is written as it was."""
    text = single_spaced(cue.shown).translate(LOOK_ALIKES)  # players read tags and override blocks in SRT text
    # wrapped here, as the burned captions are: players show an SRT line as it is written
    lines = directed_lines([line.translate(LOOK_ALIKES) for line in subtitle_lines(cue, context)], cue.reads_rtl)
    text = "\n".join(lines) or text
    text = ASS_ESCAPES.sub(WORD_JOINER, text)  # after wrapping: the joiner takes no column
    return f"<i>{text}</i>" if cue.kind is CueKind.NARRATION else text


def srt_text(branch: Branch, timeline: Timeline) -> str:
    blocks: list[str] = []
    for shown in episode_captions(branch, timeline):
        context = _context(shown.block.cues)
        for timed in shown.subtitles:
            start = srt_timestamp(timed.start, timeline.fps)
            end = srt_timestamp(timed.end, timeline.fps)
            blocks.append(f"{len(blocks) + 1}\n{start} --> {end}\n{srt_cue_text(timed.cue, context)}\n")
    return "\n".join(blocks)


def write_srt(path: Path, branch: Branch, timeline: Timeline) -> None:
    path.write_text(srt_text(branch, timeline), encoding="utf-8")


def vtt_text(branch: Branch, timeline: Timeline) -> str:
    """The SRT's subtitles as WebVTT (browsers' ``<track>``, video sites): the same cues, times
    (with a full stop before the milliseconds) and lines, italics kept, ``&`` written as
    ``&amp;`` (the SRT's text already shows ``<`` and ``>`` as look-alikes, so no cue holds a
    tag of its own or an arrow)."""
    blocks = ["WEBVTT\n"]
    for shown in episode_captions(branch, timeline):
        context = _context(shown.block.cues)
        for timed in shown.subtitles:
            start = srt_timestamp(timed.start, timeline.fps).replace(",", ".")
            end = srt_timestamp(timed.end, timeline.fps).replace(",", ".")
            text = srt_cue_text(timed.cue, context).replace("&", "&amp;")
            blocks.append(f"{len(blocks)}\n{start} --> {end}\n{text}\n")
    return "\n".join(blocks)


def write_vtt(path: Path, branch: Branch, timeline: Timeline) -> None:
    path.write_text(vtt_text(branch, timeline), encoding="utf-8")
