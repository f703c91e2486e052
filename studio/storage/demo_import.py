"""Import an AnimeGamer ``game_demo`` file: one turn per line.

A line looks like ``Character: Qiqi; Motion: gently sit on railing; Background: day town.``.
Blank lines and lines starting with ``#`` are skipped. One extension, used by the sample
stories: a line ``## branch after N`` starts an alternative branch that continues from
turn N of the file's first branch (``## branch after 0`` starts from the story's start).
Every malformed line is reported with its line number, and nothing is imported unless
``skip_bad`` is set. A file is read up to :data:`MAX_DEMO_BYTES` whatever it is (a pipe,
``/dev/stdin``, a device), and the whole import is one edit: one transaction (a killed
import writes nothing) and one Undo step.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from studio.core.changes import EntityKey, EntityKind, Patch
from studio.core.commands import Command, CommandError
from studio.core.errors import StudioError
from studio.core.instruction import (
    MAX_INSTRUCTION_CHARS,
    InstructionError,
    parse_instruction,
    validate_instruction_text,
)
from studio.core.model import Node, new_id, now_iso
from studio.core.tree import StoryTree
from studio.storage.project import Project

REQUIRED_FIELDS = ("character", "motion", "background")
MAX_DEMO_BYTES = 10 * 1024 * 1024
_BRANCH_RE = re.compile(r"^##\s*branch\s+after\s+(\S+)\s*$", re.IGNORECASE)


class DemoImportError(StudioError):
    """A game_demo file that can't be imported; ``problems`` lists (line number, reason)."""

    def __init__(self, name: str, problems: list[tuple[int, str]]) -> None:
        shown = "\n".join(f"  line {number}: {reason}" for number, reason in problems[:20])
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        super().__init__(
            f"{name}: {len(problems)} malformed line(s); nothing was imported.\n{shown}{more}",
            hint="Each line should read 'Character: NAME; Motion: WHAT; Background: WHERE.' "
            "(use --skip-bad to import the good lines only)",
        )
        self.problems = problems


@dataclass
class DemoBranch:
    """Turns of one branch; ``after`` is the turn of the first branch it continues from."""

    after: int
    line_number: int
    turns: list[tuple[int, str]] = field(default_factory=list)


@dataclass(frozen=True)
class DemoStory:
    branches: list[DemoBranch]
    problems: list[tuple[int, str]]

    @property
    def turn_count(self) -> int:
        return sum(len(b.turns) for b in self.branches)


@dataclass(frozen=True)
class DemoImportResult:
    node_ids: list[str]
    """Every imported turn, in file order."""
    leaves: list[str]
    """The last turn of each branch."""
    skipped: list[tuple[int, str]]


def _check_line(number: int, line: str, problems: list[tuple[int, str]]) -> bool:
    if len(line) > MAX_INSTRUCTION_CHARS:
        problems.append((number, f"{len(line):,} characters (the limit is {MAX_INSTRUCTION_CHARS:,})"))
        return False
    try:
        validate_instruction_text(line)
    except InstructionError as error:
        problems.append((number, error.message))
        return False
    parsed = parse_instruction(line)
    missing = [name.capitalize() for name in REQUIRED_FIELDS if not getattr(parsed, name)]
    if missing:
        fields = ", ".join(f"'{m}:'" for m in missing)
        problems.append((number, f"missing {fields} in {line[:60]!r}"))
        return False
    return True


def parse_demo_text(text: str) -> DemoStory:
    """Split a demo file's text into branches of good lines, and a list of problems."""
    main = DemoBranch(after=0, line_number=0)
    branches = [main]
    problems: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        marker = _BRANCH_RE.match(line)
        if marker:
            after = marker.group(1)
            if not after.isdigit():
                problems.append((number, f"'## branch after' needs a turn number, got {after!r}"))
                continue
            branches.append(DemoBranch(after=int(after), line_number=number))
            continue
        if not line or line.startswith("#"):
            continue
        if _check_line(number, line, problems):
            branches[-1].turns.append((number, line))
    main_length = len(main.turns)
    for branch in branches[1:]:
        if branch.after > main_length:
            problems.append((branch.line_number,
                             f"'## branch after {branch.after}': the first branch has {main_length} turn(s)"))
    problems.sort()
    if not any(b.turns for b in branches) and not problems:
        problems.append((1, "the file holds no turns"))
    return DemoStory([b for b in branches if b.turns], problems)


def read_demo(path: Path) -> DemoStory:
    """Read and parse a demo file: at most :data:`MAX_DEMO_BYTES`, whatever the file is."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_DEMO_BYTES + 1)
    except IsADirectoryError:
        raise StudioError(f"Can't read {path}: it is a folder, not a game_demo file.") from None
    except OSError as error:
        raise StudioError(f"Can't read {path}: {error.strerror or error}.") from None
    if len(data) > MAX_DEMO_BYTES:
        raise StudioError(f"{path.name} holds more than {MAX_DEMO_BYTES:,} bytes; "
                          f"a game_demo file is at most {MAX_DEMO_BYTES:,} bytes.",
                          hint="Split it into several files and import them one by one.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise DemoImportError(path.name, [(line, "not valid UTF-8 text")]) from None
    return parse_demo_text(text)


@dataclass(frozen=True)
class ImportTurns(Command):
    """Many new turns as one edit: ``turns`` are (node id, parent id, text), parents first.

    Each new turn goes after the siblings its parent already has."""

    turns: tuple[tuple[str, str, str], ...]
    label: ClassVar[str] = "Import turns"

    def build(self, tree: StoryTree) -> Patch:
        patch: dict[EntityKey, Node] = {}
        added: Counter[str] = Counter()
        created = now_iso()
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
                                                      created_at=created)
        return patch


def import_story(project: Project, story: DemoStory, name: str, parent_id: str | None = None,
                 skip_bad: bool = False) -> DemoImportResult:
    """Add the story's branches under ``parent_id`` (default: the story's start)."""
    if (story.problems and not skip_bad) or not story.branches:
        raise DemoImportError(name, story.problems or [(1, "the file holds no turns")])
    start = parent_id or project.tree.root_id
    project.tree.node(start)
    main: list[str] = []
    node_ids: list[str] = []
    leaves: list[str] = []
    turns: list[tuple[str, str, str]] = []
    skipped = list(story.problems)
    for index, branch in enumerate(story.branches):
        if index == 0 or branch.after == 0:
            parent = start
        elif branch.after <= len(main):
            parent = main[branch.after - 1]
        else:  # its marker is reported as a problem (only reached with skip_bad): say what it held
            skipped.extend((number, f"its branch (line {branch.line_number}) was skipped")
                           for number, _ in branch.turns)
            continue
        for _, text in branch.turns:
            node_id = new_id()
            turns.append((node_id, parent, text))
            node_ids.append(node_id)
            if index == 0:
                main.append(node_id)
            parent = node_id
        leaves.append(parent)
    project.apply(ImportTurns(tuple(turns)))
    return DemoImportResult(node_ids, leaves, sorted(skipped))


def import_demo(project: Project, path: Path, parent_id: str | None = None, skip_bad: bool = False) -> DemoImportResult:
    """Import a game_demo file (see the module docstring)."""
    return import_story(project, read_demo(path), path.name, parent_id, skip_bad)
