"""A small player for one clip or a whole branch: play/pause, loop, scrub, frame step.

A branch is a list of clips played back to back as one timeline. Clips are decoded by the
shared :class:`ClipCache` off the GUI thread. A clip whose length is known before it is
decoded (the take's stored frame count and rate: see :meth:`Player.set_clips`) has its
place on the timeline from the start, so the total time and the scrub bar cover the whole
branch; the player shows "decoding…" there until its frames land. A clip of unknown length
ends the timeline until it has landed (a gap the player waits on). A clip that can't be read (its file
missing or damaged) takes a second of the timeline that says so, and playback goes on; a turn
that has no clip yet (its path "") says why (see :meth:`Player.set_clips`) for its turn's set
duration, else a second.

The player holds the frames of only a few clips around the playback position (see
:data:`HELD_CLIPS`), no more than its byte bound (the shared cache's: see :meth:`Player._hold_window`);
the timeline remembers every decoded clip's length and frame rate, and a clip released is
decoded again as the position comes near it.

The timeline is the exported episode's (see :mod:`studio.export.timeline`): every clip is
played at the first clip's frame rate, as the export resamples it, and a turn whose duration
is set lasts that long, its clip held on its last frame or cut (see :meth:`Player.set_clips`).
"""

from __future__ import annotations

import math
import sys
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QPointF, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QHideEvent,
    QImage,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QShortcut,
    QShowEvent,
)
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QSlider, QToolButton, QVBoxLayout, QWidget

from studio.export.timeline import held_frames, output_frames, source_frame
from studio.storage.ffmpeg import exact_fps
from studio.ui import palette
from studio.ui.icons import icon
from studio.ui.media_cache import ClipCache, clip_bytes
from studio.ui.text_wrap import breakable


def format_clock(seconds: float) -> str:
    """Minutes, seconds and tenths, as a timeline shows them: 0:03.5.

    A time half-way between two tenths rounds up, always: 0.25 s reads 0:00.3 and 0.35 s
    0:00.4 (Python's ``round`` rounds half to even, so frames 2 and 3 at 8 fps read 0:00.2
    and 0:00.4, one tenth skipped). The small margin keeps a half that floating point stores
    a hair below it (frame 5 at 20 fps: 0.25) from rounding down."""
    tenths = math.floor(max(0.0, seconds) * 10 + 0.5 + 1e-9)
    minutes, rest = divmod(tenths, 600)
    return f"{minutes}:{rest // 10:02d}.{rest % 10}"

@dataclass
class _Segment:
    path: str
    count: int
    """Its frames on the timeline (the clip's, or :data:`MISSING_FRAMES` for a stand-in)."""
    fps: float
    start: int
    stand_in: bool = False
    """A clip that can't be read, or a turn without one: its frames say so."""
    note: str = ""
    """What a stand-in says ("": :data:`MISSING_TEXT`)."""
    expected: bool = False
    """Not decoded yet: its length is the one its take stored (see :meth:`Player.set_clips`)."""
    clip_frames: int = 0
    """The clip's own frame count (0: a stand-in, whose frames are drawn, not the clip's)."""
    clip_fps: float = 0.0
    """The clip's own frame rate (``fps`` is the timeline's, the episode's)."""

    def source_frame(self, offset: int) -> int:
        """The clip's frame shown ``offset`` frames into the segment, as the export picks it:
        the nearest earlier frame at the clip's own rate, its last one held past its end."""
        if self.clip_fps <= 0 or self.fps <= 0:
            return offset
        return min(source_frame(offset, exact_fps(self.clip_fps), exact_fps(self.fps)), max(0, self.clip_frames - 1))


MISSING_FRAMES, MISSING_FPS = 8, 8.0
HELD_BEHIND, HELD_AHEAD = 1, 6
HELD_CLIPS = HELD_BEHIND + 1 + HELD_AHEAD
"""Clips whose frames a player holds: the one shown, one before it (a step or scrub back over
the cut) and six ahead, decoded while the ones before them play. A 720x480 clip of 17 frames
is about 23 MB of images, so holding a whole branch ran to gigabytes for a long story (60 turns:
1.4 GB); eight clips are about 185 MB. Six ahead is some twelve seconds of playback at 8 fps,
far more than a clip takes to decode even on a busy machine; the rest of the timeline keeps
only each clip's length and frame rate, and its frames are asked for again as the position
comes near (they are often still in the shared cache, which holds more clips than this).
Full-size clips are bounded by bytes too (see :meth:`Player._hold_window`)."""
_UNSHOWN = -2
"""The clip shown is not announced yet (a new timeline): the next one shown is, even clip 0."""
MISSING_TEXT = "clip missing or damaged: re-roll this turn"
NO_CLIP_TEXT = "no clip"


STEP_BACK_KEY, STEP_ON_KEY = ",", "."
"""The keys that step the paused playback a frame back and on (the player has the focus; in
the compare windows, anywhere in the window: see :func:`add_step_keys`)."""


def add_step_keys(window: QWidget, step: Callable[[int], object]) -> None:
    """:data:`STEP_BACK_KEY` and :data:`STEP_ON_KEY` anywhere in ``window`` call ``step`` with
    -1 and 1: a compare window steps its shared clock with the keys the episode preview has."""
    for key, delta in ((STEP_BACK_KEY, -1), (STEP_ON_KEY, 1)):
        shortcut = QShortcut(QKeySequence(key), window)
        shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
        shortcut.activated.connect(lambda d=delta: step(d))


def is_play_key(event: QKeyEvent) -> bool:
    """Whether ``event`` is a plain Space, which plays and pauses a compare window. The window
    takes it in its own key handler, so it only gets a Space that no focused widget used: a
    focused button is pressed by Space (a window-wide shortcut toggled the playback instead)."""
    return event.key() == Qt.Key.Key_Space and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier

SLIDER_KEYS = frozenset({Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Down,
                         Qt.Key.Key_Home, Qt.Key.Key_End, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown})
"""The keys a focused slider keeps for itself (a frame, ten frames, either end) over the
window's shortcuts of the same keys (the arrows, Home and End walk the turns of the tree)."""

DIGIT_TENTHS = {getattr(Qt.Key, f"Key_{n}"): n for n in range(10)}
"""Digits on the focused slider jump to that tenth of the clip (0 its start, 5 its middle),
as in common video players; elsewhere in the story area 1-9 choose a take."""

MESSAGE_MARGIN = 6
SLIDER_MIN_LENGTH = 80
"""The shortest a player's slider gets beside its buttons; in a narrower player it takes a
line of its own."""
MESSAGE_FLAGS = int(Qt.AlignmentFlag.AlignCenter) | int(Qt.TextFlag.TextWordWrap)
"""A view's message (no clip, decoding…, a missing clip, an engine's error) wraps, centred."""

BADGE_PADDING = 4
PREVIEW_FRAME_MS = 400
"""How long each frame of a preview shows as it loops (a preview has a few frames spread over the clip)."""

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
        self.badge = ""
        """Written over the picture's top left corner (a preview says it is one)."""
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

    def set_image(self, image: QImage | None, message: str = "", badge: str = "") -> None:
        if image is self.image and message == self.message and badge == self.badge:
            return  # e.g. the timeline grew by a clip: the frame shown is the same
        self.image = image
        self.message = message
        self.badge = badge
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.fillRect(self.rect(), palette.POSTER_EMPTY)
        if self.image is not None and not self.image.isNull():
            scaled = self._fitted(self.image)
            size = scaled.deviceIndependentSize()
            painter.drawImage(QPointF((self.width() - size.width()) / 2, (self.height() - size.height()) / 2), scaled)
            if self.badge:
                self._paint_badge(painter)
        elif self.message:
            painter.setPen(palette.TEXT_DIM)
            painter.drawText(self.message_rect(), MESSAGE_FLAGS, breakable(self.message))

    def _paint_badge(self, painter: QPainter) -> None:
        """The badge on a dark plate over the picture's top left corner, whatever the picture."""
        metrics = painter.fontMetrics()
        room = max(0, self.width() - 2 * MESSAGE_MARGIN - 2 * BADGE_PADDING)
        text = metrics.elidedText(self.badge, Qt.TextElideMode.ElideRight, room)
        plate = QRect(MESSAGE_MARGIN, MESSAGE_MARGIN, metrics.horizontalAdvance(text) + 2 * BADGE_PADDING,
                      metrics.height() + BADGE_PADDING)
        painter.fillRect(plate, QColor(0, 0, 0, 170))
        painter.setPen(QColor(255, 255, 255))
        painter.drawText(plate, int(Qt.AlignmentFlag.AlignCenter), text)

    def message_rect(self) -> QRect:
        """Where the message is written: the view less a margin. The message wraps inside it (on
        one centred line a take tile, a quarter of the inspector wide, cut "clip missing or
        damaged: re-roll this turn" or an engine's error at both ends)."""
        return self.rect().adjusted(MESSAGE_MARGIN, MESSAGE_MARGIN, -MESSAGE_MARGIN, -MESSAGE_MARGIN)


class Player(QWidget):
    """Plays a list of clips as one timeline."""

    segment_changed = Signal(int)  # index of the clip now showing
    frame_changed = Signal(int)
    preview_dismissed = Signal()
    """The user played or sought while a preview showed: it went (see :meth:`show_preview`)."""

    def __init__(self, clips: ClipCache, parent: QWidget | None = None, *, compact: bool = False,
                 max_bytes: int | None = None) -> None:
        super().__init__(parent)
        self.clips = clips
        self.max_bytes = max_bytes if max_bytes is not None else clips.max_bytes
        """The most the frames this player holds may weigh (0: no bound but :data:`HELD_CLIPS`);
        by default the shared cache's bound (see :meth:`_hold_window`)."""
        self._paths: list[str] = []
        self._segments: list[_Segment] = []
        self._held: dict[str, tuple[Sequence[QImage], float]] = {}
        """The frames of the clips near the playback position (at most :data:`HELD_CLIPS`, and
        :attr:`max_bytes`), kept here: the shared cache may drop them while other clips load."""
        self._weights: dict[str, int] = {}
        """What each decoded clip of this timeline weighs (see :meth:`_hold_window`)."""
        self._known: dict[str, tuple[int, float]] = {}
        """Each decoded clip of this timeline's frame count and fps, kept for the whole
        timeline (cheap): its frames may be released, its place on the timeline stays."""
        self._expected: dict[str, tuple[int, float]] = {}
        """The frame count and fps each clip is said to have before it is decoded (see :meth:`set_clips`)."""
        self._notes: list[str] = []
        """What each stand-in says, by clip ("": :data:`MISSING_TEXT`; see :meth:`set_clips`)."""
        self._durations: list[float | None] = []
        """The seconds each clip's turn is set to last (None: the clip's own length; see :meth:`set_clips`)."""
        self._frame = 0
        self._segment_index = _UNSHOWN
        self._cue: int | None = None
        self._cue_offset = 0
        """The frame within the cued clip to show (a timeline replaced mid-play keeps its place)."""
        self._note = ""
        """Shown in place of the frame until the playback starts or the user seeks (see :meth:`hold_note`)."""
        self._preview: Sequence[QImage] = ()
        self._preview_caption = ""
        self._preview_source: object | None = None
        self._preview_frame = 0
        self._preview_timer = QTimer(self)
        self._preview_timer.setInterval(PREVIEW_FRAME_MS)
        self._preview_timer.timeout.connect(self._next_preview_frame)
        self.loop = True
        self.view = FrameView(self)
        # Until it is given clips it has none to show, and says so (a project whose branch had
        # no clip yet showed a blank picture: an empty timeline given again changes nothing).
        self.view.set_image(None, NO_CLIP_TEXT)
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._tick)
        self._unseen = False
        """Hidden since it was shown (its panel or window hidden): playing, it doesn't tick."""
        self._suspended = False
        """Playing while unseen: the timer is stopped, and starts again when it shows."""
        clips.ready.connect(self._on_clip_ready)
        clips.failed.connect(self._on_clip_ready)

        self.play_button = self._button("play", "Play / pause (Space)", self.toggle)
        self._icon_playing = False
        self.back_button = self._button("step-back", f"Previous frame ({STEP_BACK_KEY})", lambda: self.step(-1))
        self.forward_button = self._button("step-forward", f"Next frame ({STEP_ON_KEY})", lambda: self.step(1))
        self.loop_button = self._button("loop", "Loop", self._toggle_loop)
        self.loop_button.setCheckable(True)
        self.loop_button.setChecked(True)
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setAccessibleName("Time")
        self.slider.setRange(0, 0)
        self.slider.valueChanged.connect(self.seek)
        self.slider.installEventFilter(self)
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
        self.compact = compact
        if compact:
            hidden: tuple[QWidget, ...] = (self.back_button, self.forward_button, self.loop_button, self.time_label)
            for hidden_widget in hidden:
                hidden_widget.hide()
        else:
            self._step_keys()
        self.controls = controls
        self.slider_line = QHBoxLayout()
        """The slider's own line, over the buttons, in a player too narrow for it beside them."""
        self.slider_line.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.slider_line)
        layout.addLayout(controls)

    def slider_on_own_line(self) -> bool:
        return self.slider_line.indexOf(self.slider) >= 0

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        """A narrow player (a window on half of a laptop screen) puts its slider on a line of
        its own: beside the buttons and the time it was a few pixels, too short to seek with."""
        super().resizeEvent(event)
        if self.compact:
            return
        others = (self.play_button, self.back_button, self.forward_button, self.time_label, self.loop_button)
        beside = sum(w.sizeHint().width() for w in others) + self.controls.spacing() * len(others)
        own_line = self.width() - beside < SLIDER_MIN_LENGTH
        if own_line != self.slider_on_own_line():
            if own_line:
                self.controls.removeWidget(self.slider)
                self.slider_line.addWidget(self.slider)
                self.controls.insertStretch(3, 1)  # the time and the loop button stay at the right
            else:
                self.slider_line.removeWidget(self.slider)
                self.controls.takeAt(3)  # the stretch that held the slider's place
                self.controls.insertWidget(3, self.slider, 1)

    def _step_keys(self) -> None:
        """"," and "." step a frame back and on, as the step buttons' tooltips say, while the
        player has the focus (a click on its picture or its slider gives it; they did nothing)."""
        self.view.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        for key, delta in ((STEP_BACK_KEY, -1), (STEP_ON_KEY, 1)):
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(lambda d=delta: self.step(d))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """The focused slider takes its arrow keys, Home and End (see :data:`SLIDER_KEYS`):
        the window's shortcuts of those keys took them, so Right on the slider selected the
        next turn instead of stepping a frame. Its digits too (see :data:`DIGIT_TENTHS`): 3
        chose take 3 of the selected turn."""
        if watched is self.slider and isinstance(event, QKeyEvent) \
                and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            if event.type() == QEvent.Type.ShortcutOverride and (event.key() in SLIDER_KEYS
                                                                 or event.key() in DIGIT_TENTHS):
                event.accept()  # the key press goes to the slider, not to a shortcut
                return True
            if event.type() == QEvent.Type.KeyPress and event.key() in DIGIT_TENTHS:
                self.slider.setValue(round(self.slider.maximum() * DIGIT_TENTHS[event.key()] / 10))
                return True
        return super().eventFilter(watched, event)

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802
        """Hidden (its panel folded away, its window minimised): a playing timeline stops
        ticking (it went on decoding and emitting frames nobody saw) and goes on when shown."""
        super().hideEvent(event)
        self._unseen = True
        self._preview_timer.stop()
        if self._timer.isActive():
            self._timer.stop()
            self._suspended = True

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        super().showEvent(event)
        self._unseen = False
        if len(self._preview) > 1:
            self._preview_timer.start()
        if self._suspended:
            self._suspended = False
            self._timer.start(self._interval())

    def _button(self, name: str, tip: str, slot: Callable[[], object]) -> QToolButton:
        """An icon button; a screen reader names it by its tooltip without the key ("Play / pause")."""
        button = QToolButton(self)
        button.setIcon(icon(name))
        button.setToolTip(tip)
        button.setAccessibleName(tip.split(" (")[0])
        button.setAutoRaise(True)
        button.clicked.connect(slot)
        return button

    # -- source ---------------------------------------------------------------------------

    def set_clips(self, paths: list[str], *, autoplay: bool = False, keep_place: bool = False,
                  lengths: Sequence[tuple[int, float] | None] = (),
                  durations: Sequence[float | None] = (), notes: Sequence[str] = ()) -> None:
        """Show ``paths`` (absolute clip files) as one timeline, from the first frame.

        ``keep_place``: if playing a clip that the new timeline still has (a take of another
        turn of the branch just landed, say), play on from the same frame of that clip rather
        than stop and jump back to the start.

        ``lengths``: for each clip, its frame count and fps as stored with its take (None or
        left out: unknown). The clip takes that place on the timeline before it is decoded:
        the total time read "0:10.5 / 1:25.6" on a branch of 3:00, and grew as clips decoded.

        ``durations``: for each clip, the seconds its turn is set to last (None or left out:
        the clip's own length). The export holds the clip's last frame or cuts it to that many
        frames (:func:`~studio.export.timeline.held_frames`); the player played the clip at its
        own length, so its total time and scrub bar disagreed with the exported episode. The
        same clips with other durations keep the place (a duration changed while playing).

        ``notes``: for each clip, what its stand-in says when it has none to show ("" or left
        out: :data:`MISSING_TEXT`): a turn not generated yet is given as the path "" and a
        note saying so ("Turn 5 is queued…"), so that the timeline keeps one place per turn
        and the turn lasts its set duration, as the export would hold it. The same clips with
        other notes keep the place (a progress tick)."""
        notes = [notes[i] if i < len(notes) else "" for i in range(len(paths))]
        if paths == self._paths and notes != self._notes:
            self._notes = notes
            for index, segment in enumerate(self._segments):
                segment.note = notes[index]
            self._show()
        self._notes = notes
        self._expected = {path: (int(length[0]), float(length[1]))
                          for path, length in zip(paths, lengths, strict=False)
                          if length is not None and length[0] > 0 and length[1] > 0}
        durations = [durations[i] if i < len(durations) else None for i in range(len(paths))]
        if paths == self._paths:
            if durations != self._durations:
                self._durations = durations
                self._rebuild()
            if autoplay:
                self.play()
            return
        self._durations = durations
        place = self._place() if keep_place and self.playing else None
        kept = self._segment_index_at(place, paths) if place is not None else None
        self.pause()
        self._paths = list(paths)
        self._held = {path: clip for path, clip in self._held.items() if path in self._paths}
        self._known = {path: known for path, known in self._known.items() if path in self._paths}
        self._weights = {path: weight for path, weight in self._weights.items() if path in self._paths}
        self._frame = 0
        self._cue = None
        self._note = ""
        self._drop_preview()
        self._segment_index = _UNSHOWN  # the new timeline's clip is announced, even if its number is the same
        self._rebuild()
        if place is not None and kept is not None:
            self.play(from_segment=kept, at_frame=place[1])
        elif autoplay:
            self.play()

    def _place(self) -> tuple[str, int] | None:
        """The clip shown and the frame within it, or None when no clip shows."""
        segment = self._segment_at(self._frame)
        return None if segment is None else (segment.path, self._frame - segment.start)

    def _segment_index_at(self, place: tuple[str, int], paths: Sequence[str]) -> int | None:
        """Where the clip of ``place`` is in the new timeline ``paths``: its clip's place; for a
        turn without a clip (path "", one of several), the same place if it has none there too."""
        path = place[0]
        if path:
            return paths.index(path) if path in paths else None
        index = self._index_at(self._frame)
        return index if 0 <= index < len(paths) and not paths[index] else None

    @property
    def paths(self) -> list[str]:
        return list(self._paths)

    @property
    def held_paths(self) -> list[str]:
        """The clips whose frames this player holds now (at most :data:`HELD_CLIPS`, within
        :attr:`max_bytes` but for the clip at the position)."""
        return list(self._held)

    @property
    def held_bytes(self) -> int:
        """What the frames this player holds weigh."""
        return sum(clip_bytes(clip) for clip in self._held.values())

    def _learn(self, path: str, clip: tuple[Sequence[QImage], float]) -> bool:
        """Remember ``clip``'s length and frame rate; whether they are new (or changed)."""
        frames, fps = clip
        self._weights[path] = clip_bytes(clip)
        known = (len(frames), fps or 8.0)
        if self._known.get(path) == known:
            return False
        self._known[path] = known
        return True

    def _stand_in(self, path: str, index: int, start: int, fps: float | None) -> _Segment:
        """The stand-in of clip ``index``. A turn without a clip (given a note) lasts its set
        duration at the episode's rate ``fps`` (at :data:`MISSING_FPS` while that is not known);
        a clip that can't be read, or a turn without a set duration, a second."""
        duration = self._durations[index] if index < len(self._durations) else None
        note = self._notes[index] if index < len(self._notes) else ""
        if duration is None or not note:
            return _Segment(path, MISSING_FRAMES, MISSING_FPS, start, stand_in=True, note=note)
        rate = fps or MISSING_FPS
        return _Segment(path, held_frames(duration, exact_fps(rate)), rate, start, stand_in=True, note=note)

    def _episode_fps(self) -> float | None:
        """The rate of the first clip that can be read, if its length is known (the export's)."""
        for path in self._paths:
            if not self._unreadable(path):
                length = self._known.get(path) or self._expected.get(path)
                return length[1] if length is not None else None
        return None

    def _placed(self, path: str, index: int, clip: tuple[int, float], start: int, fps: float,
                *, expected: bool = False) -> _Segment:
        """Clip ``index`` (``clip``: its own frame count and rate) on the timeline at ``fps``:
        as many frames as the export gives its turn (see :func:`studio.export.plan.turn_frames`)."""
        duration = self._durations[index] if index < len(self._durations) else None
        rate = exact_fps(fps)
        if duration is not None:
            count = held_frames(duration, rate)
        else:
            count = output_frames(clip[0], exact_fps(clip[1]), rate)
        return _Segment(path, count, fps, start, expected=expected, clip_frames=clip[0], clip_fps=clip[1])

    def _rebuild(self) -> None:
        place = self._segment_place()
        segments: list[_Segment] = []
        start = 0
        asked = False
        episode_fps: float | None = None  # the first clip's rate, as the export's (stand-ins aside)
        for index, path in enumerate(self._paths):
            expected = self._expected.get(path)
            if path not in self._known:
                # The clips are learnt one at a time, in turn (a stored length may be wrong);
                # those near the position are asked for at once (see :meth:`_hold_window`).
                clip = self._held.get(path) or (self.clips.peek(path) if asked else self.clips.get(path))
                if isinstance(clip, tuple):
                    self._learn(path, clip)
                elif not self._unreadable(path):
                    asked = True
            known = self._known.get(path)
            length = known or (None if self._unreadable(path) else expected)
            if length is not None and episode_fps is None:
                episode_fps = length[1]
            if known is not None and episode_fps is not None:
                segments.append(self._placed(path, index, known, start, episode_fps))
            elif self._unreadable(path):  # a stand-in keeps the clip numbers (the turns) in step
                segments.append(self._stand_in(path, index, start, episode_fps or self._episode_fps()))
            elif expected is not None and episode_fps is not None:
                segments.append(self._placed(path, index, expected, start, episode_fps, expected=True))
            else:
                break
            start += segments[-1].count
        self._segments = segments
        if place is not None and place[0] < len(segments):
            # a clip that landed with another length than its take said moves the later clips:
            # the position stays in the clip it was in
            segment = segments[place[0]]
            self._frame = segment.start + min(place[1], segment.count - 1)
        self.slider.blockSignals(True)
        self.slider.setRange(0, max(0, self.frame_count - 1))
        self.slider.blockSignals(False)
        self._show()
        self._apply_cue()

    def _segment_place(self) -> tuple[int, int] | None:
        """The index of the clip at the position and the frame within it (None: no clip)."""
        index = self._index_at(self._frame)
        if index < 0:
            return None
        return index, self._frame - self._segments[index].start

    @property
    def ready(self) -> bool:
        """Whether every clip has its place on the timeline, each at its decoded length."""
        return self.placed and not any(segment.expected for segment in self._segments)

    @property
    def placed(self) -> bool:
        """Whether every clip has its place on the timeline (some may be still decoding)."""
        return len(self._segments) == len(self._paths)

    @property
    def frames_ready(self) -> bool:
        """Whether what the position shows is ready: the clip's frame, or the stand-in of a
        turn without a clip or of a clip that can't be read. False while the clip there (or
        the one cued) is decoding: a window driving several players with one clock waits on
        it (see the compare windows). A timeline without clips has nothing to wait for."""
        if not self._paths:
            return True
        if self._cue is not None:
            return False  # the clip cued has no place on the timeline yet
        segment = self._segment_at(self._frame)
        if segment is None:
            return False
        if self._missing(segment):
            return True
        frames = self._frames_of(segment)
        return frames is not None and segment.source_frame(self._frame - segment.start) < len(frames)

    @property
    def frame_count(self) -> int:
        return sum(s.count for s in self._segments)

    @property
    def segment_index(self) -> int:
        """The index of the clip at the playback position (-1: no clip on the timeline yet)."""
        return self._index_at(self._frame)

    @property
    def frame(self) -> int:
        return self._frame

    @property
    def playing(self) -> bool:
        """Whether it plays (hidden, it plays on once shown: see :meth:`hideEvent`)."""
        return self._timer.isActive() or self._suspended

    def _on_clip_ready(self, path: str) -> None:
        """A clip landed (or failed): the timeline grows by it, or a clip near the position
        that was released is held again (its frame replaces "decoding…")."""
        if path not in self._paths:
            return
        clip = self.clips.peek(path)  # just loaded: hold it before a later load pushes it out
        grew = False
        if isinstance(clip, tuple):
            grew = self._learn(path, clip)
            if path in self._window():
                self._held[path] = clip
                self._hold_window()  # within the byte bound
        if grew or not self.ready:
            self._rebuild()
        else:
            segment = self._segment_at(self._frame)
            if segment is not None and segment.path == path:
                self._show()

    def _position(self) -> int:
        """The clip index the playback is at, or will start from (a clip cued)."""
        if self._cue is not None:
            return max(0, self._cue)
        index = self._index_at(self._frame)
        return max(0, index)

    def _window(self) -> list[str]:
        """The clips to hold, most needed first: the one at the position, those ahead of it,
        then the one before it. Looping a complete timeline, the first clips follow the last."""
        count = len(self._paths)
        if not count:
            return []
        here = self._position()
        wrap = self.loop and self.placed
        paths: list[str] = []
        for offset in [*range(HELD_AHEAD + 1), *range(-1, -HELD_BEHIND - 1, -1)]:
            index = here + offset
            if wrap:
                index %= count
            elif not 0 <= index < count:
                continue
            if self._paths[index] not in paths:
                paths.append(self._paths[index])
        return paths

    def _hold_window(self) -> None:
        """Release the frames of clips away from the position; ask for those near it (in the
        shared cache: held at once; else decoded, held as they land).

        The clips near the position are held, most needed first, while what they weigh stays
        within :attr:`max_bytes`: eight clips held whatever their size ran to some 500 MB of
        1280x720 clips (on top of the shared cache). The clip at the position is always held
        (it is the one playing), and the next one is always asked for, so that the cut to it
        plays on from the shared cache without waiting; a clip not decoded yet is counted as
        heavy as the heaviest one this timeline has decoded."""
        wanted = self._window()
        held: dict[str, tuple[Sequence[QImage], float]] = {}
        budget = self.max_bytes or sys.maxsize
        heaviest = max(self._weights.values(), default=0)
        used = 0
        for rank, path in enumerate(wanted):
            weight = self._weights.get(path, heaviest)
            if rank > 0 and used + weight > budget:
                if rank == 1:
                    self.clips.get(path)  # decoded into the shared cache ahead of the cut
                break
            clip = self._held.get(path) or self.clips.get(path)
            if clip is not None:
                held[path] = clip
                weight = self._weights.get(path) or clip_bytes(clip)
            used += weight
        self._held = held

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
        if self._preview:
            self._drop_preview(dismissed=True)
        if self._note:
            self._note = ""
            self._show()
        if self.placed and self._frame >= self.frame_count - 1 and not self.loop:
            self._frame = 0
        if self._unseen:
            self._suspended = True  # it ticks once shown
        else:
            self._timer.start(self._interval())
        self._show_playing(True)

    def pause(self) -> None:
        self._timer.stop()
        self._suspended = False
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
        """Pause and show the frame ``delta`` frames on (back, when negative). A step past
        either end stays there, as in a video editor: "," on the first frame showed the last
        frame of the whole branch, minutes away."""
        self.pause()
        if self.frame_count:
            self.seek(self._frame + delta)  # seek keeps it within the timeline

    def time_at(self, frame: int) -> float:
        """Seconds from the timeline's start to ``frame`` (clips may differ in frame rate)."""
        elapsed = 0.0
        for segment in self._segments:
            if frame < segment.start + segment.count:
                return elapsed + max(0, frame - segment.start) / (segment.fps or 8.0)
            elapsed += segment.count / (segment.fps or 8.0)
        return elapsed

    @property
    def duration(self) -> float:
        return sum(s.count / (s.fps or 8.0) for s in self._segments)

    def seek(self, frame: int) -> None:
        """Show ``frame`` (a scrub, a frame step: any note or preview held over the view goes)."""
        self._note = ""
        if self._preview:
            self._drop_preview(dismissed=True)
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
        self._drop_preview()
        self._cue, self._cue_offset = index, 0
        self._apply_cue()
        if self._cue is not None:  # still decoding: says so until it shows
            self._show()

    def hold_note(self, note: str, *, cue: int | None = None) -> None:
        """Show ``note`` in place of the frame while paused, marking no clip as shown, until
        the playback starts or the user seeks; ``cue``: the clip Play then starts from.

        For a selected turn that has no clip (not generated, failed): the frame under it would
        be another turn's clip, shown as if it were the selected one's."""
        self._cue, self._cue_offset = cue, 0
        self._note = note
        self._drop_preview()
        self._apply_cue()
        self._show()

    @property
    def note(self) -> str:
        """The note held over the view ("" when none; see :meth:`hold_note`)."""
        return self._note

    def show_preview(self, frames: Sequence[QImage], caption: str, source: object | None = None) -> None:
        """Show ``frames`` (a preview of a clip being made), looping, marked with ``caption``,
        in place of the frame or note while paused, until the playback starts or the user
        seeks (then :attr:`preview_dismissed`), or the timeline, a cue or a note replaces it.
        ``source``: what the frames were made from (see :attr:`preview_source`)."""
        if not frames:
            self.clear_preview()
            return
        self._preview, self._preview_caption, self._preview_source = list(frames), caption, source
        self._preview_frame = 0
        if len(self._preview) > 1 and not self._unseen:
            self._preview_timer.start()
        else:
            self._preview_timer.stop()
        self._show()

    def clear_preview(self) -> None:
        """Take the preview away: the frame or note under it shows again."""
        if self._preview:
            self._drop_preview()
            self._show()

    def _drop_preview(self, *, dismissed: bool = False) -> None:
        had = bool(self._preview)
        self._preview, self._preview_caption, self._preview_source = (), "", None
        self._preview_timer.stop()
        if had and dismissed:
            self.preview_dismissed.emit()

    @property
    def preview_caption(self) -> str:
        """The caption of the preview shown ("" when none)."""
        return self._preview_caption

    @property
    def preview_source(self) -> object | None:
        """What the preview shown was made from (None when none shows)."""
        return self._preview_source

    @property
    def preview_frame(self) -> int:
        """Which of the preview's frames shows (they loop)."""
        return self._preview_frame

    def _next_preview_frame(self) -> None:
        if self._preview and not self.playing:
            self._preview_frame = (self._preview_frame + 1) % len(self._preview)
            self._show()

    def _apply_cue(self) -> None:
        if self._cue is not None and 0 <= self._cue < len(self._segments):
            index, self._cue = self._cue, None
            segment = self._segments[index]
            self._seek(segment.start + max(0, min(self._cue_offset, segment.count - 1)))

    def _interval(self) -> int:
        segment = self._segment_at(self._frame)
        fps = segment.fps if segment is not None else 8.0
        return max(10, int(1000 / fps))

    def _index_at(self, frame: int) -> int:
        """The index of the clip ``frame`` is in, -1 when none (no clip on the timeline yet)."""
        starts = [segment.start for segment in self._segments]
        return bisect_right(starts, frame) - 1 if starts else -1

    def _segment_at(self, frame: int) -> _Segment | None:
        index = self._index_at(frame)
        return self._segments[index] if index >= 0 else None

    def _frames_of(self, segment: _Segment) -> Sequence[QImage] | None:
        """The frames of ``segment``'s clip, None while released and decoding again (or for
        a stand-in, or a clip that could not be decoded again: see :meth:`_missing`)."""
        clip = None if segment.stand_in else self._held.get(segment.path)
        return None if clip is None else clip[0]

    def _missing(self, segment: _Segment) -> bool:
        """Whether ``segment``'s frames say the clip can't be read: a stand-in, or a clip
        released that failed to decode again (its file gone since)."""
        return segment.stand_in or (segment.path not in self._held and self._unreadable(segment.path))

    def _unreadable(self, path: str) -> bool:
        """Whether the clip at ``path`` can't be read: its file failed to load, or there is no
        file to read ("": a stored path the project refused, one outside its folder). The
        latter was never asked for, so the timeline waited on it forever at "decoding…" and
        no later clip ever played."""
        return not path or self.clips.is_broken(path)

    def _waiting(self) -> bool:
        """Whether the clip at the position was released and is decoding again."""
        segment = self._segment_at(self._frame)
        return segment is not None and self._frames_of(segment) is None and not self._missing(segment)

    def _tick(self) -> None:
        if not self._segments or self._cue is not None or self._waiting():
            return  # still decoding (the clip to start from, say): keep waiting
        nxt = self._frame + 1
        if nxt >= self.frame_count:
            if not self.placed:
                return  # the next clip is still decoding (its length unknown)
            if not self.loop:
                self.pause()
                return
            nxt = 0
        self._frame = nxt
        self._show()
        self._timer.setInterval(self._interval())

    def _show(self) -> None:
        self._hold_window()
        if self._preview and not self.playing:
            frame = self._preview[self._preview_frame % len(self._preview)]
            self.view.set_image(frame, badge=self._preview_caption)
            self._announce(-1)
            return
        if self._note and not self.playing:
            self.view.set_image(None, self._note)
            self._announce(-1)
            return
        index = self._index_at(self._frame)
        if self._cue is not None and not 0 <= self._cue < len(self._segments) and self._paths:
            # The clip to show (the selected turn's, just made) is still decoding: the frame at the
            # position is another clip's (the branch's first), and showed as if it were this one.
            self.view.set_image(None, "decoding…")
            self._announce(-1)
            return
        if index < 0:
            message = "decoding…" if self._paths else NO_CLIP_TEXT
            self.view.set_image(None, message)
            self.time_label.setText(format_clock(0.0))
            self._announce(-1)  # no clip shows: the views marking the playing turn clear it
            return
        segment = self._segments[index]
        frames = self._frames_of(segment)
        offset = segment.source_frame(self._frame - segment.start)
        shown = frames is not None and offset < len(frames)
        if shown and frames is not None:
            self.view.set_image(frames[offset])
        else:
            self.view.set_image(None, (segment.note or MISSING_TEXT) if self._missing(segment) else "decoding…")
        self.slider.blockSignals(True)
        self.slider.setValue(self._frame)
        self.slider.blockSignals(False)
        self.time_label.setText(f"{format_clock(self.time_at(self._frame))} / {format_clock(self.duration)}")
        # a clip never decoded yet is announced once it shows, as a clip cued before it had its
        # place on the timeline was (the views marking the clip shown then mark the new one)
        self._announce(-1 if segment.expected and not shown else index)
        if shown or self._missing(segment):
            self.frame_changed.emit(self._frame)  # not while decoding: it is emitted once the frame shows

    def _announce(self, index: int) -> None:
        """Tell the views which clip shows (-1: none) when that changes."""
        if index != self._segment_index:
            self._segment_index = index
            self.segment_changed.emit(index)
