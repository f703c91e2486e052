"""Import an AnimeGamer ``game_demo`` file: one turn per line, as one new branch.

A line looks like ``Character: Qiqi; Motion: gently sit on railing; Background: day town.``.
Blank lines and lines starting with ``#`` are skipped. Every malformed line is reported
with its line number and nothing is imported unless ``skip_bad`` is set.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from studio.core.commands import AddTurn
from studio.core.errors import StudioError
from studio.core.instruction import MAX_INSTRUCTION_CHARS, parse_instruction
from studio.core.model import new_id
from studio.storage.project import Project

REQUIRED_FIELDS = ("character", "motion", "background")
MAX_DEMO_BYTES = 10 * 1024 * 1024


class DemoImportError(StudioError):
    """A game_demo file that can't be imported; ``problems`` lists (line number, reason)."""

    def __init__(self, path: Path, problems: list[tuple[int, str]]) -> None:
        shown = "\n".join(f"  line {number}: {reason}" for number, reason in problems[:20])
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        super().__init__(
            f"{path.name}: {len(problems)} malformed line(s); nothing was imported.\n{shown}{more}",
            hint="Each line should read 'Character: NAME; Motion: WHAT; Background: WHERE.' "
            "(use --skip-bad to import the good lines only)",
        )
        self.problems = problems


@dataclass(frozen=True)
class DemoImportResult:
    node_ids: list[str]
    skipped: list[tuple[int, str]]


def read_demo_lines(path: Path) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """Return (good lines, problems), each as (line number, text or reason)."""
    try:
        size = path.stat().st_size
    except OSError as error:
        raise StudioError(f"Can't read {path}: {error.strerror}.") from None
    if size > MAX_DEMO_BYTES:
        raise StudioError(f"{path.name} is {size:,} bytes; a game_demo file is at most {MAX_DEMO_BYTES:,}.")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise DemoImportError(path, [(line, "not valid UTF-8 text")]) from None
    good: list[tuple[int, str]] = []
    problems: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if len(stripped) > MAX_INSTRUCTION_CHARS:
            problems.append((number, f"{len(stripped):,} characters (the limit is {MAX_INSTRUCTION_CHARS:,})"))
            continue
        parsed = parse_instruction(stripped)
        missing = [name.capitalize() for name in REQUIRED_FIELDS if not getattr(parsed, name)]
        if missing:
            fields = ", ".join(f"'{m}:'" for m in missing)
            problems.append((number, f"missing {fields} in {stripped[:60]!r}"))
            continue
        good.append((number, stripped))
    if not good and not problems:
        problems.append((1, "the file holds no turns"))
    return good, problems


def import_demo(project: Project, path: Path, parent_id: str | None = None, skip_bad: bool = False) -> DemoImportResult:
    """Append the file's turns as a chain under ``parent_id`` (default: the story's start)."""
    good, problems = read_demo_lines(path)
    if problems and not skip_bad:
        raise DemoImportError(path, problems)
    if not good:
        raise DemoImportError(path, problems)
    parent = parent_id or project.tree.root_id
    project.tree.node(parent)
    node_ids: list[str] = []
    for _, text in good:
        node_id = new_id()
        project.apply(AddTurn(parent, text, node_id=node_id))
        node_ids.append(node_id)
        parent = node_id
    return DemoImportResult(node_ids, problems)
