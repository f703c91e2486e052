"""Test projects with real clips whose colour encodes the turn, so pixels can be checked."""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import subprocess
import uuid
from dataclasses import dataclass
from pathlib import Path

import imageio_ffmpeg
import numpy as np

from studio.core import AddTake, AddTurn, StateDeltas, Take, TakeStatus
from studio.storage import Project
from studio.storage.media import ffmpeg_exe, write_clip, write_poster

COLOURS = [(220, 40, 40), (40, 200, 60), (40, 60, 220), (230, 200, 40), (200, 60, 200), (40, 200, 210)]
FPS = 8
FRAMES = 6
SIZE = (96, 64)  # width, height


@dataclass
class Fixture:
    project: Project
    root: str
    nodes: list[str]
    colours: list[tuple[int, int, int]]
    frames: list[int]
    fps: float

    @property
    def leaf(self) -> str:
        return self.nodes[-1]


def clip_frames(colour: tuple[int, int, int], count: int, size: tuple[int, int]) -> np.ndarray:
    width, height = size
    frames = np.empty((count, height, width, 3), dtype=np.uint8)
    frames[:] = colour
    return frames


def add_turn(project: Project, parent: str, text: str, colour: tuple[int, int, int], frames: int = FRAMES,
             size: tuple[int, int] = SIZE, fps: float = FPS, deltas: StateDeltas | None = None,
             with_take: bool = True) -> str:
    node_id = uuid.uuid4().hex[:10]
    project.apply(AddTurn(parent, text, node_id=node_id))
    if with_take:
        take_id = f"t{node_id}"
        folder = project.take_media_dir(take_id)
        clip_rel, poster_rel = f"{folder}/clip.mp4", f"{folder}/poster.png"
        data = clip_frames(colour, frames, size)
        write_clip(project.resolve(clip_rel), data, fps)
        write_poster(project.resolve(poster_rel), data[0])
        parent_take = project.tree.node(parent).selected_take_id or ""
        project.apply(AddTake(Take(id=take_id, node_id=node_id, engine="test", deltas=deltas or StateDeltas(1, -1, 2),
                                   clip_path=clip_rel, poster_path=poster_rel, status=TakeStatus.DONE,
                                   parent_take_id=parent_take, instruction_raw=text)))
    return node_id


def build(tmp_path: Path, turns: int = 3, sizes: list[tuple[int, int]] | None = None,
          frames: list[int] | None = None, fps: float = FPS, name: str = "story") -> Fixture:
    project = Project.create(tmp_path / name, name="Test Story")
    parent = project.tree.root_id
    nodes: list[str] = []
    counts = frames or [FRAMES] * turns
    for index in range(turns):
        size = sizes[index] if sizes else SIZE
        text = f"Character: Qiqi; Motion: wave {index + 1} gently; Background: day town."
        parent = add_turn(project, parent, text, COLOURS[index % len(COLOURS)], counts[index], size, fps)
        nodes.append(parent)
    return Fixture(project, project.tree.root_id, nodes, COLOURS[:turns], counts, fps)


# -- reading exports back, independently of studio.export ------------------------------------


@dataclass
class VideoFacts:
    codec: str
    pix_fmt: str
    width: int
    height: int
    fps: float
    frames: int
    duration: float


def video_facts(path: Path) -> VideoFacts:
    report = subprocess.run([ffmpeg_exe(), "-hide_banner", "-i", str(path)], capture_output=True, text=True).stderr
    stream = re.search(r"Video: (\w+).*?, (\w+)(?:\([^)]*\))?, (\d+)x(\d+)", report)
    rate = re.search(r"([\d.]+) (?:fps|tbr)", report)
    assert stream and rate, report
    frames, seconds = imageio_ffmpeg.count_frames_and_secs(str(path))
    return VideoFacts(stream[1], stream[2], int(stream[3]), int(stream[4]), float(rate[1]), frames, seconds)


def parse_srt(text: str) -> list[tuple[float, float, str]]:
    """An SRT file's cues in order: start and end in seconds and the text (lines joined by
    newlines)."""
    entries: list[tuple[float, float, str]] = []
    for block in text.strip().split("\n\n"):
        lines = block.splitlines()
        match = re.fullmatch(r"(\d+):(\d+):(\d+),(\d+) --> (\d+):(\d+):(\d+),(\d+)", lines[1])
        assert match, block
        v = [int(x) for x in match.groups()]
        start = v[0] * 3600 + v[1] * 60 + v[2] + v[3] / 1000
        end = v[4] * 3600 + v[5] * 60 + v[6] + v[7] / 1000
        entries.append((start, end, "\n".join(lines[2:])))
    return entries


def container_duration(path: Path) -> float:
    report = subprocess.run([ffmpeg_exe(), "-hide_banner", "-i", str(path)], capture_output=True, text=True).stderr
    match = re.search(r"Duration: (\d+):(\d+):([\d.]+)", report)
    assert match, report
    return int(match[1]) * 3600 + int(match[2]) * 60 + float(match[3])


def decode(path: Path) -> np.ndarray:
    reader = imageio_ffmpeg.read_frames(str(path), pix_fmt="rgb24")
    meta = next(reader)
    width, height = meta["size"]
    frames = [np.frombuffer(buf, dtype=np.uint8).reshape(height, width, 3) for buf in reader]
    return np.stack(frames)


def close_to(pixel: np.ndarray, colour: tuple[int, int, int], tolerance: int = 16) -> bool:
    return bool(np.all(np.abs(pixel.astype(int) - np.array(colour)) <= tolerance))


def project_fingerprint(project: Project) -> tuple[str, dict[str, str]]:
    """Hashes of every file in the project folder (db, wal, media) and of the tree.

    SQLite's ``-shm`` file is left out: it is a shared-memory index that readers update too.
    """
    files = {str(p.relative_to(project.path)): hashlib.sha256(p.read_bytes()).hexdigest()
             for p in sorted(project.path.rglob("*")) if p.is_file() and not p.name.endswith("-shm")}
    tree = repr(sorted((type(e).__name__, repr(e)) for e in project.tree.entities()))
    return hashlib.sha256(tree.encode()).hexdigest(), files


def stored_content(project_path: Path) -> tuple[list[tuple[str, list[tuple[object, ...]]]], dict[str, str]]:
    """Every row of project.db (read-only) and the hashes of the media files.

    For checks across processes: another process that opens the project may checkpoint
    SQLite's WAL, which changes the db's bytes but not its content.
    """
    conn = sqlite3.connect(f"file:{(project_path / 'project.db').as_posix()}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        rows = [(t, sorted(conn.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr)) for t in tables]
    finally:
        conn.close()
    media = {str(p.relative_to(project_path)): hashlib.sha256(p.read_bytes()).hexdigest()
             for p in sorted((project_path / "media").rglob("*")) if p.is_file()}
    return rows, media


def gif_delays(path: Path) -> list[int]:
    """Each frame's delay in a GIF, in centiseconds (as stored: Pillow reports milliseconds)."""
    from PIL import Image

    delays: list[int] = []
    with Image.open(path) as image:
        for index in range(getattr(image, "n_frames", 1)):
            image.seek(index)
            delays.append(round(image.info["duration"] / 10))
    return delays


def undecodable_folder(parent: Path, raw_name: bytes) -> Path:
    """A new folder under ``parent`` named by ``raw_name``, bytes that are not UTF-8 (as a
    Latin-1 system names files); the test is skipped where the file system refuses them."""
    import pytest

    folder = parent / os.fsdecode(raw_name)
    try:
        folder.mkdir()
    except (OSError, UnicodeError):  # pragma: no cover - file systems that insist on UTF-8 names
        pytest.skip("this file system refuses names that are not UTF-8")
    return folder


def needs_rtl_font() -> None:
    """Skip the test where the sheets have no TrueType font with Arabic and Hebrew to draw."""
    import pytest

    from studio.export.drawing import font_file
    from studio.export.sheet_pdf import pdf_fonts
    from studio.export.storyboard import TextStyle

    if font_file(False) is None or pdf_fonts().styles[TextStyle.REGULAR] == "Helvetica":
        pytest.skip("needs a TrueType font with Arabic and Hebrew (DejaVu Sans)")


def cli_turn(folder: Path, name: str, instruction: str, capsys) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """A new project ``name`` in ``folder`` made with the command line, one turn played in it
    from ``instruction`` (sketch engine, seed 1): (the project's path, the turn's id)."""
    import json

    from studio.cli import main

    project = str(folder / name)
    assert main(["new", project]) == 0
    project += ".kamishibai"
    capsys.readouterr()
    assert main(["play", project, "--engine-host", "in-process", "--json", "--seed", "1", "-i", instruction]) == 0
    return project, json.loads(capsys.readouterr().out)["node"]
