"""A take's clip is named after its take (``media/takes/ID/take-ID.mp4``), no longer ``clip.mp4``
in every take's folder: an editor's media bin then tells a timeline's clips apart, and
OpenTimelineIO packages (``.otioz``, ``.otiod``) take an exported timeline, where they refused
one whose media files share a name. Projects made before keep their ``clip.mp4`` clips."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlparse

import pytest

from studio.cli import main
from studio.storage import Project
from studio.storage.media import probe, read_clip

QUICK = ("--setting", "frames=3", "--setting", "width=64", "--setting", "height=48")
TURNS = ("Character: Qiqi; Motion: run; Background: day town.",
         "Character: Qiqi; Motion: jump; Background: day town.",
         "Character: Qiqi; Motion: sit on the railing; Background: night town.")


def _play_branch(project: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, str]]:
    """Three turns of one branch made by the sketch engine; what ``play --json`` said of each."""
    assert main(["new", str(project)]) == 0
    capsys.readouterr()
    args = [arg for turn in TURNS for arg in ("-i", turn)]
    assert main(["play", str(project), *args, "--engine", "sketch", *QUICK, "--seed", "7", "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert isinstance(played, list) and len(played) == len(TURNS)
    return played


def _clip_files(timeline: object, base: Path | None = None) -> list[Path]:
    """The files the timeline's clips reference: paths relative to ``base`` (the export's
    folder, whose media folder beside the timeline holds them, or an unpacked OTIO package's),
    or absolute ``file://`` URLs where no ``base`` is given."""
    import opentimelineio as otio

    assert isinstance(timeline, otio.schema.Timeline)
    files = []
    for clip in timeline.find_clips():
        url = urlparse(clip.media_reference.target_url)
        if base is None:
            assert url.scheme == "file"
            files.append(Path(unquote(url.path)))
        else:
            assert not url.scheme and not Path(url.path).is_absolute()
            files.append(base / unquote(url.path))
    return files


def test_sketch_takes_clips_carry_their_take_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """In the engine's own process (the default host) as in-process, the clip is
    ``take-ID.mp4`` in the take's folder, the row names it, and it plays back."""
    project = tmp_path / "story.kamishibai"
    played = _play_branch(project, capsys)
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    assert main(["play", str(project), "-i", TURNS[0], "--engine", "sketch", *QUICK, "--json"]) == 0
    played.append(json.loads(capsys.readouterr().out))
    with Project.open(project, read_only=True) as opened:
        for made in played:
            take = opened.tree.takes[made["take"]]
            assert take.clip_path == f"media/takes/{take.id}/take-{take.id}.mp4"
            assert Path(made["clip"]) == opened.resolve(take.clip_path)
            assert take.poster_path == f"media/takes/{take.id}/poster.png"
            frames, _fps = read_clip(opened.resolve(take.clip_path))
            assert len(frames) == 3 and frames.shape[1:] == (48, 64, 3)
            folder = opened.resolve(f"media/takes/{take.id}")
            assert sorted(p.name for p in folder.iterdir()) == sorted(
                [f"take-{take.id}.mp4", "poster.png", "representation.safetensors"])


def test_a_sketch_branch_exports_an_otio_timeline_that_opentimelineio_packages(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import opentimelineio as otio

    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    project = tmp_path / "story.kamishibai"
    played = _play_branch(project, capsys)
    out = tmp_path / "episode.otio"
    assert main(["export", str(project), "--leaf", played[-1]["node"], "--out", str(out), "--format", "otio",
                 "--quiet"]) == 0
    timeline = otio.adapters.read_from_file(str(out))
    files = _clip_files(timeline, tmp_path)  # copies in episode_media/ beside it, named relatively
    assert all(file.parent == tmp_path / "episode_media" for file in files)
    distinct = sorted(set(files))
    assert len(distinct) == len(TURNS)
    assert len({file.name for file in distinct}) == len(TURNS), distinct
    assert sorted(file.name for file in distinct) == sorted(f"take-{made['take']}.mp4" for made in played)
    for clip in timeline.find_clips():
        take_id = clip.metadata["kamishibai"].get("take_id")
        if take_id:  # a hold clip carries only its turn number
            assert PurePosixPath(urlparse(clip.media_reference.target_url).path).name == f"take-{take_id}.mp4"

    packed = tmp_path / "episode.otioz"
    monkeypatch.chdir(tmp_path)  # OTIO reads a relative URL from the working folder: the timeline's
    otio.adapters.write_to_file(timeline, str(packed))
    with zipfile.ZipFile(packed) as archive:
        media = sorted(name for name in archive.namelist() if name.startswith("media/"))
        assert media == sorted(f"media/take-{made['take']}.mp4" for made in played)
        for name in media:  # the packaged clips are the takes' clips, byte for byte
            take_id = PurePosixPath(name).stem.removeprefix("take-")
            assert archive.read(name) == (project / "media" / "takes" / take_id / PurePosixPath(name).name
                                          ).read_bytes()
    (tmp_path / "unpacked").mkdir()
    unpacked = otio.adapters.read_from_file(str(packed), extract_to_directory=str(tmp_path / "unpacked"))
    for file in set(_clip_files(unpacked, tmp_path / "unpacked")):
        assert file.is_file() and probe(file).frames == 3

    folder = tmp_path / "episode.otiod"
    otio.adapters.write_to_file(timeline, str(folder))
    assert sorted(p.name for p in (folder / "media").iterdir()) == sorted(f"take-{m['take']}.mp4" for m in played)


def test_a_project_whose_clips_are_all_clip_mp4_still_exports_its_timeline(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A project made before keeps its clips' names (each take its own ``clip.mp4``): its
    timeline's media folder names each copy for its take, so OpenTimelineIO's packaging, which
    refused two files of one name, packages it."""
    import opentimelineio as otio

    from tests.export.helpers import build

    fixture = build(tmp_path, turns=2)
    fixture.project.close()
    out = tmp_path / "old.otio"
    assert main(["export", str(tmp_path / "story.kamishibai"), "--leaf", fixture.leaf, "--out", str(out),
                 "--quiet"]) == 0
    timeline = otio.adapters.read_from_file(str(out))
    files = sorted(set(_clip_files(timeline, tmp_path)))
    assert len(files) == 2 and {file.name for file in files} == {f"take-t{node}.mp4" for node in fixture.nodes}
    assert all(file.is_file() for file in files)
    monkeypatch.chdir(tmp_path)
    otio.adapters.write_to_file(timeline, str(tmp_path / "old.otioz"))
    assert (tmp_path / "old.otioz").is_file()
