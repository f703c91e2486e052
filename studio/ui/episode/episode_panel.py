"""The bottom panel: branch player on the left; state chart above the filmstrip."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QScrollArea, QSplitter, QVBoxLayout, QWidget

from studio.core.state import CharacterState
from studio.ui.episode.filmstrip import Filmstrip
from studio.ui.episode.state_chart import StateChart
from studio.ui.media_cache import ClipCache, PosterCache
from studio.ui.node_summary import NodeSummary
from studio.ui.player import Player


class EpisodePanel(QWidget):
    turn_selected = Signal(str)

    def __init__(self, posters: PosterCache, clips: ClipCache, resolve: Callable[[str], str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.resolve = resolve
        self.branch: list[str] = []
        self._clip_turns: list[int] = []
        self._key: tuple[object, ...] = ()
        self._shown_turn = -1
        self.player = Player(clips, self)
        self.player.setMinimumWidth(320)
        self.chart = StateChart(self)
        self.strip = Filmstrip(posters, resolve, self)
        posters.failed.connect(self.strip.poster_changed)  # a missing picture's thumbnail then says so
        self.title = QLabel("Branch", self)
        self.title.setObjectName("panelTitle")
        scroll = QScrollArea(self)
        scroll.setWidget(self.strip)
        scroll.setWidgetResizable(False)
        scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFixedHeight(self.strip.sizeHint().height() + 16)
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
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(splitter)

        self.chart.turn_clicked.connect(self._select_index)
        self.strip.turn_clicked.connect(self._select_index)
        self.strip.turn_activated.connect(self._play_from)
        self.player.segment_changed.connect(self._on_segment)

    def set_branch(self, branch: list[str], summaries: list[NodeSummary], states: list[CharacterState],
                   current: int) -> None:
        key = (tuple(branch), tuple(summaries), tuple(states), current)
        if key == self._key:
            return
        self._key = key
        self.branch = list(branch)
        self.chart.set_states(states, current)
        self.strip.set_branch(summaries, current)
        turns = len(branch) - 1
        done = sum(1 for s in summaries[1:] if s.clip_path)
        self.title.setText(f"Branch · {turns} turn{'s' if turns != 1 else ''} · {done} generated")
        clip_turns = [i for i, s in enumerate(summaries) if s.clip_path]
        paths = [self.resolve(summaries[i].clip_path) for i in clip_turns]
        new_clips = paths != self.player.paths
        if new_clips:
            self._clip_turns = clip_turns
            self.player.set_clips(paths, keep_place=True)  # a take landing mid-play doesn't stop it
        if (new_clips or current != self._shown_turn) and not self.player.playing and current in self._clip_turns:
            self.player.cue_segment(self._clip_turns.index(current))  # the preview shows the selected turn
        self._shown_turn = current
        if 0 <= current < len(branch):
            self.scroll_area.ensureVisible(int(self.strip.thumb_rect(current).center().x()), 10, 80, 0)

    def _select_index(self, index: int) -> None:
        if 0 <= index < len(self.branch):
            self.turn_selected.emit(self.branch[index])

    def _play_from(self, index: int) -> None:
        self.player.play(from_segment=self._clip_turns.index(index) if index in self._clip_turns else None)

    def play_branch(self) -> None:
        """Play every generated turn of the branch back to back (Space toggles)."""
        self.player.toggle()

    def _on_segment(self, segment: int) -> None:
        turn = self._clip_turns[segment] if 0 <= segment < len(self._clip_turns) else -1
        self.chart.set_playing(turn)
        self.strip.set_playing(turn)
