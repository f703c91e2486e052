from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.demo_import import DemoImportError, import_demo


def test_fixture_demo_imports_as_eight_turn_branch(project: Project, demo_file: Path) -> None:
    result = import_demo(project, demo_file)
    assert len(result.node_ids) == 8
    tree = project.tree
    path = tree.path_to(result.node_ids[-1])
    assert [n.id for n in path[1:]] == result.node_ids
    for node in path[1:]:
        ins = node.instruction
        assert ins.character == "Qiqi"
        assert ins.motion and ins.adverb and ins.background
        assert ins.time_of_day in {"day", "night"}
    assert tree.node(result.node_ids[0]).instruction.motion == "flying on broomstick"
    assert tree.node(result.node_ids[-1]).instruction.background == "bedroom"
    assert tree.node(result.node_ids[-1]).instruction.time_of_day == "night"


def test_malformed_lines_reported_with_numbers_nothing_imported(project: Project, tmp_path: Path) -> None:
    demo = tmp_path / "bad.txt"
    demo.write_text(
        "Character: Qiqi; Motion: gently sit on railing; Background: day town.\n"
        "\n"
        "this line is not a turn\n"
        "Character: Qiqi; Background: night sky.\n"
        "# a comment\n"
        "Character: Qiqi; Motion: run; Background: day street\n"
        "Character: Qiqi; Motion: " + "x" * 3000 + "; Background: day street\n"
    )
    before = len(project.tree.nodes)
    with pytest.raises(DemoImportError) as caught:
        import_demo(project, demo)
    assert [n for n, _ in caught.value.problems] == [3, 4, 7]
    message = str(caught.value)
    assert "line 3: missing 'Character:', 'Motion:', 'Background:'" in message
    assert "line 4: missing 'Motion:'" in message
    assert "line 7: 3,0" in message
    assert len(project.tree.nodes) == before
    result = import_demo(project, demo, skip_bad=True)
    assert len(result.node_ids) == 2 and [n for n, _ in result.skipped] == [3, 4, 7]


def test_binary_and_empty_files(project: Project, tmp_path: Path) -> None:
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"Character: Qiqi; Motion: run; Background: town\n\xff\xfe\x00junk")
    with pytest.raises(DemoImportError, match="line 2: not valid UTF-8"):
        import_demo(project, binary)
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n")
    with pytest.raises(DemoImportError, match="no turns"):
        import_demo(project, empty)


def test_branch_markers_make_alternative_branches(project: Project, tmp_path: Path) -> None:
    demo = tmp_path / "branches.txt"
    demo.write_text(
        "Character: Qiqi; Motion: fly on broomstick; Background: day sky.\n"
        "Character: Qiqi; Motion: sit on railing; Background: day town.\n"
        "Character: Qiqi; Motion: eat bread; Background: day bakery.\n"
        "## branch after 1\n"
        "Character: Qiqi; Motion: run; Background: day park.\n"
        "Character: Qiqi; Motion: jump; Background: day grass.\n"
        "## branch after 0\n"
        "Character: Sosuke; Motion: wave; Background: sunset beach.\n"
    )
    result = import_demo(project, demo)
    tree = project.tree
    assert len(result.node_ids) == 6 and len(result.leaves) == 3
    first, _second, third, alt1, alt2, other = result.node_ids
    assert tree.node(alt1).parent_id == first and tree.node(alt2).parent_id == alt1
    assert tree.node(other).parent_id == tree.root_id
    assert [n.id for n in tree.leaves_under(tree.root_id)] == [third, alt2, other]


def test_bad_branch_markers_reported(project: Project, tmp_path: Path) -> None:
    demo = tmp_path / "bad_branches.txt"
    demo.write_text(
        "Character: Qiqi; Motion: run; Background: day park.\n"
        "## branch after 5\n"
        "Character: Qiqi; Motion: jump; Background: day grass.\n"
        "## branch after two\n"
    )
    with pytest.raises(DemoImportError) as caught:
        import_demo(project, demo)
    assert [n for n, _ in caught.value.problems] == [2, 4]
    assert "first branch has 1 turn" in str(caught.value)
