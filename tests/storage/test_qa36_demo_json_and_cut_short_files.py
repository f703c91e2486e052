"""Two files users hand ``import-demo`` that are not game_demo text, told as what they are.

A JSON file (an export of another tool, or a story written as ``{"turns": [...]}``) was
imported as free-text turns holding its braces and quotes. A UTF-8 file cut short in the
middle of a character (a copy or download that did not finish) was said to look like Chinese
text in GBK, and the conversion offered turned its Japanese into other characters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.storage import Project
from studio.storage.demo_import import DemoImportError, import_demo, read_demo

TURN = "Character: Qiqi; Motion: run; Background: day town."


@pytest.mark.parametrize(("content", "shape"), [
    (json.dumps({"turns": [{"character": "Qiqi", "motion": "run", "background": "day town"}]}),
     "a JSON object (keys 'turns')"),
    (json.dumps([TURN, TURN, None], indent=2), "a JSON list of 3 items"),
    ('{"character": "Qiqi"}\r\n{"character": "Yuzu"}\r\n', "JSON on every line"),
])
def test_a_json_file_is_refused_as_json(tmp_path: Path, content: str, shape: str) -> None:
    demo = tmp_path / "story.json"
    demo.write_text(content, encoding="utf-8")
    with Project.create(tmp_path / "story") as project:
        with pytest.raises(DemoImportError) as caught:
            import_demo(project, demo, skip_bad=True)
        assert list(project.tree.nodes) == [project.tree.root_id]  # nothing imported
    message = str(caught.value)
    assert message.startswith("story.json: it is JSON, not a game_demo text file; nothing was imported."), message
    assert shape in message and "one turn per line" in caught.value.hint, (message, caught.value.hint)
    assert "--skip-bad" not in caught.value.hint


def test_the_cli_makes_no_project_for_a_json_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    demo = tmp_path / "story.json"
    demo.write_text('[{"Character": "Qiqi"}]\n', encoding="utf-8")
    assert main(["import-demo", str(demo), "--project", str(tmp_path / "new.kamishibai")]) == 2
    assert "it is JSON" in capsys.readouterr().err
    assert not (tmp_path / "new.kamishibai").exists()


def test_lines_that_only_start_like_json_are_turns(tmp_path: Path) -> None:
    demo = tmp_path / "story.txt"
    demo.write_text(f"[Scene 1] Qiqi runs to the bakery\n{{wide shot}} Qiqi waves\n{TURN}\n", encoding="utf-8")
    story = read_demo(demo)
    assert not story.problems and story.turn_count == 3


def test_a_file_cut_short_inside_a_character_says_so(tmp_path: Path) -> None:
    whole = "キャラクター：美咲；動作：走る；背景：昼の町\n美咲はパン屋でパンを食べる\n".encode()
    demo = tmp_path / "misaki.txt"
    demo.write_bytes(whole[:-3])  # the last character "る" and its line break, cut one byte in
    with pytest.raises(DemoImportError) as caught:
        read_demo(demo)
    message = str(caught.value)
    assert "cut short in the middle of a character" in message and "line 2:" in message, message
    assert "copy the whole file again" in caught.value.hint
    assert "GBK" not in caught.value.hint and "iconv" not in caught.value.hint, caught.value.hint


def test_a_bad_byte_inside_the_file_is_still_an_encoding_problem(tmp_path: Path) -> None:
    demo = tmp_path / "latin.txt"
    demo.write_bytes(f"{TURN}\nCharacter: Ren\xe9e; Motion: run; Background: day park.\n".encode("latin-1"))
    with pytest.raises(DemoImportError) as caught:
        read_demo(demo)
    assert "not UTF-8 text" in str(caught.value) and "cut short" not in str(caught.value)


RTF = (b"{\\rtf1\\ansi\\ansicpg1252\\cocoartf2761\n\\cocoatextscaling0\\cocoaplatform0{\\fonttbl\\f0\\fswiss "
       b"Helvetica;}\n\\pard\\tx566\\pardirnatural\\partightenfactor0\n\n\\f0\\fs24 \\cf0 " + TURN.encode()
       + b"\\\n" + TURN.encode() + b"}\n")


def _zip(path: Path, *names: str) -> None:
    import zipfile

    with zipfile.ZipFile(path, "w") as archive:
        for name in names:
            archive.writestr(name, f"<x>{TURN}</x>")


def _png(path: Path) -> None:
    from PIL import Image

    Image.new("RGB", (8, 8), (10, 20, 30)).save(path, format="PNG")


def _database(path: Path) -> None:
    import sqlite3

    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (x TEXT)")
    conn.close()


@pytest.mark.parametrize(("make", "what", "hint"), [
    (lambda path: path.write_bytes(RTF), "a rich text (RTF) document", "Make Plain Text"),
    (lambda path: _zip(path, "[Content_Types].xml", "word/document.xml"), "a Word document (.docx)", "Plain Text"),
    (lambda path: _zip(path, "[Content_Types].xml", "xl/worksheets/sheet1.xml"), "an Excel workbook", "CSV"),
    (lambda path: _zip(path, "kamishibai-bundle.json", "project.db"), "a Kamishibai bundle",
     "kamishibai unbundle story.bin"),
    (_png, "a PNG picture", "one turn per line"),
    (_database, "an SQLite database", "opened, not imported"),
])
def test_a_document_that_is_no_text_is_named(tmp_path: Path, make: object, what: str, hint: str) -> None:
    demo = tmp_path / "story.bin"
    make(demo)  # type: ignore[operator]
    with Project.create(tmp_path / "story") as project:
        with pytest.raises(DemoImportError) as caught:
            import_demo(project, demo, skip_bad=True)  # RTF's formatting lines imported as turns with it
        assert list(project.tree.nodes) == [project.tree.root_id]
    message = str(caught.value)
    assert message.startswith(f"story.bin: it is {what}"), message
    assert hint in caught.value.hint and "iconv" not in caught.value.hint, caught.value.hint


def test_a_latin1_file_ending_in_an_accent_is_not_called_cut_short(tmp_path: Path) -> None:
    demo = tmp_path / "cafe.txt"
    demo.write_bytes(f"{TURN}\nCharacter: Qiqi; Motion: sit; Background: day café".encode("latin-1"))
    with pytest.raises(DemoImportError) as caught:
        read_demo(demo)
    assert "not UTF-8 text" in str(caught.value) and "WINDOWS-1252" in caught.value.hint, caught.value.hint
