"""A game_demo file whose first branch has no good turn: a branch under a bad marker is
still skipped (it was once taken for the first branch and imported at the story's start,
while the report said it was skipped), and a file with nothing to import is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.demo_import import DemoImportError, import_demo


@pytest.mark.parametrize("marker", ["## branch after 5", "## branch after x"])
def test_a_bad_markers_branch_is_skipped_when_no_turn_is_above_it(project: Project, tmp_path: Path,
                                                                     marker: str) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text(f"{marker}\nCharacter: Qiqi; Motion: run; Background: day park.\n", encoding="utf-8")
    before = set(project.tree.nodes)
    with pytest.raises(DemoImportError) as caught:
        import_demo(project, demo, skip_bad=True)
    assert "--skip-bad has nothing to import" in (caught.value.hint or "")
    assert set(project.tree.nodes) == before, "nothing was imported"


def test_a_bad_markers_branch_is_skipped_when_the_first_branchs_lines_are_bad(project: Project,
                                                                              tmp_path: Path) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text("Character: ; Motion: run; Background: day park.\n"
                    "## branch after x\n"
                    "Character: Yuzu; Motion: wave; Background: day park.\n"
                    "## branch after 0\n"
                    "Character: Mei; Motion: jump; Background: day grass.\n", encoding="utf-8")
    result = import_demo(project, demo, skip_bad=True)
    assert [project.tree.node(n).instruction.character for n in result.node_ids] == ["Mei"]
    assert (3, "its branch (line 2) was skipped") in result.skipped
    assert project.tree.node(result.node_ids[0]).parent_id == project.tree.root_id
