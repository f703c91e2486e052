"""`kamishibai info` names the takes whose clips are missing, empty, cut short or not a video,
by turn, with the command that mends each, and exits 1 when a turn's chosen take has one
(export of a branch through it would stop). Before, it said nothing of clips: a project
whose clips were cut short by a failed copy looked sound until an export stopped on it."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from studio.cli import main
from studio.core import AddTake, AddTurn, SelectTake, Take
from studio.storage import Project, clip_check
from studio.storage.clip_check import ClipFault, check_clip
from studio.storage.ffmpeg import MediaError, encode_mp4, ffmpeg_exe, probe

LINE = "Character: Qiqi; Motion: run; Background: day town"


@pytest.fixture(scope="module")
def real_clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real 17-frame H.264 clip, as takes' clips are written (noise, so frames are large)."""
    rng = np.random.default_rng(7)
    frames = rng.integers(0, 256, size=(17, 96, 128, 3), dtype=np.uint8)
    path = tmp_path_factory.mktemp("clip") / "clip.mp4"
    encode_mp4(path, frames, 8.0, crf=17)
    return path


def _take(project: Project, node_id: str, take_id: str, source: Path | None) -> None:
    rel = f"media/takes/{take_id}/clip.mp4"
    if source is not None:
        (project.path / rel).parent.mkdir(parents=True)
        shutil.copyfile(source, project.path / rel)
    project.apply(AddTake(Take(id=take_id, node_id=node_id, engine="sketch", clip_path=rel)))


def story(tmp_path: Path, clip: Path, turns: int) -> Path:
    """A project of ``turns`` turns in one branch, each with one take holding a copy of ``clip``."""
    with Project.create(tmp_path / "p") as project:
        for number in range(1, turns + 1):
            project.apply(AddTurn(_parent(project, number), LINE, node_id=f"n{number}"))
            _take(project, f"n{number}", f"t{number}", clip)
        return project.path


def _parent(project: Project, number: int) -> str:
    return project.tree.root_id if number == 1 else f"n{number - 1}"


def _clip(project: Path, take_id: str) -> Path:
    return project / "media" / "takes" / take_id / "clip.mp4"


def _info(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["info", str(path), *extra])
    return code, capsys.readouterr().out


def test_a_sound_project_has_its_clips_checked(tmp_path: Path, real_clip: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = story(tmp_path, real_clip, 3)
    code, out = _info(path, capsys, "--json")
    assert code == 0
    assert json.loads(out)["clips"] == {"checked": 3, "damaged": []}
    code, out = _info(path, capsys)
    assert code == 0 and "3 clips checked, all sound" in out


def test_each_kind_of_damage_is_named_by_turn(tmp_path: Path, real_clip: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = story(tmp_path, real_clip, 5)
    data = real_clip.read_bytes()
    _clip(path, "t1").write_bytes(data[: len(data) // 2])  # a copy that stopped halfway
    _clip(path, "t2").unlink()
    _clip(path, "t3").write_bytes(b"")
    _clip(path, "t4").write_text("this is a note, not a video\n")
    code, out = _info(path, capsys, "--json")
    assert code == 1
    damaged = json.loads(out)["clips"]["damaged"]
    assert [(c["turn"], c["node"], c["take"], c["problem"]) for c in damaged] == [
        (1, "n1", "t1", "truncated"), (2, "n2", "t2", "missing"), (3, "n3", "t3", "empty"),
        (4, "n4", "t4", "not_video")]
    for clip in damaged:
        assert clip["selected"] is True and clip["take_number"] == 1
        assert clip["clip"] == str(_clip(path, clip["take"])) and clip["clip"] in clip["message"]
        assert clip["fix"] == [f"kamishibai reroll {path} {clip['node']}"]
    assert "cut short: only" in damaged[0]["message"] and "of its 17 frames are whole" in damaged[0]["message"]
    code, out = _info(path, capsys)
    assert code == 1
    assert "5 clips checked, 4 damaged" in out
    assert "turn 1 (node n1: 'Character: Qiqi; Motion: run; Background: day town'), take 1 (t1, its chosen take): " \
           "cut short" in out
    assert f"fix: kamishibai reroll {path} n4" in out and "n5" not in out.split("clips:")[1]


def test_the_sound_take_to_pick_is_named_and_picking_it_mends_the_turn(
        tmp_path: Path, real_clip: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = story(tmp_path, real_clip, 1)
    with Project.open(path) as project:
        _take(project, "n1", "t9", real_clip)  # the newest take is the chosen one
    data = real_clip.read_bytes()
    _clip(path, "t9").write_bytes(data[:-5000])
    code, out = _info(path, capsys, "--json")
    assert code == 1
    (clip,) = json.loads(out)["clips"]["damaged"]
    assert (clip["take"], clip["take_number"], clip["selected"]) == ("t9", 2, True)
    assert clip["fix"] == [f"kamishibai use {path} n1 t1", f"kamishibai reroll {path} n1"]
    assert main(clip["fix"][0].split()[1:]) == 0  # the command as printed
    code, out = _info(path, capsys, "--json")
    assert code == 0, "the chosen take is sound now"
    (clip,) = json.loads(out)["clips"]["damaged"]
    assert (clip["take"], clip["selected"], clip["fix"]) == ("t9", False, [])
    code, out = _info(path, capsys)
    assert "exports don't use it" in out


def test_a_finished_take_without_a_clip_is_named_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A finished take that names no clip at all (written so by another program)."""
    with Project.create(tmp_path / "p") as project:
        project.apply(AddTurn(project.tree.root_id, LINE, node_id="n1"))
        project.apply(AddTake(Take(id="t1", node_id="n1", engine="sketch", clip_path="")))
        project.apply(SelectTake("n1", "t1"))
        path = project.path
    code, out = _info(path, capsys, "--json")
    (clip,) = json.loads(out)["clips"]["damaged"]
    assert code == 1 and clip["problem"] == "missing" and clip["clip"] == ""


@pytest.mark.parametrize("keep", [0.05, 0.3, 0.6, 0.9])
def test_cut_short_clips_are_found_where_export_finds_them(tmp_path: Path, real_clip: Path, keep: float) -> None:
    data = real_clip.read_bytes()
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(data[: int(len(data) * keep)])
    with pytest.raises(MediaError, match="cut short|not a readable video"):
        probe(cut)  # export's own check refuses it
    verdict = check_clip(cut)
    assert verdict is not None and verdict.fault is ClipFault.CUT_SHORT and str(cut) in verdict.message


def test_other_containers_are_judged_by_ffmpeg(tmp_path: Path, real_clip: Path) -> None:
    """A clip that is no MP4 (a Matroska file put in place by hand) is judged as export judges it."""
    mkv = tmp_path / "clip.mkv"
    subprocess.run([ffmpeg_exe(), "-loglevel", "error", "-i", str(real_clip), "-c", "copy", str(mkv)], check=True)
    assert check_clip(mkv) is None
    data = mkv.read_bytes()
    mkv.write_bytes(data[: len(data) // 3])
    verdict = check_clip(mkv)
    assert verdict is not None and verdict.fault in (ClipFault.CUT_SHORT, ClipFault.NOT_VIDEO)


def test_info_reads_mp4_headers_without_running_ffmpeg(tmp_path: Path, real_clip: Path,
                                                       capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """300 takes: every MP4 is judged from its boxes, no ffmpeg process per clip."""
    path = story(tmp_path, real_clip, 300)
    data = real_clip.read_bytes()
    _clip(path, "t150").write_bytes(data[: len(data) // 2])

    def no_ffmpeg(clip: Path) -> None:
        raise AssertionError(f"ffmpeg was run on {clip}")

    monkeypatch.setattr(clip_check, "probe", no_ffmpeg)
    start = time.perf_counter()
    code, out = _info(path, capsys, "--json")
    took = time.perf_counter() - start
    assert code == 1
    info = json.loads(out)["clips"]
    assert info["checked"] == 300 and [c["node"] for c in info["damaged"]] == ["n150"]
    assert took < 30, took  # about 1 s here (the tree's reading included); generous for a busy machine
