"""What an export makes (:class:`ExportFormat`), how (:class:`ExportOptions`) and what came
out (:class:`ExportResult`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from studio.core.sentence import plural
from studio.core.text import first_few, shows_something
from studio.export.errors import ExportError


class ExportFormat(StrEnum):
    MP4 = "mp4"
    WEBM = "webm"
    GIF = "gif"
    PDF = "pdf"
    PNG = "png"
    SRT = "srt"
    VTT = "vtt"
    OTIO = "otio"

    @property
    def is_video(self) -> bool:
        return self in (ExportFormat.MP4, ExportFormat.WEBM, ExportFormat.GIF)

    @property
    def is_sheet(self) -> bool:
        return self in (ExportFormat.PDF, ExportFormat.PNG)

    @property
    def is_subtitles(self) -> bool:
        return self in (ExportFormat.SRT, ExportFormat.VTT)

    @property
    def suffix(self) -> str:
        return f".{self.value}"


def infer_format(out: Path, fmt: ExportFormat | str | None = None) -> ExportFormat:
    """The format asked for, or the one the file name's suffix says."""
    suffix = out.suffix.lower().lstrip(".")
    if fmt is not None:
        try:
            chosen = ExportFormat(str(fmt).lower())
        except ValueError:
            known = ", ".join(f.value for f in ExportFormat)
            raise ExportError(f"Unknown export format {fmt!r}.", hint=f"Formats: {known}.") from None
        if suffix in {f.value for f in ExportFormat} and suffix != chosen.value:
            # an SRT in a file named .mp4 would fool every player that opens it
            raise ExportError(f"The file name {out.name!r} says {suffix} but the format asked for is {chosen.value}.",
                              hint=f"Name the file .{chosen.value}, or leave out the format.")
        return chosen
    try:
        return ExportFormat(suffix)
    except ValueError:
        known = ", ".join(f.value for f in ExportFormat)
        raise ExportError(f"Can't tell the export format from the file name {out.name!r}.",
                          hint=f"Name the file with one of these suffixes, or give the format: {known}.") from None


class CaptionMode(StrEnum):
    """Each turn's instruction as a caption: not at all, drawn into the frames, or as an SRT file."""

    NONE = "none"
    BURN = "burn"
    SRT = "srt"


def png_sheet_pages(out: Path) -> list[Path]:
    """The numbered pages of a PNG sheet named ``out`` now on disk: ``NAME-01.png``,
    ``NAME-02.png``... in an unbroken run from the first (named as
    :func:`~studio.export.sheet_png.png_page_paths` names them, ``out``'s own suffix kept), so
    that ``NAME-2024.png`` beside them is never taken for a page."""
    suffix = out.suffix or ".png"
    found: list[Path] = []
    for width in (2, 3, 4):  # two digits up to page 99, three up to 999...
        page = 1
        while (path := out.with_name(f"{out.stem}-{page:0{width}d}{suffix}")).is_file():
            if path not in found:
                found.append(path)
            page += 1
    return found


def sheet_page_count(turns: int, panels_per_page: int) -> int:
    """The pages a storyboard sheet of ``turns`` turns fills with its turns' own panels
    (:meth:`StoryboardLayout.pages <studio.export.storyboard.StoryboardLayout.pages>`; the
    panels' shape changes no count), known before anything is measured: the files a PNG sheet
    writes, unless a turn's text goes on in a continuation panel, which can add pages
    (:func:`studio.export.sheet.sheet_page_total` counts those too)."""
    from studio.export.storyboard import WIDE, StoryboardLayout  # Pillow: only when asked

    return StoryboardLayout(panels_per_page, WIDE).pages(turns)


def png_sheet_files(out: Path, pages: int) -> list[Path]:
    """The files a PNG sheet of ``pages`` pages named ``out`` writes (``out`` itself for one page)."""
    from studio.export.sheet_png import png_page_paths  # Pillow: only when asked

    return png_page_paths(out, pages)


def captions_file(out: Path) -> Path:
    """The SRT captions a video export writes beside ``out`` (``--captions srt``)."""
    return out.with_suffix(".srt")


MEDIA_FOLDER_SUFFIX = "_media"


def media_folder(out: Path) -> Path:
    """The folder of media an OTIO timeline ``out`` references, beside it: ``ep_media`` beside
    ``ep.otio`` (see :mod:`studio.export.otio_media`)."""
    return out.with_name(f"{out.stem}{MEDIA_FOLDER_SUFFIX}")


def output_files(out: Path, fmt: ExportFormat, options: ExportOptions, turns: int) -> list[Path]:
    """Every file an export of ``turns`` turns to ``out`` writes: ``out`` and a video's SRT
    captions beside it, or each page of a PNG sheet (numbered pages, not ``out``, for
    several). Known before anything is made, so that a name that can't be written is
    refused before a long encode, not after it."""
    if fmt is ExportFormat.PNG:
        return png_sheet_files(out, sheet_page_count(turns, options.panels_per_page))
    if fmt.is_video and options.captions is CaptionMode.SRT:
        return [out, captions_file(out)]
    return [out]


def superseded_sheet_pages(out: Path) -> list[Path]:
    """An earlier PNG sheet named ``out`` now on disk, ``out`` itself (one page) and its numbered
    pages: a new sheet removes those it doesn't write again (see
    :meth:`OutputFiles.supersede <studio.export.output.OutputFiles.supersede>`)."""
    return ([out] if out.is_file() else []) + png_sheet_pages(out)


def sheet_names_taken(out: Path) -> bool:
    """Whether a file is there that a PNG sheet named ``out`` may write or remove: ``out``
    itself, or one named as its numbered pages are (``NAME-<digits>.SUFFIX``, in any case: a
    folder may not tell cases apart). Only then does :func:`existing_outputs` need the sheet's
    exact page count, which takes laying the whole sheet out (a second time, before the export
    lays it out again); a folder that can't be listed counts as taken."""
    import os
    import re

    if out.is_file() or out.is_symlink():
        return True
    pattern = re.compile(re.escape(out.stem) + r"-\d+" + re.escape(out.suffix or ".png"), re.IGNORECASE)
    try:
        return any(pattern.fullmatch(entry.name) for entry in os.scandir(out.parent))
    except OSError:
        return True


def _replaced(path: Path) -> bool:
    """Whether writing ``path`` replaces something: a file, or a link that is no folder, even
    one whose target is gone (a link to an unmounted drive's episode was replaced without
    --force, as nothing seemed to be there)."""
    return path.is_file() or (path.is_symlink() and not path.is_dir())


def existing_outputs(out: Path, fmt: ExportFormat | str | None = None,
                     captions: CaptionMode | str = CaptionMode.NONE, *, pages: int | None = None) -> list[Path]:
    """The files now on disk that an export to ``out`` would replace or remove: the file itself,
    a PNG sheet's pages (each one it writes, ``pages`` of them, see :func:`sheet_page_count`,
    and every page of an earlier sheet it supersedes), a video's SRT captions beside it, and
    an OTIO timeline's media folder (:func:`media_folder`).

    ``pages`` is needed for a PNG sheet: a later page (``NAME-02.png``) may be there without
    the first, and only the count says whether this export writes it."""
    chosen = infer_format(out, fmt)
    if chosen is ExportFormat.PNG:
        if pages is None:
            raise ValueError("existing_outputs needs the page count of a PNG sheet")
        written = [path for path in png_sheet_files(out, pages) if _replaced(path)]
        return sorted(set(written + superseded_sheet_pages(out)), key=lambda path: path.name)  # pages in order
    found = [out] if _replaced(out) else []
    if chosen is ExportFormat.OTIO and media_folder(out).is_dir():
        found.append(media_folder(out))  # replaced whole: an earlier timeline's media
    sidecar = captions_file(out)
    if chosen.is_video and CaptionMode(captions) is CaptionMode.SRT and _replaced(sidecar):
        found.append(sidecar)
    return found


def describe_files(paths: list[Path]) -> str:
    """File names for a sentence: ``ep.mp4``, ``ep.mp4 and ep.srt``, ``board-01.png ... board-05.png
    (5 files)``."""
    names = [path.name for path in paths]
    if len(names) <= 2:
        return " and ".join(names)
    return f"{names[0]} \u2026 {names[-1]} ({plural(len(names), 'file')})"


def list_files(paths: list[Path], limit: int = 10) -> str:
    """Each file's name, the first ``limit`` of them and how many more: where
    :func:`describe_files` gives only a range, what a confirmation lists."""
    return first_few([path.name for path in paths], limit=limit)


class PanelAspect(StrEnum):
    """The shape of a storyboard panel: 16:9, or the first clip's own shape."""

    WIDE = "16:9"
    CLIP = "clip"


MAX_SIZE = 8192
MIN_FPS = 0.01
"""A frame every 100 s. Below it no rate is exact to a thousandth (the rate is kept as a fraction
of denominator at most 1000, see :func:`studio.storage.ffmpeg.exact_fps`): 0.005 fps became 0,
and the export ended in "internal error: ZeroDivisionError"."""
MAX_FPS = 240.0
MAX_CARD_SECONDS = 60.0


@dataclass(frozen=True)
class ExportOptions:
    """How a branch becomes an episode. Defaults: the first clip's size and fps, hard cuts,
    no cards, no captions, no overlay (which allows the lossless stream-copy path)."""

    size: tuple[int, int] | None = None
    """Output (width, height); clips of another size are scaled to fit and letterboxed."""
    fps: float | None = None
    """Output frame rate (a GIF's at most 50: see :data:`studio.export.encoding.MAX_GIF_FPS`)."""
    crossfade: float = 0.0
    """Seconds of dissolve between consecutive turns (cards are joined with hard cuts)."""
    title: str = ""
    title_duration: float = 2.0
    end_card: str = ""
    end_card_duration: float = 2.0
    captions: CaptionMode = CaptionMode.NONE
    overlay: bool = False
    """Stamina, social and entertainment bars with the values after each turn."""
    panels_per_page: int = 3
    """Storyboard sheet: 1 (a large panel, landscape), 2 (two columns, landscape) or 3
    (three rows with the text beside them, portrait)."""
    panel_aspect: PanelAspect = PanelAspect.CLIP
    """The panels' shape (default: the first clip's, so that no picture is letterboxed)."""
    sheet_title: str = ""
    """Heading of each sheet page (default: the title card text, else the project's name)."""
    crf: int | None = None
    """Encoder quality (lower is better; H.264 0..51, VP9 0..63, no other format takes one);
    None: 18 for H.264, 32 for VP9. Given, it forces re-encoding."""
    stream_copy: bool = True
    """Allow joining the clips without re-encoding when nothing asks for new pixels."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "captions", CaptionMode(self.captions))
        for name in ("title", "end_card", "sheet_title"):  # only invisible marks: no card, no heading
            if not shows_something(getattr(self, name)):
                object.__setattr__(self, name, "")
        try:
            object.__setattr__(self, "panel_aspect", PanelAspect(self.panel_aspect))
        except ValueError:
            raise ExportError(f"Unknown panel shape {self.panel_aspect!r}.", hint="Use 16:9 or clip.") from None
        if self.size is not None:
            width, height = self.size
            if not (isinstance(width, int) and isinstance(height, int)) or not (
                    16 <= width <= MAX_SIZE and 16 <= height <= MAX_SIZE):
                raise ExportError(f"Output size {width}x{height} is outside 16..{MAX_SIZE} pixels.",
                                  hint=f"Give a width and height from 16 to {MAX_SIZE} (1920x1080 is full HD).")
        if self.fps is not None and not MIN_FPS <= self.fps <= MAX_FPS:
            raise ExportError(f"Frame rate {self.fps:g} fps is out of range; give at least {MIN_FPS:g} (a frame "
                              f"every {1 / MIN_FPS:g} s) and at most {MAX_FPS:g} fps.")
        if not 0 <= self.crossfade <= 10:
            raise ExportError(f"Crossfade {self.crossfade} s is outside 0..10 s.")
        for name, seconds in (("title card", self.title_duration), ("end card", self.end_card_duration)):
            if not 0 < seconds <= MAX_CARD_SECONDS:
                raise ExportError(f"The {name} lasts {seconds:g} s; give more than 0 and at most "
                                  f"{MAX_CARD_SECONDS:g} s.")
        if self.panels_per_page not in (1, 2, 3):
            raise ExportError(f"A storyboard page holds 1, 2 or 3 panels, not {self.panels_per_page!r}.")
        # each encoder's own range is checked with the format (studio.export.encoding.check_options)
        if self.crf is not None and self.crf < 0:
            raise ExportError(f"Quality (CRF) {self.crf} is below 0.", hint="0 is the best; lower is better.")

    @property
    def has_cards(self) -> bool:
        return bool(self.title.strip() or self.end_card.strip())

    @property
    def needs_new_pixels(self) -> bool:
        """Whether anything asks for frames the clips don't already hold."""
        return self.overlay or self.captions == CaptionMode.BURN or self.has_cards or self.crossfade > 0


def seconds_text(seconds: float) -> str:
    """``seconds`` to the millisecond, as the files hold them (an SRT's times, 1/8 s frames):
    ``2.125``, ``5.5``, ``17``. Two decimals said 2.12 s of an episode whose files end at 2.125 s."""
    return f"{seconds:.3f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class ExportResult:
    """What an export wrote. ``paths[0]`` is the main file (an SRT sidecar or further sheet
    pages follow); ``seconds`` is the wall time the export took."""

    format: ExportFormat
    paths: tuple[Path, ...]
    duration: float
    frames: int
    used_stream_copy: bool
    seconds: float
    turns: int
    pages: int = 0
    notes: tuple[str, ...] = ()
    """What the user should know of the result (stale takes shown, characters the font lacks)."""

    @property
    def path(self) -> Path:
        return self.paths[0]

    def summary(self) -> str:
        turns = plural(self.turns, "turn")
        if self.format.is_sheet:
            files = f" in {len(self.paths)} files" if len(self.paths) > 1 else ""
            pages = plural(self.pages, "page")
            return f"{self.path}: {turns} on {pages}{files}; rendered in {self.seconds:.1f} s"
        how = "stream copy (no re-encoding)" if self.used_stream_copy else (
            "re-encoded" if self.format.is_video else "written")
        return (f"{self.path}: {turns}, {seconds_text(self.duration)} s, {plural(self.frames, 'frame')}; "
                f"{how} in {self.seconds:.1f} s")
