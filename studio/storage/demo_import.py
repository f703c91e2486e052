"""Import an AnimeGamer ``game_demo`` file: one turn per line.

A line looks like ``Character: Qiqi; Motion: gently sit on railing; Background: day town.``.
A line with no field names at all ("Qiqi eats bread slowly in the bakery at night") is a
free-text turn, as the editor and ``play`` accept it; it is listed as such in the result.
A line with field names needs Character, Motion and Background, none of them empty; a
line without a single word is no turn either. Blank lines and lines starting with ``#``
are skipped. Our extensions (AnimeGamer's files hold neither):

- ``## branch after N`` starts an alternative branch that continues from turn N of the
  file's first branch (``## branch after 0`` starts from the story's start). Turns are
  counted as written: a malformed one that ``skip_bad`` skips still counts, and a branch
  continuing from it is skipped too (never attached to the turn after it). A ``##`` line that
  names a branch in another way (``## branch afer 2``) is reported, not read as a comment;
- lines starting with ``>`` give the turn above them its story fields:
  ``> Qiqi: I'm late!`` (a dialogue line), ``> narration: ...``, ``> duration: 3.5``
  (seconds) and ``> notes: ...`` (shot notes).

What an editor or a spreadsheet adds and nobody sees or means is ignored: invisible
characters (zero-width spaces, byte order marks) around a line, its field names and
separators; tabs (between fields they separate them, as ``;``); a spreadsheet's quotes
around its cells and the empty cells after a line (a file saved as CSV). A field name
that is none of ours (``Mood:``, ``Charcter:``) is reported, not kept as an extra field.
A spreadsheet's header row (``Character,Motion,Background``, comma, semicolon or tab
separated; any field name the core knows, plus Duration, Narration and Notes) makes each
row under it a turn of those fields (:class:`SheetHeader`); a column of another name (an ID,
a comment) is skipped, and so is a column of numbers only named as a field another column
names (``Scene``, a scene number, beside ``Background``), each told in the story's notes. A
header lacking Character, Motion or Background, or naming a field twice otherwise, is
reported, and so is a row with more cells than the header has columns. A file of free-text
turns whose every line splits into 3 to 6 short cells is noted as a table without its header.

Every malformed line is reported with its line number, and nothing is imported unless
``skip_bad`` is set. A file that is no such text (JSON, RTF, a Word or Excel document, a PDF,
a picture, a bundle) is refused as a whole, naming what it is. A file is read up to
:data:`MAX_DEMO_BYTES` whatever it is (a pipe, ``/dev/stdin``, a device), and the whole
import is one edit: one transaction (a killed import writes nothing) and one Undo step.
"""

from __future__ import annotations

import codecs
import csv
import re
import shlex
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import ClassVar, NamedTuple

from studio.core.changes import Entity, EntityKey, EntityKind, Patch
from studio.core.commands import Command, CommandError, cast_name_problem
from studio.core.errors import StudioError
from studio.core.field_names import FIELD_NAMES, misspelled_field_names, unknown_field_message, unknown_field_names
from studio.core.instruction import (
    KEY_ALIASES,
    Instruction,
    InstructionError,
    field_spans,
    parse_instruction,
    validate_instruction_text,
)
from studio.core.model import CastMember, Node, new_id, now_iso
from studio.core.state import character_key
from studio.core.story import StoryFieldError, StoryFields, check_dialogue_line, check_story, parse_duration
from studio.core.text import ZERO_WIDTH
from studio.core.tree import StoryTree
from studio.storage.project import Project

REQUIRED_FIELDS = ("character", "motion", "background")
MAX_DEMO_BYTES = 10 * 1024 * 1024
_BRANCH_RE = re.compile(r"^##\s*branch\s+after\s+(\S+)\s*$", re.IGNORECASE)
_MARKER_LIKE_RE = re.compile(r"^(?:#{2,}\s*branch\b|#\s*branch\s+after\s+\S+\s*$)", re.IGNORECASE)
"""A line meant as a branch marker that :data:`_BRANCH_RE` does not read (``## branch after
turn 2``, ``## branch afer 2``, ``# branch after 2``): as a comment it was skipped without a
word, and the turns below it joined the branch above."""
_STORY_RE = re.compile(r"^>\s*([^:：]{1,60}?)\s*[:：]\s*(.*)$")
_WORD_RE = re.compile(r"\w")
_INVISIBLE = "".join(sorted(ZERO_WIDTH))
"""Zero-width characters (pasted from web pages and chat apps, they show nowhere in an editor)
as a regular expression's character class holds them."""
_INVISIBLE_RE = re.compile(f"[{_INVISIBLE}]+")
_EDGE_CHARS = ZERO_WIDTH
"""Taken off a line's ends with white space (:func:`_strip_edges`): a byte order mark in the
middle of the text (files joined with ``cat``, the second one saved by Notepad) or a zero-width space
before ``Character:`` hid the field name, and the line was refused for a missing
'Character:' that it plainly shows."""
_GAP = rf"[\s{_INVISIBLE}]"
_AROUND_MARKS_RE = re.compile(rf"^>{_GAP}*|(?<!{_GAP}){_GAP}*[;；,，、:：]{_GAP}*")
"""A line's ``>`` and its field separators and colons, with the spaces and invisible
characters around them: a zero-width space after ``;`` hid the next field's name (the
field became free text, or its line was refused for a field it shows). The look-behind
tries a run of spaces once, from its start: tried from each of its characters, a long run
took quadratic time."""
_FIELD_KEY = "|".join(re.escape(key).replace(r"\ ", r"\s+") for key in sorted(KEY_ALIASES, key=len, reverse=True))
_TAB_GAP = rf"[ {_INVISIBLE}]*\t[\t {_INVISIBLE}]*"
_TABS_RE = re.compile(rf"(?<![ {_INVISIBLE}])(?:(?P<fields>{_TAB_GAP}(?=(?:{_FIELD_KEY})\s*[:：]))|{_TAB_GAP})",
                      re.IGNORECASE)
"""Tabs: before a field name they separate fields (a row copied from a spreadsheet, or saved
as tab-separated text); elsewhere they are spaces. An instruction holds no tab, so every
such line was refused for a control character."""
_QUOTED_CELL_RE = re.compile(r'^"((?:[^"]|"")*)"(?:([,;\t])|$)')
_SHEET_LINE_RE = re.compile(rf"^(?:#|>|(?:{_FIELD_KEY})\s*[:：])", re.IGNORECASE)
"""What a cell saved by a spreadsheet starts with when it holds a line of this format."""
_CELL_ENDS = " ,;，；"
"""Empty cells after a line (``...day town.,,,``), as spreadsheets save them: the commas
joined the last field's value ('town.,,,')."""
_NEWLINE_RE = re.compile(r"\r\n|\r|\n")
"""Where a line ends, as Python's text files (and AnimeGamer's reader) see it: not at the
other characters ``str.splitlines`` also splits on (form feed, U+2028 ...), so that the line
numbers in reports are the ones an editor shows."""


NO_TURNS = "the file holds no turns"
"""The one problem of a file without a single turn line (empty, blank or only comments)."""


class DemoImportError(StudioError):
    """A game_demo file that can't be imported; ``problems`` lists (line number, reason)."""

    def __init__(self, name: str, problems: list[tuple[int, str]], skip_bad: bool = False,
                 *, headline: str = "", hint: str = "") -> None:
        if problems == [(1, NO_TURNS)] and not headline:
            # no line is malformed: calling it "1 malformed line(s)" and suggesting --skip-bad
            # (which has nothing to import either) sent the user looking for a bad line
            headline = "it holds no turns (it is empty, or holds only blank lines and # comments)"
            hint = hint or ("Write one turn per line, such as "
                            "'Character: Qiqi; Motion: run; Background: day town.'")
        shown = "\n".join(f"  line {number}: {reason}" for number, reason in problems[:20])
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        # with skip_bad given, suggesting it would send the user round in a circle: no line was good
        tail = (" (no line of it is a turn that can be imported, so --skip-bad has nothing to import)" if skip_bad
                else " (use --skip-bad to import the good lines only)")
        super().__init__(
            f"{name}: {headline or f'{len(problems)} malformed line(s)'}; nothing was imported.\n{shown}{more}",
            hint=hint or _problems_hint(problems) + tail,
        )
        self.problems = problems


_KIND_HINTS = {
    "branch": "A '## branch after N' line starts a branch after turn N of the file's first branch (0: from the "
              "story's start), with the branch's turns below it.",
    "duration": "A duration is a number of seconds (3, 3.5 or 3.5s); leave it empty for the clip's own length.",
    "turn": "Each line should read 'Character: NAME; Motion: WHAT; Background: WHERE.'",
}
"""What to do about each kind of problem (:func:`_kind`)."""


def _problems_hint(problems: list[tuple[int, str]]) -> str:
    """What to do about ``problems``, by kind: a branch marker's or a duration's own rule
    where those are wrong (the turn line's pattern, said for them, sent the user to lines
    that were right), the turn line's pattern for the rest."""
    kinds = {_kind(reason) for _number, reason in problems}
    return " ".join(hint for kind, hint in _KIND_HINTS.items() if kind in kinds)


def _kind(reason: str) -> str:
    if "## branch after" in reason or "branch marker" in reason:
        return "branch"
    if reason.lower().startswith(("a duration", "the duration", "duration")):
        return "duration"
    return "turn"


class DemoTurn(NamedTuple):
    number: int
    """The line it was read from."""
    text: str
    story: StoryFields = StoryFields()
    free_text: bool = False
    """The line named no fields: the engine reads it as free text."""
    duration_line: int = 0
    """The line of its ``> duration:`` (0: none yet)."""


@dataclass
class DemoBranch:
    """Turns of one branch; ``after`` is the turn of the first branch it continues from
    (``None``: its marker was malformed, and its turns are reported, not imported)."""

    after: int | None
    line_number: int
    turns: list[DemoTurn] = field(default_factory=list)
    turn_lines: list[int] = field(default_factory=list)
    """The line of every turn written in it, good or bad: ``## branch after N`` counts the
    turns as the file writes them, so that a bad line skipped moves no branch elsewhere."""

    @property
    def is_main(self) -> bool:
        """The file's first branch (line 0: no marker starts it). Told by its line, not its
        place in :attr:`DemoStory.branches`: a first branch without turns is left out of it."""
        return self.line_number == 0


@dataclass(frozen=True)
class DemoStory:
    branches: list[DemoBranch]
    problems: list[tuple[int, str]]
    main_lines: tuple[int, ...] = ()
    """The line of each turn of the file's first branch, good or bad (turn N is on line
    ``main_lines[N - 1]``)."""
    notes: tuple[str, ...] = ()
    """What the import should tell that is no problem: a header row's columns skipped, a
    file that looks like a table without one."""

    @property
    def turn_count(self) -> int:
        return sum(len(b.turns) for b in self.branches)

    @property
    def main_length(self) -> int:
        """Turns of the file's first branch (the lines above its first marker), good or bad."""
        return len(self.main_lines)

    def branch_point(self, branch: DemoBranch) -> int | None:
        """The line of the turn ``branch`` continues from (0: the import's parent), or None:
        its marker is bad, or names a turn the first branch lacks or that was malformed."""
        if branch.after is None or branch.after > self.main_length:
            return None
        if branch.after == 0:
            return 0
        line = self.main_lines[branch.after - 1]
        return line if line in self._good_main_lines else None

    @cached_property
    def _good_main_lines(self) -> frozenset[int]:
        """The lines of the first branch's good turns: looked up once per branch, so that a
        file of thousands of branches is read in linear time (a scan of the first branch per
        branch took minutes for a file of 20,000 turns and as many branches)."""
        return frozenset(turn.number for main in self.branches if main.is_main for turn in main.turns)

    def imports(self, branch: DemoBranch) -> bool:
        """Whether ``branch``'s turns are imported: its marker is good and continues from a
        good turn of the first branch (else it is reported, and with ``skip_bad`` skipped)."""
        return self.branch_point(branch) is not None

    @property
    def importable(self) -> bool:
        """Whether any turn would be imported (with ``skip_bad``): else nothing is, and a
        new project must not be created for it."""
        return any(b.turns and self.imports(b) for b in self.branches)


@dataclass(frozen=True)
class DemoImportResult:
    node_ids: list[str]
    """Every imported turn, in file order."""
    leaves: list[str]
    """The last turn of each branch."""
    skipped: list[tuple[int, str]]
    free_text: list[tuple[int, str]] = field(default_factory=list)
    """(line number, node id) of every turn read as free text."""
    new_cast: list[str] = field(default_factory=list)
    """Characters the file names that the story's cast did not have (added to it)."""
    notes: tuple[str, ...] = ()
    """:attr:`DemoStory.notes`, the file's."""


def _check_line(number: int, line: str, problems: list[tuple[int, str]]) -> DemoTurn | None:
    """The turn on ``line``, or None with the reason added to ``problems``."""
    try:  # the length too, counted as the core and the window count it (characters as a reader sees them)
        validate_instruction_text(line)
    except InstructionError as error:
        problems.append((number, error.message))
        return None
    parsed = parse_instruction(line)
    named = [name for name in (*REQUIRED_FIELDS, "adverb", "time_of_day", "camera") if getattr(parsed, name)]
    if not named and not parsed.extra and not _named_but_empty(line):
        if not _WORD_RE.search(line):
            problems.append((number, f"no words in {line[:60]!r}"))
            return None
        misspelled = misspelled_field_names(line)  # "Motoin: dance" is no free text: `play` refuses it too
        if misspelled:
            problems.append((number, unknown_field_message(misspelled, line)))
            return None
        return DemoTurn(number, line, free_text=True)
    empty = _named_but_empty(line)
    if empty:
        problems.append((number, f"empty {', '.join(repr(e + ':') for e in empty)} in {line[:60]!r}"))
        return None
    unknown = unknown_field_names(line)
    if unknown:
        names = ", ".join(_excerpt(name + ":") for name in unknown)
        problems.append((number, f"unknown field name{'s' if len(unknown) > 1 else ''} {names} in {line[:60]!r}: "
                                 f"the fields are {FIELD_NAMES} (a dialogue line goes on a '> NAME: text' line)"))
        return None
    partial = _only_time_of_day(line, parsed)
    if partial:
        problems.append((number, partial))
        return None
    missing = [name.capitalize() for name in REQUIRED_FIELDS if not getattr(parsed, name)]
    if missing:
        fields = ", ".join(f"'{m}:'" for m in missing)
        problems.append((number, f"missing {fields} in {line[:60]!r}"))
        return None
    return DemoTurn(number, line)


def _only_time_of_day(line: str, parsed: Instruction) -> str:
    """Why ``line`` fails though it writes a Background: its value is a time of day alone
    ("Background: night"), which the parser takes as the time and no place. Reported as
    "missing 'Background:'", it sent the user looking for a field that is there. ``""``: not so."""
    span = field_spans(line).get("background")
    if span is None or parsed.background or not parsed.time_of_day:
        return ""
    value = line[span[0]:span[1]][:40]
    return (f"'Background: {value}' names only a time of day; give the place too "
            f"('Background: {value} town') in {line[:60]!r}")


def _named_but_empty(line: str) -> list[str]:
    """Field names in ``line`` with nothing after them ("Motion: ;")."""
    empty: list[str] = []
    for part in re.split(r"[;；]", line):
        key, sep, value = part.partition(":")
        if not sep:
            key, sep, value = part.partition("：")
        name = " ".join(key.lower().split())
        if sep and name in KEY_ALIASES and not value.strip(" .。\t"):
            empty.append(key.strip().capitalize())
    return empty


def _story_line(number: int, line: str, turn: DemoTurn | None,
                problems: list[tuple[int, str]]) -> DemoTurn | None:
    """``turn`` with the story field on ``line`` (``> Qiqi: Hello``) added; None if bad."""
    if turn is None:
        problems.append((number, "a '>' line gives the turn above it a story field, but no turn is above it"))
        return None
    match = _STORY_RE.match(line)
    if not match or not match.group(1).strip() or not match.group(2).strip():
        problems.append((number, f"expected '> NAME: what they say' (or narration:, duration:, notes:), "
                                 f"got {line[:60]!r}"))
        return None
    key, value = match.group(1).strip(), match.group(2).strip()
    story = turn.story
    try:
        match key.lower():
            case "narration" | "narrator":
                story = replace(story, narration=f"{story.narration} {value}".strip())
            case "duration":
                if turn.duration_line:  # a second one would silently replace the first
                    first = f"{story.duration:g} s" if story.duration is not None else "one"
                    raise StoryFieldError(f"a second '> duration:' for the turn of line {turn.number} (line "
                                          f"{turn.duration_line} gave {first}): give a turn one duration")
                story = replace(story, duration=parse_duration(value))  # strict: "3ss" and "1e309" are refused
                turn = turn._replace(duration_line=number)
            case "notes" | "shot notes" | "shot":
                story = replace(story, shot_notes=f"{story.shot_notes}\n{value}".strip())
            case _:
                story = story.with_line(check_dialogue_line(key, value))
        story = check_story(story)
    except StoryFieldError as error:
        message = error.message
        if message.startswith("A duration"):  # as the file's other problems read: "line 4: a duration ..."
            message = "a" + message[1:]
        problems.append((number, message))
        return None
    return turn._replace(story=story)


STORY_COLUMNS: dict[str, str] = {"duration": "duration", "narration": "narration", "narrator": "narration",
                                 "notes": "notes", "shot notes": "notes"}
"""The columns of a table's header row that give each turn a story field, as ``> duration:``,
``> narration:`` and ``> notes:`` lines do (``shot`` alone names the Camera field)."""

COLUMN_NAMES = "Character, Motion, Background, Time, Camera, Adverb, Duration, Narration and Notes"
"""The column names a header row may use, as its refusal lists them."""

_COLUMN_NAME_RE = re.compile(r"^[^\W\d_]+(?:[ ]+[^\W\d_]+){0,2}$")
"""A header cell naming a field: one to three words of letters (a cell with a colon, a digit
or a sentence is a turn's, not a column's name)."""

_OTHER_COLUMN_RE = re.compile(r"^[^:：]{1,30}$")
"""A header cell naming a column that is none of ours (``ID``, ``#``, ``Shot No.``,
``Comment``): at most 30 characters, and no colon (a turn's field)."""

_SCENE_NUMBER_RE = re.compile(r"^\d+(?:[.\-]\d+)*[a-z]?$", re.IGNORECASE)
"""A cell of a scene-number column: ``1``, ``12``, ``1.2``, ``3-1``, ``4a``."""

@dataclass(frozen=True)
class SheetHeader:
    """A spreadsheet's header row (``Character,Motion,Background``): the line it is on, the
    separator of its cells, and its column names as written (none empty, the empty cells a
    spreadsheet saves after the last one left out). A row under it holds a turn: its cells,
    read as these fields, make the line ``Character: Qiqi; Motion: ...; Background: ...``.
    ``skipped``: the columns (0-based) whose cells are not read: names that are none of ours
    (an ID or comment column) and scene-number columns (see :func:`_scene_number_columns`)."""

    number: int
    delimiter: str
    columns: tuple[str, ...]
    skipped: frozenset[int] = frozenset()

    def holds_text(self, line: str) -> bool:
        """Whether row ``line`` has a cell that is not empty (a row it can't split has)."""
        cells = _cells(line, self.delimiter)
        return cells is None or any(_strip_edges(cell) for cell in cells)

    def row(self, number: int, line: str, problems: list[tuple[int, str]]) -> tuple[str, list[str]] | None:
        """The turn line of row ``line`` and its story lines (``> duration: 3``), or None with
        the reason added to ``problems``."""
        cells = _cells(line, self.delimiter)
        if cells is None:
            problems.append((number, f"not a row of cells (an unclosed quote?): {_excerpt(line)}"))
            return None
        while len(cells) > len(self.columns) and not _strip_edges(cells[-1]):
            cells.pop()  # empty cells saved after the last column
        if len(cells) > len(self.columns):
            problems.append((number, f"{len(cells)} cells, but the header row (line {self.number}) names "
                                     f"{len(self.columns)} columns: put the extra cells' text in a column, or quote "
                                     f"a cell that holds a '{_shown_delimiter(self.delimiter)}'"))
            return None
        fields: list[str] = []
        story: list[str] = []
        for index, (name, cell) in enumerate(zip(self.columns, cells, strict=False)):
            value = " ".join(_strip_edges(cell).split())
            if not value or index in self.skipped:
                continue
            kind = STORY_COLUMNS.get(_column_key(name))
            if kind is None:
                fields.append(f"{name}: {value}")
            else:
                story.append(f"> {kind}: {value}")
        return "; ".join(fields), story


def _column_key(name: str) -> str:
    return " ".join(name.lower().split())


def _column_field(name: str) -> str | None:
    """The field (or story column) header cell ``name`` names, or None: none of ours."""
    key = _column_key(name)
    return KEY_ALIASES.get(key) or STORY_COLUMNS.get(key)


def _shown_delimiter(delimiter: str) -> str:
    return "tab" if delimiter == "\t" else delimiter


def _cells(line: str, delimiter: str) -> list[str] | None:
    """The cells of one row of a CSV or tab-separated file (None: not one row, such as a cell
    whose quote is never closed)."""
    try:
        return next(csv.reader([line], delimiter=delimiter, strict=True), [])
    except csv.Error:
        return None


def _names(quoted: Iterable[str]) -> str:
    """``'A'``, ``'A' and 'B'``, ``'A', 'B' and 'C'``."""
    shown = [_excerpt(name) for name in quoted]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def find_sheet_header(lines: list[str], problems: list[tuple[int, str]],
                      notes: list[str] | None = None) -> SheetHeader | None:
    """The header row of a file saved from a spreadsheet with one (its first line of text, whose
    cells, two or more, are field names, besides columns of other names), or None. Columns
    named otherwise (an ID, a comment) are skipped, and so is a scene-number column; each such
    is told in ``notes``. A header lacking Character, Motion or Background, or naming a field
    twice, is reported (its rows then with it). QA: ``Character,Motion,Background`` was imported
    as a free-text turn, and each row under it as another ('Qiqi,"gently sit on railing","day
    town"')."""
    for number, raw in enumerate(lines, start=1):
        line = _strip_edges(raw)
        if not line or line.startswith(("#", ">")):
            continue
        return _header_of(number, line, lines, problems, notes if notes is not None else [])
    return None


def _header_of(number: int, line: str, lines: list[str], problems: list[tuple[int, str]],
               notes: list[str]) -> SheetHeader | None:
    """``line`` (the file's first line of text, number ``number``, of ``lines``) as a header
    row, or None."""
    for delimiter in ("\t", ",", ";"):
        if delimiter not in line:
            continue
        cells = _cells(line, delimiter)
        if cells is None:
            continue
        names = [_strip_edges(_INVISIBLE_RE.sub("", cell)) for cell in cells]
        while names and not names[-1]:
            names.pop()
        known = [name for name in names if _column_field(name)]
        if (len(names) < 2 or len(known) < 2 or not all(_COLUMN_NAME_RE.match(name) for name in known)
                or not all(_OTHER_COLUMN_RE.match(name) for name in names if name)):
            continue  # a turn's line (free text may hold commas), not a header
        header = SheetHeader(number, delimiter, tuple(names))
        problem, skipped, header_notes = _header_problem(header, lines)
        if problem:
            problems.append((number, problem))
        else:
            notes.extend(header_notes)
        return replace(header, skipped=frozenset(skipped))
    return None


def _column_cells(header: SheetHeader, lines: list[str]) -> list[list[str]]:
    """The cells (not empty) of each column in the rows under ``header``."""
    columns: list[list[str]] = [[] for _ in header.columns]
    for raw in lines[header.number:]:
        row = _strip_edges(raw)
        if not row or row.startswith(("#", ">")):
            continue
        for index, cell in enumerate((_cells(row, header.delimiter) or [])[:len(columns)]):
            value = _strip_edges(cell)
            if value:
                columns[index].append(value)
    return columns


def _scene_number_columns(header: SheetHeader, lines: list[str], same: list[int]) -> list[int]:
    """Of the columns ``same`` (0-based) that name one field, the scene-number ones to skip:
    those whose cells are all numbers (``1``, ``2``, ``3a``), when exactly one column of the
    others, one of text, is left to name the field. QA: ``Scene,Character,Motion,Background``
    was refused, "Scene" being a name of the background. Told by the cells, not by which name
    is the field's own, so that ``Background,Scene`` reads as ``Scene,Background`` does: a
    number is no character, motion or place, and where two columns of text name a field
    neither is taken over the other (the header is refused, naming both)."""
    cells = _column_cells(header, lines)
    numbers = [index for index in same
               if cells[index] and all(_SCENE_NUMBER_RE.match(cell) for cell in cells[index])]
    return numbers if len(same) - len(numbers) == 1 else []


def _header_problem(header: SheetHeader, lines: list[str]) -> tuple[str, list[int], list[str]]:
    """Why ``header`` can't be read ('' when it can): a column without a name, a field named
    twice, or a needed field without its column; the columns skipped (0-based), and the notes
    that tell them."""
    accepted = (f"the columns are {COLUMN_NAMES} (or the Japanese, Chinese and Korean field names, such as "
                "キャラクター, 动作, 배경)")
    if "" in header.columns:
        column = header.columns.index("") + 1
        return f"column {column} of the header row has no name: {accepted}", [], []
    where = f"line {header.number}"
    unknown = [index for index, name in enumerate(header.columns) if _column_field(name) is None]
    notes: list[str] = []
    if unknown:
        shown = _names(header.columns[index] for index in unknown)
        notes.append(f"{where}: skipped the column{'s' if len(unknown) > 1 else ''} {shown}, naming no field of a "
                     f"turn (those are {COLUMN_NAMES}); the other columns are imported")
    skipped = set(unknown)
    by_field: dict[str, list[int]] = {}
    for index, name in enumerate(header.columns):
        kind = _column_field(name)
        if kind is not None:
            by_field.setdefault(kind, []).append(index)
    for kind, same in by_field.items():
        if len(same) < 2:
            continue
        numbers = _scene_number_columns(header, lines, same)
        named = _names(header.columns[index] for index in same)
        if not numbers:
            return (f"the header row names the {kind} column twice ({named} {'both' if len(same) == 2 else 'all'} "
                    f"name the {kind}): rename or remove all but one", [], [])
        kept = header.columns[next(index for index in same if index not in numbers)]
        shown = _names(header.columns[index] for index in numbers)
        notes.append(f"{where}: skipped the column{'s' if len(numbers) > 1 else ''} {shown}, of numbers only (scene "
                     f"numbers?): {_excerpt(kept)} is read as the {kind}")
        skipped.update(numbers)
    keys = {_column_field(name) for index, name in enumerate(header.columns) if index not in skipped}
    missing = [name.capitalize() for name in REQUIRED_FIELDS if name not in keys]
    if missing:  # a column of another name may be the one meant, misspelt ('Mood' for Motion): named first
        lacks = f"no {', '.join(missing)} column: a turn needs Character, Motion and Background; {accepted}"
        if not unknown:
            return f"the header row has {lacks}", [], []
        return (f"unknown column name{'s' if len(unknown) > 1 else ''} "
                f"{', '.join(_excerpt(header.columns[index]) for index in unknown)} in the header row, and "
                f"{lacks}", [], [])
    return "", sorted(skipped), notes


def parse_demo_text(text: str) -> DemoStory:
    """Split a demo file's text into branches of good lines, and a list of problems."""
    main = DemoBranch(after=0, line_number=0)
    branches = [main]
    problems: list[tuple[int, str]] = []
    above_was_bad = False
    lines = _NEWLINE_RE.split(text)
    if lines and not lines[-1]:
        lines.pop()  # the file's final line break
    notes: list[str] = []
    header = find_sheet_header(lines, problems, notes)
    refused = header is not None and bool(problems)
    for number, raw in enumerate(lines, start=1):
        if header is not None and number == header.number:
            continue
        row = _strip_edges(raw) if header is not None else ""
        if header is not None and row and not row.startswith(("#", ">")):  # a row of the table under a header
            if not header.holds_text(row):
                continue  # a row of empty cells, as a spreadsheet saves one: a blank line
            branches[-1].turn_lines.append(number)
            turn = _sheet_turn(header, number, row, problems, refused)
            above_was_bad = turn is None
            if turn is not None:
                branches[-1].turns.append(turn)
            continue
        line = tidy_line(raw)
        marker = _BRANCH_RE.match(line)
        if marker:
            above_was_bad = False
            after = _turn_number(marker.group(1))
            if after is None:
                problems.append((number, f"'## branch after' needs a turn number, got {_excerpt(marker.group(1))}"))
            # a malformed marker still starts a branch: its turns must not join the branch above
            branches.append(DemoBranch(after=after, line_number=number))
            continue
        if _MARKER_LIKE_RE.match(line):
            above_was_bad = False
            problems.append((number, f"not a branch marker: write '## branch after N' (N: a turn number of the "
                                     f"first branch), got {_excerpt(line)}"))
            branches.append(DemoBranch(after=None, line_number=number))  # as a malformed marker: a branch of its own
            continue
        if not line or line.startswith("#"):
            continue
        turns = branches[-1].turns
        if line.startswith(">"):
            if above_was_bad:  # the turn it belongs to is already reported
                problems.append((number, "belongs to the malformed turn above it"))
                continue
            updated = _story_line(number, line, turns[-1] if turns else None, problems)
            if updated is not None:
                turns[-1] = updated
            continue
        branches[-1].turn_lines.append(number)
        turn = _check_line(number, line, problems)
        above_was_bad = turn is None
        if turn is not None:
            turns.append(turn)
    main_length = len(main.turn_lines)
    any_turn = any(branch.turn_lines for branch in branches)  # else the file "holds no turns", and says so
    for branch in branches[1:]:
        if branch.after is not None and branch.after > main_length:
            problems.append((branch.line_number,
                             f"'## branch after {branch.after}': the first branch has {main_length} turn(s), "
                             f"so a branch starts after turn {main_length} at most (0: from the story's start)"))
        elif branch.after is not None and not branch.turn_lines and any_turn:
            # a file cut short, or turns forgotten: the branch meant was dropped without a word
            problems.append((branch.line_number, f"'## branch after {branch.after}' has no turns below it: write the "
                                                 "branch's turns under it, or remove the line"))
    problems.sort()
    if not any(b.turns for b in branches) and not problems:
        problems.append((1, NO_TURNS))
    if header is None:
        notes.extend(_table_without_header(lines, branches))
    return DemoStory([b for b in branches if b.turns], problems, tuple(main.turn_lines), tuple(notes))


_HEADER_EXAMPLE = ("Character", "Motion", "Background", "Time", "Camera", "Duration")
_SHORT_CELL = 40
"""The most characters of a cell of a table :func:`_table_without_header` tells."""


def _table_without_header(lines: list[str], branches: list[DemoBranch]) -> list[str]:
    """A note when every turn of the file is free text whose line splits into the same number
    (3 to 6) of short cells, at one separator: a table saved without its header row, each of
    whose rows was read as one free-text turn ('Qiqi,run,park.'). Its columns are not guessed:
    the note says the header line to add."""
    turns = [turn for branch in branches for turn in branch.turns]
    if not turns or not all(turn.free_text for turn in turns) or len(turns) != sum(
            len(branch.turn_lines) for branch in branches):
        return []
    rows = [_strip_edges(lines[turn.number - 1]) for turn in turns]
    for delimiter in ("\t", ",", ";"):
        split = [_cells(row, delimiter) for row in rows]
        counts = {len(cells) for cells in split if cells is not None}
        if any(cells is None for cells in split) or len(counts) != 1:
            continue
        count = counts.pop()
        if not 3 <= count <= 6 or not all(len(_strip_edges(cell)) <= _SHORT_CELL
                                          for cells in split for cell in cells or []):
            continue
        shown = "a tab" if delimiter == "\t" else f"'{delimiter}'"
        header = delimiter.join(_HEADER_EXAMPLE[:count])
        return [f"every line splits at {shown} into {count} cells, as a table's rows do, but the file has no header "
                f"row: each line was read as one free-text turn. If it is a table, add a first line naming its "
                f"columns in order, such as {header!r} (Time, Camera, Adverb, Duration, Narration and Notes may "
                "follow Character, Motion and Background in any order; a column named otherwise is skipped)"]
    return []


def _sheet_turn(header: SheetHeader, number: int, row: str, problems: list[tuple[int, str]],
                refused: bool) -> DemoTurn | None:
    """The turn of row ``row`` of a table (None, with the reason in ``problems``): its cells
    as the header's fields, then its story columns, checked as the lines they stand for are.
    ``refused``: the header is, and the row is reported with it."""
    if refused:
        problems.append((number, f"a row of the table whose header row (line {header.number}) can't be read"))
        return None
    read = header.row(number, row, problems)
    if read is None:
        return None
    text, story_lines = read
    turn = _check_line(number, text, problems) if text else None
    if not text:
        problems.append((number, "the row fills only story columns: a turn needs Character, Motion and Background"))
    for story_line in story_lines:
        if turn is None:
            break
        turn = _story_line(number, story_line, turn, problems)
    return turn


def tidy_line(raw: str) -> str:
    """``raw`` without what an editor or a spreadsheet adds and nobody sees or means: spaces
    and invisible characters around it and around its separators, tabs (see
    :data:`_TABS_RE`), a spreadsheet's quotes around its cells and its empty cells after it.
    Every step is linear in the line's length (a file is one line of 10 MB at worst)."""
    line = _strip_edges(raw)
    if line.startswith('"'):
        line = _spreadsheet_cells(line)
    if "\t" in line:
        line = _strip_edges(_TABS_RE.sub(lambda m: "; " if m.group("fields") else " ", line))
    if _INVISIBLE_RE.search(line):  # in a marker or a comment, no invisible character means anything
        line = _INVISIBLE_RE.sub("", line) if line.startswith("#") else _unhide_marks(line)
    return _trailing_cells(line)


def _strip_edges(text: str) -> str:
    """``text`` without white space and invisible characters at its ends (a loop, not a
    ``[...]+$`` pattern: that one is tried at every character of a long run of spaces)."""
    start, end = 0, len(text)
    while start < end and (text[start].isspace() or text[start] in _EDGE_CHARS):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in _EDGE_CHARS):
        end -= 1
    return text[start:end]


def _unhide_marks(line: str) -> str:
    return _strip_edges(_AROUND_MARKS_RE.sub(lambda m: _INVISIBLE_RE.sub("", m.group()), line))


def _trailing_cells(line: str) -> str:
    """``line`` without the empty cells a spreadsheet saved after it. A dialogue line keeps
    one final comma or semicolon (``> Qiqi: I was going to say,``): only empty cells go."""
    kept = line.rstrip(_CELL_ENDS)
    separators = sum(char in ",;，；" for char in line[len(kept):])
    return _strip_edges(kept) if separators > (1 if line.startswith(">") else 0) else line


def _spreadsheet_cells(line: str) -> str:
    """The text of a line saved by a spreadsheet as CSV (Excel quotes a cell holding a comma,
    a semicolon or a quote, and doubles the quotes in it): its cells, unquoted, joined by
    ``; ``. Read so only when the first cell starts as a line of this format does (a field
    name, ``#`` or ``>``): a free-text turn may start with a quotation (``"Wait!", Qiqi
    calls``). Quoted, every line was refused for a missing 'Character:' it shows, and a row
    of quoted cells was taken as one free-text turn."""
    first = _QUOTED_CELL_RE.match(line)
    if first is None or not _SHEET_LINE_RE.match(first.group(1)):
        return line
    try:
        cells = next(csv.reader([line], delimiter=first.group(2) or ",", strict=True))
    except csv.Error:  # not one row of cells after all: read as written
        return line
    return "; ".join(kept for cell in cells if (kept := _unhide_marks(cell).rstrip(";； ")))


def _turn_number(text: str) -> int | None:
    """``text`` as a turn number (digits, of any script ``int`` reads), or None: not a whole
    number ("two", "²", which ``str.isdigit`` accepts but ``int`` does not) or too long to be one."""
    if not text.isdigit() or len(text) > 18:
        return None
    try:
        return int(text)
    except ValueError:
        return None


def _excerpt(text: str, most: int = 40) -> str:
    return repr(text) if len(text) <= most else f"{text[:most]!r}... ({len(text):,} characters)"


STDIN = "-"
"""The file name that means standard input (``kamishibai import-demo - < story.txt``)."""


def demo_name(path: Path) -> str:
    return "standard input" if str(path) == STDIN else path.name


def read_demo(path: Path) -> DemoStory:
    """Read and parse a demo file (``-``: standard input): at most :data:`MAX_DEMO_BYTES`,
    whatever the file is."""
    name = demo_name(path)
    try:
        if str(path) == STDIN:
            data = sys.stdin.buffer.read(MAX_DEMO_BYTES + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(MAX_DEMO_BYTES + 1)
    except IsADirectoryError:
        raise StudioError(f"Can't read {path}: it is a folder, not a game_demo file.") from None
    except OSError as error:
        raise StudioError(f"Can't read {path}: {error.strerror or error}.") from None
    _refuse_documents(data, name)
    if len(data) > MAX_DEMO_BYTES:
        raise StudioError(f"{name} holds more than {MAX_DEMO_BYTES:,} bytes; "
                          f"a game_demo file is at most {MAX_DEMO_BYTES:,} bytes.",
                          hint="Split it into several files and import them one by one.")
    text = decode_demo(data, name)
    _refuse_json(text, name)
    return parse_demo_text(text)


_SAVE_AS_TEXT = "Save it as plain text (.txt) in the program that made it, one turn per line, and import that file."
_MAGIC: tuple[tuple[int, bytes, str, str], ...] = (
    (0, b"{\\rtf", "a rich text (RTF) document",
     "Save it as plain text: in TextEdit, Format > Make Plain Text, then save; in Word or WordPad, "
     "Save As > Plain Text (.txt). Then import that file."),
    (0, b"%PDF-", "a PDF document", "Copy its text into a plain text file (.txt), one turn per line, and import that."),
    (0, b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an older Word or Excel document (.doc, .xls)", _SAVE_AS_TEXT),
    (0, b"SQLite format 3\x00", "an SQLite database (a project's project.db?)",
     "A project is opened, not imported: give its folder to `kamishibai open` (or --project); "
     "import-demo reads a plain text file of turns."),
    (0, b"\x89PNG\r\n\x1a\n", "a PNG picture", ""),
    (0, b"\xff\xd8\xff", "a JPEG picture", ""),
    (0, b"GIF8", "a GIF picture", ""),
    (4, b"ftyp", "a video (MP4 or MOV)", ""),
    (0, b"\x1f\x8b", "a gzip-compressed file", "Unpack it first (gunzip), then import the text file it holds."),
)
"""Files users hand import-demo that are no text, told by their first bytes (at the offset
given): each was refused as "not UTF-8 text" with an iconv command that would turn it into
lines of garbage, and an RTF document (TextEdit's default) was imported as turns of its
formatting codes (``{\\rtf1\\ansi...``) with --skip-bad."""
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")


def _zip_kind(data: bytes) -> tuple[str, str]:
    """What a zip file handed to import-demo is, told by the names of its entries (nothing is
    unpacked), and what to do instead."""
    import io
    import zipfile

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = archive.namelist()
    except (zipfile.BadZipFile, ValueError, EOFError, NotImplementedError, OSError):
        names = []
    if "kamishibai-bundle.json" in names or "project.db" in names:
        return ("a Kamishibai bundle (a whole project)",
                "Unpack it as a project with `kamishibai unbundle BUNDLE.zip NAME.kamishibai`.")
    if any(name.startswith("word/") for name in names):
        return "a Word document (.docx)", "In Word, Save As > Plain Text (.txt), then import that file."
    if any(name.startswith("xl/") for name in names):
        return ("an Excel workbook (.xlsx)",
                "In Excel, Save As > CSV UTF-8 or Unicode Text (one turn per row), then import that file.")
    if "content.xml" in names:
        return "an OpenDocument file (.odt, .ods)", _SAVE_AS_TEXT
    return "a zip archive", "Unzip it first, then import the text file it holds."


def _refuse_documents(data: bytes, name: str) -> None:
    """Refuse a file that is plainly no text (see :data:`_MAGIC`), saying what it is."""
    found: tuple[str, str] | None = None
    if data.startswith(_ZIP_MAGIC):
        found = _zip_kind(data)
    else:
        found = next(((what, hint) for offset, magic, what, hint in _MAGIC
                      if data[offset:offset + len(magic)] == magic), None)
    if found is not None:
        what, hint = found
        if name != demo_name(Path(STDIN)):
            hint = hint.replace("BUNDLE.zip", shlex.quote(name))
        raise DemoImportError(name, [(1, f"{what}, not lines of text")],
                              headline=f"it is {what}, not a game_demo text file",
                              hint=hint or "A game_demo file is plain text with one turn per line, such as "
                                           "'Character: Qiqi; Motion: run; Background: day town.'")


def _json_shape(text: str) -> str:
    """What ``text`` is when it is JSON rather than lines of turns (``"a JSON object (keys
    'turns')"``), else ``""``: the whole text one JSON object or list, or every line of it one
    (JSON Lines). A turn is never written so, and a line of JSON reads as free text: such a
    file was imported as one turn, or as a turn per line, holding its braces and quotes."""
    import json

    body = text.strip()
    if not body.startswith(("{", "[")):
        return ""
    lines = [line for line in (part.strip() for part in _NEWLINE_RE.split(body)) if line]
    for documents in ([body], lines):
        try:
            values = [json.loads(document) for document in documents]
        except (ValueError, RecursionError):
            continue
        if all(isinstance(value, dict | list) for value in values):
            shape = _json_value_shape(values[0])
            return shape if documents == [body] else f"JSON on every line (line 1: {shape})"
    return ""


def _json_value_shape(value: dict[object, object] | list[object]) -> str:
    if isinstance(value, list):
        return f"a JSON list of {len(value):,} item{'' if len(value) == 1 else 's'}"
    keys = ", ".join(_excerpt(str(key), 20) for key in list(value)[:4])
    return f"a JSON object (keys {keys}{', ...' if len(value) > 4 else ''})" if value else "an empty JSON object"


def _refuse_json(text: str, name: str) -> None:
    """Refuse a file that is JSON (see :func:`_json_shape`), before anything is made for it."""
    shape = _json_shape(text)
    if shape:
        raise DemoImportError(
            name, [(1, f"{shape}, not a line of turn text")],
            headline="it is JSON, not a game_demo text file",
            hint="A game_demo file is plain text with one turn per line, such as "
                 "'Character: Qiqi; Motion: run; Background: day town.' (resources/samples/first_story.txt "
                 "is an example): write the turns out so, one per line, and import that file.")


_BOMS: tuple[tuple[bytes, str, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),  # before UTF-16 LE: its BOM starts with that one
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)
"""Byte order marks a text file may start with: Windows' Notepad and PowerShell's ``>``
write UTF-16 with one, and a BOM names its encoding beyond doubt."""


def _utf16_without_bom(data: bytes) -> str:
    """``"utf-16-le"`` or ``"utf-16-be"`` when ``data`` is plainly UTF-16 without a byte order
    mark (as some tools write it), else ``""``. Such a file is valid UTF-8 whose every other
    byte is a NUL: read as UTF-8, each of its lines was refused for "a control character
    (U+0000, NUL)", at line numbers twice too high. Told by its NULs: all on one side of each
    two-byte unit, and on at least 40% of them (text in Latin letters has one on nearly all)."""
    if len(data) < 2 or len(data) % 2 or b"\x00" not in data:
        return ""
    even, odd = data[0::2].count(0), data[1::2].count(0)
    units = len(data) // 2
    if odd and not even and odd >= 0.4 * units:
        return "utf-16-le"
    if even and not odd and even >= 0.4 * units:
        return "utf-16-be"
    return ""


_KANA = ((0x3040, 0x30FF),)
_HAN = ((0x3000, 0x303F), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFF01, 0xFF5E))
_HANGUL = ((0xAC00, 0xD7A3), (0x3130, 0x318F))


class LegacyEncoding(NamedTuple):
    codec: str
    iconv_name: str
    language: str
    needed: tuple[tuple[int, int], ...]
    """Letters the text must show to be read as this language."""
    allowed: tuple[tuple[int, int], ...]
    """Other characters beyond ASCII it may show."""


_EAST_ASIAN_ENCODINGS = (
    LegacyEncoding("cp932", "CP932", "Japanese text in Shift-JIS", _KANA, _HAN),
    LegacyEncoding("euc_kr", "EUC-KR", "Korean text in EUC-KR", _HANGUL, _HAN),
    LegacyEncoding("gb18030", "GB18030", "Chinese text in GBK", _HAN, ()),
)
"""Legacy encodings of the languages anime stories are often written in. One is named only
when the whole file decodes in it and every character beyond ASCII is of its script
(Japanese needs kana, Korean hangul). A Shift-JIS file's bytes also decode as
Windows-1252, into accented letters: the one conversion the message used to suggest
turned every Japanese name into mojibake, which then imported without a word."""


def _within(char: str, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(low <= ord(char) <= high for low, high in ranges)


def _reads_as(data: bytes, encoding: LegacyEncoding) -> bool:
    try:
        text = data.decode(encoding.codec)
    except UnicodeDecodeError:
        return False
    if _INSIDE_A_LATIN_WORD.search(text):  # "Pokémon" in Windows-1252 reads as GBK: a hanzi inside a word
        return False
    beyond = [char for char in text if ord(char) > 0x7F]
    return (any(_within(char, encoding.needed) for char in beyond)
            and all(_within(char, encoding.needed) or _within(char, encoding.allowed) for char in beyond))


_INSIDE_A_LATIN_WORD = re.compile(r"[A-Za-z][^\x00-\x7f][A-Za-z]")
"""A character beyond ASCII between two Latin letters: an accented letter of a Latin word,
never East Asian text."""


def legacy_encodings(data: bytes) -> list[LegacyEncoding]:
    """The East Asian encodings ``data`` (not UTF-8) reads as, most likely first; ``[]``:
    none, so most likely Windows-1252 (Latin-1, from older editors), which decodes nearly
    any bytes. Japanese is told by its kana alone; Korean (EUC-KR) and Chinese (GBK) share
    their byte ranges, so a file that reads as both is named as both."""
    found = [encoding for encoding in _EAST_ASIAN_ENCODINGS if _reads_as(data, encoding)]
    return found[:1] if found and found[0].codec == "cp932" else found


def _conversion_hint(data: bytes, source: str) -> str:
    """How to convert a file that is not UTF-8: the iconv command for each likely encoding."""
    guesses = legacy_encodings(data)
    if not guesses:
        return f", or convert it: iconv -f WINDOWS-1252 -t UTF-8 {source} > story-utf8.txt"
    said = " or ".join(f"{g.language} (iconv -f {g.iconv_name} -t UTF-8 {source} > story-utf8.txt)"
                       for g in guesses)
    return f", or convert it; it looks like {said}"


def decode_demo(data: bytes, name: str) -> str:
    """The text of a demo file: UTF-8, the encoding its byte order mark names, or UTF-16
    without one (:func:`_utf16_without_bom`).

    Text that is not valid in that encoding is refused as a whole (no line of it can be
    read, so ``--skip-bad`` can't help), naming the first line and byte it fails at and how
    to convert it."""
    codec, shown, body = "utf-8", "UTF-8", data
    for bom, bom_codec, bom_shown in _BOMS:
        if data.startswith(bom):
            codec, shown, body = bom_codec, bom_shown, data[len(bom):]
            break
    else:
        codec = _utf16_without_bom(data) or codec
        shown = "UTF-16" if codec != "utf-8" else shown
    try:
        return body.decode(codec)
    except UnicodeDecodeError as error:
        line = len(_NEWLINE_RE.findall(body[: error.start].decode(codec, errors="replace"))) + 1
        byte = body[error.start:error.start + 1].hex().upper()
        offset = len(data) - len(body) + error.start
        if _cut_short(body, codec, error):
            raise DemoImportError(
                name, [(line, f"the file ends in the middle of a character (byte 0x{byte}, at offset {offset:,}): "
                              "its last line is incomplete")],
                headline=f"cut short in the middle of a character ({shown} text that stops part-way)",
                hint="It looks like a copy or download that did not finish: copy the whole file again, or "
                     "delete its last, incomplete line and save it.") from None
        hint = "Save it as UTF-8 text (an editor's 'Save as' offers the encoding)"
        if codec == "utf-8":
            source = "FILE" if name == demo_name(Path(STDIN)) else shlex.quote(name)
            hint += _conversion_hint(body, source)
        raise DemoImportError(
            name, [(line, f"not valid {shown} text (byte 0x{byte}, at offset {offset:,})")],
            headline=f"not {shown} text", hint=f"{hint}.",
        ) from None


def _cut_short(body: bytes, codec: str, error: UnicodeDecodeError) -> bool:
    """Whether ``body`` is valid ``codec`` text but for an incomplete character at its very
    end (a file cut short). Such a file was said to look like Chinese text in GBK, and the
    conversion offered turned its Japanese into other characters. In UTF-8 that is told only
    when the text shows it is UTF-8 (characters of several bytes before, or two bytes of the
    last one): a Latin-1 file ending in "café" without a line break ends in one such byte too."""
    if error.end != len(body) or error.start < len(body) - 3:
        return False
    if codec == "utf-8" and len(body) - error.start < 2 and body[:error.start].isascii():
        return False
    try:
        body[:error.start].decode(codec)
    except UnicodeDecodeError:
        return False
    return True


@dataclass(frozen=True)
class ImportTurns(Command):
    """Many new turns as one edit: ``turns`` are (node id, parent id, text), parents first.

    Each new turn goes after the siblings its parent already has; ``stories`` gives some of
    them (by node id) their story fields. A character the turns name that the cast lacks
    joins the cast in the same edit (so it can be picked, given a start state and completed
    in the editor like any other)."""

    turns: tuple[tuple[str, str, str], ...]
    stories: tuple[tuple[str, StoryFields], ...] = ()
    label: ClassVar[str] = "Import turns"

    def build(self, tree: StoryTree) -> Patch:
        patch: dict[EntityKey, Entity] = {}
        added: Counter[str] = Counter()
        created = now_iso()
        stories = dict(self.stories)
        for node_id, parent_id, text in self.turns:
            validate_instruction_text(text)
            if node_id in tree.nodes or (EntityKind.NODE, node_id) in patch:
                raise CommandError(f"node {node_id} already exists")
            if parent_id not in tree.nodes and (EntityKind.NODE, parent_id) not in patch:
                raise CommandError(f"no node {parent_id!r} in this story")
            if parent_id not in added and parent_id in tree.nodes:
                added[parent_id] = len(tree.child_ids(parent_id))  # after the siblings it has
            position = added[parent_id]
            added[parent_id] += 1
            patch[(EntityKind.NODE, node_id)] = Node(id=node_id, parent_id=parent_id,
                                                      instruction=parse_instruction(text), position=position,
                                                      created_at=created,
                                                      story=check_story(stories.get(node_id, StoryFields())))
        nodes = [entity for entity in patch.values() if isinstance(entity, Node)]
        for name in new_characters(tree, (node.instruction.character for node in nodes)):
            member = CastMember(id=new_id(), name=name)
            patch[(EntityKind.CAST, member.id)] = member
        return patch


def new_characters(tree: StoryTree, names: Iterable[str]) -> list[str]:
    """``names`` the cast of ``tree`` lacks (compared as names are: case and spacing aside),
    each once, in order, as first written; a name the cast refuses (one holding the
    instruction's field syntax) is left out."""
    known = {character_key(m.name) for m in tree.cast.values()}
    found: dict[str, str] = {}
    for name in names:
        shown = " ".join(name.split())
        if shown and character_key(shown) not in known and not cast_name_problem(shown):
            found.setdefault(character_key(shown), shown)
    return list(found.values())


def import_story(project: Project, story: DemoStory, name: str, parent_id: str | None = None,
                 skip_bad: bool = False) -> DemoImportResult:
    """Add the story's branches under ``parent_id`` (default: the story's start)."""
    if (story.problems and not skip_bad) or not story.importable:
        raise DemoImportError(name, story.problems or [(1, NO_TURNS)], skip_bad=skip_bad)
    start = parent_id or project.tree.root_id
    project.tree.node(start)
    main: dict[int, str] = {}
    """The node made of each first-branch turn, by its line."""
    node_ids: list[str] = []
    leaves: list[str] = []
    turns: list[tuple[str, str, str]] = []
    stories: list[tuple[str, StoryFields]] = []
    free_text: list[tuple[int, str]] = []
    skipped = list(story.problems)
    for branch in story.branches:
        point = story.branch_point(branch)
        if point is None:
            # its marker, or the turn it continues from, is reported as a problem (only reached
            # with skip_bad): say what it held
            why = (f"it continues from turn {branch.after} (line {story.main_lines[branch.after - 1]}), which was "
                   "skipped" if branch.after is not None and 0 < branch.after <= story.main_length else "")
            skipped.extend((turn.number, f"its branch (line {branch.line_number}) was skipped"
                                         + (f": {why}" if why else ""))
                           for turn in branch.turns)
            continue
        parent = main[point] if point else start
        for turn in branch.turns:
            node_id = new_id()
            turns.append((node_id, parent, turn.text))
            if not turn.story.is_empty:
                stories.append((node_id, turn.story))
            if turn.free_text:
                free_text.append((turn.number, node_id))
            node_ids.append(node_id)
            if branch.is_main:
                main[turn.number] = node_id
            parent = node_id
        leaves.append(parent)
    new_cast = new_characters(project.tree, (parse_instruction(text).character for _n, _p, text in turns))
    project.apply(ImportTurns(tuple(turns), tuple(stories)))
    return DemoImportResult(node_ids, leaves, sorted(skipped), free_text, new_cast, story.notes)


def import_demo(project: Project, path: Path, parent_id: str | None = None, skip_bad: bool = False) -> DemoImportResult:
    """Import a game_demo file (see the module docstring)."""
    return import_story(project, read_demo(path), path.name, parent_id, skip_bad)
