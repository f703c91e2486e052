"""A byte order mark in the middle of a file (two files joined with ``cat``, the second
saved by Notepad) or a zero-width space before ``Character:`` hid the field name: the line
was refused for "missing 'Character:'", a field it plainly shows."""

from __future__ import annotations

from pathlib import Path

from studio.storage import Project
from studio.storage.demo_import import import_demo


def test_invisible_characters_around_a_line_are_ignored(project: Project, tmp_path: Path) -> None:
    first = "Character: Qiqi; Motion: run; Background: day town.\r\n".encode("utf-8-sig")
    second = "Character: Yuzu; Motion: wave; Background: night park.\r\n".encode("utf-8-sig")
    spaced = "\u200bCharacter: Qiqi; Motion: sit; Background: day town.\u2060\n\ufeff\n".encode()
    demo = tmp_path / "joined.txt"
    demo.write_bytes(first + second + spaced)
    result = import_demo(project, demo)
    texts = [project.tree.node(node_id).instruction.raw for node_id in result.node_ids]
    assert texts == ["Character: Qiqi; Motion: run; Background: day town.",
                     "Character: Yuzu; Motion: wave; Background: night park.",
                     "Character: Qiqi; Motion: sit; Background: day town."]
    assert [project.tree.node(n).instruction.character for n in result.node_ids] == ["Qiqi", "Yuzu", "Qiqi"]
