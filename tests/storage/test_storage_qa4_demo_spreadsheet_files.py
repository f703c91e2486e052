"""game_demo files as a spreadsheet saves them, and a branch marker with nothing below it.

- Excel's "CSV" quotes a cell holding a comma, a semicolon or a quote: every quoted line
  was refused for a missing 'Character:' it shows, and a row of quoted cells (one field a
  cell) was imported as one free-text turn;
- empty cells after a line (``...day town.,,,``) joined the last field's value ('town.,,,');
- "Unicode Text" (UTF-16 with a byte order mark, tab-separated) and tabs between fields:
  every line was refused for a control character (a tab);
- ``## branch after N`` as the file's last line (a file cut short, or turns forgotten): the
  branch meant was dropped without a word.
"""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.demo_import import DemoImportError, import_demo


def _texts(project: Project, node_ids: list[str]) -> list[str]:
    return [project.tree.node(node_id).instruction.raw for node_id in node_ids]


def test_a_file_saved_by_excel_as_csv_imports_as_written(project: Project, tmp_path: Path) -> None:
    demo = tmp_path / "story.csv"
    demo.write_bytes(codecs.BOM_UTF8 + (
        b'"Character: Qiqi; Motion: run; Background: day town.",,\r\n'
        b'"Character: Qiqi","Motion: says ""hi"" and waves","Background: night park."\r\n'
        b'"> Qiqi: Hello, Yuzu!",,\r\n'
        b'"# a comment, with a comma",,\r\n'
        b'Character: Yuzu; Motion: sit; Background: day bench.,,\r\n'
        b'"Wait!", Qiqi calls in the town\r\n'
    ))
    result = import_demo(project, demo)
    assert _texts(project, result.node_ids) == [
        "Character: Qiqi; Motion: run; Background: day town.",
        'Character: Qiqi; Motion: says "hi" and waves; Background: night park.',
        "Character: Yuzu; Motion: sit; Background: day bench.",
        '"Wait!", Qiqi calls in the town',  # a quotation starting a free-text turn is kept
    ]
    second = project.tree.node(result.node_ids[1])
    assert second.instruction.background == "park" and second.instruction.time_of_day == "night"
    assert [(line.speaker, line.text) for line in second.story.dialogue] == [("Qiqi", "Hello, Yuzu!")]
    assert project.tree.node(result.node_ids[2]).instruction.background == "bench"
    assert [number for number, _ in result.free_text] == [6]


@pytest.mark.parametrize("bom", [codecs.BOM_UTF16_LE, b""], ids=["utf-16-bom", "utf-8"])
def test_tabs_between_fields_separate_them(project: Project, tmp_path: Path, bom: bytes) -> None:
    text = ("Character: Qiqi\tMotion: run\tBackground: day town.\r\n"
            "Character:\tYuzu; Motion: jump\t \tquickly; Background: night park.\t\t\r\n"
            ">\tYuzu:\tWait\tfor me!\r\n")
    demo = tmp_path / "story.txt"
    demo.write_bytes(bom + text.encode("utf-16-le" if bom else "utf-8"))
    result = import_demo(project, demo)
    assert _texts(project, result.node_ids) == ["Character: Qiqi; Motion: run; Background: day town.",
                                                "Character: Yuzu; Motion: jump quickly; Background: night park."]
    second = project.tree.node(result.node_ids[1])
    assert (second.instruction.motion, second.instruction.adverb) == ("jump", "quickly")
    assert [(line.speaker, line.text) for line in second.story.dialogue] == [("Yuzu", "Wait for me!")]


@pytest.mark.parametrize("ending", ["## branch after 1\n", "## branch after 1", "## branch after 0\n# nothing\n"])
def test_a_branch_marker_with_no_turns_below_it_is_reported(project: Project, tmp_path: Path, ending: str) -> None:
    demo = tmp_path / "story.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: day town.\n" + ending, encoding="utf-8")
    before = set(project.tree.nodes)
    with pytest.raises(DemoImportError) as caught:
        import_demo(project, demo)
    assert len(caught.value.problems) == 1
    number, reason = caught.value.problems[0]
    assert number == 2 and "has no turns below it" in reason
    assert set(project.tree.nodes) == before
    result = import_demo(project, demo, skip_bad=True)
    assert len(result.node_ids) == 1 and [n for n, _ in result.skipped] == [2]
