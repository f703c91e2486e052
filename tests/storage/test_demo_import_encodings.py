"""game_demo files saved in another encoding than UTF-8. A file Windows' Notepad or
PowerShell's ``>`` saved as UTF-16 (with its byte order mark) was refused as "line 1: not
valid UTF-8 text", though its BOM names its encoding; and a Latin-1 file was called "1
malformed line(s)" with the hint "use --skip-bad", which then refused it again with the
same hint: no line of such a file can be read, so the hint must say how to convert it."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.demo_import import DemoImportError, import_demo

DEMO = ("Character: Zoë; Motion: run; Background: day café.\r\n"
        "Character: Qiqi; Motion: wave; Background: night park.\r\n")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be-bom", "utf-32", "utf-8-sig"])
def test_a_file_whose_byte_order_mark_names_its_encoding_is_imported(
        project: Project, tmp_path: Path, encoding: str) -> None:
    demo = tmp_path / "demo.txt"
    data = (b"\xfe\xff" + DEMO.encode("utf-16-be")) if encoding == "utf-16-be-bom" else DEMO.encode(encoding)
    demo.write_bytes(data)
    result = import_demo(project, demo)
    texts = [project.tree.node(node_id).instruction.raw for node_id in result.node_ids]
    assert texts == [line for line in DEMO.splitlines()]
    assert project.tree.node(result.node_ids[0]).instruction.character == "Zoë"


def test_a_latin1_file_is_refused_with_how_to_convert_it_not_skip_bad(project: Project, tmp_path: Path) -> None:
    demo = tmp_path / "old editor.txt"
    demo.write_bytes(("Character: Qiqi; Motion: run; Background: day town.\n" + DEMO).encode("latin-1"))
    before = dict(project.tree.nodes)
    for skip_bad in (False, True):
        with pytest.raises(DemoImportError) as caught:
            import_demo(project, demo, skip_bad=skip_bad)
        error = caught.value
        assert error.problems == [(2, "not valid UTF-8 text (byte 0xEB, at offset 65)")]
        assert error.message.startswith("old editor.txt: not UTF-8 text; nothing was imported.")
        assert "--skip-bad" not in error.hint
        assert "iconv -f WINDOWS-1252 -t UTF-8 'old editor.txt'" in error.hint
    assert dict(project.tree.nodes) == before


def test_a_utf16_file_with_a_broken_character_names_its_line(project: Project, tmp_path: Path) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_bytes(DEMO.encode("utf-16") + "\ud800".encode("utf-16-le", "surrogatepass") + b"A\x00")
    with pytest.raises(DemoImportError) as caught:
        import_demo(project, demo)
    assert caught.value.problems[0][0] == 3 and "not valid UTF-16 text" in caught.value.problems[0][1]
    assert "--skip-bad" not in caught.value.hint


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_is_read_as_utf16(project: Project, tmp_path: Path, encoding: str) -> None:
    """Read as UTF-8 (which it is, NULs and all) every line was refused for "a control
    character (U+0000, NUL)", at line numbers twice too high."""
    demo = tmp_path / "demo.txt"
    demo.write_bytes(DEMO.encode(encoding))
    result = import_demo(project, demo)
    assert [project.tree.node(n).instruction.raw for n in result.node_ids] == DEMO.splitlines()


def test_a_nul_byte_in_utf8_text_is_still_reported_on_its_line(project: Project, tmp_path: Path) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_bytes(b"Character: Qiqi; Motion: run; Background: day town.\n"
                     b"Character: Qiqi; Motion: r\x00un; Background: day town.\n")
    with pytest.raises(DemoImportError) as caught:
        import_demo(project, demo)
    assert caught.value.problems == [(2, "The instruction holds a control character (U+0000, NUL) at character 27.")]
