"""The media an OTIO timeline hands to an editor, in a folder beside it.

A timeline whose clips pointed into the project's own media folder by absolute ``file://``
URL was offline on any other machine, and in any copy of the export folder. The export now
writes the media the timeline uses into ``NAME_media/`` beside ``NAME.otio`` and names each
file by a relative URL (``NAME_media/take-ID.mp4``), which OpenTimelineIO and the editors that
import it resolve from the timeline's own folder: the two travel together.

The folder holds:

* each turn's clip, copied as it is (``take-ID.mp4``, named for its take, as the studio names
  a take's clip);
* a turn's hold (a turn lasting longer than its clip): its clip's last frame as a clip of its
  own at the timeline's rate (``take-ID-hold.mp4``), so an importer that drops time effects
  (a freeze frame) still shows the held picture for the right time;
* the title and end cards, as the video shows them (``title-card.mp4``, ``end-card.mp4``).

Everything is read as the video export reads it (:func:`~studio.export.branch.clip_source`:
never by following a link out of the project)."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path
from urllib.parse import quote

from studio.export.branch import Turn, clip_source
from studio.storage.ffmpeg import RGB_COLOUR_TAGS, FrameEncoder, StreamInfo, decode_frames, even_frames, h264_args

STILL_CRF = 12
"""Quality of a held frame or a card: a still costs next to nothing at any quality."""


class TimelineMediaFolder:
    """Writes the timeline's media into ``work`` (the folder that becomes ``name`` beside the
    timeline) and gives each file's URL relative to the timeline."""

    def __init__(self, work: Path, name: str, size: tuple[int, int] | None, fps: Fraction, first: Turn) -> None:
        """``size``: the cards' (the export's ``--size``; None: the ``first`` turn's clip's, as the video's)."""
        self.work = work
        self.name = name
        self.size = size
        self.fps = fps
        self._first = first

    def _picture_size(self, turn: Turn, info: StreamInfo) -> tuple[int, int]:
        """The clip's own size: a timeline's plan reads clip lengths alone (from their index,
        size 0x0), so a clip is probed here only when a picture of it is made."""
        if info.size[0] and info.size[1]:
            return info.size
        from studio.export.plan import probe_clips

        found = probe_clips([turn])[0]
        if isinstance(found, Exception):
            raise found
        return found.size

    def url(self, file_name: str) -> str:
        return quote(f"{self.name}/{file_name}")

    @staticmethod
    def file_stem(turn: Turn) -> str:
        """The name of the turn's files in the folder: its take's (``take-ID``, as the studio names
        a take's clip), never the clip's own name alone, which two takes may share."""
        return f"take-{turn.take_id}" if turn.take_id else f"turn-{turn.number:03d}"

    def clip(self, turn: Turn) -> str:
        """The turn's clip, copied into the folder."""
        target = self.work / f"{self.file_stem(turn)}{Path(turn.clip).suffix.lower() or '.mp4'}"
        if not target.exists():
            with clip_source(turn) as source:
                shutil.copyfile(source, target)
        return self.url(target.name)

    def hold(self, turn: Turn, info: StreamInfo, frames: int) -> str:
        """The turn's clip's last frame, held ``frames`` output frames, as a clip."""
        last = None
        size = self._picture_size(turn, info)
        with clip_source(turn) as source:
            for frame in decode_frames(source, size):
                last = frame
        if last is None:  # the probe found frames: this is a clip emptied while the export ran
            from studio.export.errors import REMAKE_CLIP_HINT, ExportError

            raise ExportError(f"The clip of {turn.label} gave no pictures.", hint=REMAKE_CLIP_HINT,
                              remake=(turn.node_id,))
        name = f"{self.file_stem(turn)}-hold.mp4"
        self._still(name, last, frames)
        return self.url(name)

    def card(self, which: str, text: str, frames: int) -> str:
        """The title or end card (``which``: "title" or "end") as the video draws it."""
        from studio.export.drawing import render_card  # fonts: only now

        name = f"{which}-card.mp4"
        self._still(name, render_card(self.card_size(), text), frames)
        return self.url(name)

    def card_size(self) -> tuple[int, int]:
        """The cards' size: the export's, else the first clip's (as the video's)."""
        if self.size is None:
            from studio.export.plan import probe_clips

            found = probe_clips([self._first])[0]
            if isinstance(found, Exception):
                raise found
            self.size = found.size
        return self.size

    def _still(self, name: str, picture: object, frames: int) -> None:
        import numpy as np

        frame = even_frames(np.asarray(picture, dtype=np.uint8)[None])[0]
        height, width = frame.shape[:2]
        with FrameEncoder(self.work / name, (width, height), self.fps,
                          [*h264_args(STILL_CRF), *RGB_COLOUR_TAGS]) as encoder:
            for _ in range(max(1, frames)):
                encoder.write(frame)
            encoder.finish()
