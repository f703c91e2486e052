"""The inspector dock: everything about the selected node, or the draft of a new turn."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from PySide6.QtCore import Qt, QTimer, Signal, SignalInstance
from PySide6.QtGui import QFocusEvent
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.core.commands import place_named, renamed_text, replace_name
from studio.core.errors import StudioError
from studio.core.instruction import Instruction, parse_instruction, validate_instruction_text
from studio.core.model import Node, TakeStatus
from studio.core.state import turn_change
from studio.core.story import MAX_SPEAKER_CHARS
from studio.core.tree import StoryTree
from studio.ui.icons import icon
from studio.ui.inspector.carried_on import carried_on
from studio.ui.inspector.chips_view import ChipsView
from studio.ui.inspector.instruction_editor import InstructionEditor, shown_line
from studio.ui.inspector.start_panel import StartPanel
from studio.ui.inspector.state_panel import StatePanel
from studio.ui.inspector.story_editor import StoryEditor, read_only_text
from studio.ui.inspector.take_details import take_details_html
from studio.ui.inspector.takes_view import TakesView
from studio.ui.inspector.typed_not_saved import TypedText
from studio.ui.inspector.understanding import shared_name_note, shared_names
from studio.ui.inspector.vocabulary import Vocabulary
from studio.ui.media_cache import ClipCache
from studio.ui.tab_order import tab_target, widgets_in_reading_order
from studio.ui.window_layout import INSPECTOR_MIN

NOTES_DEBOUNCE_MS = 800
BOOKMARK_TIP = "Bookmark this turn (B)"
BOOKMARK_DRAFT_TIP = "A new turn can be bookmarked once it is made (Generate or Save text)"
BOOKMARK_START_TIP = "The start of the story can't be bookmarked (Home goes back to it): select a turn"


def main_character(tree: StoryTree, node_id: str) -> str:
    """The story's main character as seen from ``node_id``: whoever acts in the latest turn
    of the branch up to it, else the first cast member added ("" without a cast)."""
    if node_id in tree.nodes:
        name = tree.acting_character(node_id)
        if name:
            return name
    return next((m.name for m in tree.cast.values() if m.name.strip()), "")


def cast_names(tree: StoryTree) -> dict[str, str]:
    """Each character's name by cast id: what an instruction being typed was written against."""
    return {member_id: member.name for member_id, member in tree.cast.items()}


def renamed_characters(before: Mapping[str, str], tree: StoryTree) -> list[tuple[str, str]]:
    """(old name, new name) of each character renamed in ``tree`` since ``before``."""
    return [(old, tree.cast[member_id].name) for member_id, old in before.items()
            if old.split() and member_id in tree.cast and tree.cast[member_id].name != old]


def apply_renames(text: str, renames: list[tuple[str, str]], tree: StoryTree) -> str:
    """``text`` with each old name replaced as the document's rename replaces it in ``tree``
    (whole words, any case and spacing; the Character field alone for a name a location has
    too)."""
    for old, new in renames:
        text = renamed_text(tree, text, old, new)
    return text


def rename_in_field(field: str, text: str, renames: list[tuple[str, str]], tree: StoryTree) -> str:
    """One of the editor's line fields (``field``: its name) renamed as the document renames a
    turn's text: the Character box always; the Background box never (a character's name there
    is a place's word); the others unless a location has the name too (it may be the place)."""
    for old, new in renames:
        if field == "character" or (field != "background" and not place_named(tree, old)):
            text = replace_name(text, old, new)
    return text


def speaker_names(tree: StoryTree) -> list[str]:
    """The cast names a dialogue line may have as its speaker. A name longer than a speaker's
    limit (a cast name may have 100 characters, a speaker 60) is not offered: chosen, it was
    cut to 60 characters, a speaker the cast does not know."""
    return [m.name for m in tree.cast.values() if m.name.strip() and len(m.name) <= MAX_SPEAKER_CHARS]


def section_title(text: str, parent: QWidget) -> QLabel:
    label = QLabel(text.upper(), parent)
    label.setObjectName("sectionTitle")
    return label


def turn_title(tree: StoryTree, node_id: str) -> str:
    """The inspector's heading for a turn: its number, and which alternative it is where its
    turn has several ("Turn 2 · alternative 2 of 3"). A fork and its original both read
    "Turn 2", with the same instruction and story: nothing told which one was shown."""
    node = tree.node(node_id)
    title = f"Turn {tree.depth(node_id)}"
    siblings = tree.child_ids(node.parent_id) if node.parent_id is not None else []
    if len(siblings) > 1 and node_id in siblings:
        title += f" · alternative {siblings.index(node_id) + 1} of {len(siblings)}"
    return title


class Inspector(QScrollArea):
    generate_requested = Signal(str, str)  # (parent id for a draft or node id, text); see mode
    script_turns_requested = Signal(str, object)  # the turn to continue, list[ScriptTurn] (lines pasted)
    save_requested = Signal(str)
    take_chosen = Signal(str, str)  # node id, take id
    notes_changed = Signal(str, str)
    instruction_edited = Signal(str, str)  # node id, the edited line kept when the inspector moved on
    bookmark_toggled = Signal(str, bool)
    draft_cancelled = Signal()
    focus_tree_requested = Signal()
    """The instruction editor is done with the keyboard (Esc on a turn, or Ctrl+Enter
    generated it): the focus goes back to the tree."""
    instruction_fixed = Signal(str, str)  # node id, corrected instruction line
    message = Signal(str)  # a word for the status bar
    error = Signal(object)  # a StudioError to show (the editor's line refused before it was sent)
    dialogue_changed = Signal(str, object)  # node id, tuple[DialogueLine, ...]
    narration_changed = Signal(str, str)
    duration_changed = Signal(str, object)  # node id, float | None
    shot_notes_changed = Signal(str, str)
    start_state_changed = Signal(str, object)  # character ("" for everyone), CharacterState

    def __init__(self, clips: ClipCache, resolve: Callable[[str], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.node_id: str | None = None
        self.draft_parent: str | None = None
        self._draft_start = ""
        """The draft's line as it opened (see :meth:`draft_typing`): empty."""
        self._tree: StoryTree | None = None
        self.tree_source: Callable[[], StoryTree] | None = None
        """The document's latest snapshot (edits compare against it: the snapshot shown may be
        older than the edit the writer has just made)."""
        self._details_take: str | None = None
        self._loaded_raw = ""
        self._loaded_text = ""  # the editor's line as shown, before the user's edits
        self._loaded_names: dict[str, str] = {}
        """The cast's names by id when the editor's line was shown: a rename since then is
        followed in the user's typing (:meth:`_typing_follows_rename`)."""
        self._saved_text: str | None = None
        """The line Save text or Generate sent to the document and the editor still shows: saved,
        not typed. Until the turn is shown again it may be undone (the document then wins)."""
        self._refused_text: str | None = None
        """The line the document refused to save (too long, say), still in the editor to be fixed:
        moving on does not send it again."""
        self._notes_shown = ""  # the turn's notes as the box last showed or saved them: typed when it differs
        self._notes_sent_over: StoryTree | None = None  # the snapshot the notes last sent were typed over
        self._story_sent_over: StoryTree | None = None  # the snapshot the last story field sent was typed over
        self.read_only_reason: str | None = None
        """Why nothing shown can be changed (a project opened read-only, see :meth:`set_read_only`)."""
        self._story_node: str | None = None
        """The turn whose story fields the story editor shows: its edits go there, even when they
        arrive (a line's editing finished as the rows are rebuilt) after the selection moved on."""
        body = QWidget(self)
        body.setObjectName("inspectorBody")
        self.title = QLabel("Nothing selected", body)
        self.title.setObjectName("inspectorTitle")
        self.title.setWordWrap(True)
        self.bookmark = QToolButton(body)
        self.bookmark.setCheckable(True)
        self.bookmark.setIcon(icon("bookmark"))
        self._bookmark_shown = False
        self.bookmark.setToolTip(BOOKMARK_TIP)
        self.bookmark.setAccessibleName("Bookmark")  # checkable: a screen reader says whether it is on
        self.bookmark.toggled.connect(self._on_bookmark)
        self.editor = InstructionEditor(body)
        self.name_note = QLabel(body)
        """Says that the line names a character's name that a location has too (see
        :func:`shared_name_note`); shown under the editor only then."""
        self.name_note.setObjectName("dimLabel")
        self.name_note.setWordWrap(True)
        self.name_note.setTextFormat(Qt.TextFormat.PlainText)
        self.name_note.hide()
        self.chips = ChipsView(body)
        self.start = StartPanel(body)
        self.story = StoryEditor(body)
        self.takes = TakesView(clips, resolve, body)
        self.state = StatePanel(body)
        self.details = QLabel(body)
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.RichText)
        self.details.setObjectName("details")
        self.notes = QPlainTextEdit(body)
        self.notes.setAccessibleName("Notes")
        self.notes.setPlaceholderText("Notes for this turn…")
        self.notes.setTabChangesFocus(True)  # Tab moves on, as in every other field
        self.notes.setFixedHeight(70)
        self._notes_timer = QTimer(self)
        self._notes_timer.setSingleShot(True)
        self._notes_timer.setInterval(NOTES_DEBOUNCE_MS)
        self._notes_timer.timeout.connect(self.commit_notes)
        self.notes.textChanged.connect(self._notes_timer.start)

        header = QHBoxLayout()
        header.addWidget(self.title, 1)
        header.addWidget(self.bookmark)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(10, 8, 10, 10)
        layout.setSpacing(6)
        layout.addLayout(header)
        self._sections: dict[str, list[QWidget]] = {}
        for name, widgets in (("Start", [self.start]), ("Instruction", [self.editor]),
                              ("Understood", [self.chips]), ("Takes", [self.takes]), ("Story", [self.story]),
                              ("State", [self.state]), ("Take", [self.details]), ("Notes", [self.notes])):
            title = section_title(name, body)
            layout.addWidget(title)
            for widget in widgets:
                layout.addWidget(widget)
            if name == "Instruction":
                layout.addWidget(self.name_note)
            self._sections[name] = [title, *widgets]
        layout.addStretch(1)
        self.setWidget(body)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setMinimumWidth(INSPECTOR_MIN)

        for field in self.editor.fields():
            field.textChanged.connect(self._update_name_note)
        self.editor.generate_requested.connect(self._on_generate)
        self.editor.script_turns_requested.connect(self._on_script_turns)
        self.editor.save_requested.connect(self.save_requested.emit)
        self.editor.refused.connect(self._on_refused)
        self.editor.generate_refused.connect(self.error.emit)  # the line stays, and may be kept as it is
        self.editor.cancel_requested.connect(self._on_cancel)
        self.takes.take_chosen.connect(lambda take_id: self.take_chosen.emit(self.node_id or "", take_id))
        self.takes.take_focused.connect(self._focus_take)
        self.chips.fix_requested.connect(lambda text: self.instruction_fixed.emit(self.node_id or "", text))
        self.chips.typed_instruction = self._typed_instruction
        self.story.dialogue_changed.connect(lambda v: self._story_edit("dialogue", self.dialogue_changed, v))
        self.story.narration_changed.connect(lambda v: self._story_edit("narration", self.narration_changed, v))
        self.story.duration_changed.connect(lambda v: self._story_edit("duration", self.duration_changed, v))
        self.story.shot_notes_changed.connect(lambda v: self._story_edit("shot_notes", self.shot_notes_changed, v))
        self.start.start_state_changed.connect(self.start_state_changed.emit)

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802
        """Tab that reaches the inspector itself (its place in the window's chain) goes on to
        its first field: the scroll area drew no focus frame, so a Tab seemed lost there."""
        super().focusInEvent(event)
        body = self.widget()
        reason = event.reason()
        if body is None or reason not in (Qt.FocusReason.TabFocusReason, Qt.FocusReason.BacktabFocusReason):
            return
        inside = [w for w in widgets_in_reading_order(body) if w.isVisible() and w.isEnabled()]
        if inside:
            target = inside[0] if reason == Qt.FocusReason.TabFocusReason else inside[-1]
            target.setFocus(reason)
            self.ensureWidgetVisible(target)

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: N802 - Qt's name
        """Tab walks the inspector top to bottom, the chips, take tiles and dialogue lines
        made for the shown turn included (Qt's own chain puts them after every dock)."""
        body, focus = self.widget(), QApplication.focusWidget()
        if body is None or focus is None or not body.isAncestorOf(focus):
            return super().focusNextPrevChild(next)
        target = tab_target(self, body, focus, next)
        if target is None:
            return super().focusNextPrevChild(next)
        reason = Qt.FocusReason.TabFocusReason if next else Qt.FocusReason.BacktabFocusReason
        target.setFocus(reason)
        if self.isAncestorOf(target):
            self.ensureWidgetVisible(target)
        return True

    def _story_edit(self, name: str, signal: SignalInstance, value: object) -> None:
        """Pass a story field on to the turn the editor shows, unless it already holds that value."""
        tree, node_id = self._latest_tree(), self._story_node
        if node_id and tree is not None and node_id in tree.nodes and getattr(tree.nodes[node_id].story, name) != value:
            self._story_sent_over = tree
            signal.emit(node_id, value)

    def set_read_only(self, reason: str | None) -> None:
        """Show everything for reading only (``reason``: why, "Read-only: sample.kamishibai is on a
        read-only disk"), or editable again (None). Text fields stay selectable and copyable;
        Generate, Save text, Use, Re-roll ×, Add a line, the bookmark and the chips' words are
        off, ``reason`` their tooltip: an edit is not taken only to be refused when sent."""
        self.read_only_reason = reason
        self.editor.set_read_only(reason)
        self.takes.set_read_only(reason)
        self.chips.set_read_only(reason)
        self.story.set_read_only(reason)
        self.start.set_read_only(reason)
        read_only_text(self.notes, reason)
        on = self.bookmark.isChecked()
        self._show_bookmark(on, enabled=reason is None and self.node_id is not None and self.draft_parent is None
                            and self._tree is not None and self.node_id in self._tree.nodes
                            and not self._tree.nodes[self.node_id].is_root)

    def set_vocabulary(self, vocabulary: Vocabulary) -> None:
        self.editor.set_vocabulary(vocabulary)
        self.chips.set_vocabulary(vocabulary)

    def set_current_engine(self, name: str) -> None:
        """The engine new takes use: a take tile names its engine when it is another (or when
        the turn's takes come from more than one)."""
        self.takes.set_current_engine(name)

    # -- showing --------------------------------------------------------------------------

    def _show_sections(self, *names: str) -> None:
        for name, widgets in self._sections.items():
            for widget in widgets:
                widget.setVisible(name in names)
        self._update_name_note()

    def _update_name_note(self) -> None:
        """Show, under the editor, whether its line names a name that a character and a
        location share (only where the instruction is shown)."""
        tree = self._tree
        pairs = shared_names(tree) if tree is not None else []
        note = "" if not pairs or self.editor.isHidden() else shared_name_note(parse_instruction(self.editor.text()),
                                                                              pairs)
        if self.name_note.text() != note:
            self.name_note.setText(note)
        self.name_note.setVisible(bool(note))

    def show_node(self, tree: StoryTree, node_id: str, *, keep_editor: bool = False) -> None:
        """Show ``node_id`` of the snapshot ``tree``. A redraw of the turn shown (``keep_editor``:
        a take landing, a change elsewhere) saves nothing: text being typed is saved after its
        pause, as one undo step (saved at each redraw, a branch being generated cut the typing
        into steps wherever a take landed, mid-word)."""
        changed_node = node_id != self.node_id
        if changed_node or not keep_editor:
            self.commit_edits(moving_on=changed_node)
        if changed_node or not keep_editor:
            self.commit_instruction()
        self._tree = tree
        self.node_id = node_id
        self.draft_parent = None
        node = tree.node(node_id)
        if node.is_root:
            self.title.setText("Start of the story")
            self.editor.set_mode("Write the first turn: select Start and press Enter.", can_save=False)
        else:
            self.title.setText(turn_title(tree, node_id))
            self.editor.set_mode("Edit this turn's instruction; Generate makes a new take (Ctrl+Enter).",
                                 can_save=True)
        # The editor shows the turn again when it changed, or when it shows a line it saved: the
        # turn now holds that line, or an undo (made before the save was shown) took it back.
        saved = self._saved_text is not None and self.editor.text() == self._saved_text
        if changed_node or not keep_editor or saved or (
                node.instruction.raw != self._loaded_raw and not self._typing_follows_rename(tree, node)):
            self.editor.set_instruction(node.instruction)
            self._loaded_raw = node.instruction.raw
            self._loaded_text = self.editor.text()
            self._saved_text = None
            self._refused_text = None
        self._loaded_names = cast_names(tree)
        self.editor.setEnabled(not node.is_root)
        self._show_bookmark(node.bookmarked, enabled=not node.is_root, why_off=BOOKMARK_START_TIP)
        if node.is_root:
            self._show_sections("Start", "Notes")
            self.start.set_tree(tree)
        else:
            self._show_sections("Instruction", "Understood", "Takes", "Story", "State", "Take", "Notes")
            speakers = speaker_names(tree)
            acting = tree.acting_character(node_id)  # a new line's speaker, if a speaker may be so named
            self.story.set_story(node.story, speakers, acting if len(acting) <= MAX_SPEAKER_CHARS else "",
                                 reset=changed_node or node_id != self._story_node,
                                 sent_over=tree is self._story_sent_over)
            self._story_node = node_id
        takes = tree.takes_of(node_id)
        before = tree.state_before(node_id) if not node.is_root else None
        states = {t.id: before.apply(t.deltas) for t in takes if before is not None and t.status.value == "done"}
        self.takes.set_takes(takes, node.selected_take_id, states, before)
        take = tree.selected_take(node_id)
        finished = take is not None and take.status is TakeStatus.DONE
        # a turn without a finished take has no predicted state: the bars stay empty
        self.state.set_values(tree.state_of(node_id) if node.is_root or finished else None,
                              turn_change(tree, node_id) if take else None, take.motion_level if take else None)
        self.state.set_character("" if node.is_root else tree.acting_character(node_id))
        self.chips.set_turn(node.instruction, None if node.is_root else take)
        if changed_node:
            self._details_take = None
            self.takes.focus_take(None)  # a take clicked on the turn shown before: Compare leaves it out
        self._render_details()
        self._show_notes(tree, node.notes, reset=changed_node)

    def _show_notes(self, tree: StoryTree, notes: str, *, reset: bool) -> None:
        """Show the turn's ``notes`` (in ``tree``), unless the box holds typing newer than them:
        typed since its last save (still waiting for the pause that saves it), or just sent over
        this very snapshot (the edit is not in it yet: showing it emptied the box under the
        author's cursor, and the next keys were saved over what was typed). Notes changed from
        elsewhere since (an undo, a redo: a later snapshot) replace the box's."""
        typed = self.notes.toPlainText()
        if not reset and typed != notes and (self._notes_timer.isActive() or tree is self._notes_sent_over):
            return
        if typed != notes:
            self.notes.blockSignals(True)
            self.notes.setPlainText(notes)
            self.notes.blockSignals(False)
        self._notes_shown = notes
        self._notes_sent_over = None

    def _typing_follows_rename(self, tree: StoryTree, node: Node) -> bool:
        """Keep the user's unsaved typing when a cast rename (and nothing else) changed the
        turn's instruction under it: the rename is made in the typing too, or, where that
        would make the line too long, the typing is kept as it is and the status bar says so.
        Any other change under the typing (an undo, say) is left to the document."""
        text = self.editor.text()
        if text in (self._loaded_text, self._saved_text):
            return False  # nothing typed: the editor shows the turn's line again
        renames = renamed_characters(self._loaded_names, tree)
        if not renames or apply_renames(self._loaded_raw, renames, tree) != node.instruction.raw:
            return False
        typed = self.editor.field_texts()
        names = ", ".join(f"{old} to {new}" for old, new in renames)
        if self.editor.rewrite_fields(lambda field, value: rename_in_field(field, value, renames, tree)):
            try:
                validate_instruction_text(self.editor.text())
            except StudioError:
                self.editor.restore_fields(typed)
                self.message.emit(f"Renamed {names}: your unsaved instruction is kept as typed (renamed, it "
                                  "would be too long).")
            else:
                self.message.emit(f"Renamed {names} in your unsaved instruction too.")
        if text == self._refused_text:
            self._refused_text = self.editor.text()  # still the line to fix, not one to send again
        self._loaded_raw = node.instruction.raw
        self._loaded_text = shown_line(node.instruction)
        return True

    def show_draft(self, tree: StoryTree, parent_id: str, text: str | None = None) -> None:
        """A new turn under ``parent_id``, empty or holding ``text`` (what was typed in a draft
        put aside under that turn); its empty Character, Background and Time show in grey the
        branch's character, place and time it goes on with (:mod:`carried_on`)."""
        self.commit_edits()
        self._tree = tree
        self.node_id = None
        self.draft_parent = parent_id
        self._saved_text = None
        self._refused_text = None
        parent = tree.node(parent_id)
        depth = tree.depth(parent_id) + 1
        self.title.setText(f"New turn {depth}")
        self._show_bookmark(False, enabled=False)  # not the parent's: the new turn has none to show yet
        self.editor.set_mode("Describe what happens next, then Generate (Ctrl+Enter). Esc cancels.",
                             can_save=True)
        self.editor.setEnabled(True)
        previous = parent.instruction
        main = previous.character or main_character(tree, parent_id)
        self.editor.set_text("")  # the branch's character, place and time are hints, not values:
        self._draft_start = ""  # a character, place or time the free text names wins over them
        if text:
            self.editor.set_text(text)
        self.editor.show_carried_on(carried_on(tree, parent_id, main))
        self._show_sections("Instruction")
        self.editor.focus_first_field()
        self.editor.motion.setFocus()

    def draft_typing(self) -> str:
        """What the user wrote in the draft shown: its line, or "" when the draft holds nothing
        beyond the character and place it was prefilled with (nothing worth keeping)."""
        if self.draft_parent is None:
            return ""
        text = self.editor.text()
        return text if text.strip() and text != self._draft_start else ""

    def clear(self) -> None:
        self.node_id = None
        self.draft_parent = None
        self.title.setText("Nothing selected")
        self._show_bookmark(False, enabled=False)

    def _show_bookmark(self, on: bool, *, enabled: bool, why_off: str = "") -> None:
        """The header's bookmark button: the shown turn's bookmark, on only while a turn is
        shown (a draft has no turn to bookmark yet: a click would change nothing; the story's
        start is no turn to come back to: Home goes there), ``why_off`` saying why when off."""
        # A new icon repaints the button (an SVG render): only when the bookmark changed.
        if self.bookmark.isChecked() != on or self._bookmark_shown != on:
            self._bookmark_shown = on
            self.bookmark.blockSignals(True)
            self.bookmark.setChecked(on)
            self.bookmark.setIcon(icon("bookmark-on" if on else "bookmark"))
            self.bookmark.blockSignals(False)
        if self.read_only_reason is not None:
            enabled, why_off = False, self.read_only_reason
        tip = BOOKMARK_TIP if enabled else why_off or BOOKMARK_DRAFT_TIP
        if self.bookmark.isEnabled() != enabled or self.bookmark.toolTip() != tip:
            self.bookmark.setEnabled(enabled)
            self.bookmark.setToolTip(tip)

    def _focus_take(self, take_id: str) -> None:
        self._details_take = take_id
        self.takes.focus_take(take_id)
        self._render_details()

    def _render_details(self) -> None:
        tree, node_id = self._tree, self.node_id
        if tree is None or node_id is None:
            return
        take = tree.takes.get(self._details_take or "") or tree.selected_take(node_id)
        if take is None:
            takes = tree.takes_of(node_id)
            take = takes[-1] if takes else None
        details = take_details_html(take)
        if self.details.text() != details:
            self.details.setText(details)

    # -- edits -------------------------------------------------------------------------------

    def _on_generate(self, text: str) -> None:
        target, draft = self.draft_parent or self.node_id, self.draft_parent is not None
        if target:
            self.generate_requested.emit(target, text)
            if not draft:  # a draft's new turn takes the focus to the tree once it is made
                self.focus_tree_requested.emit()

    def _on_script_turns(self, turns: object) -> None:
        """Lines pasted into the editor are to be turns after the one shown (a draft's: after
        the turn it continues)."""
        target = self.draft_parent or self.node_id
        if target:
            self.script_turns_requested.emit(target, turns)

    def _on_refused(self, error: StudioError) -> None:
        """The editor's line is too long to keep: it stays as the typing to fix (a redraw of
        the turn keeps it, moving on does not send it again) and the window says why."""
        if self.draft_parent is None and self.node_id:
            self._refused_text = self.editor.text()
        self.error.emit(error)

    def _on_cancel(self) -> None:
        """Esc in the editor: a draft is dropped; on a turn, the focus goes back to the tree
        (what was typed stays, kept as moving on keeps it)."""
        if self.draft_parent is not None:
            self.draft_cancelled.emit()
        else:
            self.focus_tree_requested.emit()

    def _latest_tree(self) -> StoryTree | None:
        return self.tree_source() if self.tree_source is not None else self._tree

    def commit_edits(self, moving_on: bool = True) -> None:
        """Save the notes and story fields typed and not saved yet: before the selection moves,
        a fork copies the turn, or the project closes (``moving_on``: a dialogue line or a
        duration being typed too; a refresh of the same turn leaves them to be finished)."""
        self.commit_notes()
        self.story.commit_pending(unfinished=moving_on)

    def holds_typing(self) -> bool:
        """Whether the notes or a story field hold text typed and not saved yet."""
        tree = self._latest_tree()
        notes = self.notes.toPlainText()
        saved = tree.nodes[self.node_id].notes if tree is not None and self.node_id in tree.nodes else ""
        return (bool(notes.strip()) and notes != saved) or self.story.holds_typing()

    def commit_notes(self) -> None:
        """Save what was typed in the notes box. Only typing counts: when the turn's notes
        changed under the box (an undo, a redo), the document wins and the box is about to
        show it."""
        self._notes_timer.stop()
        tree = self._latest_tree()
        if self.node_id and tree is not None and self.node_id in tree.nodes:
            text = self.notes.toPlainText()
            if text != self._notes_shown and text != tree.nodes[self.node_id].notes:
                self._notes_shown = text
                self._notes_sent_over = tree
                self.notes_changed.emit(self.node_id, text)

    def note_saved(self, node_id: str, text: str) -> None:
        """``text``, the editor's line for turn ``node_id``, was sent to the document (Save text,
        Generate): saved, no longer the user's typing. The next time the turn is shown, the
        editor shows what the turn holds then: that line, or the line an undo brought back."""
        if node_id == self.node_id and self.draft_parent is None:
            self._saved_text = text

    def save_refused(self, node_id: str, text: str) -> None:
        """The document refused ``text``, sent by :meth:`note_saved`: the editor's line is the
        user's typing again (kept through redraws of the turn until it is fixed or the turn
        is left), not a saved one."""
        if node_id == self.node_id and self.draft_parent is None and self._saved_text == text:
            self._saved_text = None
            self._refused_text = text

    def shows_unedited(self, node_id: str, text: str) -> bool:
        """Whether ``text`` is the editor's line for turn ``node_id`` as it was shown, before any
        edit (the editor writes a turn's text in its own form, which may differ from the stored one)."""
        return node_id == self.node_id and self.draft_parent is None and text == self._loaded_text

    def take_typed_instruction(self, node_id: str) -> str:
        """The instruction line typed for turn ``node_id`` and not saved ('' if none): handed to
        the caller (a fork carries it), so moving on no longer saves it into the turn."""
        text = self.editor.text()
        if node_id != self.node_id or self.draft_parent is not None or not text.strip() or text == self._loaded_text \
                or text == self._saved_text:
            return ""
        self._loaded_text = text
        return text

    def refuse_typing_too_long(self, node_id: str) -> bool:
        """Whether the line typed for turn ``node_id`` and not saved yet is too long to keep (a
        fork would carry it): the window is told why, in the editor's terms, as for Save text."""
        if node_id != self.node_id or self._typed_instruction() is None:
            return False
        return self.editor.refuse_if_too_long()

    def refuse_misspelled_field_names(self, node_id: str) -> bool:
        """Whether the line the editor shows for turn ``node_id`` (typed, or the turn's own)
        writes a misspelled field name, so that a take of it is not made (Re-roll): the window
        is told which one, as for Generate. A turn not shown is left to the caller."""
        if node_id != self.node_id or self.draft_parent is not None:
            return False
        return self.editor.refuse_if_misspelled()

    def typed_not_stored(self) -> list[TypedText]:
        """The typing the inspector shows that the project does not hold (the line of a save
        that failed, notes and story fields typed since their last save), by field."""
        tree = self._latest_tree()
        if tree is None:
            return []
        if self.draft_parent is not None:
            typed = self.draft_typing()
            if not typed or self.draft_parent not in tree.nodes:
                return []
            above = tree.node(self.draft_parent)
            where = "the start" if above.is_root else f"turn {tree.depth(self.draft_parent)}"
            return [TypedText(f"the new turn after {where}", typed)]
        node_id = self.node_id
        if node_id is None or node_id not in tree.nodes or tree.nodes[node_id].is_root:
            return []
        node, turn = tree.nodes[node_id], tree.depth(node_id)
        found: list[TypedText] = []
        line = self.editor.text()
        if line.strip() and line != self._loaded_text and line != shown_line(node.instruction):
            found.append(TypedText(f"the instruction of turn {turn}", line))
        notes = self.notes.toPlainText()
        if notes.strip() and notes.strip() != node.notes.strip():
            found.append(TypedText(f"the notes of turn {turn}", notes))
        story = node.story
        for box, name, label in ((self.story.narration, "narration", "narration"),
                                 (self.story.shot_notes, "shot_notes", "shot notes")):
            text = box.toPlainText().strip()
            if text and text != getattr(story, name):
                found.append(TypedText(f"the {label} of turn {turn}", text))
        lines = self.story.dialogue()
        if lines and lines != story.dialogue:
            said = "\n".join(line.shown() for line in lines)
            found.append(TypedText(f"the dialogue of turn {turn}", said))
        return found

    def show_stored(self) -> None:
        """Show the turn as the project holds it, dropping what was typed and not saved (the
        project turned read-only under the typing): nothing is sent to be saved, and no field
        goes on showing a change as if it were saved."""
        tree = self._latest_tree()
        node_id = self.node_id
        if tree is None or node_id is None or node_id not in tree.nodes or self.draft_parent is not None:
            return
        self._notes_timer.stop()
        # Shown as another turn: every field is loaded afresh. With no turn to save into,
        # what was waiting to be saved goes nowhere (the editor's and the boxes' signals find
        # no turn), as it must on a project that can no longer be written.
        self.node_id = None
        self._story_node = None
        self._saved_text = None
        self._refused_text = None
        self.show_node(tree, node_id)

    def _typed_instruction(self) -> Instruction | None:
        """The editor's line for the shown turn when it holds typing not saved yet (what moving
        on would save), else None."""
        text = self.editor.text()
        if self.draft_parent is not None or not self.node_id or not text.strip() \
                or text in (self._loaded_text, self._saved_text):
            return None
        return parse_instruction(text)

    def commit_instruction(self) -> None:
        """Keep an edited instruction when the inspector moves on, as notes are kept, rather
        than drop it: saved as "Save text" would, unless the turn's instruction changed under
        the edit meanwhile (an undo, say: the document wins). Drafts of new turns are not
        saved here (Esc or moving on cancels them)."""
        tree = self._latest_tree()
        node_id = self.node_id
        if self.draft_parent is not None or not node_id or tree is None or node_id not in tree.nodes:
            return
        node = tree.nodes[node_id]
        text = self.editor.text()
        if node.is_root or not text.strip() or text in (self._loaded_text, self._saved_text, self._refused_text) \
                or node.instruction.raw != self._loaded_raw:
            return
        self._loaded_text = text
        too_long = self.editor.length_error()
        if too_long is not None:  # the document would refuse it, counting the whole line
            self.error.emit(StudioError(f"Your edit of turn {tree.depth(node_id)} was not kept. {too_long.message}",
                                        hint=too_long.hint))
            return
        self.instruction_edited.emit(node_id, text)

    def _on_bookmark(self, on: bool) -> None:
        self.bookmark.setIcon(icon("bookmark-on" if on else "bookmark"))
        self._bookmark_shown = on
        if self.node_id:
            self.bookmark_toggled.emit(self.node_id, on)
