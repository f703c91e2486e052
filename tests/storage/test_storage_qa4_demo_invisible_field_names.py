"""Zero-width characters (pasted from web pages and chat apps) next to a field separator hid
a field's name: ``Character: Qiqi;<ZWSP>Motion: run`` was refused for a missing 'Motion:'
it shows, ``...; <ZWSP>Time: night`` was imported as free text (the time dropped),
``><ZWSP> narration: hi`` became a dialogue line of a speaker named "narration" and
``##<ZWSP> branch after 1`` a comment (its turns joined the first branch). A field name
that is still none of ours (``Mood:``, ``Ti<ZWSP>me:``) was kept without a word; it is
reported with its line number now."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.demo_import import DemoImportError, import_demo

INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]


def _write(tmp_path: Path, text: str) -> Path:
    demo = tmp_path / "demo.txt"
    demo.write_text(text, encoding="utf-8")
    return demo


@pytest.mark.parametrize("hidden", INVISIBLE, ids=[f"U+{ord(c):04X}" for c in INVISIBLE])
def test_invisible_characters_around_field_names_are_ignored(project: Project, tmp_path: Path,
                                                             hidden: str) -> None:
    demo = _write(tmp_path,
                  f"Character: Qiqi;{hidden}Motion: run; Background: day town.\n"
                  f"Character{hidden}: Qiqi; Motion: sit,{hidden}Background: park;{hidden} {hidden}Time: night\n"
                  f">{hidden} narration: {hidden}It is late.\n"
                  f"> {hidden}Qiqi{hidden}: I'm home.\n"
                  f"##{hidden} branch after 1\n"
                  f"Character: Yuzu; Motion: wave;{hidden}Background: day park.\n")
    result = import_demo(project, demo)
    tree = project.tree
    first, second, third = (tree.node(node_id) for node_id in result.node_ids)
    assert (first.instruction.character, first.instruction.motion) == ("Qiqi", "run")
    assert (second.instruction.character, second.instruction.background) == ("Qiqi", "park")
    assert second.instruction.time_of_day == "night" and not second.instruction.free_text
    assert second.story.narration == "It is late."
    assert [(line.speaker, line.text) for line in second.story.dialogue] == [("Qiqi", "I'm home.")]
    assert third.parent_id == first.id, "the branch continues from turn 1, not from turn 2"
    assert third.instruction.background == "park"
    assert hidden not in "".join(node.instruction.raw for node in (first, second, third))


@pytest.mark.parametrize(("line", "shown"), [
    ("Character: Qiqi; Mood: happy; Motion: run; Background: day town.", "'Mood:'"),
    ("Character: Qiqi; Motion: run; Background: town; Ti\u200bme: night", "'Ti\\u200bme:'"),
    ("Charcter: Qiqi; Motion: run; Background: day town.", "'Charcter:'"),
])
def test_a_field_name_that_is_none_of_ours_is_reported_by_its_line(project: Project, tmp_path: Path,
                                                                     line: str, shown: str) -> None:
    demo = _write(tmp_path, f"Character: Qiqi; Motion: run; Background: day town.\n# a comment\n{line}\n")
    before = set(project.tree.nodes)
    with pytest.raises(DemoImportError) as caught:
        import_demo(project, demo)
    assert [number for number, _ in caught.value.problems] == [3]
    reason = caught.value.problems[0][1]
    assert reason.startswith(f"unknown field name {shown}")
    assert "Character, Motion, Background, Time, Camera and Adverb" in reason
    assert set(project.tree.nodes) == before
