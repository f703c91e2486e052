"""One open project's views and the commands that act on the selected turn.

The workspace owns the canvas, the episode panel, the inspector, the queue and the cast
panel of one project, keeps the selection, and turns user intents (generate, re-roll,
fork, delete, select a take…) into document commands or worker jobs. Every view is
redrawn from the change sets the document bridge delivers, never by polling.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

import shiboken6
from PySide6.QtCore import QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.core.changes import ChangeSet, EntityKind
from studio.core.commands import (
    AddTurn,
    Command,
    DeleteSubtree,
    EditInstruction,
    Fork,
    MoveAmongSiblings,
    SelectTake,
    SetBookmark,
    SetDialogue,
    SetDuration,
    SetNarration,
    SetNotes,
    SetShotNotes,
    SetStartState,
    takes_followed_back,
)
from studio.core.errors import StudioError
from studio.core.model import Node, Take, TakeStatus, new_id
from studio.core.sentence import plural
from studio.core.state import CharacterState, StateScope, character_key
from studio.core.story import StoryFields
from studio.core.tree import StoryTree
from studio.storage import DB_NAME
from studio.storage.errors import ProjectDamagedError
from studio.ui.canvas.tree_scene import TreeScene
from studio.ui.canvas.tree_view import TreeView
from studio.ui.cast_panel import CastPanel
from studio.ui.clip_presence import in_window_words, missing_clips_message, without_node_ids
from studio.ui.dialogs.export_dialog import BranchFacts
from studio.ui.drafts_kept import load_drafts, save_drafts
from studio.ui.drawn_pictures import DrawnPictureCache
from studio.ui.episode.episode_panel import EpisodePanel
from studio.ui.episode_fold import EpisodeFold
from studio.ui.export_notes import finished_export, show_export_notes
from studio.ui.fork_turn import fork_copied
from studio.ui.inspector.inspector import Inspector
from studio.ui.inspector.instruction_editor import EMPTY_TIP
from studio.ui.inspector.pasted_script import ScriptTurn
from studio.ui.inspector.typed_not_saved import TypedText, typing_for_clipboard, typing_tip
from studio.ui.inspector.vocabulary import collect_vocabulary
from studio.ui.job_labels import job_title
from studio.ui.media_cache import ClipCache, PosterCache
from studio.ui.navigation import branch_through, neighbour
from studio.ui.node_summary import excerpt_of, summarize
from studio.ui.queue_panel import QueuePanel
from studio.ui.search_bar import SearchBar, find_matches
from studio.ui.session import EditKind, ProjectSession, ReadOnlyReason, database_damaged
from studio.ui.window_actions import StudioActions, take_to_choose
from studio.worker.events import EventKind, JobEvent
from studio.worker.runner import CANCELLED_MESSAGE

log = logging.getLogger(__name__)

Confirm = Callable[[str, str], bool]
P = ParamSpec("P")
R = TypeVar("R")

_TURN_GONE = object()
"""What a writer operation on a turn returns, instead of running, when the turn is gone."""


@dataclass(frozen=True)
class _Refused:
    """What a writer operation returns when the document refused it (see :meth:`Workspace.submit`)."""

    error: StudioError


@dataclass(frozen=True)
class _EditRefused:
    """What a generation returns when the typed instruction it was to save first was refused
    (see :meth:`Workspace._queue_with_edit`): nothing was queued."""

    error: StudioError


def turn_action(method: Callable[Concatenate[Workspace, P], R]) -> Callable[Concatenate[Workspace, P], R | None]:
    """A user action on the selected turn (a key, a menu entry, a button): see :meth:`Workspace.on_turn`."""
    @functools.wraps(method)
    def run(self: Workspace, /, *args: P.args, **kwargs: P.kwargs) -> R | None:
        return self.on_turn(self.current_id, lambda: method(self, *args, **kwargs))

    return run


VOCABULARY_DELAY_MS = 800
"""Load autocomplete words this long after a project opens."""

def delete_prompt(turns_below: int, takes: int, generating: int = 0) -> str:
    """The question asked before a delete, counts in words ("its 1 take", "the 2 turns below it"),
    and what undo can't bring back: generations under way there are cancelled."""
    with_takes = f", with {plural(takes, 'take')}" if takes else ""
    if turns_below:
        what = f"Delete this turn and the {plural(turns_below, 'turn')} below it{with_takes}?"
    elif takes:
        what = f"Delete this turn and its {plural(takes, 'take')}?"
    else:
        what = "Delete this turn?"
    if generating:
        what += (f"\n{plural(generating, 'generation')} queued or under way there "
                 f"{'is' if generating == 1 else 'are'} cancelled; undo brings the turns back, not "
                 f"{'it' if generating == 1 else 'them'}.")
        return what
    return what + "\nYou can undo this with Ctrl+Z."


def deleted_message(depth: int, turns_below: int, takes: int, generating: int = 0) -> str:
    """What the status bar says once a delete is made: what went, and that Undo brings it back
    (the generations it cancelled excepted, as the question before it said)."""
    below = f" and the {plural(turns_below, 'turn')} below it" if turns_below else ""
    with_takes = f", with {plural(takes, 'take')}" if takes else ""
    text = f"Deleted turn {depth}{below}{with_takes}. Undo (Ctrl+Z) brings {'them' if turns_below else 'it'} back"
    if generating:
        return text + f", without the {plural(generating, 'generation')} it cancelled."
    return text + "."


def describe_written(asked: Path, written: list[Path]) -> str:
    """What a finished export wrote, for the status bar: the file asked for, or, when the
    export wrote others instead (a sheet's pages), how many and where."""
    if not written or written == [asked]:
        return str(asked)
    if written[0] == asked:  # a video with its subtitles beside it
        return f"{asked} (and {', '.join(path.name for path in written[1:])})"
    if len(written) == 1:
        return str(written[0])
    folder = written[0].parent
    where = f" in {folder}" if all(path.parent == folder for path in written) else ""
    return f"{len(written)} files, {written[0].name} … {written[-1].name}{where}"


def character_series(tree: StoryTree, branch: list[str]) -> dict[str, list[CharacterState]]:
    """The state at each turn of ``branch`` of every character acting in it (for the chart's
    per-character lines; cast members who never act there would only add flat lines at their
    start); the whole cast while the branch has no acting turn."""
    if tree.state_scope is StateScope.BRANCH:
        return {}  # one state runs down the branch: there is nothing per character to show
    cast = [m.name for m in tree.cast.values() if m.name.strip()]
    acting: list[str] = []
    for node_id in branch[1:]:
        name = tree.acting_character(node_id)
        if name and all(character_key(name) != character_key(n) for n in acting):
            acting.append(name)
    keys = {character_key(n) for n in acting}
    in_cast = [n for n in cast if character_key(n) in keys]
    names = [*in_cast, *(n for n in acting if all(character_key(n) != character_key(c) for c in in_cast))]
    names = names or cast
    series: dict[str, list[CharacterState]] = {name: [] for name in names}
    for node_id in branch:
        table = {character_key(n): s for n, s in tree.cast_states(node_id).items()}
        for name in names:
            series[name].append(table.get(character_key(name)) or tree.start_state_of(name))
    return series


GENERATE_OFF_TIP = ("Nothing to generate at the start of the story: select a turn, or press Enter to write "
                    "a new one")
PLAY_OFF_TIP = "Nothing to play yet: no turn of this branch has a clip (Generate makes one)"
FILL_OFF_TIP = "Nothing missing: every turn of this branch has a take or one on its way"
FILL_NO_TURN_TIP = "This branch has no turns yet: select the start and press Enter to write one"
DRAFT_DROPPED = ("New turn closed: nothing was added. Press Enter on the same turn to pick up what you typed "
                 "(or on another turn to start afresh).")
"""Esc in a new turn holding typing: the typing is kept for the next new turn under that turn."""
DRAFT_EMPTY_DROPPED = "New turn dropped: nothing was added. Press Enter on a turn to start another."
"""Esc in a new turn holding nothing but its prefilled character and place."""
DRAFT_RESUMED = "New turn: picking up what you typed before; Generate (Ctrl+Enter) when it is ready."
DRAFT_PARENT_GONE = ("New turn closed: the turn it was to follow is gone, and what you typed is kept with it. "
                     "Undo brings that turn back; Enter on it then picks up what you typed.")
"""A new turn holding typing whose turn went (an undo, a delete): kept under that turn's id."""
DRAFT_PARENT_UNDONE = ("New turn closed: the turn it was to follow was undone, and what you typed is kept with it. "
                       "Redo (Ctrl+Shift+Z) brings that turn back; Enter on it then picks up what you typed.")
"""As :data:`DRAFT_PARENT_GONE`, when an undo took the turn away: Redo, not Undo, brings it back."""
DRAFT_KEPT_WITH_DELETED = "What you typed for a new turn under it comes back with it: Enter there picks it up."
"""Added to the delete's message when a new turn holding typing was open under the turns deleted."""
NEW_TURN_ON_ITS_WAY = "Already adding this turn: pressing Generate or Save text again adds no second copy of it."
"""Said when a new turn is sent again before it has landed (see Workspace._send_new_turn)."""


EDIT_USED = "Made from the instruction as edited, now saved to turn {turn} (Ctrl+Z takes the edit back)."
"""Said after a generation's own message when it saved the instruction typed and not saved yet."""
FINISHING_TIP = "The window is finishing the queued jobs: no new generation until they are done"
"""Why the generating actions are off while the window waits for the queue to close."""
FINISHING_REFUSAL = ("No new generation now: the window is finishing the queued jobs first (close the window "
                     "again to keep or cancel them instead).")
"""Said when a generation is asked for anyway (a button, a key) while the window finishes the queue."""
BOOKMARKED = "Bookmarked turn {turn}: F2 and Shift+F2 step through the bookmarks."
UNBOOKMARKED = "Bookmark removed from turn {turn}."

NOTHING_SELECTED_TIP = "Nothing selected: select a turn"
EXPORT_OFF_TIP = "Nothing to export: this branch has no turns yet"
TURN_OFF_TIPS = {
    "reroll": "The start of the story can't be re-rolled: select a turn",
    "reroll_branch": "The start of the story can't be re-rolled: select a turn to re-roll it and the turns below it",
    "fork": "The start of the story can't be forked: select a turn",
    "delete": "The start of the story can't be deleted: select a turn",
    "bookmark": "The start of the story can't be bookmarked (Home goes back to it): select a turn",
}
"""Why each action on a turn is off while the story's start is selected."""
REROLL_TEXT = "&Re-roll"
GENERATE_TURN_TEXT = "&Generate this turn"
"""Re-roll's name on a turn never generated (no take, none on its way): there is nothing to
re-roll, and R makes its first take."""
BOOKMARK_TEXT = "&Bookmark"
UNBOOKMARK_TEXT = "Remove &bookmark"
ONE_BRANCH_TIP = "Nothing to compare: this story has one branch. Fork a turn (F) to start another"


def turn_off_tip(node: Node | None, action: str) -> str:
    """Why ``action`` (a key of :data:`TURN_OFF_TIPS`) is off for the selected ``node`` (None:
    nothing selected, or the selected turn is gone)."""
    return NOTHING_SELECTED_TIP if node is None else TURN_OFF_TIPS[action]


def move_off_tip(node: Node | None, index: int, count: int, step: int) -> str:
    """Why moving the selected ``node`` up (``step`` -1) or down (1) among its parent's ``count``
    alternatives, where it stands at ``index`` (top 0), is off ("" when it can move)."""
    if node is None:
        return NOTHING_SELECTED_TIP
    if node.is_root:
        return "The start of the story has no alternatives to move among: select a turn"
    if count < 2:
        return "This turn has no alternatives to move among: Fork (F) makes one"
    if step < 0 and index == 0:
        return "Already the top alternative: nothing above it to move past"
    if step > 0 and index + 1 >= count:
        return "Already the bottom alternative: nothing below it to move past"
    return ""


COMPARE_TAKES_OFF_TIP = "Compare needs a turn with two takes that have a clip: re-roll it first"


def as_sentence(tip: str) -> str:
    """``tip`` as the status bar says it: ended with a full stop, unless it already ends a sentence."""
    return tip if tip.endswith((".", "!", "?", "…")) else f"{tip}."


def _enable(action: QAction, on: bool, off_tip: str) -> None:
    """Turn ``action`` on or off; off, its tooltip says why (on, it is the action's name again)."""
    action.setEnabled(on)
    action.setToolTip("" if on else off_tip)


def _choice_outcome(before: StoryTree, after: StoryTree, node_id: str, stale: int) -> str:
    """What choosing a take of ``node_id`` did to the later turns: how many use their takes
    made from it again (see :class:`SelectTake`), how many chosen takes are current again,
    and how many (``stale``) it put out of date ("": none of these)."""
    if node_id not in after.nodes:
        return ""
    back = set(takes_followed_back(before, after, node_id))
    again = sum(1 for node in after.descendants(node_id)
                if node.id not in back and (was := before.selected_take(node.id)) is not None and was.stale
                and (now := after.selected_take(node.id)) is not None and not now.stale)
    parts = []
    if back:
        parts.append(f"{_turn_count(len(back))} after it use their takes made from it again"
                     if len(back) != 1 else "1 turn after it uses its take made from it again")
    if again:
        parts.append(f"{again} later turn{'s are' if again != 1 else ' is'} current again")
    if stale:
        parts.append(f"{stale} later turn{'s are' if stale != 1 else ' is'} stale")
    return ", ".join(parts)


def _turn_count(count: int) -> str:
    """``1 turn``, ``4 turns``."""
    return f"{count} turn{'' if count == 1 else 's'}"


@dataclass
class ChoiceReroll:
    """A take chosen with "Use and re-roll": the status bar follows its re-roll to the end."""

    said: str  # "Take 2 chosen"
    total: int  # the turns after it being re-rolled
    done: int = 0

    def one_done(self) -> str:
        self.done += 1
        if self.done >= self.total:
            verb = "is" if self.total == 1 else "are"
            return f"{self.said}; the {_turn_count(self.total)} after it {verb} re-rolled."
        return f"{self.said}; re-rolled {self.done} of the {_turn_count(self.total)} after it."


def _finished(take: Take | None) -> bool:
    """Whether a turn's chosen take has a clip an export can use."""
    return take is not None and take.status is TakeStatus.DONE and bool(take.clip_path)


def _stale(take: Take | None) -> bool:
    """Whether a turn's chosen take was made from another past than the branch's now."""
    return take is not None and take.stale


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
        self.read_only: ReadOnlyReason | None = session.read_only
        """Why the project can't be changed (None: it can): every change is refused, and the
        actions that make one are off, saying why."""
        self._refused_read_only: set[str] = set()
        """The changes refused so far for being read-only (see :meth:`refuse_read_only`)."""
        self.studio_actions = actions
        self.confirm = confirm
        self.current_id: str = self.project.tree.root_id
        self.previous_id: str = self.current_id
        self.branch: list[str] = []
        self._last_child: dict[str, str] = {}
        self._drafts_put_aside: dict[str, str] = {
            node: text for node, text in load_drafts(session.settings.q, self.project.path).items()
            if node in self.project.tree.nodes}
        """What was typed in a new turn left unfinished (Esc, another turn selected, the project
        closed), by the turn it was to follow (see _leave_draft); kept in the settings between runs."""
        self._new_turn_sent: str | None = None
        """The turn whose new turn (the open draft) was sent to the writer and not made yet: a
        second Generate or Save text pressed before it lands (a double click, Ctrl+Enter twice)
        is not a second turn. See :meth:`_send_new_turn`."""
        self._matches: list[str] = []
        # export job id -> the file asked for, and the job's ExportResult (filled as it ends)
        self._exports: dict[str, tuple[Path, list[Any]]] = {}
        self.export_notes_box: QWidget | None = None
        """The box with the last finished export's notes (None: no export had any)."""
        self._match_index = -1
        self.closed = False
        self._compare_windows: dict[str, Any] = {}
        """The open compare windows by the turn each compares, the one opened or raised last at the end."""
        self.branch_compare: Any = None
        """The open Compare branches window (None when none is open)."""
        self.ask_stale_hook: Callable[[int], str | None] | None = None
        self._use_new_take: set[str] = set()
        self._choice_rerolls: dict[str, ChoiceReroll] = {}
        """The jobs of a re-roll of the turns after a take chosen, by job id (see :meth:`_follow_choice`)."""
        """Turns re-rolled while their chosen clip was missing: the new take is used when ready."""
        self._undone_jobs: set[str] = set()
        """Jobs an Undo of their running re-roll cancelled: the undo says so, not each job."""
        self._acting_on: str | None = None  # the turn the action being run acts on (see on_turn)
        self._draft_note = ""
        """What the status bar said last about a new turn's typing put aside (see select): an
        undo or a redo that closed the new turn says it after its own name."""
        self.turn_menu: QMenu | None = None
        """The card's menu opened last (deleted once closed: see ``shiboken6.isValid``)."""
        self.finishing = ""
        """What the window says while it finishes the queued jobs before closing (or before
        opening another project); "" otherwise. Meanwhile no generation starts (see
        :meth:`refuse_while_finishing`); the main window sets it."""
        self._rendering: dict[str, str] = {}
        """The instruction each job started with, by job id, as the tree held it when the job
        started: the queue names what a running job renders, not an edit made (or undone) since."""

        self.scene = TreeScene(self.document, self.project.resolve, session.tracker, posters, clips, self)
        self.view = TreeView(self.scene, self)
        self.view.setAccessibleName("Story tree")
        self.search = SearchBar(self)
        self.search.hide()
        self.episode = EpisodePanel(posters, clips, self._abs, self)
        self.inspector = Inspector(clips, self._abs)
        self.inspector.tree_source = lambda: self.tree
        self.inspector.set_current_engine(session.engine)
        self.queue = QueuePanel(session.tracker, self.describe_job)
        self.queue.on_retry = self._follow_retried_export
        self.queue.set_service(session.service)
        self.queue.submit = self.submit
        self.queue.turn_exists = lambda node_id: node_id in self.tree.nodes
        self.queue.confirm = lambda title, text: self.confirm(title, text)
        self.queue.message.connect(self.message)
        pictures = session.services.pictures
        self.cast = CastPanel(self.apply, self.project.resolve, self._import_image,
                              discard=self.project.discard_imports,
                              drawn=DrawnPictureCache(pictures, self) if pictures is not None else None)
        self.cast.confirm = lambda title, text: self.confirm(title, text)
        self.cast.tree_source = lambda: self.tree

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
        self.episode_fold = EpisodeFold(splitter)  # folded in a short window: the tree gets the height
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self.read_only_bar: ReadOnlyBar | None = None
        if self.read_only is not None:
            self.read_only_bar = ReadOnlyBar(self.read_only, actions, self)
            layout.addWidget(self.read_only_bar)
        layout.addWidget(splitter)
        for action in actions.local:
            self.addAction(action)
        # Compare takes had only the takes area's button: the keyboard reached it by Tab alone
        actions.compare_takes.triggered.connect(self._compare_takes_key)
        # keys 1 to 9 in the story area (and Turn › Choose take): the selected turn's take of that number
        actions.take_keys.triggered.connect(self._choose_take_key)
        self._compare_key_bound = True
        # Ctrl+Enter in the story area or the inspector while Generate is off (the start is
        # selected, the instruction is empty or too long) still answers, in the status bar,
        # with why. On only while the action is off: never ambiguous.
        self._generate_off_keys: list[QShortcut] = []
        for area in (self, self.inspector):
            for keys in actions.generate.shortcuts():
                shortcut = QShortcut(keys, area)
                shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                shortcut.setEnabled(False)
                shortcut.activated.connect(self._say_why_generate_off)
                self._generate_off_keys.append(shortcut)
        # So do the story area's keys of the other turn actions while they are off (Delete on
        # the start, Alt+Up on a turn without alternatives): the key did nothing, without a word.
        self._off_keys: list[tuple[QAction, QShortcut]] = []
        for action in (actions.reroll, actions.reroll_branch, actions.fork, actions.delete, actions.bookmark,
                       actions.move_up, actions.move_down, actions.new_turn, *actions.take_keys.actions()):
            for keys in action.shortcuts():
                shortcut = QShortcut(keys, self)
                shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                shortcut.setEnabled(False)
                shortcut.activated.connect(functools.partial(self._say_why_off, action))
                self._off_keys.append((action, shortcut))

        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(80)
        self._refresh_timer.timeout.connect(self._refresh_selection_views)
        # After a change set the inspector is redrawn in an event-loop turn of its own: the
        # canvas, the branch panel and the inspector together would be one long frame.
        self._inspector_timer = QTimer(self)
        self._inspector_timer.setSingleShot(True)
        self._inspector_timer.setInterval(0)
        self._inspector_timer.timeout.connect(self._refresh_inspector)

        session.error_handler = self.error.emit
        session.changed.connect(self.on_changes)
        session.edits_in_flight_changed.connect(self._on_edits_in_flight)
        session.tracker.nodes_changed.connect(self._on_job_nodes)
        session.tracker.progressed.connect(lambda ids: self.scene.refresh_nodes(ids) if not self.closed else None)
        session.tracker.job_finished.connect(self._on_job_finished)
        session.tracker.job_started.connect(self._on_job_started)
        self.scene.node_clicked.connect(self.select)
        self.scene.fold_toggled.connect(self._say_fold)
        self.scene.node_activated.connect(self._activate)
        self.scene.node_context_menu.connect(self._context_menu)
        self.view.navigate.connect(self.navigate)
        self.episode.turn_selected.connect(self.select)
        self.episode.follow_jobs(session.tracker)
        self.inspector.generate_requested.connect(self.generate_text)
        self.inspector.script_turns_requested.connect(self.add_script_turns)
        self.inspector.save_requested.connect(self.save_text)
        self.inspector.error.connect(self.error.emit)
        self.inspector.take_chosen.connect(self.choose_take)
        self.inspector.notes_changed.connect(lambda node, text: self.apply(SetNotes(node, text)))
        self.inspector.instruction_edited.connect(self._keep_edited_instruction)
        self.inspector.bookmark_toggled.connect(self.set_bookmark)
        self.inspector.draft_cancelled.connect(self._cancel_draft)
        self._connect_story_edits()
        self.queue.error.connect(self.error.emit)
        self.queue.job_selected.connect(lambda node_id: self.select(node_id) if node_id in self.tree.nodes else None)
        self.cast.error.connect(self.error.emit)
        self.cast.message.connect(self.message.emit)
        self.cast.character_used.connect(self._use_character)
        self.cast.location_used.connect(self._use_location)
        # Generate follows the line typed: off, as the editor's own button is, for an empty line
        # or one over the limit (the toolbar and Ctrl+Enter then say why)
        for field in self.inspector.editor.fields():
            field.textChanged.connect(self._update_generate)
        self.inspector.editor.time.currentTextChanged.connect(self._update_generate)
        self.search.query_changed.connect(self._on_query)
        self.search.step.connect(self.step_match)
        self.search.closed.connect(self._close_search)

        self.cast.refresh(self.tree)
        # Autocomplete words come from the engine's catalogue entry (a small file): read them
        # once the window is drawn and idle, not while the project opens.
        QTimer.singleShot(VOCABULARY_DELAY_MS, self.load_vocabulary)
        self.select(self.current_id, center=False)

    def load_vocabulary(self) -> None:
        """Offer the current engine's words (again after the engine changes), and name it to
        the take tiles (those of another engine's takes say which)."""
        if self.closed:
            return
        self.inspector.set_current_engine(self.session.engine)
        words = self.session.engine_vocabulary()
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
        ins.message.connect(self.message.emit)
        ins.takes.compare_requested.connect(self.compare_takes)
        ins.takes.reroll_many.connect(self.reroll_many)
        ins.takes.seed_lock_changed.connect(self.lock_seed)
        ins.takes.set_locked_seed(self.session.settings.locked_seed)

    def lock_seed(self, seed: int | None) -> None:
        """Re-rolls use ``seed`` until it is unlocked (None)."""
        self.session.settings.locked_seed = seed
        self.inspector.takes.set_locked_seed(seed)
        self.message.emit(f"Seed {seed} locked: re-rolls use it." if seed is not None else "Seed unlocked.")

    @turn_action
    def compare_takes(self) -> Any:
        """Open the compare window on the selected turn's takes (2 to 4 of them)."""
        from studio.ui.inspector.compare_window import CompareWindow, takes_to_compare

        node = self.tree.nodes.get(self.current_id)
        if node is None or node.is_root:
            return None
        clicked = self.inspector.takes.focused_take  # a tile clicked: that take is compared too
        takes = takes_to_compare(self.tree.takes_of(node.id), node.selected_take_id, also=clicked)
        before = self.tree.state_before(node.id)
        states = {t.id: before.apply(t.deltas) for t in takes}
        title = f"Turn {self.tree.depth(node.id)}"
        if len(takes) < 2:
            self.message.emit("Compare needs two takes with a clip: re-roll this turn first.")
            return None
        open_already = self._compare_windows.pop(node.id, None)
        if open_already is not None:  # one window per turn: Compare again brings it to the front
            self._compare_windows[node.id] = open_already
            open_already.also = clicked
            open_already.follow(self.tree, node.id)
            open_already.show()
            open_already.raise_()
            open_already.activateWindow()
            return open_already
        numbers = {take.id: index + 1 for index, take in enumerate(self.tree.takes_of(node.id))}
        window = CompareWindow(title, takes, node.selected_take_id, states, self.inspector.takes.clips, self._abs,
                               self, numbers=numbers, start=before)
        window.also = clicked
        window.take_chosen.connect(lambda take_id, n=node.id: self.choose_take(n, take_id))
        window.destroyed.connect(lambda _o=None, w=window: self._forget_compare(w))
        window.seed_locked.connect(self.lock_seed)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        self._compare_windows[node.id] = window
        window.show()
        window.play()
        return window

    @property
    def compare_window(self) -> Any:
        """The compare window opened (or brought to the front) last, None when none is open."""
        return next(reversed(self._compare_windows.values()), None)

    @property
    def compare_node(self) -> str:
        """The turn :attr:`compare_window` compares ("" when none is open)."""
        return next(reversed(self._compare_windows), "")

    def _follow_compared(self) -> None:
        """Each compare window shows its turn's chosen take and the takes finished since it
        opened; it closes, saying so, when that turn or one of its takes is gone (deleted, or
        its re-roll undone). Every open window follows, not only the one opened last."""
        closed = False
        for node_id, window in list(self._compare_windows.items()):
            compared = self.tree.nodes.get(node_id)
            if compared is None or any(column.take.id not in self.tree.takes for column in window.columns):
                self._forget_compare(window)
                window.close()
                closed = True
                continue
            window.follow(self.tree, compared.id)  # a take finished since joins; the chosen one is marked
        if closed:
            self.message.emit("The compare window closed: the turn or a take it compared is gone.")

    def compare_branches(self) -> Any:
        """Open the window that plays two branches side by side (or bring it to the front); with
        one branch only, say there is nothing to compare and how to make another."""
        from studio.ui.episode.branch_compare import NOTHING_TO_COMPARE, BranchCompareWindow, story_branches

        window = self.branch_compare
        if window is not None:
            window.show()
            window.raise_()
            window.activateWindow()
            return window
        if self.closed or len(story_branches(self.tree)) < 2:
            self.message.emit(NOTHING_TO_COMPARE)
            return None
        window = BranchCompareWindow(lambda: self.tree, self._shown_leaf, self.episode.player.clips, self._abs,
                                     self.session.tracker.for_node, self)
        window.leaf_shown.connect(self._show_compared_leaf)
        window.destroyed.connect(self._forget_branch_compare)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        self.branch_compare = window
        window.show()
        return window

    def _shown_leaf(self) -> str:
        """The last turn of the branch the window shows (as it will be once the selection settles)."""
        if self.current_id not in self.tree.nodes:
            return self.branch[-1] if self.branch else self.tree.root_id
        return branch_through(self.tree, self.current_id, self._last_child)[-1]

    def _show_compared_leaf(self, leaf: str) -> None:
        """"Show in the main window" in the Compare branches window: that branch's last turn is selected."""
        if leaf in self.tree.nodes:
            self.select(leaf)
            self.window().raise_()
            self.window().activateWindow()

    def _forget_branch_compare(self, _object: object = None) -> None:
        self.branch_compare = None

    def _forget_compare(self, window: Any) -> None:
        for node_id in [n for n, w in self._compare_windows.items() if w is window]:
            del self._compare_windows[node_id]

    @turn_action
    def reroll_many(self, count: int) -> None:
        """Queue ``count`` new takes of the selected turn, each with its own seed: one action,
        undone as one step."""
        target = self.current_id
        if target not in self.tree.nodes or self.tree.nodes[target].is_root:
            return
        self._queue_jobs(
            lambda service, engine, settings: service.reroll_many(target, count, engine=engine, settings=settings),
            lambda jobs: f"Re-rolling ×{len(jobs)}…", typing_of=target)

    def stale_if_chosen(self, node_id: str, take_id: str) -> set[str]:
        """The later turns that would become stale if ``take_id`` were chosen for ``node_id``: whose
        chosen take (after the choice, which may give a turn back its take made from ``take_id``)
        would be out of date and is not now."""
        try:
            patch = SelectTake(node_id, take_id).build(self.tree)
        except StudioError:
            return set()
        chosen = {entity.id: entity.selected_take_id for entity in patch.values() if isinstance(entity, Node)}
        return {entity.node_id for (kind, _id), entity in patch.items()
                if kind is EntityKind.TAKE and isinstance(entity, Take) and entity.stale
                and not self.tree.takes[entity.id].stale
                and chosen.get(entity.node_id, self.tree.nodes[entity.node_id].selected_take_id) == entity.id}

    def ask_stale(self, count: int) -> str | None:
        """'use', 'reroll' (use it and re-roll the later turns) or None (keep the current take);
        the window asks (see :meth:`MainWindow.ask_stale`)."""
        return self.ask_stale_hook(count) if self.ask_stale_hook is not None else "use"

    def fix_instruction(self, node_id: str, text: str) -> None:
        """A chip's word replaced: the instruction changes (undoable); the takes stay."""
        node = self.tree.nodes.get(node_id)
        if node is None or node.instruction.raw == text:
            return
        self.apply(EditInstruction(node_id, text),
                   then=lambda _changes: self.message.emit("Instruction corrected: Re-roll (R) makes a take from it."))

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
        """Copy a picture, or a place's scene video, into the project's ``folder``. A
        character's view is a picture whatever its suffix: a GIF gives its first frame (taken
        for a scene video by its suffix, it became a clip that neither the cast list nor an
        engine could read as the character's picture)."""
        from studio.storage.media_import import import_image, import_media

        self.session.refuse_if_read_only(f"import {path.name}")
        if folder == "characters":
            return import_image(self.project, path, folder)
        return import_media(self.project, path, folder)

    def describe_job(self, job: Any) -> str:
        return job_title(job, self.tree, self._rendering.get(job.id))

    def _on_job_started(self, job_id: str, node_id: str) -> None:
        """Note the instruction a job starts with (it reads its turn as it starts)."""
        node = None if self.closed else self.tree.nodes.get(node_id)
        if node is not None:
            self._rendering[job_id] = node.instruction.raw

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

    def on_turn(self, node_id: str, action: Callable[[], R]) -> R | None:
        """Run ``action``, a user action on turn ``node_id``, unless that turn is gone; what
        it submits to the writer is skipped there, as quietly, if the turn is gone by then.

        A change (a delete, an undo) is in the latest tree as soon as the writer has made it,
        but the window hears of it up to ``COALESCE_MS`` later, and one submitted just before
        (a key pressed right after Delete) is made after the action reads the tree: until
        then, the selection may name a turn that no longer exists. An action on it does
        nothing (the window is about to select another turn); it is not an error."""
        if self.closed or node_id not in self.tree.nodes:
            log.debug("ignored an action on the deleted turn %s", node_id)
            return None
        outer, self._acting_on = self._acting_on, node_id
        try:
            return action()
        finally:
            self._acting_on = outer

    def gone(self) -> bool:
        """Closed, or its Qt object already deleted: results still on their way are dropped."""
        import shiboken6

        return self.closed or not shiboken6.isValid(self)

    def apply(self, command: Command, then: Callable[[ChangeSet], None] | None = None,
              refused: Callable[[], None] | None = None) -> None:
        """Submit ``command`` to the writer; ``then(changes)`` runs here once it is made
        (a refused command shows its error instead, after ``refused()``)."""
        if self.read_only is not None:
            if refused is not None:
                refused()
            self.refuse_read_only("save the change")
            return
        self.submit(lambda: self.project.apply(command), then, refused, kind="edit")

    def submit(self, operation: Callable[[], Any], then: Callable[[Any], None] | None = None,
               refused: Callable[[], None] | None = None, kind: EditKind = "") -> None:
        """Run ``operation`` (a document command with its jobs) on the writer. Submitted by an
        action on a turn (see :meth:`on_turn`), it is skipped there if that turn is gone.
        ``refused()`` runs here when it raises a StudioError (which is shown as ever).
        ``kind``: what it does to the undo history (see :attr:`ProjectSession.edits_in_flight`)."""
        turn = self._acting_on

        def run() -> Any:
            if turn is not None and turn not in self.project.tree.nodes:  # the writer's tree: the latest
                return _TURN_GONE
            if refused is None:
                return operation()
            try:
                return operation()
            except StudioError as error:
                return _Refused(error)

        def done(result: Any) -> None:
            if self.gone() or result is _TURN_GONE:  # the window closed just after, or the turn went
                return
            if isinstance(result, _Refused):
                if refused is not None:
                    refused()
                self.session.report(result.error)  # (a damaged database turns the window read-only)
                return
            self.history_changed.emit()
            if then is not None:
                then(result)

        self.session.submit(run, done, kind)

    def settings_for_jobs(self) -> dict[str, Any]:
        """Every setting of the window's engine as Settings shows it, defaults included: a
        re-roll replaces only the settings it is given and keeps the take's others (as the
        command line's ``--setting`` does), but in the window the re-roll is made with what
        Settings shows, so each is given (a take made at 160 x 112 came back at 160 x 112
        after Settings was put back to the engine's 720 x 480)."""
        values = self.session.job_settings()
        name = self.session.engine
        if name not in self.session.registry:
            return values
        try:
            return self.session.registry.info(name).settings.from_values(values).to_values()
        except StudioError:  # refused values were dropped by job_settings; a preset's may still fail
            return values

    def engine_name(self) -> str | None:
        return self.session.engine or None

    # -- selection ---------------------------------------------------------------------------

    def select(self, node_id: str, center: bool = True) -> None:
        """Select ``node_id``: the inspector shows it. A new turn being written is left as Esc
        leaves it: what was typed in it is put aside for the next new turn under its turn, and
        the status bar says so (a click, an arrow key, a search or an undo dropped it unsaid)."""
        if self.closed or node_id not in self.tree.nodes:
            return
        left_draft = self._leave_draft()
        node = self.tree.nodes[node_id]
        if node.parent_id is not None:
            self._last_child[node.parent_id] = node_id
        if node_id != self.current_id:
            self.previous_id = self.current_id  # where an undone fork or new turn goes back to
        self.current_id = node_id
        gone = self.check_clips([node_id])
        self._refresh_selection_views(show_inspector=True)
        self._follow_match()
        if center:
            self.view.center_on_node(node_id)
        else:  # the view stays put: a turn selected earlier, not laid out yet, is no longer to be followed
            self.view.forget_pending_follow()
        if left_draft:
            self._draft_note = left_draft
            self.message.emit(left_draft)
        elif gone:
            self.message.emit(missing_clips_message([self.tree.depth(node_id)]))

    def check_clips(self, node_ids: Iterable[str]) -> list[str]:
        """Which of ``node_ids`` have a chosen finished take whose clip file is gone (deleted or
        moved behind the window's back), in their order. One existence check each, made when a
        clip is about to be shown or played or an export is asked for: nothing polls the
        project. The cards of turns found gone, or back, are redrawn to say so."""
        tree = self.tree
        gone: list[str] = []
        changed: list[str] = []
        for node_id in node_ids:
            take = tree.selected_take(node_id) if node_id in tree.nodes else None
            if not _finished(take):
                continue
            assert take is not None
            try:
                missing = not self.project.resolve(take.clip_path).is_file()
            except (StudioError, OSError):
                missing = False  # a path the project refuses: the export names it in its own words
            if missing:
                gone.append(node_id)
            if missing != (take.clip_path in self.scene.clips_gone):
                (self.scene.clips_gone.add if missing else self.scene.clips_gone.discard)(take.clip_path)
                changed.append(node_id)
        if changed:
            self.scene.refresh_nodes(changed)
        return gone

    def _leave_draft(self) -> str:
        """Close the new turn being written (the inspector is to show a turn next), putting what
        was typed in it aside under the turn it was to follow: Enter there brings it back.
        Returns what the status bar is to say ("" when no draft was open, or it held nothing
        beyond its prefilled character and place). The typing stays under that turn's id even
        when the turn is gone: an undo bringing the turn back brings the typing back with it."""
        parent = self.inspector.draft_parent
        self._new_turn_sent = None
        if parent is None:
            return ""
        typed = self.inspector.draft_typing()
        self.inspector.draft_parent = None
        if not typed:
            return ""
        self._drafts_put_aside[parent] = typed
        return DRAFT_DROPPED if parent in self.tree.nodes else DRAFT_PARENT_GONE

    def _follow_match(self) -> None:
        """The Find bar's count follows the selected turn ("3 of 8" on the third match, "8
        matches" off them), however it was selected: a click, Undo bringing a deleted match
        back, a fallback after a delete. (It said the place of the match stepped to last.)"""
        if not self.search.isVisible() or not self.search.edit.text().strip():
            return
        self._match_index = self._matches.index(self.current_id) if self.current_id in self._matches else -1
        self.search.set_count(self._match_index, len(self._matches))

    def show_selection(self) -> None:
        """The view a project opens at: readable cards around the selected turn."""
        if not self.closed:
            self.view.show_around(self.current_id)

    def _refresh_selection_views(self, show_inspector: bool = False) -> None:
        if self.closed:
            return
        tree = self.tree
        if self.current_id not in tree.nodes:
            return
        self.branch = branch_through(tree, self.current_id, self._last_child)
        gone = self.scene.clips_gone
        summaries = [summarize(tree, n, self.session.tracker.for_node(n)) for n in self.branch]
        summaries = [replace(s, clip_missing=True) if s.clip_path and s.clip_path in gone else s for s in summaries]
        states = [tree.state_of(n) for n in self.branch]
        series = character_series(tree, self.branch)
        if show_inspector:
            self._inspector_timer.stop()
            self.inspector.show_node(tree, self.current_id, keep_editor=False)
        elif self.inspector.draft_parent is None:
            self._inspector_timer.start()
        self.inspector.takes.set_pending(*self.session.tracker.pending_for(self.current_id))
        self.scene.set_current(self.current_id, self.branch)
        known = [tree.nodes[n].is_root or _finished(tree.selected_take(n)) for n in self.branch]
        self.episode.set_branch(self.branch, summaries, states, self.branch.index(self.current_id), known)
        self.episode.chart.set_character_states(series)
        # whose state each turn shows: one shared state per branch is nobody's
        per_character = tree.state_scope is StateScope.CHARACTER
        actors = [tree.acting_character(n) if per_character else "" for n in self.branch[1:]]
        self.episode.chart.set_actors(["", *actors])
        self.update_actions()

    def _refresh_inspector(self) -> None:
        """The selected turn's inspector after a change (unless a draft is being written)."""
        if self.closed or self.inspector.draft_parent is not None or self.current_id not in self.tree.nodes:
            return
        self.inspector.show_node(self.tree, self.current_id, keep_editor=True)

    def update_actions(self) -> None:
        """Turn actions only for a turn (the story's start has no clip to re-roll, fork or
        delete, nor an instruction to generate unless a new turn is being written under it);
        moving an alternative up or down only where one is above or below it; export only
        when the shown branch has a turn to export; Play only when it has a clip to play;
        Compare branches only when the story has two; Bookmark only on a turn. An action that
        is off says why in its tooltip (and its key in the status bar). Re-roll reads "Generate
        this turn" on a turn never generated, Bookmark "Remove bookmark" on a bookmarked one."""
        node = self.tree.nodes.get(self.current_id)
        is_turn = node is not None and not node.is_root
        a = self.studio_actions
        for name in TURN_OFF_TIPS:
            _enable(getattr(a, name), is_turn, turn_off_tip(node, name))
        self._update_generate()
        _enable(a.play, bool(self.episode.player.paths), PLAY_OFF_TIP)
        turns = [n for n in self.branch if n in self.tree.nodes and not self.tree.nodes[n].is_root]
        _enable(a.fill, any(self._missing(n) for n in turns), FILL_OFF_TIP if turns else FILL_NO_TURN_TIP)
        index, count = self.sibling_index(self.current_id)
        for action, step in ((a.move_up, -1), (a.move_down, 1)):
            why = move_off_tip(node, index, count, step)
            _enable(action, not why, why)
        _enable(a.export, bool(turns), EXPORT_OFF_TIP)
        takes = self.tree.takes_of(node.id) if is_turn and node is not None else []
        playable = sum(1 for take in takes if take.status is TakeStatus.DONE and take.clip_path)
        _enable(a.compare_takes, playable >= 2, COMPARE_TAKES_OFF_TIP)
        _enable(a.compare_branches, self.scene.branch_count > 1 or self.branch_compare is not None,
                ONE_BRANCH_TIP)
        a.reroll.setText(GENERATE_TURN_TEXT if is_turn and self._never_generated(self.current_id) else REROLL_TEXT)
        a.bookmark.setText(UNBOOKMARK_TEXT if is_turn and node is not None and node.bookmarked else BOOKMARK_TEXT)
        if self.finishing:
            for action in (a.generate, a.reroll, a.reroll_branch, a.fill):
                _enable(action, False, FINISHING_TIP)
            for shortcut in self._generate_off_keys:
                shortcut.setEnabled(True)
        if self.read_only is not None:
            self._read_only_actions()
        else:  # (off after a read-only project: they are in no menu group the window turns on)
            for action in a.take_keys.actions():
                _enable(action, True, "")
        for action, shortcut in self._off_keys:
            shortcut.setEnabled(not action.isEnabled())

    def generate_off_reason(self) -> str:
        """Why Generate (the action, Ctrl+Enter) is off now, or "" when it is on. The editor's
        line is judged as its Generate button judges it (:func:`InstructionEditor.length_error`,
        an empty line): the action was on where the button was off, and Ctrl+Enter then opened
        a box, or said only that there was nothing to generate."""
        if self.finishing:
            return FINISHING_TIP
        if self.read_only is not None:
            return self.read_only.off_tip()
        node = self.tree.nodes.get(self.current_id)
        if (node is None or node.is_root) and self.inspector.draft_parent is None:
            return GENERATE_OFF_TIP
        editor = self.inspector.editor
        refusal = editor.length_error() or editor.field_name_error()  # as the button: off, saying why
        if refusal is not None:
            return refusal.message
        return "" if editor.text().strip() else EMPTY_TIP

    def _update_generate(self, _text: str = "") -> None:
        """Generate on or off (see :meth:`generate_off_reason`), its off keys the other way."""
        if self.closed:
            return
        why = self.generate_off_reason()
        _enable(self.studio_actions.generate, not why, why)
        for shortcut in self._generate_off_keys:
            shortcut.setEnabled(bool(why))

    def _say_why_generate_off(self) -> None:
        """Ctrl+Enter while Generate is off: the status bar says why (its tooltip)."""
        if not self.closed:
            self.message.emit(as_sentence(self.studio_actions.generate.toolTip() or GENERATE_OFF_TIP))

    def _use_character(self, name: str) -> None:
        """A character used from the cast panel goes into the editor's Character box; on a
        read-only project, where the line can't be saved, the status bar says why instead."""
        if not self._refuse_use_read_only("use a character in the instruction"):
            self.inspector.editor.character.setText(name)

    def _use_location(self, name: str) -> None:
        """A place used from the cast panel goes into the editor's Background box (see :meth:`_use_character`)."""
        if not self._refuse_use_read_only("use a place in the instruction"):
            self.inspector.editor.background.setText(name)

    def _refuse_use_read_only(self, what: str) -> bool:
        """On a read-only project, say in the status bar why ``what`` can't be done (True)."""
        if self.read_only is None:
            return False
        self.message.emit(f"⚠ {self.read_only.refusal(what).message}")
        return True

    def _read_only_actions(self) -> None:
        """Every action that would change a read-only project off, its tooltip (and its key,
        in the status bar) saying why; looking, playing, comparing and exporting stay."""
        assert self.read_only is not None
        a = self.studio_actions
        tip = self.read_only.off_tip()
        for action in (a.new_turn, a.generate, a.reroll, a.reroll_branch, a.fill, a.fork, a.move_up, a.move_down,
                       a.bookmark, a.delete, *a.take_keys.actions()):
            _enable(action, False, tip)
        for shortcut in self._generate_off_keys:
            shortcut.setEnabled(True)

    def refuse_read_only(self, what: str) -> bool:
        """Say why ``what`` can't be done on a read-only project (True), or False: go ahead.

        The first refusal of each kind opens a message box; the same one again is said in the
        status bar only: the inspector sends typed notes after each pause, and every pause
        opened another box over the window."""
        if self.read_only is None:
            return False
        error = self.read_only.refusal(what)
        if what in self._refused_read_only:
            self.message.emit(f"⚠ {error.message}")
        else:
            self._refused_read_only.add(what)
            self.error.emit(error)
        return True

    def become_read_only(self, reason: ReadOnlyReason) -> list[TypedText]:
        """Turn read-only while open (its database was found damaged): the lasting line over
        the story says why, the inspector shows everything for reading only and every action
        that would change the project goes off, as for a project opened read-only.

        The inspector then shows the turn as the project holds it: the change that failed to
        save (and any typing not saved yet) no longer shows as if it were saved. That typing is
        returned, for the message to quote, and the line over the story offers it: "Copy what
        I typed" puts it on the clipboard, to paste into the copy Save a copy… opens."""
        typed = self.inspector.typed_not_stored()
        self.read_only = reason
        self.session.read_only = reason
        if self.read_only_bar is None:
            self.read_only_bar = ReadOnlyBar(reason, self.studio_actions, self)
            layout = self.layout()
            if isinstance(layout, QVBoxLayout):
                layout.insertWidget(0, self.read_only_bar)
            self.read_only_bar.show()  # (a child made after its window was shown starts hidden)
        else:
            self.read_only_bar.set_text(reason.line())
        self.inspector.set_read_only(reason.off_tip())
        self.inspector.show_stored()
        if typed:
            self.read_only_bar.offer_typing(typed)
        self.update_actions()
        self._update_generate()
        return typed

    def _compare_takes_key(self, _checked: bool = False) -> None:
        """Compare takes, from its menu entry or its key (its button is in the takes area)."""
        if not self.closed:
            self.compare_takes()

    def _choose_take_key(self, action: QAction) -> None:
        """Take N of the selected turn, as the inspector numbers them, chosen as its Use button
        chooses it (the same command, undo step and stale-turns offer); a number with no take
        to use says why in the status bar."""
        node = None if self.closed else self.tree.nodes.get(self.current_id)
        if node is None or node.is_root:
            if node is not None:
                self.message.emit("The start has no takes: select a turn to choose one of its takes.")
            return
        number, turn = int(action.data()), self.tree.depth(node.id)
        take, why = take_to_choose(self.tree.takes_of(node.id), node.selected_take_id, number, turn)
        tile = next((t for t in self.inspector.takes.tiles if take is not None and t.take.id == take.id), None)
        if tile is not None:
            tile.update_use()  # its clip may have gone since: the button says so too
            if tile.missing:
                take, why = None, f"Take {number} of turn {turn}: {tile.use_button.toolTip()}"
        if take is None:
            self.message.emit(why)
        else:
            self.choose_take(node.id, take.id)

    def _say_why_off(self, action: QAction) -> None:
        """A key of an action that is off: the status bar says why (its tooltip)."""
        if not self.closed and action.toolTip():
            self.message.emit(as_sentence(action.toolTip()))

    def _never_generated(self, node_id: str) -> bool:
        """Whether a turn was never generated: no take at all (a failed try leaves one), and no job
        queued, running or failed for it."""
        if self.tree.takes_of(node_id):
            return False
        job = self.session.tracker.for_node(node_id)
        return job is None or job.status not in ("queued", "running", "failed")

    def _missing(self, node_id: str) -> bool:
        """Whether "Generate missing turns" would queue ``node_id``: no finished take, and no
        generation queued or running for it."""
        if any(take.status is TakeStatus.DONE for take in self.tree.takes_of(node_id)):
            return False
        job = self.session.tracker.for_node(node_id)
        return job is None or job.status not in ("queued", "running")

    def navigate(self, move: str) -> None:
        """An arrow key: select the parent, child or alternative of the selected turn. The
        selected turn may be gone already (deleted, its change set still on its way, see
        :meth:`on_turn`): the key then does nothing, as the window is about to select another."""
        if self.closed or self.current_id not in self.tree.nodes:
            log.debug("ignored a move from the deleted turn %s", self.current_id)
            return
        target = neighbour(self.tree, self.current_id, move, self._last_child)
        if move == "last" and target is not None:  # End stops at a folded card, as Right does
            target = self.scene.shown_turn(target)
            target = None if target == self.current_id else target
        if target is not None:
            self.select(target)

    def _activate(self, node_id: str) -> None:
        self.select(node_id)
        self.inspector.editor.focus_first_field()

    def _context_menu(self, node_id: str, pos: QPoint) -> None:
        self.select(node_id, center=False)
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        menu.setToolTipsVisible(True)  # an item that is off says why (see update_actions)
        a = self.studio_actions
        for action in (a.new_turn, a.reroll, a.reroll_branch, a.fork, a.compare_branches, a.move_up, a.move_down,
                       a.fill, a.bookmark, a.fold, a.export, a.delete):
            menu.addAction(action)
        menu.popup(pos)
        self.turn_menu = menu

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
            parent = ancestors[-1] if ancestors else None
            previous = self.tree.nodes.get(self.previous_id)
            if previous is not None and self.previous_id not in removed and parent is not None \
                    and parent in (previous.id, previous.parent_id):
                fallback = previous.id  # the turn selected before: a fork's original, a new turn's parent
            self.select(fallback, center=False)
            focus = QApplication.focusWidget()
            if focus is not None and self.inspector.isAncestorOf(focus):
                # the keyboard was on the turn that went (F then Ctrl+Z): back to the tree,
                # where it came from, rather than into another turn's fields
                self.view.setFocus(Qt.FocusReason.OtherFocusReason)
        else:
            self._refresh_timer.start()
        self._follow_compared()
        if self.branch_compare is not None:
            self.branch_compare.follow()
        if changes.ids(EntityKind.NODE):
            self.queue.document_changed()  # its lines name turns by number and action
        if changes.ids(EntityKind.CAST) or changes.ids(EntityKind.LOCATION):
            self.cast.refresh(self.tree)
            self.inspector.set_vocabulary(collect_vocabulary(self.tree, self.session.engine_vocabulary()))
        if self.search.isVisible() and self.search.edit.text():
            self._refresh_matches(self.search.edit.text())
        self.history_changed.emit()

    def _on_edits_in_flight(self) -> None:
        """An edit was sent, or one has ended: Undo is on as soon as an edit is sent (a method, not
        the signal's emit, so that the connection ends with this widget)."""
        if not self.gone():
            self.history_changed.emit()

    def _on_job_nodes(self, node_ids: set[str]) -> None:
        if self.closed:
            return
        self.scene.refresh_nodes(node_ids)
        if set(self.branch) & set(node_ids):
            self._refresh_timer.start()
        if self.branch_compare is not None:  # a turn queued, generating or failed: its row says so
            self.branch_compare.follow()

    def _damaged_database(self, failure: str) -> bool:
        """Whether a job failed because the project's database is damaged: its message names
        the database, and the database fails SQLite's checks now (asked only then)."""
        return DB_NAME in failure and self.read_only is None and database_damaged(self.project)

    def _follow_retried_export(self, old_id: str, new_id: str) -> None:
        """A retried export ends as its first try would have ("Export finished: ...")."""
        export = self._exports.pop(old_id, None)
        if export is not None:
            self._exports[new_id] = export

    def _on_job_finished(self, event: JobEvent) -> None:
        export = self._exports.get(event.job.id)
        if export is not None:
            if event.kind is not EventKind.FAILED:  # a failed export is kept for a retry
                del self._exports[event.job.id]
            if event.kind is EventKind.FINISHED:
                out, results = export
                written = list(results[0].paths) if results else []
                described = describe_written(out, written)
                finished = finished_export(described, results[0].notes if results else ())
                self.message.emit(finished.status)
                if finished.notes:  # a few sentences each: in a box of their own, not the status bar
                    self.export_notes_box = show_export_notes(self, described, finished)
            elif event.kind is EventKind.FAILED:
                self.message.emit(f"Export failed: {without_node_ids(event.message) or 'see the queue'}")
            else:
                self.message.emit("Export cancelled.")
            return
        if event.kind is EventKind.FAILED:
            message = event.message or "A job failed."
            hint = event.hint
            if self._damaged_database(message):  # its take could not be saved: the window turns read-only
                self.session.report(ProjectDamagedError(message, hint=hint))
                return
            self.message.emit(f"Generation failed: {message}" + (f" ({hint})" if hint else ""))
        elif event.kind is EventKind.FINISHED:
            node_id = event.job.node_id
            rerolling = self._choice_rerolls.pop(event.job.id, None)
            if rerolling is not None:
                self.message.emit(rerolling.one_done())
                return
            if node_id in self._use_new_take and event.job.take_id in self.tree.takes:
                self._use_new_take.discard(node_id)
                self._use_in_place_of_missing(node_id, event.job.take_id)
                return
            self.message.emit(self._take_ready_message(event.job.node_id, event.job.take_id))
        elif event.kind is EventKind.CANCELLED:  # by the user, or its turn was deleted (or undone)
            if event.job.id in self._undone_jobs:  # the undo of its re-roll said so
                self._undone_jobs.discard(event.job.id)
                return
            if self.queue.tells_of_cancel(event.job.id, event.message):
                return  # in one line with the jobs that went with it, not one "cancelled" per job
            message = event.message if event.message and event.message != CANCELLED_MESSAGE else ""
            self.message.emit(f"Generation cancelled{': ' + message if message else '.'}")

    def _use_in_place_of_missing(self, node_id: str, take_id: str) -> None:
        """Choose the take a re-roll of a turn whose chosen clip is missing made (the turns after
        it, made from the missing take, may go stale: the choice says so and can offer to
        re-roll them), unless the chosen clip came back meanwhile."""
        if not self.check_clips([node_id]):
            self.message.emit(self._take_ready_message(node_id, take_id))
            return
        ids = [take.id for take in self.tree.takes_of(node_id)]
        number = ids.index(take_id) + 1 if take_id in ids else len(ids)
        turn = self.tree.depth(node_id)
        # no question pops up when a job ends: the stale turns are said, Shift+R re-rolls them
        self._choose_take(node_id, take_id, ask=False,
                          chosen_as=f"Take {number} of turn {turn} used in place of the take whose clip is missing")

    def _take_ready_message(self, node_id: str | None, take_id: str) -> str:
        """"Take ready.", or, when the new take was kept beside the turn's chosen one (later
        turns follow that one), which take it is and how to use it: the card, the player and
        the exports go on showing the old take, which read as if Generate had done nothing."""
        tree = self.tree
        if not node_id or node_id not in tree.nodes or take_id not in tree.takes:
            return "Take ready."
        selected = tree.selected_take(node_id)
        if selected is None or selected.id == take_id:
            return "Take ready."
        ids = [take.id for take in tree.takes_of(node_id)]
        number = ids.index(take_id) + 1 if take_id in ids else len(ids)
        return (f"Take {number} of turn {tree.depth(node_id)} ready, kept beside the chosen take, which the "
                "turns after it follow: press \"Use this take\" under it in the inspector to switch to it.")

    # -- turn commands -----------------------------------------------------------------------

    def add_script_turns(self, parent_id: str, turns: list[ScriptTurn]) -> None:
        """Make ``turns`` (lines pasted into the editor: a script) one after another after
        ``parent_id``, as one edit (one Undo), and show the last of them; nothing if that turn
        is gone (see :meth:`on_turn`)."""
        if turns:
            self.on_turn(parent_id, lambda: self._add_script_turns(parent_id, turns))

    def _add_script_turns(self, parent_id: str, turns: list[ScriptTurn]) -> None:
        from studio.storage.demo_import import ImportTurns

        ids = [new_id() for _ in turns]
        parents = [parent_id, *ids[:-1]]
        made = tuple((node_id, parent, turn.text) for node_id, parent, turn in zip(ids, parents, turns, strict=True))
        stories = tuple((node_id, StoryFields(dialogue=turn.dialogue))
                        for node_id, turn in zip(ids, turns, strict=True) if turn.dialogue)

        def shown(_changes: ChangeSet) -> None:
            self.select(ids[-1])  # a draft the lines were pasted into is left as any draft is
            self.message.emit(f"Made {plural(len(ids), 'turn')} of the pasted lines. Turn › Generate missing turns "
                              "of the branch (Ctrl+Shift+G) makes their takes.")

        self.apply(ImportTurns(made, stories), then=shown)

    @turn_action
    def start_new_turn(self) -> None:
        """Enter: a draft under the selected turn; the instruction editor takes focus. A draft
        closed with Esc under this turn comes back with what was typed in it (so does the one
        open already: Enter again in the tree must not start it afresh)."""
        if self.refuse_read_only("add a turn"):
            return
        self._leave_draft()
        kept = self._drafts_put_aside.pop(self.current_id, None)
        self.inspector.show_draft(self.tree, self.current_id, text=kept)
        self.update_actions()  # a draft under the start can be generated
        self.message.emit(DRAFT_RESUMED if kept else "New turn: describe it, then Generate (Ctrl+Enter).")

    def _cancel_draft(self) -> None:
        """Esc in a new turn's editor closes the draft, and the status bar says so (it went on
        saying "New turn: describe it, then Generate" about a turn no longer there).

        Esc is often pressed by reflex (to close a completer, out of habit), so what was typed
        is not thrown away: it is put aside, and the next new turn under the same turn (Enter
        there) starts with it. That keeps Esc a one-key way out, without a question to answer
        each time, while a long instruction can be had again; a draft holding nothing beyond its
        prefilled character and place is simply dropped."""
        if self.inspector.draft_parent is None:
            return
        said = self._leave_draft()
        self.select(self.current_id, center=False)
        self.view.setFocus()
        self.message.emit(said or DRAFT_EMPTY_DROPPED)

    def generate_text(self, target: str, text: str) -> None:
        """Generate from the editor: a draft becomes a new turn; an edited turn is updated."""
        if self.refuse_read_only("generate") or self.refuse_while_finishing():
            return
        self.on_turn(target, lambda: self._generate_text(target, text))

    def _generate_text(self, target: str, text: str) -> None:
        if self.inspector.draft_parent == target:
            if self._send_new_turn(target):
                self._generate_new(target, text)
            return
        node = self.tree.nodes.get(target)
        if node is None:
            return
        # the editor rebuilds a line in its own form: unchanged from what it showed is a re-roll
        if node.instruction.raw != text and not self.inspector.shows_unedited(target, text):
            self._save_instruction(target, text, then=lambda _changes: self.reroll(target))
        else:
            self.reroll(target)

    def _generate_new(self, parent_id: str, text: str) -> None:
        service = self.session.service
        if service is None:
            node_id = new_id()

            def added(_changes: ChangeSet) -> None:
                self._used_up(parent_id, text)
                self.select(node_id)

            self.apply(AddTurn(parent_id, text, node_id=node_id), then=added,
                       refused=lambda: self._new_turn_refused(parent_id))
            self.error.emit(StudioError(self.session.service_error or "Generation is not available.",
                                        hint="The turn was added without a take."))
            return
        engine, settings = self.engine_name(), self.settings_for_jobs()

        def made(result: tuple[str, str]) -> None:
            node_id, job_id = result
            self._used_up(parent_id, text)
            self.select(node_id)
            self.view.setFocus()
            self.message.emit(self._generating_message(parent_id, job_id))

        self.submit(lambda: service.generate(parent_id, text, engine=engine, settings=settings), made,
                    refused=lambda: self._new_turn_refused(parent_id), kind="edit")

    def _send_new_turn(self, parent_id: str) -> bool:
        """Whether the open draft under ``parent_id`` may be sent to become a turn: not when it
        was sent already and has not landed yet. The draft stays open until the writer has made
        its turn (a refused one keeps the typing to fix), so a second Generate in that moment
        (a double click on Generate, Ctrl+Enter pressed twice) read the same draft and added the
        same turn twice, each with its own take."""
        if self._new_turn_sent == parent_id:
            self.message.emit(NEW_TURN_ON_ITS_WAY)
            return False
        self._new_turn_sent = parent_id
        return True

    def _new_turn_refused(self, parent_id: str) -> None:
        """The draft under ``parent_id`` was refused (it stays open, with its typing): it may be
        sent again once fixed."""
        if self._new_turn_sent == parent_id:
            self._new_turn_sent = None

    def _used_up(self, parent_id: str, text: str) -> None:
        """A new turn under ``parent_id`` was made from ``text``: the draft is closed, not put
        aside (nor kept aside, if the user moved on while the turn was on its way)."""
        if self._new_turn_sent == parent_id:
            self._new_turn_sent = None
        if self.inspector.draft_parent == parent_id:
            self.inspector.draft_parent = None
        if self._drafts_put_aside.get(parent_id) == text:
            del self._drafts_put_aside[parent_id]

    def _generating_message(self, parent_id: str, job_id: str) -> str:
        """"Generating…", and, when the turn above has no take and none on its way, that the
        new turn starts from the state before it (as the command line says): it went ahead
        from the start's state without a word."""
        tree, service = self.tree, self.session.service
        parent = tree.nodes.get(parent_id)
        job = service.job(job_id) if service is not None else None
        if parent is None or parent.is_root or job is None or job.depends_on:
            return "Generating…"
        if any(take.status is TakeStatus.DONE for take in tree.takes_of(parent_id)):
            return "Generating…"
        return ("Generating… The turn above has no take yet, so this one starts from the state before it: "
                "Fill (Ctrl+Shift+G) generates the branch in order.")

    @turn_action
    def generate_current(self) -> None:
        """Ctrl+Enter outside the editor: generate what the editor holds."""
        text = self.inspector.editor.text()
        target = self.inspector.draft_parent or self.current_id
        if text.strip():
            editor = self.inspector.editor
            if not editor.refuse_if_too_long() and not editor.refuse_if_misspelled():
                self.generate_text(target, text)
        else:
            self.message.emit("Nothing to generate: describe the turn in the instruction box first "
                              "(Enter starts a new turn).")

    @turn_action
    def save_text(self, text: str) -> None:
        if self.refuse_read_only("save the instruction"):
            return
        draft = self.inspector.draft_parent
        if draft is not None:
            if not self._send_new_turn(draft):
                return
            node_id = new_id()

            def added(_changes: ChangeSet) -> None:
                self._used_up(draft, text)
                self.select(node_id)

            self.apply(AddTurn(draft, text, node_id=node_id), then=added,
                       refused=lambda: self._new_turn_refused(draft))
        elif self.current_id in self.tree.nodes and self.tree.nodes[self.current_id].instruction.raw != text:
            node_id = self.current_id
            self._save_instruction(node_id, text, then=lambda _changes: self.message.emit(self._saved_text(node_id)))

    def _saved_text(self, node_id: str) -> str:
        """What Save text did to the story: the turn's take no longer matches it, and the turns
        after it that follow it are stale (they went stale silently)."""
        from studio.ui.edit_outcome import saved_instruction_message

        tree = self.tree
        if node_id not in tree.nodes:
            return "Instruction saved."
        take = tree.selected_take(node_id)
        after = sum(1 for node in tree.descendants(node_id)
                    if (below := tree.selected_take(node.id)) is not None and below.stale)
        # its take matches the text again where the text typed is the one it was made from
        made_for = take.instruction_raw if take is not None else ""
        unmatched = take is not None and (made_for != tree.nodes[node_id].instruction.raw if made_for else take.stale)
        return saved_instruction_message(unmatched, after)

    def _save_instruction(self, node_id: str, text: str, then: Callable[[ChangeSet], None] | None = None) -> None:
        """The editor's line becomes the turn's instruction (Save text, Generate). Refused (too
        long, a field given twice), it stays in the editor as typing the user is to fix: a later
        redraw of the turn must not put the stored line back over it."""
        self.inspector.note_saved(node_id, text)
        self.apply(EditInstruction(node_id, text), then=then,
                   refused=lambda: self.inspector.save_refused(node_id, text))

    def _keep_edited_instruction(self, node_id: str, text: str) -> None:
        node = self.tree.nodes.get(node_id)
        if node is None or node.instruction.raw == text or self.refuse_read_only("keep the edited instruction"):
            return
        # saved, no longer typing: the editor shows the turn's line again when it is redrawn
        # (an undo of this very edit, sent right after it, showed the undone line as if saved)
        self.inspector.note_saved(node_id, text)
        self.apply(EditInstruction(node_id, text))
        self.message.emit(f"Kept the edited instruction of turn {self.tree.depth(node_id)} (Undo takes it back).")

    def refuse_while_finishing(self) -> bool:
        """Say why no generation starts while the window finishes the queue before closing (or
        before opening another project) (True), or False: go ahead. A job queued then kept the
        window open longer, and its message wrote over the notice that the window was waiting."""
        if not self.finishing:
            return False
        self.message.emit(FINISHING_REFUSAL)
        return True

    def _queue_jobs(self, operation: Callable[[Any, str | None, dict[str, Any]], Any],
                    then: Callable[[Any], str], typing_of: str | None = None, *, renders_typed: bool = True) -> None:
        """Queue the jobs ``operation`` makes (on the writer) and say ``then(result)``.

        ``typing_of``: the turn whose instruction, typed in the inspector and not saved yet, the
        jobs are to render (the turn the action generates from). Ctrl+Enter and Fork used the
        line on screen, but R, Shift+R and Fill rendered the stored one while the editor went on
        showing the edit: the edit is now saved first, in the same writer operation as the jobs,
        and the status bar says it was.

        ``renders_typed``: the jobs make a take of ``typing_of`` itself (a re-roll), so that a
        line there with a misspelled field name (see :meth:`Inspector.refuse_misspelled_field_names`)
        is refused, as Generate refuses it: the take would go without that field."""
        if self.refuse_read_only("generate") or self.refuse_while_finishing():
            return
        if renders_typed and typing_of is not None and self.inspector.refuse_misspelled_field_names(typing_of):
            return
        service = self.guard(self.session.require_service)
        if service is None:
            return
        engine, settings = self.engine_name(), self.settings_for_jobs()
        typed = self._typed_for_generation(typing_of)
        if typed is None:
            return  # too long to keep: the typing stays, to be shortened, and nothing is queued
        if not typed or typing_of is None:
            self.submit(lambda: operation(service, engine, settings), lambda result: self.message.emit(then(result)))
            return
        self._queue_with_edit(typing_of, typed, lambda: operation(service, engine, settings), then)

    def _typed_for_generation(self, node_id: str | None) -> str | None:
        """The instruction line typed for ``node_id`` and not saved ("" when there is none);
        None when it is too long to keep (the window says why). Notes and story fields being
        typed are left to their pause: a generation does not read them, and saved here they
        split one typing into two undo steps."""
        if node_id is None or self.closed:
            return ""
        if self.inspector.refuse_typing_too_long(node_id):
            return None
        return self.inspector.take_typed_instruction(node_id)

    def _queue_with_edit(self, node_id: str, text: str, operation: Callable[[], Any],
                         then: Callable[[Any], str]) -> None:
        """Save ``text`` as turn ``node_id``'s instruction, then run ``operation`` (which queues
        the jobs), in one writer operation: no job can start between the two. A refused edit
        queues nothing and leaves the line in the editor, as Save text does."""
        self.inspector.note_saved(node_id, text)
        depth = self.tree.depth(node_id)

        def run() -> Any:
            try:
                self.project.apply(EditInstruction(node_id, text))
            except StudioError as error:
                return _EditRefused(error)
            return operation()

        def done(result: Any) -> None:
            if isinstance(result, _EditRefused):
                self.inspector.save_refused(node_id, text)
                self.error.emit(result.error)
                return
            self.message.emit(f"{then(result)} {EDIT_USED.format(turn=depth)}")

        self.submit(run, done, kind="edit")

    def reroll(self, node_id: str | None = None) -> None:
        target = node_id or self.current_id
        seed = self.session.settings.locked_seed
        if self.check_clips([target]):  # kept beside a chosen take that can't play, it fixed nothing
            self._use_new_take.add(target)

        def queue(service: Any, engine: str | None, settings: dict[str, Any]) -> tuple[bool, Any]:
            if seed is None and self._first_take_alone(service, target):
                # a turn never generated (a fork, a turn saved without a take): its first take,
                # named and undone as one ("Generate", "Undo Generate take"), not as a re-roll
                return True, service.fill(target, engine=engine, settings=settings)
            return False, service.reroll(target, engine=engine, seed=seed, settings=settings)

        def said(result: tuple[bool, Any]) -> str:
            first, _jobs = result
            if first:
                return "Generating…"
            return "Re-rolling…" if seed is None else f"Re-rolling with the locked seed {seed}…"

        self.on_turn(target, lambda: self._queue_jobs(queue, said, typing_of=target))

    def _first_take_alone(self, service: Any, node_id: str) -> bool:
        """On the writer: whether ``node_id`` has no take and no job on its way while every turn
        above it has a finished take or a generation on its way, so that Fill would queue this
        turn alone (its first take)."""
        from studio.core.jobs import JobKind
        from studio.worker.events import JobStatus

        tree = self.project.tree
        if node_id not in tree.nodes or tree.takes_of(node_id):
            return False
        active = {job.node_id for job in service.jobs() if job.kind is JobKind.GENERATE
                  and job.status in (JobStatus.QUEUED, JobStatus.RUNNING)}
        if node_id in active:
            return False
        above = tree.path_to(node_id)[1:-1]
        return all(node.id in active or any(take.status is TakeStatus.DONE for take in tree.takes_of(node.id))
                   for node in above)

    @turn_action
    def reroll_branch(self) -> None:
        target = self.current_id
        self._queue_jobs(
            lambda service, engine, settings: service.reroll_branch(target, engine=engine, settings=settings),
            lambda jobs: f"Re-rolling {len(jobs)} turn{'s' if len(jobs) != 1 else ''}…", typing_of=target)

    def fill_branch(self) -> None:
        if not self.branch:
            return
        leaf = self.branch[-1]
        current = self.tree.nodes.get(self.current_id)
        typing_of = current.id if current is not None and not current.is_root and current.id in self.branch else None
        self.on_turn(leaf, lambda: self._queue_jobs(
            lambda service, engine, settings: service.fill(leaf, engine=engine, settings=settings),
            lambda jobs: (f"Queued {len(jobs)} turn{'s' if len(jobs) != 1 else ''}." if jobs
                          else "Every turn of this branch has a take."), typing_of=typing_of,
            renders_typed=False))  # the turn shown may have its take: Fill may make none of it

    @turn_action
    def fork(self) -> None:
        if self.refuse_read_only("fork the turn"):
            return
        self.inspector.commit_edits()  # notes and story fields being typed are part of the turn the fork copies
        if self.inspector.refuse_typing_too_long(self.current_id):
            return  # the typing stays, to be shortened
        typed = self.inspector.take_typed_instruction(self.current_id)  # the fork's, not the original's
        new_node = new_id()

        def forked(_changes: ChangeSet) -> None:
            node = self.tree.nodes.get(new_node)
            if node is None:  # undone already (Ctrl+Z pressed right after F): nothing to edit
                return
            self.select(new_node)
            self.inspector.editor.focus_first_field()
            self.message.emit(fork_copied(node))

        self.apply(Fork(self.current_id, new_node_id=new_node, text=typed), then=forked)

    def sibling_index(self, node_id: str) -> tuple[int, int]:
        """Where a turn stands among its parent's alternatives, top first, and how many there are
        ((0, 0) for the start or an unknown id)."""
        node = self.tree.nodes.get(node_id)
        if node is None or node.parent_id is None:
            return 0, 0
        siblings = self.tree.child_ids(node.parent_id)
        return siblings.index(node_id), len(siblings)

    @turn_action
    def move_alternative(self, step: int) -> None:
        """Move the selected turn up (``step`` -1) or down (1) among its alternatives (undoable);
        it stays selected and in view."""
        node_id = self.current_id
        index, count = self.sibling_index(node_id)
        if not 0 <= index + step < count:
            return

        def moved(_changes: object) -> None:
            self.select(node_id)
            self.message.emit(f"Moved {'up' if step < 0 else 'down'}: now alternative {index + step + 1} of {count} "
                              "(Ctrl+Z puts it back)")

        self.apply(MoveAmongSiblings(node_id, index + step), then=moved)

    @turn_action
    def toggle_bookmark(self) -> None:
        node = self.tree.nodes.get(self.current_id)
        if node is not None:
            self.set_bookmark(node.id, not node.bookmarked)

    def set_bookmark(self, node_id: str, on: bool) -> None:
        """Bookmark turn ``node_id`` (``on``) or remove its bookmark; the status bar says which
        (B gave no word, while F2 said "Bookmark 1 of 1")."""
        def said(_changes: ChangeSet) -> None:
            if node_id in self.tree.nodes:
                text = BOOKMARKED if on else UNBOOKMARKED
                self.message.emit(text.format(turn=self.tree.depth(node_id)))

        self.apply(SetBookmark(node_id, on), then=said)

    @turn_action
    def delete_current(self) -> None:
        if self.refuse_read_only("delete the turn"):
            return
        tree = self.tree
        node = tree.nodes.get(self.current_id)
        if node is None or node.is_root:
            return
        subtree = [node, *tree.descendants(node.id)]
        takes = sum(len(tree.takes_of(n.id)) for n in subtree)
        ids = {n.id for n in subtree}
        generating = sum(1 for job in self.session.active_jobs() if job.node_id in ids)
        typing = self.inspector.node_id in ids and self.inspector.holds_typing()
        # a new turn being written under them: kept with them (see _leave_draft), asked about as typing is
        drafting = self.inspector.draft_parent in ids and bool(self.inspector.draft_typing())
        # dialogue, narration, shot notes, the turn's notes, or any of them being typed
        written = typing or drafting or any(n.story != StoryFields() or n.notes.strip() for n in subtree)
        if (takes or generating or written or len(subtree) > 1) and not self.confirm(
                "Delete turns", delete_prompt(len(subtree) - 1, takes, generating)):
            return
        parent = node.parent_id
        said = deleted_message(tree.depth(node.id), len(subtree) - 1, takes, generating)
        if drafting:
            said += " " + DRAFT_KEPT_WITH_DELETED
        self.inspector.commit_edits()  # what was being typed goes with the turn: Undo brings it back

        def deleted(_changes: ChangeSet) -> None:
            if parent:
                self.select(parent)
            self.message.emit(said)

        self.apply(DeleteSubtree(node.id), then=deleted)

    def choose_take(self, node_id: str, take_id: str) -> None:
        """Use another take; say how many later turns become stale and offer to re-roll them."""
        if self.refuse_read_only("choose another take"):
            return
        self.on_turn(node_id, lambda: self._choose_take(node_id, take_id))

    def _choose_take(self, node_id: str, take_id: str, chosen_as: str = "", ask: bool = True) -> None:
        """``chosen_as``: what the status bar calls the choice ("Take 2 chosen" where empty);
        ``ask``: whether to ask what to do of the turns it makes stale (else they stay so)."""
        stale_turns = self.stale_if_chosen(node_id, take_id)
        stale = len(stale_turns)
        answer = self.ask_stale(stale) if stale and ask else "use"
        if answer is None:
            return
        ids = [take.id for take in self.tree.takes_of(node_id)]
        said = chosen_as or (f"Take {ids.index(take_id) + 1} chosen" if take_id in ids else "Take chosen")
        if answer == "reroll":
            # the choice and one re-roll of the stale turns below it (a turn below them that has no
            # take stays so), queued together as one undo step: one Undo takes both back
            turn = self.tree.depth(node_id)
            named = f"take {ids.index(take_id) + 1} of turn {turn}" if take_id in ids else "the take"
            self._queue_jobs(
                lambda service, engine, settings: service.choose_and_reroll(
                    node_id, take_id, only=stale_turns, chosen=named, engine=engine, settings=settings),
                lambda jobs: self._follow_choice(said, jobs))
            return

        before = self.tree

        def chosen(_changes: ChangeSet) -> None:
            told = _choice_outcome(before, self.tree, node_id, stale)
            if told:
                self.message.emit(f"{said}; {told}.")
            elif chosen_as:
                self.message.emit(f"{said}.")

        self.apply(SelectTake(node_id, take_id), then=chosen)

    def _follow_choice(self, said: str, jobs: Any) -> str:
        """What the status bar says as a take is chosen and the turns after it are queued for a
        re-roll; each of those jobs, as it ends, says how far the re-roll is (each said only
        "Take ready.", and what the user did was lost)."""
        job_ids = [str(job) for job in jobs] if isinstance(jobs, list | tuple) else []
        rerolling = ChoiceReroll(said, len(job_ids))
        for job_id in job_ids:
            self._choice_rerolls[job_id] = rerolling
        return f"{said}; re-rolling the {_turn_count(len(job_ids))} after it."

    def undo(self) -> None:
        """Undo the last step. Notes and story fields typed and still waiting to be saved (their
        pause, or moving on, saves them) are saved first, as a step of their own, and that is
        the step undone (as in a text box, Undo takes back the typing): left waiting, they were
        saved just after the undo, which took back an older step and threw its redo away. So is
        an instruction edited and not saved (moving on saves it): the undo of another turn's
        edit selected that turn, which saved it after the undo; the undo of its own turn's edit
        threw it away."""
        if self.refuse_read_only("undo"):
            return
        self._commit_typing()
        self._draft_note = ""
        service = self.session.service
        if service is None:
            self.submit(self.project.undo, self._show_history_step, kind="history")
            return
        # a re-roll still running is undone whole: its jobs are stopped before its takes go
        self.submit(service.undo_stopping_its_jobs, self._show_undo_of_running, kind="history")

    def _show_undo_of_running(self, result: tuple[ChangeSet | None, list[str]]) -> None:
        changes, stopped = result
        self._show_history_step(changes)
        if changes and stopped:
            # the running job says it was cancelled once it has stopped: said here instead
            self._undone_jobs.update(stopped)
            self.message.emit(f"{changes.label}; the {_turn_count(len(stopped))} still to re-roll were cancelled.")

    def redo(self) -> None:
        """Redo the last step undone. Typing waiting to be saved is saved first: it is a new edit,
        after which there is nothing to redo (saved after the redo, it silently threw away the
        rest of what could be redone)."""
        if self.refuse_read_only("redo"):
            return
        self._commit_typing()
        self._draft_note = ""
        self.submit(self.project.redo, self._show_history_step, kind="history")

    def _commit_typing(self) -> None:
        """Save what the inspector holds typed and not saved yet (a dialogue line, a duration or
        a start value being typed too, as moving on saves them), each as an edit of its own,
        before an undo or a redo is sent."""
        if self.closed:
            return
        self.inspector.commit_edits(moving_on=True)
        self.inspector.commit_instruction()
        self.inspector.start.commit_typed()  # a start value typed in a box that still has the focus

    def _show_history_step(self, changes: ChangeSet | None) -> None:
        """Say what an undo or redo did and select where it happened: the highest turn it brought
        back (a deleted turn, a new turn redone), else the one turn it changed if that turn is on
        the shown branch. A turn changed on another branch (one step of a branch re-roll that
        went past a fork) is named, not selected: the shown branch stays the author's. A
        selected turn the step took away gives way to its nearest surviving ancestor (or the
        turn selected before it, see :meth:`on_changes`)."""
        if not changes:
            return
        target, brought_back = self._history_target(changes)
        # a new turn being written that the step closed (its turn went): where its typing is kept
        # is said too, not written over by the step's name
        note, self._draft_note = self._draft_note, ""
        if note == DRAFT_PARENT_GONE and changes.label.startswith("Undo"):
            note = DRAFT_PARENT_UNDONE
        said = f"{changes.label}. {note}" if note else changes.label
        if target is not None and not brought_back and target not in self.branch:
            self.message.emit(f"{changes.label} (turn {self.tree.depth(target)}, on another branch)"
                              + (f". {note}" if note else ""))
            return
        self.message.emit(said)
        if target is not None and target != self.current_id:
            self.select(target)
        else:  # the selection stays, or went back where it was (an undone fork): the view follows it
            self.view.center_on_node(self.current_id)

    def _history_target(self, changes: ChangeSet) -> tuple[str | None, bool]:
        """Where an undo or redo happened, and whether it brought that turn back: the highest
        turn it added, else the one turn it changed (None: none, or several)."""
        tree = self.tree
        added = [n for n in changes.added.get(EntityKind.NODE, frozenset()) if n in tree.nodes]
        if added:
            return min(added, key=lambda n: (tree.depth(n), n)), True
        changed = [n for n in changes.changed.get(EntityKind.NODE, frozenset()) if n in tree.nodes]
        return (changed[0] if len(changed) == 1 else None), False

    def play(self) -> None:
        gone = self.check_clips(self.branch)
        if gone:  # it plays a stand-in in each one's place: said, not passed over in silence
            self._refresh_selection_views()
            self.message.emit(missing_clips_message([self.tree.depth(n) for n in gone], playing=True))
        self.episode_fold.open()  # folded in a short window: the player comes back to play
        self.episode.play_branch()

    # -- search ------------------------------------------------------------------------------

    def open_search(self) -> None:
        self.search.open_bar()
        if self.search.edit.text():
            self._on_query(self.search.edit.text())

    def _on_query(self, text: str) -> None:
        self.message.emit("")  # the search bar counts the matches: an older message would read as about them
        self._matches = find_matches(self.tree, text, self.layout_order())
        self.scene.set_search_hits(self._matches)
        self._match_index = -1
        if self._matches:  # a new query goes to its first match
            self._match_index = 0
            self.search.set_count(0, len(self._matches))
            self.select(self._matches[0])
        else:
            self.search.set_count(-1, 0)

    def find_step(self, delta: int) -> None:
        """F3 / Shift+F3, as in text editors and browsers: the next (``delta`` 1) or previous
        (-1) match of the search. With the search bar closed, it opens again on its last
        query (the keyboard stays where it was) and goes to the match after (before) the
        selected turn; with no query yet, it opens for one to be typed."""
        text = self.search.edit.text()
        if not text.strip():
            self.open_search()
            return
        if self.search.isHidden():
            self.search.show()
            self._refresh_matches(text)
        if not self._matches:
            self.message.emit(f"No matches for “{text.strip()}”.")
            return
        self.step_match(delta)

    def _refresh_matches(self, text: str) -> None:
        """The matches again after an edit, keeping the selection and its place among them (a new
        query jumps to the first match; a saved note or a finished take must not)."""
        current = self._matches[self._match_index] if 0 <= self._match_index < len(self._matches) else None
        self._matches = find_matches(self.tree, text, self.layout_order())
        self.scene.set_search_hits(self._matches)
        here = current if current in self._matches else self.current_id
        self._match_index = self._matches.index(here) if here in self._matches else -1
        self.search.set_count(self._match_index, len(self._matches))

    def layout_order(self) -> list[str]:
        """The tree's turns as the canvas lays them out: row by row, each from the left (those
        folded away too: a search or the bookmark keys reach them, and selecting one unfolds it)."""
        return self.scene.layout_order()

    def _say_fold(self, node_id: str, folded: bool, count: int) -> None:
        """Say what a fold did ("Folded 3 turns after turn 2 (Z unfolds)"): the status bar
        kept saying what came before it ("Bookmark 1 of 1"), as if about the fold."""
        if node_id not in self.tree.nodes:
            return
        turns = f"{count} turn{'s' if count != 1 else ''} after turn {self.tree.depth(node_id)}"
        if not folded:
            self.message.emit(f"Unfolded {turns}.")
            return
        how = "Z unfolds" if node_id == self.current_id else "click its + to unfold"
        self.message.emit(f"Folded {turns} ({how}).")

    def step_bookmark(self, delta: int) -> None:
        """Select the next (``delta`` 1) or previous (-1) bookmarked turn in layout order,
        from the selected turn, round the end."""
        order = self.layout_order()
        marked = [n for n in order if n in self.tree.nodes and self.tree.nodes[n].bookmarked]
        if not marked:
            self.message.emit("No turn is bookmarked: B bookmarks the selected turn.")
            return
        place = {node_id: index for index, node_id in enumerate(order)}
        here = place.get(self.current_id, -1)
        if delta > 0:
            target = next((n for n in marked if place[n] > here), marked[0])
        else:
            target = next((n for n in reversed(marked) if place[n] < here), marked[-1])
        self.select(target)
        self.message.emit(f"Bookmark {marked.index(target) + 1} of {len(marked)}")

    def step_match(self, delta: int) -> None:
        """Go to the match after (``delta`` 1) or before (-1) the selected turn, in layout
        order, round the end (from a selected turn that is no match: the nearest one that way)."""
        if not self._matches:
            return
        if self.current_id in self._matches:
            index = (self._matches.index(self.current_id) + delta) % len(self._matches)
        else:
            place = {node_id: i for i, node_id in enumerate(self.layout_order())}
            here = place.get(self.current_id, -1)
            ahead = [i for i, n in enumerate(self._matches) if place.get(n, -1) > here]
            behind = [i for i, n in enumerate(self._matches) if place.get(n, -1) < here]
            index = (ahead[0] if ahead else 0) if delta > 0 else (behind[-1] if behind else len(self._matches) - 1)
        self._match_index = index
        self.search.set_count(index, len(self._matches))
        self.message.emit("")  # the search bar says which match this is
        self.select(self._matches[index])

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
        from studio.core.stale_reasons import stale_words

        tree = self.tree
        turns = [n for n in self.branch if n in tree.nodes and not tree.nodes[n].is_root]
        unfinished = [n for n in turns if not _finished(tree.selected_take(n))]  # what the export can't use
        why = [self._why_unfinished(n) for n in unfinished]
        ending = describe_action(tree.nodes[turns[-1]].instruction, cast=tree.cast_names()) if turns else ""
        chosen = [tree.selected_take(node_id) for node_id in turns]
        stale_takes = [(number, take) for number, take in enumerate(chosen, start=1)
                       if _stale(take) and take is not None and take.node_id not in unfinished]
        stale = tuple(number for number, _take in stale_takes)
        stale_why = tuple(stale_words(tree, take) for _number, take in stale_takes)
        gone = set(self.check_clips(turns))  # a clip deleted by hand: the export would stop at it
        clip_missing = tuple(number for number, node_id in enumerate(turns, start=1) if node_id in gone)
        return BranchFacts(len(turns), len(turns) - len(unfinished), excerpt_of(ending, 70),
                           failed=why.count("failed"), on_the_way=why.count("on the way"), stale=stale,
                           stale_why=stale_why,
                           clip_sizes=self._clip_sizes([n for n in turns if n not in unfinished and n not in gone]),
                           clip_missing=clip_missing)

    def _clip_sizes(self, turns: list[str]) -> tuple[tuple[int, int], ...]:
        """The size of each of ``turns``' chosen clip that can be read (each file read once
        while it is unchanged: see :func:`~studio.export.plan.remembered_probe`)."""
        from studio.export.plan import remembered_probe

        sizes: list[tuple[int, int]] = []
        for node_id in turns:
            take = self.tree.selected_take(node_id)
            if take is None or not take.clip_path:
                continue
            try:
                size = remembered_probe(self.project.resolve(take.clip_path)).size
            except (StudioError, OSError):
                continue  # the export says why it can't read it
            if size[0] > 0 and size[1] > 0:
                sizes.append((int(size[0]), int(size[1])))
        return tuple(sizes)

    def _why_unfinished(self, node_id: str) -> str:
        """Why a turn has no finished take: "on the way" (a generation is queued or running),
        "failed" (its latest generation failed: it needs a re-roll or a retry) or "never"."""
        job = self.session.tracker.for_node(node_id)
        if job is not None and job.status in ("queued", "running"):
            return "on the way"
        if job is not None and job.status == "failed":
            return "failed"
        takes = self.tree.takes_of(node_id)
        latest = max(takes, key=lambda take: take.created_at) if takes else None
        return "failed" if latest is not None and latest.status is TakeStatus.FAILED else "never"

    def queue_export(self, out: Path, options: Any, fmt: str | None,
                     then: Callable[[str], None] | None = None) -> None:
        """Queue an export of the selected branch to ``out``; the job is made on the writer
        thread (the folder is created there too) and ``then(job_id)`` runs here after."""
        service = self.guard(self.session.require_service)
        if service is None:
            return
        leaf = self.branch[-1] if self.branch else self.current_id
        exports = self._exports

        def submit() -> str:
            from studio.export import export_task
            from studio.export.output import check_outside_project

            check_outside_project(out.expanduser().absolute(), self.project.path)  # before any folder is made
            try:
                out.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StudioError(f"Could not create the folder {out.parent}: {error.strerror or error}") from None
            try:
                job = export_task(self.project, leaf, out, options, fmt)
            except StudioError as error:  # said as the window says it: turns by number, no node ids
                raise in_window_words(error) from None
            results: list[Any] = []

            def recorded(progress: Any, cancelled: Any) -> Any:
                results.append(job(progress, cancelled))  # what it wrote (a sheet: NAME-01.png, ...) and notes
                return results[-1]

            job_id = str(service.submit_task(f"Export {out.name}", recorded, node_id=leaf))
            # Noted here, before the job's events can reach the window: its end says "Export finished".
            exports[job_id] = (out, results)
            return job_id

        def queued(job_id: str) -> None:
            self.message.emit(f"Exporting to {out}…")
            if then is not None:
                then(job_id)

        self.submit(submit, queued)

    def close(self, policy: str = "keep") -> bool:
        self.inspector.commit_edits()
        self.inspector.commit_instruction()
        # a new turn being written is put aside, as selecting another turn does: it is no turn to
        # save, and typing must not be lost; Enter on its turn picks it up when the project opens again
        self._leave_draft()
        save_drafts(self.session.settings.q, self.project.path, self._drafts_put_aside)
        self.closed = True
        self.view.closed = True
        if self._compare_key_bound:  # the next project's workspace binds it again
            self._compare_key_bound = False
            self.studio_actions.compare_takes.triggered.disconnect(self._compare_takes_key)
            self.studio_actions.take_keys.triggered.disconnect(self._choose_take_key)
        # the names the selected turn gave the window's actions ("Generate this turn") are no
        # names for the next project, nor for none
        self.studio_actions.reroll.setText(REROLL_TEXT)
        self.studio_actions.bookmark.setText(BOOKMARK_TEXT)
        self._refresh_timer.stop()
        self._inspector_timer.stop()
        for player in [self.episode.player, *(t.player for t in self.inspector.takes.tiles)]:
            player.pause()
        if self.branch_compare is not None:
            self.branch_compare.close()
        self.session.close(policy)
        # a refusal still on its way (an edit sent just before closing) is logged: this widget,
        # its error signal with it, may be deleted before it lands
        self.session.error_handler = None
        return super().close()


COPIED_SHOWN_MS = 2000
"""How long "Copy what I typed" says "Copied" once clicked."""


class ReadOnlyBar(QFrame):
    """The lasting line over the story of a project opened read-only: why it can't be
    changed and what to do, with the ways out (Save a copy…; Reopen for editing when another
    studio held it)."""

    def __init__(self, reason: ReadOnlyReason, actions: StudioActions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("readOnlyBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.label = QLabel(reason.line(), self)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setAccessibleName("Read-only")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.label, 1)
        self.buttons: list[QToolButton] = []
        for action in (actions.save_copy, *([actions.reopen_for_editing] if reason.locked else [])):
            button = QToolButton(self)
            button.setDefaultAction(action)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            layout.addWidget(button)
            self.buttons.append(button)
        self.copy_typed: QToolButton | None = None
        """"Copy what I typed": shown once a change could not be saved (see :meth:`offer_typing`)."""
        self.typed = ""

    def set_text(self, text: str) -> None:
        self.label.setText(text)

    def offer_typing(self, typed: list[TypedText]) -> None:
        """Offer the typing the project could not save: "Copy what I typed" puts it on the
        clipboard (its tooltip shows it), until the window closes."""
        self.typed = typing_for_clipboard(typed)
        if self.copy_typed is None:
            self.copy_typed = QToolButton(self)
            self.copy_typed.setText("Copy what I typed")
            self.copy_typed.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            self.copy_typed.clicked.connect(self._copy_typed)
            layout = self.layout()
            if isinstance(layout, QHBoxLayout):
                layout.insertWidget(1, self.copy_typed)
            self.buttons.insert(0, self.copy_typed)
        fields = ", ".join(item.field for item in typed)
        self.copy_typed.setToolTip(f"Put what you typed in {fields}, not saved, on the clipboard:\n\n"
                                   f"{typing_tip(self.typed)}")
        self.copy_typed.show()

    def _copy_typed(self) -> None:
        QApplication.clipboard().setText(self.typed)
        if self.copy_typed is not None:
            self.copy_typed.setText("Copied")
            QTimer.singleShot(COPIED_SHOWN_MS, self._copy_label_back)

    def _copy_label_back(self) -> None:
        if self.copy_typed is not None and shiboken6.isValid(self.copy_typed):
            self.copy_typed.setText("Copy what I typed")
