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
        "Qiqi eats bread slowly in the bakery at night\n"
        "Character: Qiqi; Background: night sky.\n"
        "# a comment\n"
        "Character: Qiqi; Motion: run; Background: day street\n"
        "Character: Qiqi; Motion: " + "x" * 3000 + "; Background: day street\n"
        "Character: Qiqi; Motion: ; Background: day street\n"
        "... !!! ;\n"
        "> Qiqi: this line belongs to the malformed turn above\n"
    )
    before = len(project.tree.nodes)
    with pytest.raises(DemoImportError) as caught:
        import_demo(project, demo)
    assert [n for n, _ in caught.value.problems] == [4, 7, 8, 9, 10]
    message = str(caught.value)
    assert "line 4: missing 'Motion:'" in message
    assert "line 7: The instruction is 3,0" in message
    assert "line 8: empty 'Motion:'" in message
    assert "line 9: no words" in message
    assert len(project.tree.nodes) == before
    result = import_demo(project, demo, skip_bad=True)
    assert len(result.node_ids) == 3 and [n for n, _ in result.skipped] == [4, 7, 8, 9, 10]
    assert [number for number, _ in result.free_text] == [3]
    free = project.tree.node(result.free_text[0][1])
    assert free.instruction.raw == "Qiqi eats bread slowly in the bakery at night"
    assert project.tree.acting_character(free.id) == "Qiqi"


def test_story_lines_give_the_turn_above_them_its_story_fields(project: Project, tmp_path: Path) -> None:
    demo = tmp_path / "story.txt"
    demo.write_text(
        "Character: Qiqi; Motion: run; Background: day town.\n"
        "> Qiqi: I'm late!\n"
        ">Yuzu : Wait for me!\n"
        "> narration: The town wakes up.\n"
        "> duration: 3.5\n"
        "> notes: wide shot\n"
        "Character: Yuzu; Motion: wave; Background: day street.\n"
    )
    result = import_demo(project, demo)
    first, second = (project.tree.node(n) for n in result.node_ids)
    assert [(line.speaker, line.text) for line in first.story.dialogue] == [("Qiqi", "I'm late!"),
                                                                            ("Yuzu", "Wait for me!")]
    assert (first.story.narration, first.story.duration, first.story.shot_notes) == (
        "The town wakes up.", 3.5, "wide shot")
    assert second.story.is_empty
    project.undo()
    assert all(n.is_root for n in project.tree.nodes.values())


@pytest.mark.parametrize(("line", "reason"), [
    ("> Qiqi:", "expected '> NAME"),
    ("> duration: soon", "a duration is a number"),
    ("> duration: 0", "outside"),
    ("> : hello", "expected '> NAME"),
])
def test_bad_story_lines_are_named_by_line_number(project: Project, tmp_path: Path, line: str, reason: str) -> None:
    demo = tmp_path / "bad_story.txt"
    demo.write_text(f"Character: Qiqi; Motion: run; Background: day town.\n{line}\n")
    with pytest.raises(DemoImportError) as caught:
        import_demo(project, demo)
    assert caught.value.problems[0][0] == 2 and reason in caught.value.problems[0][1]


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


def test_turns_under_a_malformed_marker_are_skipped_with_that_marker_not_added_to_the_branch_above(
        project: Project, tmp_path: Path) -> None:
    demo = tmp_path / "after_a_bad_marker.txt"
    demo.write_text(
        "Character: Qiqi; Motion: run; Background: day park.\n"
        "## branch after 1\n"
        "Character: Yuzu; Motion: wave; Background: day park.\n"
        "## branch after -1\n"
        "Character: Mei; Motion: jump; Background: day grass.\n"
    )
    with pytest.raises(DemoImportError) as caught:
        import_demo(project, demo)
    assert [n for n, _ in caught.value.problems] == [4]
    result = import_demo(project, demo, skip_bad=True)
    assert len(result.node_ids) == 2
    assert (5, "its branch (line 4) was skipped") in result.skipped
    assert {project.tree.node(n).instruction.character for n in result.node_ids} == {"Qiqi", "Yuzu"}


def test_characters_the_cast_lacks_join_it_in_the_same_undoable_edit(project: Project, tmp_path: Path) -> None:
    from studio.core.commands import AddCastMember
    from studio.core.model import CastMember

    project.apply(AddCastMember(CastMember(id="q", name="Qiqi")))
    demo = tmp_path / "demo.txt"
    demo.write_text("Character: 美咲; Motion: wave; Background: day town.\n"
                    "Character: Mei; Motion: juggle; Background: night moon.\n"
                    "Character: mei ; Motion: sit; Background: night moon.\n"
                    "Character: QIQI; Motion: run; Background: day town.\n"
                    "Character: Dr: Who; Motion: run; Background: day town.\n", encoding="utf-8")
    result = import_demo(project, demo)
    assert result.new_cast == ["美咲", "Mei"]
    assert sorted(m.name for m in project.tree.cast.values()) == sorted(["Qiqi", "美咲", "Mei"])
    project.undo()
    assert [m.name for m in project.tree.cast.values()] == ["Qiqi"] and len(project.tree.nodes) == 1
