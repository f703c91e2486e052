"""Import an AnimeGamer ``game_demo`` file: one turn per line.

A line looks like ``Character: Qiqi; Motion: gently sit on railing; Background: day town.``.
Blank lines and lines starting with ``#`` are skipped. One extension, used by the sample
stories: a line ``## branch after N`` starts an alternative branch that continues from
turn N of the file's first branch (``## branch after 0`` starts from the story's start).
Every malformed line is reported with its line number, and nothing is imported unless
``skip_bad`` is set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from studio.core.commands import AddTurn
from studio.core.errors import StudioError
from studio.core.instruction import MAX_INSTRUCTION_CHARS, parse_instruction
from studio.core.model import new_id
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
    try:
        size = path.stat().st_size
        if size > MAX_DEMO_BYTES:
            raise StudioError(f"{path.name} is {size:,} bytes; a game_demo file is at most {MAX_DEMO_BYTES:,}.")
        data = path.read_bytes()
    except OSError as error:
        raise StudioError(f"Can't read {path}: {error.strerror}.") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise DemoImportError(path.name, [(line, "not valid UTF-8 text")]) from None
    return parse_demo_text(text)


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
    for index, branch in enumerate(story.branches):
        if index == 0 or branch.after == 0:
            parent = start
        elif branch.after <= len(main):
            parent = main[branch.after - 1]
        else:
            continue  # reported as a problem; only reached with skip_bad
        for _, text in branch.turns:
            node_id = new_id()
            project.apply(AddTurn(parent, text, node_id=node_id))
            node_ids.append(node_id)
            if index == 0:
                main.append(node_id)
            parent = node_id
        leaves.append(parent)
    return DemoImportResult(node_ids, leaves, story.problems)


def import_demo(project: Project, path: Path, parent_id: str | None = None, skip_bad: bool = False) -> DemoImportResult:
    """Import a game_demo file (see the module docstring)."""
    return import_story(project, read_demo(path), path.name, parent_id, skip_bad)
