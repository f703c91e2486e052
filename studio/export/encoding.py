"""Codec settings per export format, and the options each format can honour (ffmpeg itself
is driven by :mod:`studio.storage.ffmpeg`)."""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass, fields, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from studio.export.errors import ExportError
from studio.export.memory import check_memory
from studio.export.options import CaptionMode, ExportFormat, ExportOptions
from studio.storage.ffmpeg import RGB_COLOUR_TAGS, h264_args, path_arg

H264_CRF = 18
VP9_CRF = 32
H264_PRESET = "veryfast"

MAX_GIF_FPS = 50
"""A GIF frame's delay is a whole number of centiseconds, and browsers play a delay of 0 or
1 cs (10 ms) as 100 ms: above 50 fps some frames would get 1 cs and the GIF would crawl."""


@dataclass(frozen=True)
class CrfRange:
    codec: str
    lowest: int
    highest: int
    default: int


CRF_RANGES: dict[ExportFormat, CrfRange] = {
    ExportFormat.MP4: CrfRange("H.264", 0, 51, H264_CRF),
    ExportFormat.WEBM: CrfRange("VP9", 0, 63, VP9_CRF),
}
"""The formats whose encoder takes a quality (CRF), and the values it accepts."""


VIDEO_FORMATS = frozenset(f for f in ExportFormat if f.is_video)
SHEET_FORMATS = frozenset(f for f in ExportFormat if f.is_sheet)
TIMED_FORMATS = VIDEO_FORMATS | {ExportFormat.SRT, ExportFormat.VTT, ExportFormat.OTIO}
"""The formats laid out on the episode's timeline: the SRT and the OTIO timeline follow the
video's frame rate, crossfades and cards, so that they match a video made with the same options."""


@dataclass(frozen=True)
class OptionUse:
    """An :class:`ExportOptions` field, the formats that honour it, and how a user names it."""

    field: str
    flag: str
    """The CLI's option ('' for one only the API sets)."""
    what: str
    formats: frozenset[ExportFormat]

    def asked(self, options: ExportOptions, given: Collection[str] = ()) -> bool:
        """Whether ``options`` ask for this: a value other than the default, or (``given``: the
        fields a front end knows the user set) any value the user set."""
        value, default = getattr(options, self.field), _DEFAULTS[self.field]
        if isinstance(value, str) and isinstance(default, str):
            value, default = value.strip(), default.strip()  # blank text: no card, no heading
        return self.field in given or value != default


_DEFAULTS = {field.name: field.default for field in fields(ExportOptions)}

OPTION_USES = (
    OptionUse("size", "--size", "the output size", VIDEO_FORMATS),
    OptionUse("fps", "--fps", "the frame rate", TIMED_FORMATS),
    OptionUse("crossfade", "--crossfade", "a dissolve between turns", TIMED_FORMATS),
    OptionUse("title_duration", "--title-duration", "how long the title card shows", TIMED_FORMATS),
    OptionUse("end_card", "--end-card", "the end card", TIMED_FORMATS),
    OptionUse("end_card_duration", "--end-card-duration", "how long the end card shows", TIMED_FORMATS),
    OptionUse("overlay", "--overlay", "the stamina, social and fun bars", VIDEO_FORMATS),
    OptionUse("stream_copy", "--reencode", "never join clips by stream copy", VIDEO_FORMATS),
    OptionUse("panels_per_page", "--panels", "storyboard panels per page", SHEET_FORMATS),
    OptionUse("panel_aspect", "--aspect", "the storyboard panels' shape", SHEET_FORMATS),
    OptionUse("sheet_title", "", "the sheet title", SHEET_FORMATS),
)
"""Each option that only some formats honour (the title is every format's: a video's or a
timeline's title card, a sheet's heading; captions and the quality are checked on their own)."""

CAPTION_USES = {
    CaptionMode.BURN: OptionUse("captions", "--captions burn", "captions drawn into the frames", VIDEO_FORMATS),
    CaptionMode.SRT: OptionUse("captions", "--captions srt", "an .srt beside the video", VIDEO_FORMATS),
}


_KINDS = {VIDEO_FORMATS: "video exports", SHEET_FORMATS: "storyboard sheets",
          TIMED_FORMATS: "videos, subtitles and timelines"}


def _described(formats: frozenset[ExportFormat]) -> str:
    """``video exports (mp4, webm, gif)``: the formats, and what they are."""
    names = ", ".join(f.value for f in ExportFormat if f in formats)
    return f"{_KINDS[formats]} ({names})" if formats in _KINDS else names


def _refuse(use: OptionUse, fmt: ExportFormat) -> ExportError:
    named = f"{use.flag} ({use.what})" if use.flag else use.what[:1].upper() + use.what[1:]
    hint = (f"Leave out {use.flag.split()[0]} for {fmt.value}." if use.flag
            else f"Leave the {use.what.removeprefix('the ')} out for {fmt.value}.")
    if use.field == "captions" and fmt.is_subtitles:
        hint += f" A {fmt.value} export is the captions: its cues are what --captions srt writes beside a video."
    elif use.field == "captions" and fmt is ExportFormat.OTIO:
        hint += " For the captions as subtitles, export as srt too."
    return ExportError(f"{named} applies only to {_described(use.formats)}, not to {fmt.value}.", hint=hint)


def for_format(options: ExportOptions, fmt: ExportFormat) -> ExportOptions:
    """``options`` with each field ``fmt`` can't use back at its default: what a form that keeps
    every control's value across a change of format sends (a crossfade set for a video, then a
    PDF chosen, is not a request :func:`check_options` should refuse)."""
    unused: dict[str, Any] = {use.field: _DEFAULTS[use.field] for use in OPTION_USES if fmt not in use.formats}
    captions = CAPTION_USES.get(options.captions)
    srt_as_srt = options.captions is CaptionMode.SRT and fmt is ExportFormat.SRT  # the export is the captions
    if captions is not None and fmt not in captions.formats and not srt_as_srt:
        unused["captions"] = CaptionMode.NONE
    return replace(options, **unused)


def check_options(fmt: ExportFormat, options: ExportOptions, given: Collection[str] = ()) -> None:
    """Refuse what ``fmt`` can't honour, rather than ignore it: an option the format has no
    use for (:data:`OPTION_USES`; ``given`` names the :class:`ExportOptions` fields the user
    set, so that one set to its default value is refused too, as the CLI does for an option
    given on its command line), captions it can't carry, a quality (CRF) for a format without
    one or outside its encoder's range, a frame rate a GIF can't play, a video size this
    machine has not the memory to encode (:func:`~studio.export.memory.check_memory`).
    Default options pass for every format."""
    for use in OPTION_USES:
        if fmt not in use.formats and use.asked(options, given):
            raise _refuse(use, fmt)
    captions = CAPTION_USES.get(options.captions)
    srt_as_srt = options.captions is CaptionMode.SRT and fmt is ExportFormat.SRT  # the export is the captions
    if captions is not None and fmt not in captions.formats and not srt_as_srt:
        raise _refuse(captions, fmt)
    if options.crf is not None:
        crf = CRF_RANGES.get(fmt)
        if crf is None:
            takes = " and ".join(f.value for f in CRF_RANGES)
            raise ExportError(f"A quality (CRF) applies only to {takes} videos, not to {fmt.value}.",
                              hint="Leave out --crf for this format.")
        if not crf.lowest <= options.crf <= crf.highest:
            raise ExportError(f"Quality (CRF) {options.crf} is outside {crf.codec}'s {crf.lowest}..{crf.highest} "
                              f"({fmt.value}).",
                              hint=f"Lower is better; {crf.default} is the default.")
    if options.fps is not None:
        check_frame_rate(fmt, options.fps)
    if options.size is not None and fmt in VIDEO_FORMATS:
        # before the clips are read: it was refused only once every clip had been probed
        check_frame_size(fmt, options.size)
    if options.size is not None and fmt in VIDEO_FORMATS and not _may_join(fmt, options):
        check_memory(fmt, options.size)  # again with the clips' size, when none is asked (video.encode_episode)


def _may_join(fmt: ExportFormat, options: ExportOptions) -> bool:
    """Whether the clips may be joined by stream copy, which composes no frames (the clips
    decide: see :func:`studio.export.video.stream_copy_refusal`)."""
    return fmt in CRF_RANGES and options.stream_copy and options.crf is None and not options.needs_new_pixels


def check_frame_rate(fmt: ExportFormat, fps: float | Fraction, from_clips: bool = False) -> None:
    """Refuse a GIF faster than :data:`MAX_GIF_FPS` (``from_clips``: the rate is the clips' own,
    none was asked for)."""
    if fmt == ExportFormat.GIF and fps > MAX_GIF_FPS:
        what = f"The clips run at {float(fps):g} fps, which" if from_clips else f"{float(fps):g} fps"
        raise ExportError(f"{what} is too fast for a GIF: its frame delays are whole hundredths of a second, and "
                          f"players slow a delay under 2 hundredths down to a tenth of a second.",
                          hint=f"Give a frame rate of {MAX_GIF_FPS} fps or less (--fps {MAX_GIF_FPS}; 50, 25, 20 "
                          "or 10 give every frame the same delay).")


def _centiseconds(frame: int, fps: Fraction) -> int:
    """When ``frame`` starts, in whole centiseconds, rounded half up as ffmpeg rounds the GIF's
    timestamps."""
    return math.floor(Fraction(frame) * 100 / fps + Fraction(1, 2))


def gif_final_delay(frames: int, fps: Fraction) -> int:
    """The last frame's delay that makes the GIF's delays add up to its duration (ffmpeg would
    repeat the delay before it, which can be a centisecond off)."""
    if frames <= 1:
        return max(1, _centiseconds(1, fps))
    return max(1, _centiseconds(frames, fps) - _centiseconds(frames - 1, fps))


def encoder_args(fmt: ExportFormat, crf: int | None, fps: Fraction, frames: int) -> list[str]:
    """ffmpeg's output options for ``frames`` frames at ``fps`` in ``fmt`` (``crf`` None: the
    format's default quality). Each names its muxer, so that any file name will do."""
    if fmt == ExportFormat.MP4:
        return [*h264_args(H264_CRF if crf is None else crf, H264_PRESET), *RGB_COLOUR_TAGS, "-f", "mp4"]
    if fmt == ExportFormat.WEBM:
        return ["-c:v", "libvpx-vp9", "-crf", str(VP9_CRF if crf is None else crf), "-b:v", "0",
                "-pix_fmt", "yuv420p", *RGB_COLOUR_TAGS, "-row-mt", "1", "-deadline", "good", "-cpu-used", "5",
                "-f", "webm"]
    if fmt == ExportFormat.GIF:
        raise ValueError("a GIF is encoded in two passes: see gif_palette_args and gif_args")
    raise ExportError(f"{fmt.value} is not a video format.")


GIF_PALETTE = "palettegen=stats_mode=full"
"""One palette for the whole GIF, from every frame's colours (the frames keep their colours
from one frame to the next, and a still picture does not shimmer)."""
GIF_DITHER = "paletteuse=dither=bayer:bayer_scale=4:diff_mode=rectangle"


def gif_palette_args() -> list[str]:
    """ffmpeg's output options for a GIF's first pass: the frames in, its palette out (a PNG of
    16 x 16 colours). ffmpeg keeps only the colour statistics, never the frames."""
    return ["-vf", GIF_PALETTE, "-c:v", "png", "-f", "image2", "-update", "1"]


def gif_args(palette: Path, fps: Fraction, frames: int) -> list[str]:
    """ffmpeg's output options for a GIF's second pass: ``frames`` frames at ``fps`` mapped to
    the colours of ``palette`` (made by :func:`gif_palette_args`), one frame at a time."""
    return ["-filter_complex", f"movie=filename={filter_quoted(path_arg(palette))}[palette];[0:v][palette]{GIF_DITHER}",
            "-loop", "0", "-final_delay", str(gif_final_delay(frames, fps)), "-f", "gif"]


def filter_quoted(value: str) -> str:
    """``value`` as one option value in an ffmpeg filter graph, whatever it holds: quoted for
    the filter's options (``'`` ends a quote: written ``'\\''``), then each character the
    graph's parser reads (``\\ ' [ ] , ;``) escaped with a backslash."""
    quoted = "'" + value.replace("'", "'\\''") + "'"
    return "".join(f"\\{char}" if char in "\\'[],;" else char for char in quoted)


EVEN_SIDED = frozenset({ExportFormat.MP4, ExportFormat.WEBM})
"""Formats encoded in 4:2:0 (H.264, VP9), whose width and height must be even."""


def encodable_size(fmt: ExportFormat, size: tuple[int, int]) -> tuple[int, int]:
    """The clips' own ``size`` (no --size given) as ``fmt`` can encode it: an odd side of an mp4
    or webm loses its last pixel (the clips are scaled to fit). An odd first clip (another
    engine's, a hand-made take) made every re-encoded mp4 fail with "mp4 needs an even width
    and height, not 321x241", a size nobody had asked for."""
    if fmt not in EVEN_SIDED:
        return size
    width, height = size
    return max(2, width - width % 2), max(2, height - height % 2)


def check_frame_size(fmt: ExportFormat, size: tuple[int, int]) -> None:
    """Refuse a size asked for that ``fmt`` can't encode (an odd side of an mp4 or webm),
    naming the even size next to it."""
    width, height = size
    if fmt in EVEN_SIDED and (width % 2 or height % 2):
        even_width, even_height = encodable_size(fmt, size)
        raise ExportError(f"{fmt.value} needs an even width and height, not {width}x{height}.",
                          hint=f"Give an even size, such as --size {even_width}x{even_height} (a GIF takes any size).")
