"""The bottom panel: branch player on the left; state chart above the filmstrip."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QImage, QResizeEvent, QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QScrollArea, QSplitter, QVBoxLayout, QWidget

from studio.core.state import CharacterState
from studio.ui.elided_label import ElidedLabel
from studio.ui.episode.filmstrip import PITCH, Filmstrip, offset_showing, whole_tiles
from studio.ui.episode.state_chart import StateChart
from studio.ui.job_tracker import JobTracker
from studio.ui.media_cache import ClipCache, PosterCache
from studio.ui.node_summary import CardStatus, NodeSummary, cut_to_chars
from studio.ui.player import Player
from studio.ui.tab_order import move_to_chain_end, widgets_in_reading_order
from studio.worker.events import PreviewFrames

NOTE_HINT_CHARS = 200
PLAYER_MIN_WIDTH = 220
"""The branch player's narrowest: its buttons and time still fit (its slider goes on a line of
its own). A window on half of a laptop screen needs it this narrow."""
PLAYER_WIDTH = 320
"""The player's width at least, where the panel has room for it and :data:`BRANCH_SIDE_WIDTH` beside."""
BRANCH_SIDE_WIDTH = 200
"""The chart and filmstrip's room beside the player before the player gets less than :data:`PLAYER_WIDTH`."""
"""A failed turn's hint in the preview's note is cut here: the note is read at a glance."""


def no_clip_note(index: int, summary: NodeSummary) -> str:
    """What the preview says in place of a frame while turn ``index``, which has no clip, is
    selected: why it has none (its status, a failure's reason and, on the next line, the
    hint saying what to do about it, as the inspector shows it)."""
    turn = f"Turn {index}"
    if summary.clip_missing:
        return f"{turn}'s clip is missing (moved or deleted?)\nHint: re-roll it (R): the new take is used in its place"
    if summary.status == CardStatus.DRAFT:
        return f"{turn} is not generated yet"
    if summary.status == CardStatus.QUEUED:
        return f"{turn} is queued: its clip shows here once it is made"
    if summary.status == CardStatus.RUNNING:
        done = round(summary.fraction * 100)
        return f"{turn} is being generated… {done}%" if 0 < done < 100 else f"{turn} is being generated…"
    if summary.status == CardStatus.FAILED:
        reason = summary.error.strip().splitlines()[0] if summary.error.strip() else ""
        said = f"{turn} failed: {reason}" if reason else f"{turn} failed"
        hint = " ".join(summary.hint.split())
        return f"{said}\nHint: {cut_to_chars(hint, NOTE_HINT_CHARS)}" if hint else said
    return f"{turn} has no clip"


def preview_caption(preview: PreviewFrames) -> str:
    """What marks a preview as one, with how far the clip has come ("Preview · denoising 20/50")."""
    said = " ".join(preview.message.split()) or f"step {preview.stage_step} of {preview.stage_total}"
    return f"Preview · {said}"


def preview_images(frames: Any) -> list[QImage]:
    """uint8 T x H x W x 3 frames (a numpy array, read without importing numpy) as images."""
    images = []
    for frame in frames:
        height, width = int(frame.shape[0]), int(frame.shape[1])
        data = frame.tobytes()  # C order, rows of width * 3 bytes
        images.append(QImage(data, width, height, 3 * width, QImage.Format.Format_RGB888).copy())
    return images


class EpisodePanel(QWidget):
    turn_selected = Signal(str)
    branch_shown = Signal()
    """The panel shows another branch, or the same one changed (a turn added, deleted or
    generated, a take chosen): what an export of the shown branch would export changed."""

    def __init__(self, posters: PosterCache, clips: ClipCache, resolve: Callable[[str], str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.resolve = resolve
        self.branch: list[str] = []
        self._clip_turns: list[int] = []
        """The turn of each clip of the player's timeline: every turn after the start, one
        without a clip played as a note saying why (see :meth:`set_branch`), so that the
        player's clip numbers and the turns stay in step; none on a branch without a clip."""
        self._key: tuple[object, ...] = ()
        self._shown_turn = -1
        self._note = ""
        """The note last held over the preview for the selected turn without a clip."""
        self._jobs: JobTracker | None = None
        self._dismissed_job = ""
        """The job whose clip preview the user put away (played or sought) while its turn stayed selected."""
        self.player = Player(clips, self)
        self.player.setMinimumWidth(PLAYER_MIN_WIDTH)
        self.chart = StateChart(self)
        self.strip = Filmstrip(posters, resolve, self)
        posters.failed.connect(self.strip.poster_changed)  # a missing picture's thumbnail then says so
        # one line, cut with "…" in a narrow window (whole in its tooltip): on two lines it took
        # the state chart's room, whose plot then ran flat
        self.title = ElidedLabel("Branch", self)
        self.title.setObjectName("panelTitle")
        scroll = QScrollArea(self)
        scroll.setWidget(self.strip)
        scroll.setWidgetResizable(False)
        scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFixedHeight(self.strip.sizeHint().height() + 16)
        scroll.viewport().installEventFilter(self)
        # not a Tab stop (it showed no focus frame, and the strip takes no keys): the keyboard
        # picks turns in the tree, and the strip scrolls to the selected one
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        # whole tiles: a tile cut at the left edge hid its turn number
        scroll.horizontalScrollBar().setSingleStep(int(PITCH))
        scroll.horizontalScrollBar().valueChanged.connect(self._scroll_to_whole_tiles)
        self.scroll_area = scroll

        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.setSpacing(4)
        right_layout.addWidget(self.title)
        right_layout.addWidget(self.chart, 1)
        right_layout.addWidget(scroll)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.player)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([480, 520])
        self.splitter = splitter
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(splitter)

        self.chart.turn_clicked.connect(self._select_index)
        self.strip.turn_clicked.connect(self._select_index)
        self.strip.turn_activated.connect(self._play_from)
        self._follow_timer = QTimer(self)
        self._follow_timer.setSingleShot(True)
        self._follow_timer.setInterval(0)
        self._follow_timer.timeout.connect(self._follow_playing)
        self.player.segment_changed.connect(self._on_segment)
        self.player.preview_dismissed.connect(self._on_preview_dismissed)
        self._tab_placed = False
        """Whether the panel's Tab stops were put in place (see :meth:`showEvent`)."""

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        """Once in its window, the panel's Tab stops go in its on-screen order (the player's
        Loop after its slider, as it sits) and last in the window's chain: Tab from the story
        tree goes to the inspector, as the README says, rather than through the player first.
        Done once the window has handled the show: the docks (the inspector among them) join
        the window's chain after the workspace is shown, behind the panel."""
        super().showEvent(event)
        if not self._tab_placed and self.window() is not self:
            self._tab_placed = True
            QTimer.singleShot(0, self, self._place_tab_stops)

    def _place_tab_stops(self) -> None:
        if self.window() is not self:
            move_to_chain_end(self.tab_stops())

    def tab_stops(self) -> list[QWidget]:
        """The panel's Tab stops in the order they sit on screen, hidden ones included: the
        player's, then the chart's box (which the chart places itself, outside any layout)."""
        stops = widgets_in_reading_order(self)
        if not any(stop is self.chart.mode_box for stop in stops):
            stops.append(self.chart.mode_box)
        return stops

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        """Where the panel has room, the player keeps :data:`PLAYER_WIDTH` (its narrowest, once):
        only a narrow window gives it less."""
        super().resizeEvent(event)
        # once the splitter has shared out the new width; with the panel as context, the call is
        # dropped if the panel is deleted first (a window closing)
        QTimer.singleShot(0, self, self._keep_player_width)

    def _keep_player_width(self) -> None:
        sizes = self.splitter.sizes()
        if len(sizes) != 2 or self.player.isHidden():
            return
        total = sum(sizes)
        wanted = min(PLAYER_WIDTH, total - BRANCH_SIDE_WIDTH)
        if sizes[0] < wanted:
            self.splitter.setSizes([wanted, total - wanted])

    def follow_jobs(self, tracker: JobTracker) -> None:
        """Show the previews ``tracker`` hears of: while the selected turn's clip is being
        made by an engine that sends them, the newest one shows in place of the picture."""
        self._jobs = tracker
        tracker.previews_changed.connect(self._on_previews)

    def set_branch(self, branch: list[str], summaries: list[NodeSummary], states: list[CharacterState],
                   current: int, known: list[bool] | None = None) -> None:
        """``known``: which turns have a state (the start, turns with a finished take): the
        chart plots no point for the others."""
        key = (tuple(branch), tuple(summaries), tuple(states), current, tuple(known or ()))
        if key == self._key:
            return
        self._key = key
        playing_node = self._playing_node()  # of the branch shown until now
        self.branch = list(branch)
        self.chart.set_states(states, current, known)
        self.strip.set_branch(summaries, current)
        turns = len(branch) - 1
        done = sum(1 for s in summaries[1:] if s.clip_path)
        self.title.setText(f"Branch · {turns} turn{'s' if turns != 1 else ''} · {done} generated")
        # Every turn has its place on the timeline: one without a clip (not generated, queued,
        # being made, failed) says why for its set duration while it plays. It was left off, so
        # the branch played as if it were complete and the turn's time was lost.
        clip_turns = list(range(1, len(summaries))) if done else []
        # a clip found deleted plays as a stand-in saying so (decoded frames held from before
        # went on showing it as if nothing had happened)
        playable = [bool(summaries[i].clip_path) and not summaries[i].clip_missing for i in clip_turns]
        paths = [self.resolve(summaries[i].clip_path) if ok else "" for i, ok in zip(clip_turns, playable, strict=True)]
        notes = ["" if ok else no_clip_note(i, summaries[i]) for i, ok in zip(clip_turns, playable, strict=True)]
        new_clips = paths != self.player.paths
        # each clip's stored length places it before it is decoded: the total time is the branch's;
        # each turn's set duration holds or cuts its clip, as the export does
        lengths = [(summaries[i].clip_frames, summaries[i].clip_fps) for i in clip_turns]
        durations = [summaries[i].duration for i in clip_turns]
        if new_clips:
            self._clip_turns = clip_turns  # before the player announces the clip it shows
        # a take landing mid-play doesn't stop it, nor does a duration changed
        self.player.set_clips(paths, keep_place=True, lengths=lengths, durations=durations, notes=notes)
        if new_clips and playing_node and not self.player.playing:
            self._play_on_at(playing_node)
        if current != self._shown_turn:
            self._dismissed_job = ""
        if not self.player.playing and 0 <= current < len(summaries):
            self._preview(current, summaries[current], again=new_clips or current != self._shown_turn)
        self._shown_turn = current
        self._show_job_preview()
        if 0 <= current < len(branch):
            self._show_in_strip(current)
        self.branch_shown.emit()

    def _show_in_strip(self, index: int) -> None:
        """Scroll the filmstrip (the least it takes, by whole tiles) so that turn ``index`` is in sight."""
        bar = self.scroll_area.horizontalScrollBar()
        self.strip.fit_view(self.scroll_area.viewport().width())
        bar.setValue(offset_showing(index, bar.value(), self.scroll_area.viewport().width()))

    def _scroll_to_whole_tiles(self, value: int) -> None:
        """The filmstrip's view starts at a tile's edge, however it was scrolled."""
        snapped = min(whole_tiles(value), self.scroll_area.horizontalScrollBar().maximum())
        if snapped != value:
            self.scroll_area.horizontalScrollBar().setValue(snapped)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """The filmstrip's view narrowed (the queue came out beside it, the window shrank): the
        turn playing, else the selected one, stays in sight (it was left cut at the edge)."""
        if event.type() == QEvent.Type.Resize and watched is self.scroll_area.viewport():
            self.strip.fit_view(self.scroll_area.viewport().width())
            QTimer.singleShot(0, self, self._keep_in_strip)  # once the scroll range follows the new width
        return super().eventFilter(watched, event)

    def _follow_playing(self) -> None:
        if 0 <= self.strip.playing < len(self.branch):
            self._show_in_strip(self.strip.playing)

    def _keep_in_strip(self) -> None:
        turn = self.strip.playing if self.player.playing else self._shown_turn
        if 0 <= turn < len(self.branch):
            self._show_in_strip(turn)

    def _playing_node(self) -> str:
        """The turn whose clip is playing ("" when paused or no clip shows)."""
        if not self.player.playing:
            return ""
        segment = self.player.segment_index
        if 0 <= segment < len(self._clip_turns) and self._clip_turns[segment] < len(self.branch):
            return self.branch[self._clip_turns[segment]]
        return ""

    def _play_on_at(self, node_id: str) -> None:
        """The clip of turn ``node_id`` was playing and is gone from the timeline: a take of
        that turn re-rolled or chosen (the new one selected), or being made again. Playback
        stopped there; it goes on with the turn's new clip from its start (decoded first),
        else with the next clip of the branch. A turn no longer on the branch (another branch
        selected) stops it, as before."""
        if node_id not in self.branch or not self._clip_turns:
            return
        turn = self.branch.index(node_id)
        later = [segment for segment, index in enumerate(self._clip_turns) if index >= turn]
        if later:
            self.player.play(from_segment=later[0])
        elif self.player.loop:
            self.player.play(from_segment=0)

    def _preview(self, current: int, summary: NodeSummary, *, again: bool) -> None:
        """The paused preview shows the selected turn: its clip's first frame; for the start,
        the branch's first clip; for a turn without a clip, a note saying why in place of a
        frame (it showed another turn's clip as if it were this one's), Play then starting
        at that turn (its note shows for its set duration, then the next clip plays).
        ``again``: cue even if the turn's clip is the one cued already."""
        if summary.clip_path and current in self._clip_turns:
            if again:
                self.player.cue_segment(self._clip_turns.index(current))
        elif current == 0 or (not self._clip_turns and summary.status == CardStatus.DRAFT):
            # A branch with no clip at all says "no clip" for a turn not generated yet; a
            # failed, queued or running one says so (a failure read as a bare "no clip").
            if again and self._clip_turns:
                self.player.cue_segment(0)
        else:
            note = no_clip_note(current, summary)
            # a new status or progress shows while the note does; a scrub since stays where it is
            # (the note gives the progress: a running turn's note changed at every tick, and took
            # the position back to the turn)
            if again or (note != self._note and self.player.note == self._note):
                self.player.hold_note(note, cue=self._next_clip(current))
            self._note = note
            return
        self._note = ""

    def _on_previews(self, node_ids: set[str]) -> None:
        if 0 <= self._shown_turn < len(self.branch) and self.branch[self._shown_turn] in node_ids:
            self._show_job_preview()

    def _on_preview_dismissed(self) -> None:
        held = self._held_preview()
        if held is not None:
            self._dismissed_job = held[0]

    def _held_preview(self) -> tuple[str, PreviewFrames] | None:
        """The selected turn's running job and its newest preview, if any."""
        if self._jobs is None or not 0 <= self._shown_turn < len(self.branch):
            return None
        return self._jobs.preview_for(self.branch[self._shown_turn])

    def _show_job_preview(self) -> None:
        """The selected turn's newest preview while its clip is being made (not while the
        branch plays, nor once the user played or sought past it); its clip, or its note,
        once the job has ended."""
        held = self._held_preview()
        if held is None or held[0] == self._dismissed_job:
            self.player.clear_preview()
            return
        preview = held[1]
        if self.player.playing or self.player.preview_source is preview:
            return
        self.player.show_preview(preview_images(preview.frames), preview_caption(preview), source=preview)

    def _next_clip(self, index: int) -> int:
        """The place on the timeline of the first turn at or after ``index`` (else the first)."""
        return next((segment for segment, turn in enumerate(self._clip_turns) if turn >= index), 0)

    def _select_index(self, index: int) -> None:
        if 0 <= index < len(self.branch):
            self.turn_selected.emit(self.branch[index])

    def _play_from(self, index: int) -> None:
        self.player.play(from_segment=self._next_clip(index) if self._clip_turns else None)

    def play_branch(self) -> None:
        """Play every generated turn of the branch back to back (Space toggles)."""
        self.player.toggle()

    def _on_segment(self, segment: int) -> None:
        turn = self._clip_turns[segment] if 0 <= segment < len(self._clip_turns) else -1
        self.chart.set_playing(turn)
        self.strip.set_playing(turn)
        if turn >= 0:  # the turn playing (or scrubbed to) stays in sight on a branch longer than the strip
            self._follow_timer.start()  # once the clip shown settles (a new timeline cues another at once)
