"""A small player for one clip or a whole branch: play/pause, loop, scrub, frame step.

A branch is a list of clips played back to back as one timeline. Clips are decoded by the
shared :class:`ClipCache` off the GUI thread; until a clip has landed the timeline has
a gap the player waits on (it shows "decoding…"). A clip that can't be read (its file
missing or damaged) takes a second of the timeline that says so, and playback goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QImage, QPainter, QPaintEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QSlider, QToolButton, QVBoxLayout, QWidget

from studio.ui import palette
from studio.ui.icons import icon
from studio.ui.media_cache import ClipCache
from studio.ui.text_wrap import breakable


def format_clock(seconds: float) -> str:
    """Minutes, seconds and tenths, as a timeline shows them: 0:03.5."""
    tenths = round(max(0.0, seconds) * 10)
    minutes, rest = divmod(tenths, 600)
    return f"{minutes}:{rest // 10:02d}.{rest % 10}"

@dataclass
class _Segment:
    path: str
    frames: Sequence[QImage | None]  # None: a stand-in frame for a clip that can't be read
    fps: float
    start: int


MISSING_FRAMES, MISSING_FPS = 8, 8.0
_UNSHOWN = -2
"""The clip shown is not announced yet (a new timeline): the next one shown is, even clip 0."""
MISSING_TEXT = "clip missing or damaged: re-roll this turn"


MESSAGE_MARGIN = 6
MESSAGE_FLAGS = int(Qt.AlignmentFlag.AlignCenter) | int(Qt.TextFlag.TextWordWrap)
"""A view's message (no clip, decoding…, a missing clip, an engine's error) wraps, centred."""

SCALED_CACHE_FRAMES = 256
"""Scaled frames a view keeps (a looping clip is scaled once per frame, not once per paint)."""


class FrameView(QWidget):
    """Paints one frame scaled to fit, letterboxed on the studio's background.

    Smooth scaling a full-size frame costs milliseconds; a playing clip would pay it 8 times
    a second per view. Scaled frames are kept per view until its size changes.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.image: QImage | None = None
        self.message = ""
        self._scaled: dict[int, tuple[QImage, QImage]] = {}
        self._scaled_for = QSize()
        self.setMinimumSize(QSize(120, 80))
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def _fitted(self, image: QImage) -> QImage:
        if self._scaled_for != self.size():
            self._scaled.clear()
            self._scaled_for = self.size()
        hit = self._scaled.get(id(image))
        if hit is not None and hit[0] is image:
            return hit[1]
        ratio = self.devicePixelRatioF()
        scaled = image.scaled(self.size() * ratio, Qt.AspectRatioMode.KeepAspectRatio,
                              Qt.TransformationMode.SmoothTransformation)
        scaled.setDevicePixelRatio(ratio)
        if len(self._scaled) >= SCALED_CACHE_FRAMES:
            self._scaled.clear()
        self._scaled[id(image)] = (image, scaled)  # the original is kept so its id stays unique
        return scaled

    def set_image(self, image: QImage | None, message: str = "") -> None:
        if image is self.image and message == self.message:
            return  # e.g. the timeline grew by a clip: the frame shown is the same
        self.image = image
        self.message = message
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.fillRect(self.rect(), palette.POSTER_EMPTY)
        if self.image is not None and not self.image.isNull():
            scaled = self._fitted(self.image)
            size = scaled.deviceIndependentSize()
            painter.drawImage(QPointF((self.width() - size.width()) / 2, (self.height() - size.height()) / 2), scaled)
        elif self.message:
            painter.setPen(palette.TEXT_DIM)
            painter.drawText(self.message_rect(), MESSAGE_FLAGS, breakable(self.message))

    def message_rect(self) -> QRect:
        """Where the message is written: the view less a margin. The message wraps inside it (on
        one centred line a take tile, a quarter of the inspector wide, cut "clip missing or
        damaged: re-roll this turn" or an engine's error at both ends)."""
        return self.rect().adjusted(MESSAGE_MARGIN, MESSAGE_MARGIN, -MESSAGE_MARGIN, -MESSAGE_MARGIN)


class Player(QWidget):
    """Plays a list of clips as one timeline."""

    segment_changed = Signal(int)  # index of the clip now showing
    frame_changed = Signal(int)

    def __init__(self, clips: ClipCache, parent: QWidget | None = None, *, compact: bool = False) -> None:
        super().__init__(parent)
        self.clips = clips
        self._paths: list[str] = []
        self._segments: list[_Segment] = []
        self._held: dict[str, tuple[Sequence[QImage], float]] = {}
        """The decoded clips of this timeline, kept here: the shared cache holds fewer clips
        than a long branch has, and would drop the first ones while the last ones load."""
        self._frame = 0
        self._segment_index = _UNSHOWN
        self._cue: int | None = None
        self._cue_offset = 0
        """The frame within the cued clip to show (a timeline replaced mid-play keeps its place)."""
        self._note = ""
        """Shown in place of the frame until the playback starts or the user seeks (see :meth:`hold_note`)."""
        self.loop = True
        self.view = FrameView(self)
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._tick)
        clips.ready.connect(self._on_clip_ready)
        clips.failed.connect(self._on_clip_ready)

        self.play_button = self._button("play", "Play / pause (Space)", self.toggle)
        self._icon_playing = False
        self.back_button = self._button("step-back", "Previous frame (,)", lambda: self.step(-1))
        self.forward_button = self._button("step-forward", "Next frame (.)", lambda: self.step(1))
        self.loop_button = self._button("loop", "Loop", self._toggle_loop)
        self.loop_button.setCheckable(True)
        self.loop_button.setChecked(True)
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setRange(0, 0)
        self.slider.valueChanged.connect(self.seek)
        self.time_label = QLabel(format_clock(0.0), self)
        self.time_label.setObjectName("dimLabel")
        self.time_label.setMinimumWidth(86)

        controls = QHBoxLayout()
        controls.setContentsMargins(0, 0, 0, 0)
        controls.setSpacing(2)
        for widget in (self.play_button, self.back_button, self.forward_button):
            controls.addWidget(widget)
        controls.addWidget(self.slider, 1)
        controls.addWidget(self.time_label)
        controls.addWidget(self.loop_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.view, 1)
        if compact:
            hidden: tuple[QWidget, ...] = (self.back_button, self.forward_button, self.loop_button, self.time_label)
            for hidden_widget in hidden:
                hidden_widget.hide()
        layout.addLayout(controls)

    def _button(self, name: str, tip: str, slot: Callable[[], object]) -> QToolButton:
        button = QToolButton(self)
        button.setIcon(icon(name))
        button.setToolTip(tip)
        button.setAutoRaise(True)
        button.clicked.connect(slot)
        return button

    # -- source ---------------------------------------------------------------------------

    def set_clips(self, paths: list[str], *, autoplay: bool = False, keep_place: bool = False) -> None:
        """Show ``paths`` (absolute clip files) as one timeline, from the first frame.

        ``keep_place``: if playing a clip that the new timeline still has (a take of another
        turn of the branch just landed, say), play on from the same frame of that clip rather
        than stop and jump back to the start."""
        if paths == self._paths:
            if autoplay:
                self.play()
            return
        place = self._place() if keep_place and self.playing else None
        self.pause()
        self._paths = list(paths)
        self._held = {path: clip for path, clip in self._held.items() if path in self._paths}
        self._frame = 0
        self._cue = None
        self._note = ""
        self._segment_index = _UNSHOWN  # the new timeline's clip is announced, even if its number is the same
        self._rebuild()
        if place is not None and place[0] in self._paths:
            self.play(from_segment=self._paths.index(place[0]), at_frame=place[1])
        elif autoplay:
            self.play()

    def _place(self) -> tuple[str, int] | None:
        """The clip shown and the frame within it, or None when no clip shows."""
        segment = self._segment_at(self._frame)
        return None if segment is None else (segment.path, self._frame - segment.start)

    @property
    def paths(self) -> list[str]:
        return list(self._paths)

    def _rebuild(self) -> None:
        segments: list[_Segment] = []
        start = 0
        for path in self._paths:
            clip = self._held.get(path) or self.clips.get(path)
            frames: Sequence[QImage | None]
            if clip is not None:
                self._held[path] = clip
                frames, fps = clip
            elif self.clips.is_broken(path):  # a stand-in keeps the clip numbers (the turns) in step
                frames, fps = [None] * MISSING_FRAMES, MISSING_FPS
            else:
                break
            segments.append(_Segment(path, frames, fps or 8.0, start))
            start += len(frames)
        self._segments = segments
        self.slider.blockSignals(True)
        self.slider.setRange(0, max(0, self.frame_count - 1))
        self.slider.blockSignals(False)
        self._show()
        self._apply_cue()

    @property
    def ready(self) -> bool:
        return len(self._segments) == len(self._paths)

    @property
    def frame_count(self) -> int:
        return sum(len(s.frames) for s in self._segments)

    @property
    def frame(self) -> int:
        return self._frame

    @property
    def playing(self) -> bool:
        return self._timer.isActive()

    def _on_clip_ready(self, path: str) -> None:
        if path in self._paths and not self.ready:
            clip = self.clips.peek(path)  # just loaded: hold it before a later load pushes it out
            if isinstance(clip, tuple):
                self._held[path] = clip
            self._rebuild()

    # -- transport ------------------------------------------------------------------------

    def play(self, *, from_segment: int | None = None, at_frame: int = 0) -> None:
        """Play on from the frame shown; ``from_segment``: from that clip's first frame (or its
        frame ``at_frame``), once it has loaded (a clip of a long branch may still be decoding).
        Without it, a clip cued and still decoding (the selected turn's) is where it starts."""
        if from_segment is not None:  # else a clip cued and still decoding stays the one to start from
            self._cue, self._cue_offset = from_segment, at_frame
        self._apply_cue()
        if not self._paths:
            return
        if self._note:
            self._note = ""
            self._show()
        if self.ready and self._frame >= self.frame_count - 1 and not self.loop:
            self._frame = 0
        self._timer.start(self._interval())
        self._show_playing(True)

    def pause(self) -> None:
        self._timer.stop()
        self._show_playing(False)

    def _show_playing(self, playing: bool) -> None:
        """The play button's icon, set only when it changes (each new icon is an SVG render)."""
        if playing != self._icon_playing:
            self._icon_playing = playing
            self.play_button.setIcon(icon("pause" if playing else "play"))

    def toggle(self) -> None:
        self.pause() if self.playing else self.play()

    def _toggle_loop(self) -> None:
        self.loop = self.loop_button.isChecked()

    def step(self, delta: int) -> None:
        self.pause()
        if self.frame_count:
            self.seek((self._frame + delta) % self.frame_count)

    def time_at(self, frame: int) -> float:
        """Seconds from the timeline's start to ``frame`` (clips may differ in frame rate)."""
        elapsed = 0.0
        for segment in self._segments:
            count = len(segment.frames)
            if frame < segment.start + count:
                return elapsed + max(0, frame - segment.start) / (segment.fps or 8.0)
            elapsed += count / (segment.fps or 8.0)
        return elapsed

    @property
    def duration(self) -> float:
        return sum(len(s.frames) / (s.fps or 8.0) for s in self._segments)

    def seek(self, frame: int) -> None:
        """Show ``frame`` (a scrub, a frame step: any note held over the view goes)."""
        self._note = ""
        self._seek(frame)

    def _seek(self, frame: int) -> None:
        if not self.frame_count:
            self._show()  # a note held over the view shows even before a clip has loaded
            return
        self._frame = max(0, min(frame, self.frame_count - 1))
        self._show()

    def seek_segment(self, index: int) -> None:
        if 0 <= index < len(self._segments):
            self.seek(self._segments[index].start)

    def cue_segment(self, index: int) -> None:
        """Show clip ``index``'s first frame now, or as soon as its clip has loaded."""
        self._note = ""
        self._cue, self._cue_offset = index, 0
        self._apply_cue()

    def hold_note(self, note: str, *, cue: int | None = None) -> None:
        """Show ``note`` in place of the frame while paused, marking no clip as shown, until
        the playback starts or the user seeks; ``cue``: the clip Play then starts from.

        For a selected turn that has no clip (not generated, failed): the frame under it would
        be another turn's clip, shown as if it were the selected one's."""
        self._cue, self._cue_offset = cue, 0
        self._note = note
        self._apply_cue()
        self._show()

    @property
    def note(self) -> str:
        """The note held over the view ("" when none; see :meth:`hold_note`)."""
        return self._note

    def _apply_cue(self) -> None:
        if self._cue is not None and 0 <= self._cue < len(self._segments):
            index, self._cue = self._cue, None
            segment = self._segments[index]
            self._seek(segment.start + max(0, min(self._cue_offset, len(segment.frames) - 1)))

    def _interval(self) -> int:
        segment = self._segment_at(self._frame)
        fps = segment.fps if segment is not None else 8.0
        return max(10, int(1000 / fps))

    def _segment_at(self, frame: int) -> _Segment | None:
        for segment in reversed(self._segments):
            if frame >= segment.start:
                return segment
        return None

    def _tick(self) -> None:
        if not self._segments or self._cue is not None:
            return  # still decoding (the clip to start from, say): keep waiting
        nxt = self._frame + 1
        if nxt >= self.frame_count:
            if not self.ready:
                return  # the next clip is still decoding
            if not self.loop:
                self.pause()
                return
            nxt = 0
        self._frame = nxt
        self._show()
        self._timer.setInterval(self._interval())

    def _show(self) -> None:
        if self._note and not self.playing:
            self.view.set_image(None, self._note)
            self._announce(-1)
            return
        segment = self._segment_at(self._frame)
        if segment is None:
            message = "decoding…" if self._paths else "no clip"
            self.view.set_image(None, message)
            self.time_label.setText(format_clock(0.0))
            self._announce(-1)  # no clip shows: the views marking the playing turn clear it
            return
        image = segment.frames[self._frame - segment.start]
        if image is None:
            self.view.set_image(None, MISSING_TEXT)
        else:
            self.view.set_image(image)
        self.slider.blockSignals(True)
        self.slider.setValue(self._frame)
        self.slider.blockSignals(False)
        self.time_label.setText(f"{format_clock(self.time_at(self._frame))} / {format_clock(self.duration)}")
        self._announce(self._segments.index(segment))
        self.frame_changed.emit(self._frame)

    def _announce(self, index: int) -> None:
        """Tell the views which clip shows (-1: none) when that changes."""
        if index != self._segment_index:
            self._segment_index = index
            self.segment_changed.emit(index)
