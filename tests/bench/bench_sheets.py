"""Storyboard sheets: a branch of 60 and of 120 turns (AnimeGamer's clip shape, 17 frames of
720x480 at 8 fps, with dialogue, narration and shot notes) exported as PNG pages and as a PDF,
three panels a page, through :func:`studio.export.export_branch`.

Each sheet is compared with the least work any sheet of those turns must do, in the same run:
each turn's poster decoded, scaled into its panel and laid on a page of the same size and
resolution, the pages saved (PNG with Pillow, PDF with reportlab), no text, no durations. The
ratio says what the layout, the text and the clips' durations cost on top of the pictures.
"Peak memory" is the most a fresh process's resident memory rose, as it made one sheet (or
one baseline), above where it stood before (Linux's high-water mark)."""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from studio.benchmarks import BenchResult, best_of
from studio.core import AddTake, AddTurn, DialogueLine, SetStory, StoryFields, Take, TakeStatus
from studio.core.model import new_id
from studio.export import ExportOptions, export_branch
from studio.export.sheet_pdf import binary_streams
from studio.storage import Project
from studio.storage.media import write_clip, write_poster

TITLE = "Storyboard sheets: PNG and PDF of a long branch"
TURNS = (60, 120)
QUICK_TURNS = (4, 7)
FRAMES = 17
HEIGHT, WIDTH = 480, 720
QUICK_HEIGHT, QUICK_WIDTH = 96, 144
FPS = 8.0
PANELS = 3
PNG_DPI = 150
"""The resolution of a PNG sheet's pages and of a PDF sheet's pictures (sheet_png.DPI)."""

PLACES = ("day town", "night harbour", "rainy station", "school roof", "forest shrine")
SPEAKERS = ("Qiqi", "Aoi", "Ren")


@dataclass(frozen=True)
class Board:
    """The benchmark's project and, for each branch length, the branch's last turn."""

    project: Project
    leaves: dict[int, str]
    posters: list[Path]
    size: tuple[int, int]
    """The clips' height and width."""


def clip_frames(turn: int, height: int, width: int) -> np.ndarray:
    """A gradient with a block crossing it, its colours set by ``turn``."""
    y, x = np.mgrid[0:height, 0:width]
    frames = np.empty((FRAMES, height, width, 3), dtype=np.uint8)
    shade = ((turn * 41) % 256, (turn * 89) % 256, (turn * 137) % 256)
    for t in range(FRAMES):
        frames[t, ..., 0] = (shade[0] + x // 4 + t * 3) % 256
        frames[t, ..., 1] = (shade[1] + y // 3) % 256
        frames[t, ..., 2] = (shade[2] + (x + y) // 6) % 256
        top, left = height // 4 + t * height // 80, width // 9 + t * width // 36
        frames[t, top:top + height // 4, left:left + width // 8] = (250, 240, 230)
    return frames


_WORDS = ("the lanterns river bridge market evening train ticket umbrella letter festival shrine cat fox "
         "window rooftop harbour lighthouse ferry bicycle bakery noodles rain thunder stairs clock "
         "tower garden secret promise notebook map compass bell forest path fireflies moon station platform "
         "whistle kite ribbon mask drum song answer question tomorrow yesterday quietly suddenly always never "
         "again together alone behind beyond under over through across toward before after while because "
         "if maybe really only still almost")
WORDS = tuple(_WORDS.split())
_VERBS = "find follow carry forget remember open close catch lose keep hide show wait run climb cross"
VERBS = tuple(_VERBS.split())


def sentence(rng: random.Random, least: int, most: int) -> str:
    """Words in a sentence's shape: a different one for every turn, as an author's text is
    (the same sentence on every turn would measure the same words again and again)."""
    words = [rng.choice(VERBS) if index % 4 == 1 else rng.choice(WORDS) for index in range(rng.randint(least, most))]
    return " ".join(words).capitalize() + rng.choice((".", "!", "?", "..."))


def turn_story(turn: int) -> StoryFields:
    """A turn's text as an author writes it: one to three lines of dialogue, narration on most
    turns, shot notes on some, a set duration on every fourth (the others show the clip's)."""
    rng = random.Random(turn)
    lines = [DialogueLine(SPEAKERS[(turn + index) % len(SPEAKERS)], sentence(rng, 6, 26))
             for index in range(1 + turn % 3)]
    narration = "" if turn % 3 == 2 else f"{sentence(rng, 10, 24)} {sentence(rng, 4, 12)}"
    notes = sentence(rng, 6, 14) if turn % 4 == 1 else ""
    duration = 2.5 if turn % 4 == 3 else None
    return StoryFields(tuple(lines), narration, duration, notes)


def build_board(folder: Path, lengths: tuple[int, ...], size: tuple[int, int]) -> Board:
    """One branch as long as the longest of ``lengths``, each turn with its clip (the studio's
    own writer), poster and story; the shorter branches end at an earlier turn of it."""
    height, width = size
    project = Project.create(folder / "sheets", name="Sheet benchmark")
    parent = project.tree.root_id
    leaves: dict[int, str] = {}
    posters: list[Path] = []
    for turn in range(max(lengths)):
        node_id = new_id()
        place = PLACES[turn % len(PLACES)]
        project.apply(AddTurn(parent, f"Character: Qiqi; Motion: walk {turn + 1}; Background: {place}.",
                              node_id=node_id))
        project.apply(SetStory(node_id, turn_story(turn)))
        frames = clip_frames(turn, height, width)
        take_id = new_id()
        media = project.take_media_dir(take_id)
        write_clip(project.resolve(f"{media}/clip.mp4"), frames, FPS)
        write_poster(project.resolve(f"{media}/poster.png"), frames[0])
        posters.append(project.resolve(f"{media}/poster.png"))
        project.apply(AddTake(Take(id=take_id, node_id=node_id, engine="bench", clip_path=f"{media}/clip.mp4",
                                   poster_path=f"{media}/poster.png", status=TakeStatus.DONE,
                                   parent_take_id=project.tree.node(parent).selected_take_id or "")))
        parent = node_id
        if turn + 1 in lengths:
            leaves[turn + 1] = node_id
    return Board(project, leaves, posters, size)


def _picture_slots() -> list[tuple[float, float, float, float]]:
    """Each panel's picture box (x, y, width, height, in points) on a page of the sheet's layout
    for 16:9 pictures: the boxes a sheet's pictures are fitted into."""
    from studio.export.storyboard import StoryboardLayout

    layout = StoryboardLayout(PANELS, HEIGHT / WIDTH)
    return [(box.x, box.y, box.w, box.h) for box in (layout.panel(slot).picture for slot in range(PANELS))]


def _page_size() -> tuple[float, float]:
    from studio.export.storyboard import StoryboardLayout

    return StoryboardLayout(PANELS, HEIGHT / WIDTH).page


def _fitted(path: Path, width: int, height: int) -> Image.Image:
    """The poster decoded and scaled (aspect kept) into width x height pixels."""
    with Image.open(path) as opened:
        rgb: Image.Image = opened.convert("RGB")
    scale = min(width / rgb.width, height / rgb.height)
    size = (max(1, round(rgb.width * scale)), max(1, round(rgb.height * scale)))
    fitted: Image.Image = rgb.resize(size, Image.Resampling.LANCZOS)
    return fitted


def pillow_pages(posters: list[Path], out: Path) -> int:
    """The baseline of a PNG sheet: the posters pasted onto white pages of the sheet's size at
    its resolution, three a page, each page saved as PNG. Returns the pages written."""
    scale = PNG_DPI / 72
    width, height = _page_size()
    slots = _picture_slots()
    pages = 0
    for start in range(0, len(posters), PANELS):
        page = Image.new("RGB", (round(width * scale), round(height * scale)), "white")
        for (x, y, w, h), path in zip(slots, posters[start:start + PANELS], strict=False):
            picture = _fitted(path, round(w * scale), round(h * scale))
            page.paste(picture, (round(x * scale) + (round(w * scale) - picture.width) // 2,
                                 round(y * scale) + (round(h * scale) - picture.height) // 2))
        pages += 1
        page.save(out.with_name(f"{out.stem}-{pages:03d}.png"), format="PNG", dpi=(PNG_DPI, PNG_DPI))
    return pages


def reportlab_pages(posters: list[Path], out: Path) -> int:
    """The baseline of a PDF sheet: each poster scaled to the sheet's picture resolution and
    drawn in its panel's box, three a page, no text. Returns the pages written."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    scale = PNG_DPI / 72
    width, height = _page_size()
    slots = _picture_slots()
    with binary_streams():  # the least work a PDF's pictures take, as the sheet writes them
        pdf = canvas.Canvas(str(out), pagesize=(width, height), pageCompression=1)
        pages = 0
        for start in range(0, len(posters), PANELS):
            for (x, y, w, h), path in zip(slots, posters[start:start + PANELS], strict=False):
                picture = _fitted(path, round(w * scale), round(h * scale))
                draw_w, draw_h = picture.width / scale, picture.height / scale
                pdf.drawImage(ImageReader(picture), x + (w - draw_w) / 2, height - (y + (h + draw_h) / 2),
                              width=draw_w, height=draw_h)
            pdf.showPage()
            pages += 1
        pdf.save()
    return pages


def _status_kib(field: str) -> int | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def _make(kind: str, project: Project, leaf: str, out: Path) -> None:
    """One sheet (``png``, ``pdf``) or one baseline (``base-png``, ``base-pdf``) of the branch."""
    from studio.export.branch import collect_branch

    if kind.startswith("base-"):
        posters = [turn.poster for turn in collect_branch(project, leaf).turns if turn.poster is not None]
        (pillow_pages if kind == "base-png" else reportlab_pages)(posters, out)
    else:
        export_branch(project, leaf, out, options=ExportOptions(panels_per_page=PANELS))


def peak_here(kind: str, folder: str, leaf: str, out: str) -> float | None:
    """MiB this process's resident memory rose to above where it stood as ``kind`` began (see
    :func:`_make`); None where the system can't tell (not Linux). Run in a fresh process
    (:func:`peak_memory`): in one that made sheets before, memory freed then and kept by the
    allocator is used again without the resident size rising, and every figure read 0."""
    from PIL import PngImagePlugin  # noqa: F401  (imports are not the sheet's memory)
    from reportlab.pdfgen import canvas  # noqa: F401

    import studio.export.sheet_pdf
    import studio.export.sheet_png  # noqa: F401

    with Project.open(folder, read_only=True) as project:
        try:
            Path("/proc/self/clear_refs").write_text("5")  # the high-water mark, reset to the resident size
        except OSError:
            return None
        start = _status_kib("VmRSS")
        _make(kind, project, leaf, Path(out))
        high = _status_kib("VmHWM")
    return None if start is None or high is None else max(0, high - start) / 1024


def peak_memory(kind: str, project: Project, leaf: str, out: Path) -> float | None:
    """:func:`peak_here` in a fresh Python process (this file run as a script); None where it
    can't be measured."""
    command = [sys.executable, __file__, "peak", kind, str(project.path), leaf, str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"measuring the peak memory of {kind} failed: {done.stderr.strip()[-2000:]}")
    found = done.stdout.strip()
    return None if found == "None" else float(found)


def measured(kind: str, project: Project, leaf: str, out: Path, repeat: int) -> tuple[float, float | None]:
    """(best wall time of ``repeat`` runs in s, peak memory of one in a fresh process in MiB)."""
    seconds = best_of(lambda: _make(kind, project, leaf, out), repeat)
    return seconds, peak_memory(kind, project, leaf, out)


def _memory(peak: float | None, baseline: float | None) -> str:
    """"; peak memory +54 MiB (baseline +23 MiB)", or nothing where it could not be measured."""
    if peak is None or baseline is None:
        return ""
    return f"; peak memory +{peak:.0f} MiB (baseline +{baseline:.0f} MiB)"


def sheet_results(board: Board, turns: int, folder: Path, repeat: int) -> list[BenchResult]:
    """A PNG and a PDF sheet of the branch of ``turns`` turns, each against its baseline."""
    project, leaf = board.project, board.leaves[turns]
    posters = board.posters[:turns]
    options = ExportOptions(panels_per_page=PANELS)
    out = folder / f"sheet-{turns}"
    out.mkdir()
    made = export_branch(project, leaf, out / "board.png", options=options)
    pdf_made = export_branch(project, leaf, out / "board.pdf", options=options)
    pages = pillow_pages(posters, out / "base.png")
    if made.pages < pages or pdf_made.pages < pages or len(made.paths) != made.pages:
        raise RuntimeError(f"the sheet of {turns} turns has {made.pages} PNG / {pdf_made.pages} PDF pages "
                           f"for {pages} pages of pictures")
    png_s, png_peak = measured("png", project, leaf, out / "board.png", repeat)
    png_base, png_base_peak = measured("base-png", project, leaf, out / "base.png", repeat)
    pdf_s, pdf_peak = measured("pdf", project, leaf, out / "board.pdf", repeat)
    pdf_base, pdf_base_peak = measured("base-pdf", project, leaf, out / "base.pdf", repeat)

    def per_turn(seconds: float) -> float:
        return seconds / turns * 1000

    height, width = board.size
    clips = f"clips {width}x{height} ({FRAMES} frames at {FPS:g} fps); " if turns == min(board.leaves) else ""

    return [
        BenchResult(f"PNG sheet, {turns} turns ({made.pages} pages)", per_turn(png_s), "ms/turn",
                    baseline=f"posters pasted on pages (Pillow): {per_turn(png_base):.1f} ms/turn",
                    ratio=png_s / png_base,
                    note=f"{clips}{png_s:.2f} s wall, best of {repeat}{_memory(png_peak, png_base_peak)}"),
        BenchResult(f"PDF sheet, {turns} turns ({pdf_made.pages} pages)", per_turn(pdf_s), "ms/turn",
                    baseline=f"posters drawn on pages (reportlab): {per_turn(pdf_base):.1f} ms/turn",
                    ratio=pdf_s / pdf_base,
                    note=f"{pdf_s:.2f} s wall, best of {repeat}{_memory(pdf_peak, pdf_base_peak)}"),
    ]


def run(quick: bool) -> list[BenchResult]:
    lengths = QUICK_TURNS if quick else TURNS
    size = (QUICK_HEIGHT, QUICK_WIDTH) if quick else (HEIGHT, WIDTH)
    repeat = 1 if quick else 3
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        board = build_board(folder, lengths, size)
        with board.project:
            return [result for turns in lengths for result in sheet_results(board, turns, folder, repeat)]


if __name__ == "__main__" and sys.argv[1:2] == ["peak"]:
    print(peak_here(*sys.argv[2:6]))
