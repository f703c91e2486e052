"""A game_demo file saved in Shift-JIS (Japanese Windows' default) or GBK was refused with
the one hint "convert it: iconv -f WINDOWS-1252 ...": followed, it turned every Japanese
or Chinese name into mojibake (Shift-JIS bytes are valid Windows-1252), which then imported
without a word. The hint now names the encoding the file reads as."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.demo_import import DemoImportError, import_demo

JAPANESE = "Character: キキ; Motion: 走る; Background: 昼 町.\n> キキ: おはよう！\n"
CHINESE = "Character: 小明; Motion: 跑步; Background: 白天 小镇。\n"


def _refused_hint(project: Project, path: Path) -> str:
    with pytest.raises(DemoImportError) as caught:
        import_demo(project, path)
    return caught.value.hint


def test_a_shift_jis_file_is_told_to_be_converted_from_shift_jis(project: Project, tmp_path: Path) -> None:
    demo = tmp_path / "kiki.txt"
    demo.write_bytes(JAPANESE.encode("cp932"))
    hint = _refused_hint(project, demo)
    assert "Japanese text in Shift-JIS" in hint and "iconv -f CP932 -t UTF-8 kiki.txt" in hint
    assert "WINDOWS-1252" not in hint
    converted = tmp_path / "converted.txt"  # what the named conversion gives imports as written
    converted.write_text(demo.read_bytes().decode("cp932"), encoding="utf-8")
    result = import_demo(project, converted)
    assert project.tree.node(result.node_ids[0]).instruction.character == "キキ"


def test_a_gbk_file_names_gbk(project: Project, tmp_path: Path) -> None:
    demo = tmp_path / "ming.txt"
    demo.write_bytes(CHINESE.encode("gbk"))
    hint = _refused_hint(project, demo)
    assert "Chinese text in GBK (iconv -f GB18030 -t UTF-8 ming.txt" in hint
    assert "WINDOWS-1252" not in hint


@pytest.mark.parametrize("text", ["Character: Zoë; Motion: run; Background: day café.\n",
                                  "Character: Qiqi; Motion: play Pokémon; Background: day town.\n"])
def test_a_latin_file_still_names_windows_1252(project: Project, tmp_path: Path, text: str) -> None:
    demo = tmp_path / "latin.txt"
    demo.write_bytes(text.encode("cp1252"))
    hint = _refused_hint(project, demo)
    assert "iconv -f WINDOWS-1252 -t UTF-8 latin.txt" in hint and "looks like" not in hint
