"""`kamishibai export ... --out NAME.png` asked before replacing a storyboard sheet's files by
counting its pages from the turns alone; a sheet whose long dialogue goes on in continuation
panels has more pages, so an existing ``NAME-04.png`` the export was about to overwrite was
replaced without a word (and without --force). The check counts the sheet's pages exactly now."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import EXIT_BAD_INPUT, main

LINE = ("We have to reach the bakery before the bell rings, or the whole town will wake up hungry "
        "and we will never hear the end of it from the baker and her seven noisy cousins.")


def test_a_page_past_the_turns_count_is_named_before_it_is_replaced(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: day town.\n"
                    "Character: Qiqi; Motion: jump; Background: day park.\n", encoding="utf-8")
    project = tmp_path / "story.kamishibai"
    assert main(["import-demo", str(demo), "--project", str(project)]) == 0
    assert main(["fill", str(project), "--run", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["tree", str(project)]) == 0
    turns = [line.split()[0] for line in capsys.readouterr().out.splitlines()[1:]]
    for turn in turns:
        for _ in range(40):
            assert main(["say", str(project), turn, LINE]) == 0
    out = tmp_path / "board.png"
    assert main(["export", str(project), "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()
    pages = sorted(path.name for path in tmp_path.glob("board-*.png"))
    assert len(pages) >= 3, pages  # two turns (one page of three panels), their text going on over more
    for name in pages[:-1]:  # the first pages moved elsewhere: the last is the only one left
        (tmp_path / name).unlink()
    last = tmp_path / pages[-1]
    before = last.read_bytes()

    assert main(["export", str(project), "--out", str(out), "--quiet"]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert pages[-1] in err and "--force" in err, err
    assert last.read_bytes() == before

    assert main(["export", str(project), "--out", str(out), "--quiet", "--force"]) == 0
    assert sorted(path.name for path in tmp_path.glob("board-*.png")) == pages
