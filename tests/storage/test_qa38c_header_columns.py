"""A spreadsheet's header row, as users' sheets have them (QA 38c):

- ``Scene,Character,Motion,Background`` was refused: "the header row names the background
  column twice" ("Scene" is a name of the background), naming neither column. A column of
  numbers only (scene numbers) beside the column naming its field is now skipped, with a note;
  two columns of text naming one field are refused, naming both as written.
- An ID or comment column (``...,Extra``) refused the whole file, and --skip-bad imported
  nothing: such columns are now skipped with one note naming them.
- Rows of cells without a header (``Qiqi,run,park``) were read as free text without a word:
  a note now says the file looks like a table without a header, and the header line to add.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.storage import Project
from studio.storage.demo_import import import_demo, parse_demo_text


def _import(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str], *options: str,
            name: str = "sheet.csv") -> tuple[int, str, str, Path]:
    """`kamishibai import-demo` of ``text`` into a new project: exit code, stdout, stderr, project."""
    sheet = tmp_path / name
    sheet.write_text(text, encoding="utf-8")
    project = tmp_path / "p.kamishibai"
    code = main(["import-demo", str(sheet), "--project", str(project), *options])
    out, err = capsys.readouterr()
    return code, out, err, project


def _turns(project: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    """The project's turns as `tree --json` reads them back, in file order."""
    assert main(["tree", str(project), "--json"]) == 0
    return [node for node in json.loads(capsys.readouterr().out)["nodes"] if node.get("parent")]


def test_a_scene_number_column_is_skipped_with_a_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err, project = _import(
        tmp_path, "Scene,Character,Motion,Background\n1,Qiqi,run,park\n2,Yuzu,jump,town\n", capsys)
    assert code == 0, err
    assert "note: line 1: skipped the column 'Scene', of numbers only (scene numbers?): 'Background' is read as " \
           "the background" in err, err
    turns = _turns(project, capsys)
    assert [turn["instruction"] for turn in turns] == ["Character: Qiqi; Motion: run; Background: park",
                                                       "Character: Yuzu; Motion: jump; Background: town"]
    assert turns[1]["parent"] == turns[0]["id"]


def test_the_scene_number_column_may_come_after_the_background(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err, project = _import(
        tmp_path, "Character\tMotion\tBackground\tScene\nQiqi\trun\tpark\t3a\n\t\t\t\nYuzu\tjump\ttown\t4\n",
        capsys, name="sheet.tsv")
    assert code == 0, err
    assert "skipped the column 'Scene'" in err, err
    assert [turn["fields"] for turn in _turns(project, capsys)] == [
        {"character": "Qiqi", "motion": "run", "background": "park"},
        {"character": "Yuzu", "motion": "jump", "background": "town"}]


@pytest.mark.parametrize("header, row, named", [
    ("Scene,Character,Motion,Background", "hill,Qiqi,run,park", "'Scene' and 'Background' both name the background"),
    ("Character,Motion,Background,Place", "Qiqi,run,town,x", "'Background' and 'Place' both name the background"),
    ("Scene,Character,Motion,Background", "1,Qiqi,run,2", "'Scene' and 'Background' both name the background"),
    ("Who,Character,Motion,Background,Name", "a,Qiqi,run,park,b",
     "'Who', 'Character' and 'Name' all name the character"),
])
def test_two_columns_of_one_field_are_refused_naming_both(header: str, row: str, named: str) -> None:
    story = parse_demo_text(f"{header}\n{row}\n")
    assert story.turn_count == 0
    assert story.problems[0][0] == 1 and named in story.problems[0][1], story.problems
    assert story.notes == ()


def test_the_scene_refusal_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err, project = _import(tmp_path, "Scene,Character,Motion,Background\nhill,Qiqi,run,park\n", capsys)
    assert code == 2
    assert ("line 1: the header row names the background column twice ('Scene' and 'Background' both name the "
            "background)") in err, err
    assert not project.exists()


def test_unknown_columns_are_skipped_with_one_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = ("Character,Motion,Background,Time,Duration,Extra\n"
            "Qiqi,run,park,night,3,hello\n"
            "Yuzu,jump,town,,,\n")
    code, out, err, project = _import(tmp_path, text, capsys)
    assert code == 0, err
    assert err.count("note:") == 1 and "note: line 1: skipped the column 'Extra', naming no field" in err, err
    assert "imported 2 turns" in out
    first, second = _turns(project, capsys)
    assert first["fields"] == {"character": "Qiqi", "motion": "run", "background": "park", "time_of_day": "night"}
    assert first["story"]["duration"] == 3  # type: ignore[index]
    assert "hello" not in json.dumps(first)
    assert second["fields"] == {"character": "Yuzu", "motion": "jump", "background": "town"}


def test_id_and_comment_columns_with_punctuation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "ID;Shot No.;Character;Motion;Background;#;Comment (internal)\n7;1.2;Qiqi;run;park;3;redo\n"
    code, _out, err, project = _import(tmp_path, text, capsys)
    assert code == 0, err
    assert "skipped the columns 'ID', 'Shot No.', '#' and 'Comment (internal)'" in err, err
    assert [turn["instruction"] for turn in _turns(project, capsys)] == [
        "Character: Qiqi; Motion: run; Background: park"]


def test_a_header_lacking_a_needed_column_is_still_refused(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err, project = _import(tmp_path, "ID,Character,Mood,Background\n1,Qiqi,run,park\n", capsys,
                                       "--skip-bad")
    assert code == 2
    assert "line 1: unknown column names 'ID', 'Mood' in the header row, and no Motion column" in err, err
    story = parse_demo_text("Character,Background,Time\nQiqi,park,night\n")
    assert story.problems[0][0] == 1 and story.problems[0][1].startswith(
        "the header row has no Motion column: a turn needs Character, Motion and Background; the columns are "
        "Character, Motion, Background, Time"), story.problems
    assert story.turn_count == 0
    assert not project.exists()


def test_the_notes_come_with_the_import_result(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("Scene,Character,Motion,Background,Extra\n1,Qiqi,run,park,x\n", encoding="utf-8")
    with Project.create(tmp_path / "lib.kamishibai") as project:
        result = import_demo(project, sheet)
        assert len(result.node_ids) == 1
        assert project.tree.node(result.node_ids[0]).instruction.raw == \
            "Character: Qiqi; Motion: run; Background: park"
    assert [note.split(",")[0] for note in result.notes] == ["line 1: skipped the column 'Extra'",
                                                            "line 1: skipped the column 'Scene'"]


def test_rows_without_a_header_are_noted_once_with_the_header_to_add(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err, project = _import(tmp_path, "Qiqi,run,park\n# a comment\nYuzu,jump,town\n", capsys)
    assert code == 0, err
    assert "free text" in out  # the columns are not guessed
    assert err.count("note:") == 1, err
    assert "the file has no header row" in err and "'Character,Motion,Background'" in err, err
    assert len(_turns(project, capsys)) == 2


@pytest.mark.parametrize("text, header", [
    ("Qiqi\trun\tpark\tnight\nYuzu\tjump\ttown\tday\n", "'Character\\tMotion\\tBackground\\tTime'"),
    ("Qiqi;run;park;night;close-up\n", "'Character;Motion;Background;Time;Camera'"),
])
def test_other_separators_and_widths(text: str, header: str) -> None:
    (note,) = parse_demo_text(text).notes
    assert header in note, note


@pytest.mark.parametrize("text", [
    "Qiqi eats bread, slowly, in the bakery at night\nQiqi waves\n",  # free text with commas
    "Qiqi,run\nYuzu,jump\n",  # two cells: not a turn's table
    "a,b,c,d,e,f,g\n",  # seven cells
    "Qiqi,run,park\nYuzu,jump,town,night\n",  # rows of different widths
    "Character: Qiqi; Motion: run; Background: park\nQiqi,run,park\n",  # a line of field names
    "Qiqi,run,park\nQiqi,run,a place described at much more length than a cell\n",
])
def test_no_note_for_what_is_no_headerless_table(text: str) -> None:
    assert parse_demo_text(text).notes == ()
