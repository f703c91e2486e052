"""Text-only exports of a long branch: the SRT and the OTIO timeline of 500 turns (each with its
own 17-frame clip, as the studio writes clips, and a line of dialogue), through
:func:`studio.export.export_branch`.

Each is compared, in the same run, with the way these exports used to read the branch: every
clip probed with ffmpeg (nothing remembered between exports) and the captions laid out twice
(once for the file, once for its notes). Now a clip as the studio writes it is read from its
MP4 index, and the captions are laid out once. Goal: well under 2 s for 500 turns."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from studio.benchmarks import BenchResult, best_of
from studio.core import AddDialogueLine, AddTake, AddTurn, Take, TakeStatus
from studio.core.model import new_id
from studio.export import ExportOptions, export_branch
from studio.storage import Project
from studio.storage.media import write_clip

TITLE = "Text exports (SRT, OTIO) of a long branch"
TURNS = 500
QUICK_TURNS = 24
FRAMES = 17
FPS = 8.0
GOAL_S = 2.0


def build_branch(folder: Path, turns: int) -> tuple[Project, str]:
    """A project of one branch of ``turns`` turns, each with its own copy of a real clip."""
    project = Project.create(folder / "text", name="Text export benchmark")
    sample = folder / "sample.mp4"
    y, x = np.mgrid[0:48, 0:64]
    frames = np.stack([np.stack([(x * 4 + t * 9) % 256, (y * 5) % 256, (x + y + t) % 256], axis=-1)
                       for t in range(FRAMES)]).astype(np.uint8)
    write_clip(sample, frames, FPS)
    parent = project.tree.root_id
    for turn in range(turns):
        node_id = new_id()
        project.apply(AddTurn(parent, f"Character: Qiqi; Motion: walk {turn + 1}; Background: day town.",
                              node_id=node_id))
        project.apply(AddDialogueLine(node_id, "Qiqi", f"This is line {turn + 1}, said on the way."))
        take_id = new_id()
        media = project.take_media_dir(take_id)
        clip = project.resolve(f"{media}/clip.mp4")
        clip.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(sample, clip)
        project.apply(AddTake(Take(id=take_id, node_id=node_id, engine="bench", clip_path=f"{media}/clip.mp4",
                                   status=TakeStatus.DONE,
                                   parent_take_id=project.tree.node(parent).selected_take_id or "")))
        parent = node_id
    return project, parent


@contextlib.contextmanager
def old_path() -> Iterator[None]:
    """Exports read the branch as they used to: every clip probed, nothing remembered, the
    captions laid out each time they are asked for."""
    from studio.export import plan, subtitles
    from studio.storage.ffmpeg import probe

    saved = plan.indexed_info, plan.remembered_probe, subtitles.episode_captions
    plan.indexed_info = lambda turn: None  # type: ignore[assignment]
    plan.remembered_probe = probe
    subtitles.episode_captions = subtitles._laid_out
    try:
        yield
    finally:
        plan.indexed_info, plan.remembered_probe, subtitles.episode_captions = saved


def _fresh() -> None:
    """Forget what earlier exports of this run remember: each export timed as a first one."""
    from studio.export import plan, subtitles

    plan._probes.clear()
    subtitles._last_laid_out.clear()


def timed(project: Project, leaf: str, out: Path, repeat: int, old: bool) -> float:
    def once() -> None:
        _fresh()
        with old_path() if old else contextlib.nullcontext():
            export_branch(project, leaf, out, options=ExportOptions())

    return best_of(once, repeat)


def run(quick: bool) -> list[BenchResult]:
    turns = QUICK_TURNS if quick else TURNS
    repeat = 1 if quick else 3
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        project, leaf = build_branch(folder, turns)
        with project:
            for kind in ("srt", "otio"):
                out = folder / f"episode.{kind}"
                new = timed(project, leaf, out, repeat, old=False)
                old = timed(project, leaf, out, 1, old=True)
                results.append(BenchResult(
                    f"{kind.upper()} export, {turns} turns", new, "s", goal=f"< {GOAL_S:g} s for {TURNS} turns",
                    met=new < GOAL_S if not quick else None,
                    baseline=f"every clip probed, captions laid out twice: {old:.2f} s", ratio=new / old,
                    note=f"best of {repeat}; clips {FRAMES} frames at {FPS:g} fps, each its own file"))
    return results
