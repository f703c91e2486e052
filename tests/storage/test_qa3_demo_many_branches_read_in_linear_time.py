"""Each ``## branch after N`` looked its turn up by scanning the whole first branch: a file
of 20,000 turns and as many branches (2.5 MB, a quarter of the size allowed) took minutes
to import. The lookup is now one set, built once (the time is in no test: the reads are
counted)."""

from __future__ import annotations

from pathlib import Path

from studio.storage import Project
from studio.storage.demo_import import import_demo, parse_demo_text

TURN = "Character: Qiqi; Motion: run; Background: day town.\n"


class _CountedTurns(list):  # type: ignore[type-arg]
    """The first branch's turns, counting how often they are read through."""

    reads = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        _CountedTurns.reads += 1
        return super().__iter__()


def test_thousands_of_branches_read_the_first_branch_once() -> None:
    """Counted, not timed: placing every branch reads the first branch's turns once, however
    many branches the file has (it read them once per branch)."""
    count = 2_000
    text = TURN * count + "".join(f"## branch after {n}\n{TURN}" for n in range(1, count + 1))
    story = parse_demo_text(text)
    main = next(branch for branch in story.branches if branch.is_main)
    main.turns = _CountedTurns(main.turns)
    _CountedTurns.reads = 0
    assert story.importable
    points = [story.branch_point(branch) for branch in story.branches]
    assert points[1:] == list(range(1, count + 1))  # turn N of the first branch is on line N
    assert _CountedTurns.reads <= 2, f"the first branch was read {_CountedTurns.reads} times for {count:,} branches"


def test_every_branch_continues_from_the_turn_it_names(project: Project, tmp_path: Path) -> None:
    demo = tmp_path / "branches.txt"
    demo.write_text(TURN * 300 + "".join(f"## branch after {n}\n{TURN}" for n in range(0, 301)), encoding="utf-8")
    result = import_demo(project, demo)
    main = result.node_ids[:300]
    tree = project.tree
    for after, node_id in enumerate(result.node_ids[300:]):
        assert tree.node(node_id).parent_id == (main[after - 1] if after else tree.root_id)
