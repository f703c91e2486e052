"""One open project's views and the commands that act on the selected turn.

The workspace owns the canvas, the episode panel, the inspector, the queue and the cast
panel of one project, keeps the selection, and turns user intents (generate, re-roll,
fork, delete, select a take…) into document commands or worker jobs. Every view is
redrawn from the change sets the document bridge delivers, never by polling.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, Qt, QTimer, Signal
from PySide6.QtWidgets import QMenu, QSplitter, QVBoxLayout, QWidget

from studio.core.changes import ChangeSet, EntityKind
from studio.core.commands import (
    AddTurn,
    Command,
    DeleteSubtree,
    EditInstruction,
    Fork,
    SelectTake,
    SetBookmark,
    SetDialogue,
    SetDuration,
    SetNarration,
    SetNotes,
    SetShotNotes,
    SetStartState,
)
from studio.core.errors import StudioError
from studio.core.model import Take, new_id
from studio.core.state import CharacterState, StateScope, character_key
from studio.core.tree import StoryTree
from studio.ui.canvas.tree_scene import TreeScene
from studio.ui.canvas.tree_view import TreeView
from studio.ui.cast_panel import CastPanel
from studio.ui.deferred_reader import DeferredReader
from studio.ui.dialogs.export_dialog import BranchFacts
from studio.ui.episode.episode_panel import EpisodePanel
from studio.ui.inspector.inspector import Inspector
from studio.ui.inspector.vocabulary import collect_vocabulary
from studio.ui.job_labels import job_title
from studio.ui.media_cache import ClipCache, PosterCache
from studio.ui.navigation import branch_through, neighbour
from studio.ui.node_summary import excerpt_of, summarize
from studio.ui.queue_panel import QueuePanel
from studio.ui.search_bar import SearchBar, find_matches
from studio.ui.session import ProjectSession
from studio.ui.window_actions import StudioActions

log = logging.getLogger(__name__)

Confirm = Callable[[str, str], bool]


VOCABULARY_DELAY_MS = 800
"""Load autocomplete words this long after a project opens."""

def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def delete_prompt(turns_below: int, takes: int) -> str:
    """The question asked before a delete, counts in words ("its 1 take", "the 2 turns below it")."""
    if turns_below:
        what = f"Delete this turn and the {plural(turns_below, 'turn')} below it, with {plural(takes, 'take')}?"
    else:
        what = f"Delete this turn and its {plural(takes, 'take')}?"
    return what + "\nYou can undo this with Ctrl+Z."


def character_series(tree: StoryTree, branch: list[str]) -> dict[str, list[CharacterState]]:
    """Every cast member's state at each turn of ``branch`` (for the chart's per-character lines)."""
    if tree.state_scope is StateScope.BRANCH:
        return {}  # one state runs down the branch: there is nothing per character to show
    names = [m.name for m in tree.cast.values() if m.name.strip()]
    for node_id in branch[1:]:
        acting = tree.acting_character(node_id)
        if acting and all(character_key(acting) != character_key(n) for n in names):
            names.append(acting)
    series: dict[str, list[CharacterState]] = {name: [] for name in names}
    for node_id in branch:
        table = {character_key(n): s for n, s in tree.cast_states(node_id).items()}
        for name in names:
            series[name].append(table.get(character_key(name)) or tree.start_state_of(name))
    return series


class Workspace(QWidget):
    """The central area (search bar, canvas, episode panel) plus the dock contents."""

    error = Signal(object)  # StudioError to show
    message = Signal(str)  # status bar text
    history_changed = Signal()

    def __init__(self, session: ProjectSession, actions: StudioActions, posters: PosterCache, clips: ClipCache,
                 confirm: Confirm, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.project = session.project
        self.document = session.project.document
        self.studio_actions = actions
        self.confirm = confirm
        self.current_id: str = self.project.tree.root_id
        self.branch: list[str] = []
        self._last_child: dict[str, str] = {}
        self._matches: list[str] = []
        self._exports: dict[str, Path] = {}  # export job id -> the file it writes
        self._match_index = -1
        self.closed = False
        self.compare_window: Any = None
        self.ask_stale_hook: Callable[[int], str | None] | None = None

        self.scene = TreeScene(self.document, self.project.resolve, session.tracker, posters, clips, self)
        self.view = TreeView(self.scene, self)
        self.search = SearchBar(self)
        self.search.hide()
        self.episode = EpisodePanel(posters, clips, self._abs, self)
        self.inspector = Inspector(clips, self._abs)
        self.queue = QueuePanel(session.tracker, self.describe_job)
        self.queue.set_service(session.service)
        self.cast = CastPanel(self.apply, self.project.resolve, self._import_image)

        canvas_area = QWidget(self)
        canvas_layout = QVBoxLayout(canvas_area)
        canvas_layout.setContentsMargins(0, 0, 0, 0)
        canvas_layout.setSpacing(0)
        canvas_layout.addWidget(self.search)
        canvas_layout.addWidget(self.view, 1)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(canvas_area)
        splitter.addWidget(self.episode)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([560, 250])
        self.splitter = splitter
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)
        for action in actions.local:
            self.addAction(action)

        self.reader = DeferredReader(self.document.lock, self)
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(80)
        self._refresh_timer.timeout.connect(lambda: self.reader.run(self._refresh_selection_views))

        session.bridge.changed.connect(lambda changes: self.reader.run(lambda: self.on_changes(changes)))
        session.tracker.nodes_changed.connect(self._on_job_nodes)
        session.tracker.progressed.connect(
            lambda ids: self.reader.run(lambda: self.scene.refresh_nodes(ids) if not self.closed else None))
        session.tracker.job_finished.connect(self._on_job_finished)
        self.scene.node_clicked.connect(self.select)
        self.scene.node_activated.connect(self._activate)
        self.scene.node_context_menu.connect(self._context_menu)
        self.view.navigate.connect(self.navigate)
        self.episode.turn_selected.connect(self.select)
        self.inspector.generate_requested.connect(self.generate_text)
        self.inspector.save_requested.connect(self.save_text)
        self.inspector.take_chosen.connect(self.choose_take)
        self.inspector.notes_changed.connect(lambda node, text: self.apply(SetNotes(node, text)))
        self.inspector.bookmark_toggled.connect(lambda node, on: self.apply(SetBookmark(node, on)))
        self.inspector.draft_cancelled.connect(self._cancel_draft)
        self._connect_story_edits()
        self.queue.error.connect(self.error.emit)
        self.queue.job_selected.connect(lambda node_id: self.select(node_id) if node_id in self.tree.nodes else None)
        self.cast.error.connect(self.error.emit)
        self.cast.character_used.connect(self.inspector.editor.character.setText)
        self.cast.location_used.connect(self.inspector.editor.background.setText)
        self.search.query_changed.connect(self._on_query)
        self.search.step.connect(self.step_match)
        self.search.closed.connect(self._close_search)

        with self.document.lock:
            self.cast.refresh(self.tree)
        # Autocomplete words come from the engine's catalogue entry (a small file): read them
        # once the window is drawn and idle, not while the project opens.
        QTimer.singleShot(VOCABULARY_DELAY_MS, self.load_vocabulary)
        self.select(self.current_id, center=False)

    def load_vocabulary(self) -> None:
        """Offer the current engine's words (again after the engine changes)."""
        if self.closed:
            return
        words = self.session.engine_vocabulary()
        with self.document.lock:
            self.inspector.set_vocabulary(collect_vocabulary(self.tree, words))

    def _connect_story_edits(self) -> None:
        """The inspector's story fields, start states and chip fixes become undoable commands."""
        ins = self.inspector
        ins.dialogue_changed.connect(lambda node, lines: self.apply(SetDialogue(node, tuple(lines))))
        ins.narration_changed.connect(lambda node, text: self.apply(SetNarration(node, text)))
        ins.duration_changed.connect(lambda node, seconds: self.apply(SetDuration(node, seconds)))
        ins.shot_notes_changed.connect(lambda node, text: self.apply(SetShotNotes(node, text)))
        ins.start_state_changed.connect(lambda name, state: self.apply(SetStartState(name, state)))
        ins.instruction_fixed.connect(self.fix_instruction)
        ins.takes.compare_requested.connect(self.compare_takes)
        ins.takes.reroll_many.connect(self.reroll_many)
        ins.takes.seed_lock_changed.connect(self.lock_seed)
        ins.takes.set_locked_seed(self.session.settings.locked_seed)

    def lock_seed(self, seed: int | None) -> None:
        """Re-rolls use ``seed`` until it is unlocked (None)."""
        self.session.settings.locked_seed = seed
        self.inspector.takes.set_locked_seed(seed)
        self.message.emit(f"Seed {seed} locked: re-rolls use it." if seed is not None else "Seed unlocked.")

    def compare_takes(self) -> Any:
        """Open the compare window on the selected turn's takes (2 to 4 of them)."""
        from studio.ui.inspector.compare_window import CompareWindow, takes_to_compare

        node = self.tree.nodes.get(self.current_id)
        if node is None or node.is_root:
            return None
        with self.document.lock:
            takes = takes_to_compare(self.tree.takes_of(node.id), node.selected_take_id)
            before = self.tree.state_before(node.id)
            states = {t.id: before.apply(t.deltas) for t in takes}
            title = f"Turn {self.tree.depth(node.id)}"
        if len(takes) < 2:
            self.message.emit("Compare needs two takes with a clip: re-roll this turn first.")
            return None
        window = CompareWindow(title, takes, node.selected_take_id, states, self.inspector.takes.clips, self._abs,
                               self)
        window.take_chosen.connect(lambda take_id, n=node.id: self.choose_take(n, take_id))
        window.seed_locked.connect(self.lock_seed)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        window.show()
        window.play()
        self.compare_window = window
        return window

    def reroll_many(self, count: int) -> None:
        """Queue ``count`` new takes of the selected turn, each with its own seed."""
        service = self.guard(self.session.require_service)
        if service is None or self.current_id not in self.tree.nodes or self.tree.nodes[self.current_id].is_root:
            return
        jobs = [self.guard(lambda: service.reroll(self.current_id, engine=self.engine_name(),
                                                  settings=self.settings_for_jobs())) for _ in range(count)]
        queued = sum(job is not None for job in jobs)
        self.message.emit(f"Re-rolling ×{queued}…")

    def stale_if_chosen(self, node_id: str, take_id: str) -> int:
        """How many later turns would become stale if ``take_id`` were chosen for ``node_id``."""
        with self.document.lock:
            try:
                patch = SelectTake(node_id, take_id).build(self.tree)
            except StudioError:
                return 0
            nodes = {entity.node_id for (kind, _id), entity in patch.items()
                     if kind is EntityKind.TAKE and isinstance(entity, Take) and entity.stale
                     and not self.tree.takes[entity.id].stale}
        return len(nodes)

    def ask_stale(self, count: int) -> str | None:
        """'use', 'reroll' (use it and re-roll the later turns) or None (keep the current take);
        the window asks (see :meth:`MainWindow.ask_stale`)."""
        return self.ask_stale_hook(count) if self.ask_stale_hook is not None else "use"

    def fix_instruction(self, node_id: str, text: str) -> None:
        """A chip's word replaced: the instruction changes (undoable); the takes stay."""
        node = self.tree.nodes.get(node_id)
        if node is None or node.instruction.raw == text:
            return
        if self.apply(EditInstruction(node_id, text)) is not None:
            self.message.emit("Instruction corrected: Re-roll (R) makes a take from it.")

    # -- helpers -----------------------------------------------------------------------------

    @property
    def tree(self) -> StoryTree:
        return self.project.tree

    def _abs(self, rel: str) -> str:
        if not rel:
            return ""
        try:
            return str(self.project.resolve(rel))
        except StudioError:
            return ""

    def _import_image(self, path: Path, folder: str) -> str:
        from studio.storage.media_import import import_media

        return import_media(self.project, path, folder)

    def describe_job(self, job: Any) -> str:
        with self.document.lock:
            return job_title(job, self.tree)

    def describe_node(self, node_id: str) -> str:
        node = self.tree.nodes.get(node_id)
        if node is None:
            return "(deleted turn)"
        return excerpt_of(node.instruction.raw or "Start", 50)

    def guard(self, fn: Callable[[], Any]) -> Any:
        """Run a user action; a StudioError becomes a message, never a crash."""
        try:
            return fn()
        except StudioError as error:
            self.error.emit(error)
            return None

    def apply(self, command: Command) -> ChangeSet | None:
        result: ChangeSet | None = self.guard(lambda: self.project.apply(command))
        self.history_changed.emit()
        return result

    def settings_for_jobs(self) -> dict[str, Any]:
        return self.session.job_settings()

    def engine_name(self) -> str | None:
        return self.session.engine or None

    # -- selection ---------------------------------------------------------------------------

    def select(self, node_id: str, center: bool = True) -> None:
        if self.closed or node_id not in self.tree.nodes:
            return
        node = self.tree.nodes[node_id]
        if node.parent_id is not None:
            self._last_child[node.parent_id] = node_id
        self.current_id = node_id
        self._refresh_selection_views(show_inspector=True)
        if center:
            self.view.center_on_node(node_id)

    def show_selection(self) -> None:
        """The view a project opens at: readable cards around the selected turn."""
        if not self.closed:
            self.view.show_around(self.current_id)

    def _refresh_selection_views(self, show_inspector: bool = False) -> None:
        if self.closed:
            return
        with self.document.lock:
            tree = self.tree
            if self.current_id not in tree.nodes:
                return
            self.branch = branch_through(tree, self.current_id, self._last_child)
            summaries = [summarize(tree, n, self.session.tracker.for_node(n)) for n in self.branch]
            states = [tree.state_of(n) for n in self.branch]
            series = character_series(tree, self.branch)
            if show_inspector or self.inspector.draft_parent is None:
                self.inspector.show_node(tree, self.current_id, keep_editor=not show_inspector)
        self.scene.set_current(self.current_id, self.branch)
        self.episode.set_branch(self.branch, summaries, states, self.branch.index(self.current_id))
        self.episode.chart.set_character_states(series)
        self._update_actions()

    def _update_actions(self) -> None:
        node = self.tree.nodes.get(self.current_id)
        is_turn = node is not None and not node.is_root
        a = self.studio_actions
        for action in (a.reroll, a.reroll_branch, a.fork, a.delete):
            action.setEnabled(is_turn)

    def navigate(self, move: str) -> None:
        with self.document.lock:
            target = neighbour(self.tree, self.current_id, move, self._last_child)
        if target is not None:
            self.select(target)

    def _activate(self, node_id: str) -> None:
        self.select(node_id)
        self.inspector.editor.focus_first_field()

    def _context_menu(self, node_id: str, pos: QPoint) -> None:
        self.select(node_id, center=False)
        menu = QMenu(self)
        a = self.studio_actions
        for action in (a.new_turn, a.reroll, a.reroll_branch, a.fork, a.fill, a.bookmark, a.export, a.delete):
            menu.addAction(action)
        menu.popup(pos)

    # -- document and job changes -----------------------------------------------------------

    def on_changes(self, changes: ChangeSet) -> None:
        if self.closed:
            return
        self.scene.on_changes(changes)
        removed = changes.removed.get(EntityKind.NODE, frozenset())
        if self.current_id in removed or self.current_id not in self.tree.nodes:
            fallback = next((n for n in reversed(self.branch) if n in self.tree.nodes and n not in removed),
                            self.tree.root_id)
            ancestors = self.branch[: self.branch.index(self.current_id)] if self.current_id in self.branch else []
            fallback = next((n for n in reversed(ancestors) if n in self.tree.nodes), fallback)
            self.select(fallback, center=False)
        else:
            self._refresh_timer.start()
        if changes.ids(EntityKind.CAST) or changes.ids(EntityKind.LOCATION):
            with self.document.lock:
                self.cast.refresh(self.tree)
                self.inspector.set_vocabulary(collect_vocabulary(self.tree, self.session.engine_vocabulary()))
        if self.search.isVisible() and self.search.edit.text():
            self._on_query(self.search.edit.text())
        self.history_changed.emit()

    def _on_job_nodes(self, node_ids: set[str]) -> None:
        self.reader.run(lambda: self.scene.refresh_nodes(node_ids) if not self.closed else None)
        if set(self.branch) & set(node_ids):
            self._refresh_timer.start()

    def _on_job_finished(self, event: Any) -> None:
        kind = str(getattr(event.kind, "value", event.kind))
        export = self._exports.pop(str(event.job_id), None)
        if export is not None:
            if kind == "finished":
                self.message.emit(f"Export finished: {export}")
            elif kind == "failed":
                self.message.emit(f"Export failed: {getattr(event, 'message', '') or 'see the queue'}")
            else:
                self.message.emit("Export cancelled.")
            return
        if kind == "failed":
            message = getattr(event, "message", "") or "A job failed."
            hint = getattr(event, "hint", "")
            self.message.emit(f"Generation failed: {message}" + (f" ({hint})" if hint else ""))
        elif kind == "finished":
            self.message.emit("Take ready.")

    # -- turn commands -----------------------------------------------------------------------

    def start_new_turn(self) -> None:
        """Enter: a draft under the selected turn; the instruction editor takes focus."""
        with self.document.lock:
            self.inspector.show_draft(self.tree, self.current_id)
        self.message.emit("New turn: describe it, then Generate (Ctrl+Enter).")

    def _cancel_draft(self) -> None:
        if self.inspector.draft_parent is not None:
            self.select(self.current_id, center=False)
            self.view.setFocus()

    def generate_text(self, target: str, text: str) -> None:
        """Generate from the editor: a draft becomes a new turn; an edited turn is updated."""
        if self.inspector.draft_parent == target:
            self._generate_new(target, text)
            return
        node = self.tree.nodes.get(target)
        if node is None:
            return
        if node.instruction.raw != text and self.apply(EditInstruction(target, text)) is None:
            return
        self.reroll(target)

    def _generate_new(self, parent_id: str, text: str) -> None:
        service = self.session.service
        if service is None:
            node_id = new_id()
            if self.apply(AddTurn(parent_id, text, node_id=node_id)) is not None:
                self.select(node_id)
            self.error.emit(StudioError(self.session.service_error or "Generation is not available.",
                                        hint="The turn was added without a take."))
            return
        result = self.guard(lambda: service.generate(parent_id, text, engine=self.engine_name(),
                                                     settings=self.settings_for_jobs()))
        if result is not None:
            node_id, _job = result
            self.inspector.draft_parent = None
            self.select(node_id)
            self.view.setFocus()
            self.message.emit("Generating…")
        self.history_changed.emit()

    def generate_current(self) -> None:
        """Ctrl+Enter outside the editor: generate what the editor holds."""
        text = self.inspector.editor.text()
        target = self.inspector.draft_parent or self.current_id
        if text.strip():
            self.generate_text(target, text)

    def save_text(self, text: str) -> None:
        draft = self.inspector.draft_parent
        if draft is not None:
            node_id = new_id()
            if self.apply(AddTurn(draft, text, node_id=node_id)) is not None:
                self.inspector.draft_parent = None
                self.select(node_id)
        elif self.current_id in self.tree.nodes and self.tree.nodes[self.current_id].instruction.raw != text:
            self.apply(EditInstruction(self.current_id, text))

    def reroll(self, node_id: str | None = None) -> None:
        target = node_id or self.current_id
        service = self.guard(self.session.require_service)
        if service is None:
            return
        seed = self.session.settings.locked_seed
        if self.guard(lambda: service.reroll(target, engine=self.engine_name(), seed=seed,
                                             settings=self.settings_for_jobs())) is not None:
            self.message.emit("Re-rolling…" if seed is None else f"Re-rolling with the locked seed {seed}…")

    def reroll_branch(self) -> None:
        service = self.guard(self.session.require_service)
        if service is None:
            return
        jobs = self.guard(lambda: service.reroll_branch(self.current_id, engine=self.engine_name(),
                                                        settings=self.settings_for_jobs()))
        if jobs is not None:
            self.message.emit(f"Re-rolling {len(jobs)} turn{'s' if len(jobs) != 1 else ''}…")

    def fill_branch(self) -> None:
        service = self.guard(self.session.require_service)
        if service is None or not self.branch:
            return
        jobs = self.guard(lambda: service.fill(self.branch[-1], engine=self.engine_name(),
                                               settings=self.settings_for_jobs()))
        if jobs is not None:
            self.message.emit(f"Queued {len(jobs)} turn{'s' if len(jobs) != 1 else ''}." if jobs
                              else "Every turn of this branch has a take.")

    def fork(self) -> None:
        new_node = new_id()
        if self.apply(Fork(self.current_id, new_node_id=new_node)) is not None:
            self.select(new_node)
            self.inspector.editor.focus_first_field()

    def toggle_bookmark(self) -> None:
        node = self.tree.nodes.get(self.current_id)
        if node is not None:
            self.apply(SetBookmark(node.id, not node.bookmarked))

    def delete_current(self) -> None:
        node = self.tree.nodes.get(self.current_id)
        if node is None or node.is_root:
            return
        with self.document.lock:
            subtree = [node, *self.tree.descendants(node.id)]
            takes = sum(len(self.tree.takes_of(n.id)) for n in subtree)
        if takes and not self.confirm("Delete turns", delete_prompt(len(subtree) - 1, takes)):
            return
        parent = node.parent_id
        if self.apply(DeleteSubtree(node.id)) is not None and parent is not None:
            self.select(parent)

    def choose_take(self, node_id: str, take_id: str) -> None:
        """Use another take; say how many later turns become stale and offer to re-roll them."""
        if not node_id or node_id not in self.tree.nodes:
            return
        stale = self.stale_if_chosen(node_id, take_id)
        answer = self.ask_stale(stale) if stale else "use"
        if answer is None or self.apply(SelectTake(node_id, take_id)) is None:
            return
        if answer == "reroll":
            service = self.guard(self.session.require_service)
            if service is None:
                return
            jobs: list[str] = []

            def reroll_below(child: str) -> list[str]:
                return list(service.reroll_branch(child, engine=self.engine_name(),
                                                  settings=self.settings_for_jobs()))

            for child in self.tree.child_ids(node_id):
                jobs += self.guard(partial(reroll_below, child)) or []
            self.message.emit(f"Take chosen; re-rolling {len(jobs)} later turn{'s' if len(jobs) != 1 else ''}…")
        elif stale:
            self.message.emit(f"Take chosen; {stale} later turn{'s are' if stale != 1 else ' is'} stale.")

    def undo(self) -> None:
        changes = self.guard(self.project.undo)
        if changes is not None:
            self.message.emit(changes.label)
        self.history_changed.emit()

    def redo(self) -> None:
        changes = self.guard(self.project.redo)
        if changes is not None:
            self.message.emit(changes.label)
        self.history_changed.emit()

    def play(self) -> None:
        self.episode.play_branch()

    # -- search ------------------------------------------------------------------------------

    def open_search(self) -> None:
        self.search.open_bar()
        if self.search.edit.text():
            self._on_query(self.search.edit.text())

    def _on_query(self, text: str) -> None:
        order = sorted(self.scene.cells, key=lambda n: (self.scene.cells[n].row, self.scene.cells[n].depth))
        with self.document.lock:
            self._matches = find_matches(self.tree, text, order)
        self.scene.set_search_hits(self._matches)
        self._match_index = -1
        if self._matches:
            self.step_match(1)
        else:
            self.search.set_count(-1, 0)

    def step_match(self, delta: int) -> None:
        if not self._matches:
            return
        self._match_index = (self._match_index + delta) % len(self._matches)
        self.search.set_count(self._match_index, len(self._matches))
        self.select(self._matches[self._match_index])

    @property
    def matches(self) -> list[str]:
        return list(self._matches)

    def _close_search(self) -> None:
        self._matches = []
        self.scene.set_search_hits([])
        self.view.setFocus()

    # -- export ------------------------------------------------------------------------------

    def export_folder(self) -> Path:
        """Where exports go unless the user picks another place: the project's exports folder,
        "NAME exports" beside the project folder (an export never writes into the project)."""
        folder = self.project.path
        return folder.parent / f"{folder.stem} exports"

    def branch_facts(self) -> BranchFacts:
        from studio.core.sentence import describe_action

        with self.document.lock:
            turns = [n for n in self.branch if not self.tree.nodes[n].is_root]
            generated = sum(1 for n in turns if self.tree.selected_take(n) is not None)
            ending = describe_action(self.tree.nodes[turns[-1]].instruction) if turns else ""
        return BranchFacts(len(turns), generated, excerpt_of(ending, 70))

    def queue_export(self, out: Path, options: Any, fmt: str | None) -> str | None:
        service = self.guard(self.session.require_service)
        if service is None:
            return None
        leaf = self.branch[-1] if self.branch else self.current_id

        def submit() -> str:
            from studio.export import export_task

            try:
                out.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StudioError(f"Could not create the folder {out.parent}: {error.strerror or error}") from None
            job = export_task(self.project, leaf, out, options, fmt)
            return str(service.submit_task(f"Export {out.name}", job, node_id=leaf))

        job_id: str | None = self.guard(submit)
        if job_id is not None:
            self._exports[job_id] = out
            self.message.emit(f"Exporting to {out}…")
        return job_id

    def close(self, policy: str = "keep") -> bool:
        self.inspector.commit_notes()
        self.closed = True
        self.view.closed = True
        self._refresh_timer.stop()
        for player in [self.episode.player, *(t.player for t in self.inspector.takes.tiles)]:
            player.pause()
        self.session.close(policy)
        return super().close()
