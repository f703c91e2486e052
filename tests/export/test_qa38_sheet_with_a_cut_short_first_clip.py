"""A storyboard sheet of a branch whose first clip is cut short (a truncated mp4) shows every
other turn's duration and says which turn's clip can't be read. QA: every turn's duration
disappeared from the sheet, though a sheet drops a duration "only where that clip can't be
read", and the sheet was written without a word while the video export refuses."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from studio.export.branch import collect_branch
from studio.export.options import ExportFormat, ExportOptions
from studio.export.output import OutputFiles
from studio.export.sheet import export_sheet, sheet_cut
from studio.storage import Project


def _kamishibai(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], cwd=folder, capture_output=True, text=True,
                          timeout=300)


def _three_turns_first_cut_short(folder: Path) -> tuple[Path, list[str]]:
    assert _kamishibai(folder, "new", "story").returncode == 0
    done = _kamishibai(folder, "play", "story.kamishibai", "Qiqi runs", "Qiqi jumps", "Qiqi sits on a bench")
    assert done.returncode == 0, done.stderr
    project = folder / "story.kamishibai"
    with Project.open(project, read_only=True) as opened:
        tree = opened.tree
        nodes = [node.id for node in tree.descendants(tree.root_id)]
        first = tree.selected_take(nodes[0])
        assert first is not None
        clip = opened.resolve(first.clip_path)
    data = clip.read_bytes()
    clip.write_bytes(data[: len(data) * 2 // 3])  # as a copy cut short would leave it
    return project, nodes


def test_sheet_keeps_each_readable_clips_duration(tmp_path: Path) -> None:
    project, nodes = _three_turns_first_cut_short(tmp_path)
    with Project.open(project, read_only=True) as opened:
        branch = collect_branch(opened, nodes[-1])
        turns, unreadable = sheet_cut(branch)
        assert [turn.number for turn, _error in unreadable] == [1]
        assert "cut short" in unreadable[0][1].message
        assert turns[0].duration is None  # its clip can't be read, and none is set
        assert all(turn.duration is not None and turn.duration > 0 for turn in turns[1:]), turns

        out = tmp_path / "sheet.png"
        with OutputFiles(out) as files:
            made = export_sheet(branch, out, ExportFormat.PNG, ExportOptions(), files, lambda _p: None,
                                lambda: False)
            files.commit()
    assert made.pages >= 1 and out.is_file()
    [note] = made.notes
    assert note.startswith("the clip of turn 1 (node") and "cut short" in note and "re-rolled" in note, note


def test_the_cli_sheet_of_that_branch_is_still_written(tmp_path: Path) -> None:
    _three_turns_first_cut_short(tmp_path)
    done = _kamishibai(tmp_path, "export", "story.kamishibai", "--out", "sheet.png", "-q")
    assert done.returncode == 0, done.stderr
    from PIL import Image

    with Image.open(tmp_path / "sheet.png") as page:
        assert page.width > 0 and page.height > 0
    video = _kamishibai(tmp_path, "export", "story.kamishibai", "--out", "e.mp4", "-q")
    assert video.returncode != 0 and "turn 1" in video.stderr


def test_bundle_names_the_cut_short_clip(tmp_path: Path) -> None:
    _project, nodes = _three_turns_first_cut_short(tmp_path)
    done = _kamishibai(tmp_path, "bundle", "story.kamishibai", "story.zip")
    assert done.returncode == 0, done.stderr  # the bundle holds the project as it is
    assert (tmp_path / "story.zip").is_file()
    assert f"note: the clip of turn 1 (node {nodes[0]}) is cut short" in done.stderr, done.stderr
    assert "kamishibai info" in done.stderr
    assert f"node {nodes[1]}" not in done.stderr and f"node {nodes[2]}" not in done.stderr
