"""`kamishibai export`: exit codes, messages and files."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main

from .helpers import FPS, Fixture, video_facts


def test_export_mp4_with_options(story: Fixture, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli.mp4"
    code = main(["export", str(story.project.path), "--leaf", story.leaf[:6], "--out", str(out), "--size", "160x120",
                 "--fps", "8", "--overlay", "--crossfade", "0.25", "--title", "Hi", "--end-card", "Bye",
                 "--captions", "burn"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "re-encoded" in captured.out
    facts = video_facts(out)
    assert (facts.width, facts.height) == (160, 120)
    assert facts.frames == sum(story.frames) - 2 * 2 + 2 * 2 * int(FPS)


def test_export_reports_stream_copy_and_sidecar(story: Fixture, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "copy.mp4"
    assert main(["export", str(story.project.path), "--leaf", story.leaf, "--out", str(out), "--captions", "srt",
                 "-q"]) == 0
    captured = capsys.readouterr()
    assert "stream copy" in captured.out
    assert (tmp_path / "copy.srt").is_file()


def test_export_sheet_and_format_flag(story: Fixture, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.bin"
    assert main(["export", str(story.project.path), "--leaf", story.leaf, "--out", str(out), "--format", "pdf",
                 "--panels", "2", "-q"]) == 0
    assert out.read_bytes()[:5] == b"%PDF-"
    printed = capsys.readouterr().out
    assert "3 turns on 2 pages" in printed and "frames" not in printed and "0.00 s" not in printed


def test_export_bad_input_exits_2(story: Fixture, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(story.project.path), "--leaf", "root", "--out", str(tmp_path / "x.mp4")]) == 2
    assert "no turns" in capsys.readouterr().err
    assert main(["export", str(story.project.path), "--leaf", story.leaf, "--out", str(tmp_path / "x.mp4"),
                 "--crossfade", "3"]) == 2
    assert "crossfade" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["export", str(story.project.path), "--leaf", story.leaf, "--out", "x.mp4", "--size", "big"])
    assert exit_info.value.code == 2
    assert list(tmp_path.glob("x.*")) == []


def test_export_notes_stale_takes(story: Fixture, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from dataclasses import replace

    from studio.core import AddTake, SelectTake

    out = tmp_path / "fresh.mp4"
    assert main(["export", str(story.project.path), "--leaf", story.leaf, "--out", str(out), "-q"]) == 0
    assert "stale" not in capsys.readouterr().err
    first = story.nodes[0]
    old = story.project.tree.selected_take(first)
    assert old is not None
    story.project.apply(AddTake(replace(old, id="other", seed=old.seed + 1)))
    story.project.apply(SelectTake(first, "other"))  # the turns after it were made from the old take
    assert main(["export", str(story.project.path), "--leaf", story.leaf, "--out", str(tmp_path / "s.mp4"),
                 "-q"]) == 0
    err = capsys.readouterr().err
    assert "note: turns 2, 3 use a stale take" in err, err


def test_export_names_characters_its_fonts_cannot_draw(story: Fixture, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from studio.export.drawing import font_file
    from studio.export.glyphs import missing_glyphs

    regular = font_file(False)
    if regular is None:
        pytest.skip("no TrueType font on this machine")
    assert missing_glyphs(["Qiqi runs, café — 50 % «vite»"]) == []
    assert missing_glyphs(["おわり 🍞 おわり"], [regular]) == ["お", "わ", "り", "🍞"]
    leaf = story.leaf
    args = ["export", str(story.project.path), "--leaf", leaf, "-q"]
    assert main([*args, "--out", str(tmp_path / "a.mp4"), "--title", "Hi"]) == 0
    assert "none of the export's fonts" not in capsys.readouterr().err
    # Egyptian hieroglyphs: in no font of the list (emoji are, in colour, where a colour emoji font is installed)
    assert main([*args, "--out", str(tmp_path / "b.mp4"), "--end-card", "\U00013000 \U00013001"]) == 0
    err = capsys.readouterr().err
    assert "2 character(s) of the text (\U00013000 \U00013001) are in none of the export's fonts" in err
    assert main([*args, "--out", str(tmp_path / "c.srt"), "--end-card", "🍞"]) == 0  # subtitles keep the text
    assert "none of the export's fonts" not in capsys.readouterr().err


def test_export_asks_for_force_before_replacing(story: Fixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "episode.srt"
    out.write_text("an earlier export")
    args = ["export", str(story.project.path), "--leaf", story.leaf, "--out", str(out), "-q"]
    assert main(args) == 2
    assert "episode.srt already exists" in capsys.readouterr().err
    assert out.read_text() == "an earlier export", "nothing was written"
    assert main([*args, "--force"]) == 0
    assert "-->" in out.read_text()

    sheet = tmp_path / "board.png"
    earlier = [tmp_path / f"board-{page:02d}.png" for page in range(1, 6)]  # an earlier sheet of 5 pages
    for page in earlier:
        page.write_bytes(b"an earlier page")
    (tmp_path / "board-notes.png").write_bytes(b"not a page")
    (tmp_path / "board-2024.png").write_bytes(b"a photo, not page 2,024")
    sheet_args = ["export", str(story.project.path), "--leaf", story.leaf, "--out", str(sheet), "-q"]
    assert main(sheet_args) == 2
    assert "board-01.png \u2026 board-05.png (5 files) already exist" in capsys.readouterr().err
    assert main([*sheet_args, "--panels", "3", "--force"]) == 0  # 3 turns: one page, board.png itself
    assert sheet.is_file() and not any(page.exists() for page in earlier), "no page of the old sheet is left"
    assert (tmp_path / "board-notes.png").read_bytes() == b"not a page"
    assert (tmp_path / "board-2024.png").read_bytes() == b"a photo, not page 2,024"
    upper = tmp_path / "Upper.PNG"  # pages keep the name's own suffix: Upper-01.PNG
    (tmp_path / "Upper-01.PNG").write_bytes(b"an earlier page")
    assert main(["export", str(story.project.path), "--leaf", story.leaf, "--out", str(upper), "-q"]) == 2
    assert "Upper-01.PNG already exists" in capsys.readouterr().err

    video = tmp_path / "episode.mp4"
    (tmp_path / "episode.srt").write_text("captions kept")
    video_args = ["export", str(story.project.path), "--leaf", story.leaf, "--out", str(video), "-q"]
    assert main([*video_args, "--captions", "srt"]) == 2, "its captions file would be replaced"
    assert "episode.srt already exists" in capsys.readouterr().err
    assert main(video_args) == 0, "without SRT captions nothing is replaced"
    assert (tmp_path / "episode.srt").read_text() == "captions kept"
    assert main([*video_args, "--captions", "srt"]) == 2
    assert "episode.mp4 and episode.srt already exist" in capsys.readouterr().err

    monkeypatch.setenv("HOME", str(tmp_path))  # "~/episode.srt" is the file above
    assert main(["export", str(story.project.path), "--leaf", story.leaf, "--out", "~/episode.srt", "-q"]) == 2
    assert "episode.srt already exists" in capsys.readouterr().err


def test_card_durations_need_their_cards_and_a_range_that_holds_them(story: Fixture, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cards.mp4"
    args = ["export", str(story.project.path), "--leaf", story.leaf, "--out", str(out), "-q"]
    for extra, needle in (
            (["--title-duration", "3"], "--title-duration was given without --title: there is no title to time"),
            (["--title", "  ", "--title-duration", "3"], "--title-duration was given without --title"),
            (["--title", "   ", "--title-duration", "3"],
             "--title '   ' is blank (white space only), so there is no title to time"),
            (["--end-card", " ", "--end-card-duration", "1"], "--end-card ' ' is blank (white space only)"),
            (["--end-card-duration", "1"], "--end-card-duration was given without --end-card"),
            (["--title", "Hi", "--end-card-duration", "1"], "--end-card-duration was given without --end-card"),
            (["--title", "Hi", "--title-duration", "0"], "The title card lasts 0 s; give more than 0 and at most 60 s"),
            (["--end-card", "Bye", "--end-card-duration", "61"],
             "The end card lasts 61 s; give more than 0 and at most 60 s"),
    ):
        assert main([*args, *extra]) == 2, extra
        err = capsys.readouterr().err
        assert needle in err, err
        assert not out.exists()
    assert main([*args, "--title", "Hi", "--title-duration", "1", "--end-card", "Bye"]) == 0
    assert video_facts(out).frames == sum(story.frames) + 1 * int(FPS) + 2 * int(FPS), "1 s title, 2 s end card"


def test_export_refuses_options_its_format_ignores_before_anything_else(story: Fixture, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "episode.gif"
    out.write_bytes(b"an earlier export")
    args = ["export", str(story.project.path), "--leaf", story.leaf, "--out", str(out), "-q"]
    for extra, needle in ((["--crf", "20"], "A quality (CRF) applies only to mp4 and webm videos, not to gif"),
                          (["--fps", "60"], "60 fps is too fast for a GIF"),
                          (["--format", "mp4", "--out", str(tmp_path / "episode"), "--crf", "63"],
                           "Quality (CRF) 63 is outside H.264's 0..51")):
        assert main([*args, *extra]) == 2, extra
        err = capsys.readouterr().err
        assert needle in err and "already exists" not in err, err
    assert out.read_bytes() == b"an earlier export"
    assert not (tmp_path / "episode").exists()
    assert main([*args, "--format", "mp4", "--out", str(tmp_path / "episode"), "--crf", "30"]) == 0
    assert "re-encoded" in capsys.readouterr().out, "--crf re-encodes a branch that stream copy could join"
    assert video_facts(tmp_path / "episode").codec == "h264"


@pytest.mark.parametrize("panels", [1, 2])
def test_export_refuses_to_replace_a_later_png_page_without_force(story: Fixture, tmp_path: Path, panels: int,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """QA's case: the folder holds the last page of another export (board-02.png or board-03.png)
    but no board-01.png; the 3-turn sheet writes that page, so it asks for --force."""
    pages = 3 if panels == 1 else 2
    folder = tmp_path / "exports"
    folder.mkdir()
    stray = folder / f"board-{pages:02d}.png"
    stray.write_bytes(b"the last page of a different, earlier export")
    args = ["export", str(story.project.path), "--leaf", story.leaf, "--out", str(folder / "board.png"),
            "--panels", str(panels), "-q"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"board-{pages:02d}.png already exists" in err and "--force" in err, err
    assert stray.read_bytes() == b"the last page of a different, earlier export", "untouched"
    assert sorted(path.name for path in folder.iterdir()) == [stray.name], "nothing else was written"
    assert main([*args, "--force"]) == 0
    assert stray.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", "replaced by this export's page"
    assert sorted(path.name for path in folder.iterdir()) == [f"board-{page:02d}.png" for page in
                                                                range(1, pages + 1)]


def test_export_lists_an_earlier_sheets_pages_it_would_replace_or_remove(story: Fixture, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    earlier = [folder / f"board-{page:02d}.png" for page in range(1, 5)]  # 4 pages; this sheet has 2
    for page in earlier:
        page.write_bytes(b"an earlier page")
    args = ["export", str(story.project.path), "--leaf", story.leaf, "--out", str(folder / "board.png"),
            "--panels", "2", "-q"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert ("board-01.png \u2026 board-04.png (4 files) already exist" in err
            and "replace or remove them: board-01.png, board-02.png, board-03.png, board-04.png" in err), err
    assert all(page.read_bytes() == b"an earlier page" for page in earlier)
    assert main([*args, "--force"]) == 0
    assert sorted(path.name for path in folder.iterdir()) == ["board-01.png", "board-02.png"]


def test_an_out_ending_with_a_slash_is_refused(story: Fixture, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Path() drops a trailing slash: "episode.mp4/" wrote a file named episode.mp4."""
    out = f"{tmp_path / 'episode.mp4'}/"
    assert main(["export", str(story.project.path), "--leaf", story.leaf, "--out", out, "-q"]) == 2
    err = capsys.readouterr().err
    assert "ends with a slash" in err and "episode.mp4/episode.mp4" in err
    assert not (tmp_path / "episode.mp4").exists()
