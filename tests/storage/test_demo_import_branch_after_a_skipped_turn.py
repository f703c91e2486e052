"""``## branch after N`` with ``--skip-bad`` when the first branch holds a malformed turn.
Turns were counted among the good lines only, so skipping a bad line moved every branch
after it: "## branch after 3" then continued from the file's fourth turn (here the last
one), and the alternative became a plain next turn, with nothing said; a branch after the
bad turn itself was attached to the turn that followed it."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.demo_import import DemoImportError, import_demo, parse_demo_text

MAIN = ("Character: Qiqi; Motion: wake up; Background: bedroom.\n"
        "Character: Qiqi; Background: kitchen.\n"  # line 2: no Motion, skipped
        "Character: Qiqi; Motion: eat bread; Background: kitchen.\n"
        "Character: Qiqi; Motion: run; Background: day street.\n")
FORK = "Character: Qiqi; Motion: fall; Background: day street.\n"


def _import(project: Project, tmp_path: Path, after: int):  # type: ignore[no-untyped-def]
    demo = tmp_path / "demo.txt"
    demo.write_text(f"{MAIN}## branch after {after}\n{FORK}", encoding="utf-8")
    return import_demo(project, demo, skip_bad=True)


def test_a_branch_continues_from_the_turn_the_file_numbers(project: Project, tmp_path: Path) -> None:
    result = _import(project, tmp_path, 3)
    tree = project.tree
    motions = {tree.node(n).instruction.motion: n for n in result.node_ids}
    assert set(motions) == {"wake up", "eat bread", "run", "fall"}
    assert tree.node(motions["fall"]).parent_id == motions["eat bread"], "turn 3 of the file is 'eat bread'"
    assert tree.node(motions["run"]).parent_id == motions["eat bread"]
    assert sorted(result.leaves) == sorted([motions["run"], motions["fall"]])


def test_a_branch_after_the_skipped_turn_is_skipped_and_said_so(project: Project, tmp_path: Path) -> None:
    result = _import(project, tmp_path, 2)
    tree = project.tree
    assert [tree.node(n).instruction.motion for n in result.node_ids] == ["wake up", "eat bread", "run"]
    assert (6, "its branch (line 5) was skipped: it continues from turn 2 (line 2), which was skipped") \
        in result.skipped


def test_without_skip_bad_a_branch_after_the_last_written_turn_is_no_problem_of_its_own() -> None:
    story = parse_demo_text(f"{MAIN}## branch after 4\n{FORK}")
    assert [number for number, _reason in story.problems] == [2], "only the bad turn, not the marker"


def test_nothing_is_imported_when_only_a_branch_after_a_bad_turn_remains(project: Project, tmp_path: Path) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text(f"Character: ; Motion: run; Background: day park.\n## branch after 1\n{FORK}", encoding="utf-8")
    before = set(project.tree.nodes)
    with pytest.raises(DemoImportError):
        import_demo(project, demo, skip_bad=True)
    assert set(project.tree.nodes) == before
