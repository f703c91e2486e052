"""A line meant as a branch marker but not written as one (``## branch after turn 2``,
``## branch afer 2``, ``# branch after 2``) was taken for a comment: nothing was said, and
the turns below it joined the branch above, one long branch instead of two."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.demo_import import DemoImportError, import_demo

TURN = "Character: Qiqi; Motion: {}; Background: day town.\n"


@pytest.mark.parametrize("marker", ["## branch after turn 1", "## branch afer 1", "# branch after 1",
                                    "### Branch 2", "## Branch: the beach"])
def test_a_misspelt_branch_marker_is_reported_not_taken_for_a_comment(
        project: Project, tmp_path: Path, marker: str) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text(TURN.format("run") + TURN.format("jump") + marker + "\n" + TURN.format("sit"), encoding="utf-8")
    with pytest.raises(DemoImportError) as caught:
        import_demo(project, demo)
    assert [number for number, _ in caught.value.problems] == [3]
    assert "'## branch after N'" in caught.value.problems[0][1]
    assert all(node.is_root for node in project.tree.nodes.values())

    result = import_demo(project, demo, skip_bad=True)  # the branch's turns are skipped, never joined above
    assert [project.tree.node(n).instruction.motion for n in result.node_ids] == ["run", "jump"]
    assert [number for number, _ in result.skipped] == [3, 4]


def test_a_plain_comment_that_mentions_a_branch_is_still_a_comment(project: Project, tmp_path: Path) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text(TURN.format("run") + "# branch after 1 she goes to the sea\n" + TURN.format("jump"),
                    encoding="utf-8")
    result = import_demo(project, demo)
    assert len(result.node_ids) == 2 and not result.skipped
