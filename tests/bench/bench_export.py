"""Export speed: a 50-turn branch (17 frames of 720x480 at 8 fps per turn, AnimeGamer's clip
shape) joined by stream copy and re-encoded, against moviepy's ``concatenate_videoclips``
in the same run. Speeds are multiples of real time (video seconds per wall second)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from studio.benchmarks import BenchResult, best_of
from studio.core import AddTake, AddTurn, Take, TakeStatus
from studio.core.model import new_id
from studio.export import CaptionMode, ExportFormat, ExportOptions, export_branch
from studio.export.encoding import H264_CRF, H264_PRESET, for_format
from studio.storage import Project
from studio.storage.media import write_clip, write_poster

TITLE = "Export: branch to episode"
TURNS = 50
FRAMES = 17
HEIGHT, WIDTH = 480, 720
FPS = 8.0
SHEET = ExportOptions()
"""The storyboard sheet measured: the default layout (its panels a page are named in the row)."""


def synthetic_clip(turn: int) -> np.ndarray:
    """A moving gradient with a drifting block: cheap to make, not trivial to encode."""
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH]
    frames = np.empty((FRAMES, HEIGHT, WIDTH, 3), dtype=np.uint8)
    base = np.array([(turn * 53) % 256, (turn * 97) % 256, (turn * 151) % 256], dtype=np.int32)
    for t in range(FRAMES):
        frames[t, ..., 0] = (base[0] + x // 4 + t * 3) % 256
        frames[t, ..., 1] = (base[1] + y // 3) % 256
        frames[t, ..., 2] = (base[2] + (x + y) // 6 - t * 2) % 256
        top, left = 120 + t * 6, 80 + t * 20
        frames[t, top:top + 120, left:left + 90] = (250, 240, 230)
    return frames


def sketch_clips(count: int) -> list[np.ndarray] | None:
    """Clips from the sketch engine, when it is there; None otherwise."""
    try:
        from studio.core import parse_instruction
        from studio.engines.base import GenerationContext
        from studio.engines.catalog.sketch import SketchSettings
        from studio.engines.sketch import SketchEngine

        engine = SketchEngine()
        engine.load()
        settings = SketchSettings()
        clips = []
        for turn in range(count):
            instruction = parse_instruction(f"Character: Qiqi; Motion: walk {turn}; Background: day town.")
            prediction = engine.predict(GenerationContext(), instruction, settings, seed=turn)
            clips.append(engine.decode(prediction, settings, seed=turn).frames)
        return clips
    except Exception:  # any trouble: fall back to synthetic clips
        return None


def build_branch(folder: Path, turns: int) -> tuple[Project, str, list[Path], str]:
    project = Project.create(folder / "bench", name="Export benchmark")
    clips = sketch_clips(turns)
    source = "sketch engine" if clips else "synthetic gradients"
    parent = project.tree.root_id
    paths: list[Path] = []
    for turn in range(turns):
        node_id = new_id()
        project.apply(AddTurn(parent, f"Character: Qiqi; Motion: walk {turn}; Background: day town.", node_id=node_id))
        frames = clips[turn] if clips else synthetic_clip(turn)
        take_id = new_id()
        folder_rel = project.take_media_dir(take_id)
        write_clip(project.resolve(f"{folder_rel}/clip.mp4"), frames, FPS)
        write_poster(project.resolve(f"{folder_rel}/poster.png"), frames[0])
        project.apply(AddTake(Take(id=take_id, node_id=node_id, engine="bench", clip_path=f"{folder_rel}/clip.mp4",
                                   poster_path=f"{folder_rel}/poster.png", status=TakeStatus.DONE,
                                   parent_take_id=project.tree.node(parent).selected_take_id or "")))
        paths.append(project.resolve(f"{folder_rel}/clip.mp4"))
        parent = node_id
    return project, parent, paths, source


def moviepy_concat(paths: list[Path], out: Path) -> None:
    from moviepy import VideoFileClip, concatenate_videoclips

    clips = [VideoFileClip(str(p)) for p in paths]
    try:
        concatenate_videoclips(clips).write_videofile(
            str(out), fps=FPS, codec="libx264", preset=H264_PRESET, ffmpeg_params=["-crf", str(H264_CRF)],
            audio=False, logger=None)
    finally:
        for clip in clips:
            clip.close()


def run(quick: bool) -> list[BenchResult]:
    turns = 6 if quick else TURNS
    repeat = 1 if quick else 3
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        project, leaf, paths, source = build_branch(folder, turns)
        video_seconds = turns * FRAMES / FPS
        with project:
            copy_s = best_of(lambda: export_branch(project, leaf, folder / "copy.mp4"), repeat)
            copied = export_branch(project, leaf, folder / "copy.mp4").used_stream_copy
            encode_s = best_of(lambda: export_branch(project, leaf, folder / "encode.mp4",
                                                   options=ExportOptions(stream_copy=False)), repeat)
            finished = ExportOptions(overlay=True, captions=CaptionMode.BURN, crossfade=0.25, title="Episode 1",
                                     end_card="The end")
            finished_s = best_of(lambda: export_branch(project, leaf, folder / "finished.mp4", options=finished), 1)
            # its length, read from its subtitles' timeline (same cards and dissolves, nothing drawn)
            finished_video = export_branch(project, leaf, folder / "finished.srt",
                                           options=for_format(finished, ExportFormat.SRT)).duration
            webm_s = best_of(lambda: export_branch(project, leaf, folder / "episode.webm"), 1)
            pdf_s = best_of(lambda: export_branch(project, leaf, folder / "board.pdf", options=SHEET), 1)
        baseline_s = best_of(lambda: moviepy_concat(paths, folder / "moviepy.mp4"), 1 if quick else 2)

    def speed(seconds: float, video: float = video_seconds) -> float:
        return video / seconds

    base = speed(baseline_s)
    note = f"{turns} clips x {FRAMES} frames {WIDTH}x{HEIGHT} at {FPS:g} fps ({source}); best of {repeat}"
    return [
        BenchResult("stream copy (mp4, concat demuxer)", speed(copy_s), "x real time", goal=">= 20x",
                    met=speed(copy_s) >= 20 and copied, baseline=f"moviepy {base:.1f}x", ratio=speed(copy_s) / base,
                    note=f"{copy_s:.2f} s wall; {note}"),
        BenchResult("re-encode (mp4, H.264 CRF 18)", speed(encode_s), "x real time", goal=">= moviepy",
                    met=encode_s <= baseline_s, baseline=f"moviepy {base:.1f}x", ratio=speed(encode_s) / base,
                    note=f"{encode_s:.2f} s wall, preset {H264_PRESET}"),
        BenchResult("finished episode (cards, crossfade, captions, overlay)", speed(finished_s, finished_video),
                    "x real time", goal=">= 1x", met=finished_s <= finished_video,
                    baseline=f"moviepy {base:.1f}x", ratio=speed(finished_s, finished_video) / base,
                    note=f"{finished_s:.2f} s wall for {finished_video:.1f} s of video"),
        BenchResult("re-encode (webm, VP9)", speed(webm_s), "x real time", goal=">= 1x", met=webm_s <= video_seconds,
                    baseline=f"moviepy {base:.1f}x", ratio=speed(webm_s) / base, note=f"{webm_s:.2f} s wall"),
        BenchResult("moviepy concatenate_videoclips (baseline)", base, "x real time",
                    note=f"{baseline_s:.2f} s wall, same codec settings"),
        BenchResult(f"storyboard PDF ({turns} turns, {SHEET.panels_per_page} panels a page)", pdf_s, "s",
                    goal="< 10 s", met=pdf_s < 10),
    ]
