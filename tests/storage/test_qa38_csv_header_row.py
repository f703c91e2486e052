"""A spreadsheet saved as CSV (or tab-separated text) with a header row naming its columns
was imported as nonsense: the header as an idle free-text turn ("line 1: free text (no field
names)"), then each row as a free-text turn 'Qiqi,"gently sit on railing","day town"'. A
header whose cells are field names now makes each row below it a turn of those fields."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.storage import Project
from studio.storage.demo_import import parse_demo_text


def _imported(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str], name: str = "sheet.csv"
              ) -> list[dict[str, object]]:
    """``text`` imported with `kamishibai import-demo` into a new project, its turns read back
    from the project (`tree --json`), in file order."""
    sheet = tmp_path / name
    sheet.write_text(text, encoding="utf-8")
    project = tmp_path / "p_sheet.kamishibai"
    assert main(["import-demo", str(sheet), "--project", str(project)]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "free text" not in out, out
    capsys.readouterr()
    assert main(["tree", str(project), "--json"]) == 0
    nodes = json.loads(capsys.readouterr().out)["nodes"]
    return [node for node in nodes if node.get("parent")]


def test_the_users_csv_with_a_header_imports_one_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    turns = _imported(tmp_path, 'Character,Motion,Background\nQiqi,"gently sit on railing","day town"\n', capsys)
    assert [turn["instruction"] for turn in turns] == [
        "Character: Qiqi; Motion: gently sit on railing; Background: day town"]
    assert turns[0]["fields"] == {"character": "Qiqi", "motion": "sit on railing", "adverb": "gently",
                                  "background": "town", "time_of_day": "day"}


def test_tab_separated_with_time_camera_and_story_columns(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    text = ("Character\tMotion\tBackground\tTime\tCamera\tDuration\tNarration\n"
            "Qiqi\tgently sit on railing\ttown\tnight\tclose-up\t3.5\tShe rests.\n"
            "\t\t\t\t\t\t\n"  # an empty row: skipped as a blank line
            "Yuzu\trun\tpark\t\t\t\t\n")
    turns = _imported(tmp_path, text, capsys, "sheet.tsv")
    assert len(turns) == 2
    first, second = turns
    assert first["fields"] == {"character": "Qiqi", "motion": "sit on railing", "adverb": "gently",
                               "background": "town", "time_of_day": "night", "camera": "close-up"}
    assert first["story"]["duration"] == 3.5 and first["story"]["narration"] == "She rests."  # type: ignore[index]
    assert second["parent"] == first["id"]  # the rows make one branch, in order
    assert second["fields"] == {"character": "Yuzu", "motion": "run", "background": "park"}


def test_japanese_column_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (turn,) = _imported(tmp_path, "キャラクター,動作,背景\nキキ,走る,町\n", capsys)
    assert turn["fields"] == {"character": "キキ", "motion": "走る", "background": "町"}


def test_unknown_column_names_are_refused_naming_them_and_the_accepted_ones(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = tmp_path / "bad.csv"
    sheet.write_text("Character,Mood,Background,Colour\nQiqi,run,town,red\n", encoding="utf-8")
    project = tmp_path / "p_bad.kamishibai"
    assert main(["import-demo", str(sheet), "--project", str(project)]) == 2
    err = capsys.readouterr().err
    assert "line 1: unknown column names 'Mood', 'Colour' in the header row" in err, err
    assert "Character, Motion, Background, Time, Camera, Adverb, Duration, Narration and Notes" in err, err
    assert "nothing was imported" in err
    assert not project.exists()
    # --skip-bad imports no row of a refused table as free text
    assert main(["import-demo", str(sheet), "--project", str(project), "--skip-bad"]) == 2
    assert not project.exists()


def test_a_row_with_more_cells_than_the_header_is_refused_by_its_line(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    sheet = tmp_path / "extra.csv"
    sheet.write_text("Character,Motion,Background\nQiqi,run,town\n# a comment\nQiqi,jump,day town,extra\n",
                     encoding="utf-8")
    project = tmp_path / "p_extra.kamishibai"
    assert main(["import-demo", str(sheet), "--project", str(project)]) == 2
    err = capsys.readouterr().err
    assert "line 4: 4 cells, but the header row (line 1) names 3 columns" in err, err
    with Project.create(tmp_path / "other.kamishibai"):
        pass
    assert main(["import-demo", str(sheet), "--project", str(tmp_path / "other.kamishibai"), "--skip-bad"]) == 0
    with Project.open(tmp_path / "other.kamishibai", read_only=True) as opened:
        texts = [node.instruction.raw for node in opened.tree.nodes.values() if node.parent_id]
    assert texts == ["Character: Qiqi; Motion: run; Background: town"]


@pytest.mark.parametrize("header, problem", [
    ("Character,Motion", "no Background column"),
    ("Character,Motion,Background,Place", "names the background column twice"),
    ("Character,,Background,Motion", "column 2 of the header row has no name"),
])
def test_a_header_that_cant_be_read_says_why(header: str, problem: str) -> None:
    story = parse_demo_text(f"{header}\nQiqi,run,town,x\n")
    assert story.problems[0][0] == 1 and problem in story.problems[0][1], story.problems
    assert story.turn_count == 0


FIELDS = "Character: Qiqi; Motion: gently sit on railing; Background: day town."


@pytest.mark.parametrize("text, expected", [
    (FIELDS, FIELDS),
    ('"Character: Qiqi","Motion: gently sit on railing","Background: day town.",,', FIELDS),
    ("Character: Qiqi\tMotion: gently sit on railing\tBackground: day town.", FIELDS),
    ("Qiqi eats bread, slowly, in the bakery at night", "Qiqi eats bread, slowly, in the bakery at night"),
    ("Run, jump, fly", "Run, jump, fly"),
])
def test_the_formats_read_before_read_as_before(text: str, expected: str) -> None:
    """No header row: lines of field names, quoted cells, tabs and free text with commas."""
    story = parse_demo_text(f"{text}\nQiqi waves\n")
    assert story.problems == [] and story.turn_count == 2
    first = story.branches[0].turns[0]
    assert (first.number, first.text, first.free_text) == (1, expected, expected != FIELDS)
