"""Cast & world: the project's characters and locations with their pictures.

A character's picture is its first reference image, else the character as the drawing
engine draws it in its look (:mod:`studio.ui.drawn_pictures`), else the poster of a generated
turn in which it acts; a location's is its background image, else the built-in place drawn,
else the poster of a turn set there. Double-click a name to put it into the instruction editor. Adding a character asks
for its look (the engine's render parameters), its four reference views (front, left, back,
right: CustomX needs all four and refuses a character with fewer, which the panel says next
to the character) and where its stamina, social and fun start; the selected character's
views are shown under the list and can be changed. A location can be added from a
background image (a still scene) or a scene video (storage copies either into the project's
media first); the built-in locations' scene clips are rendered by the sketch world.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar, Protocol

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QIcon, QImageReader, QKeySequence, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from studio.core.changes import ChangeSet, EntityKind, Patch
from studio.core.commands import (
    AddCastMember,
    AddLocation,
    Command,
    CommandError,
    RemoveCastMember,
    RemoveLocation,
    RenameCastMember,
    RenameLocation,
    SetStartState,
    character_named,
    place_named,
    renamed_place_text,
    turns_naming,
)
from studio.core.errors import StudioError
from studio.core.model import CastMember, Location, new_id
from studio.core.state import STATE_MAX, STATE_START, CharacterState, character_key
from studio.core.tree import StoryTree
from studio.ui.dialogs.reference_views import (
    VIEWS,
    ReferenceViewsDialog,
    ViewsEditor,
    ViewStrip,
    place_views,
    view_stem,
    views_note,
)
from studio.ui.drawn_pictures import DrawnPictureCache, drawn_character_key, drawn_place_key
from studio.ui.icons import icon
from studio.ui.inspector.understanding import shared_names
from studio.ui.search_bar import folded, without_accents
from studio.ui.text_wrap import breakable

EMPTY_VIEW = "—"
"""What an empty view slot of the selected character shows (its side is named under it)."""


class ApplyCommand(Protocol):
    """Sends a command to the document; ``then(changes)`` runs once it is made."""

    def __call__(self, command: Command, then: Callable[[ChangeSet], None] | None = None) -> object: ...


def turns_changed(changes: ChangeSet, tree: StoryTree | None) -> int:
    """How many turns (not the story's start) ``changes`` changed."""
    ids = changes.changed.get(EntityKind.NODE, frozenset())
    if tree is None:
        return len(ids)
    return sum(1 for n in ids if n in tree.nodes and not tree.nodes[n].is_root)


def renamed_message(kind: str, old: str, new: str, turns: int) -> str:
    """What the status bar says once a character or a location (``kind``) is renamed."""
    where = f" in the cast and in {turns} turn{'s' if turns != 1 else ''}" if turns else ""
    return f"Renamed the {kind} {old} to {new}{where}. Undo (Ctrl+Z) takes the rename back."


def rename_changes(tree: StoryTree, command: RenameCastMember) -> tuple[int, int]:
    """The turns (not the story's start) ``command`` would change in ``tree``: those whose
    instruction changes, and those where only the lines the character speaks change. Building
    the change checks the new name: a refused one raises its error here, before any question."""
    instructions = lines_only = 0
    for (kind, entity_id), entity in command.build(tree).items():
        node = tree.nodes.get(entity_id) if kind is EntityKind.NODE else None
        if node is None or node.is_root or not isinstance(entity, type(node)):
            continue
        if entity.instruction.raw != node.instruction.raw:
            instructions += 1
        else:
            lines_only += 1
    return instructions, lines_only


def _turns(count: int) -> str:
    return f"{count} turn" if count == 1 else f"{count} turns"


def rename_note(old: str, instructions: int, lines_only: int, *, place_too: bool = False) -> str:
    """What a rename of the character ``old`` changes, as :func:`rename_changes` counts it:
    "6 turns name Qiqi: …; Qiqi speaks in 1 more turn, whose lines follow (7 turns change in
    all)." The total is the number the status bar gives once the rename is made
    (:func:`renamed_message`). ``place_too``: a location has the name too, and only the
    Character fields change."""
    parts = []
    if instructions:
        if place_too:
            names = f"{_turns(instructions)} {'has' if instructions == 1 else 'have'} {old} as " \
                    f"{'its' if instructions == 1 else 'their'} character"
        else:
            names = f"{_turns(instructions)} {'names' if instructions == 1 else 'name'} {old}"
        parts.append(f"{names}: those instructions change too, and their takes are marked out of date")
    if lines_only:
        more = f"{lines_only} more turn{'s' if lines_only != 1 else ''}" if instructions else _turns(lines_only)
        parts.append(f"{old} speaks in {more}, whose lines follow")
    elif instructions:
        parts.append("the lines it speaks follow")
    total = instructions + lines_only
    in_all = f" ({_turns(total)} change in all)" if instructions and lines_only else ""
    return "; ".join(parts) + in_all + "."


_DIGITS = re.compile(r"(\d+)")


def name_order(name: str) -> tuple[list[str | int], str, str]:
    """Sort key for the panel's lists: natural order ("Extra 2" before "Extra 10": runs of
    digits compare by value), ignoring case and accents ("Émi" beside "emi", before "Fumi").
    Names that only case or accents tell apart keep a fixed order (folded, then as written)."""
    plain = without_accents(folded(name))
    # re.split puts text at even places and digit runs at odd ones: parts at the same place
    # are always of the same type, so two keys always compare
    parts: list[str | int] = [int(part) if index % 2 else part
                              for index, part in enumerate(_DIGITS.split(plain))]
    return parts, folded(name), name


THUMB = QSize(56, 40)
VIDEO_SUFFIXES = (".mp4", ".webm", ".mov", ".mkv", ".avi", ".gif", ".m4v")
LOCATION_FILTER = "Images and videos (*.png *.jpg *.jpeg *.webp *.bmp *.mp4 *.webm *.mov *.mkv *.avi *.m4v *.gif)"


DRAWN_KEY_ROLE = Qt.ItemDataRole.UserRole + 1
"""A list entry without a picture of its own: the key of the picture drawn for it."""


def thumbnail(path: Path | None, fallback: QIcon) -> QIcon:
    if path is None or not path.is_file():
        return fallback
    reader = QImageReader(str(path))
    size = reader.size()
    if size.isValid():
        reader.setScaledSize(size.scaled(THUMB * 2, Qt.AspectRatioMode.KeepAspectRatio))
    image = reader.read()
    return QIcon(QPixmap.fromImage(image)) if not image.isNull() else fallback


LOOK_FIELDS = (("hair_color", "Hair colour", "e.g. black, chestnut, #6b3f2a"),
               ("hair_style", "Hair style", "e.g. twin tails, ponytail, short, long"),
               ("eye_color", "Eye colour", "e.g. brown, green"),
               ("outfit_color", "Outfit colour", "e.g. navy, #2b2d6e"),
               ("outfit_style", "Outfit", "e.g. dress, shirt, uniform"),
               ("accessory", "Accessory", "e.g. bow, hat, glasses"))
"""The cast member's render parameters a user may set (engines warn about words they don't know)."""


@dataclass(frozen=True)
class AddCharacter(Command):
    """A new cast member and, optionally, where its stamina, social and fun start (one undo step)."""

    member: CastMember
    start: CharacterState | None = None
    label: ClassVar[str] = "Add character"

    def build(self, tree: StoryTree) -> Patch:
        patch = dict(AddCastMember(self.member).build(tree))
        if self.start is not None:
            patch.update(SetStartState(self.member.name, self.start).build(tree))
        return patch


@dataclass(frozen=True)
class SetReferenceViews(Command):
    """Replace a character's reference views (project-relative paths, front, left, back, right)."""

    member_id: str
    images: tuple[str, ...]
    label: ClassVar[str] = "Change reference views"

    def build(self, tree: StoryTree) -> Patch:
        member = tree.cast.get(self.member_id)
        if member is None:
            raise CommandError(f"No character with id {self.member_id!r}.")
        return {(EntityKind.CAST, member.id): replace(member, reference_images=self.images)}


def pictures_from_takes(tree: StoryTree) -> tuple[dict[str, str], dict[str, str]]:
    """Poster of the first generated turn for each character and each place (lower-case names)."""
    characters: dict[str, str] = {}
    places: dict[str, str] = {}
    for node in tree.nodes.values():
        take = tree.selected_take(node.id) if not node.is_root else None
        if take is None or not take.poster_path:
            continue
        read = take.conditioning  # a free-text turn: who and where the engine read from it
        who = (node.instruction.character or str(read.get("character", "") or "")).strip().lower()
        where = (node.instruction.background or str(read.get("location", "") or "")).strip().lower()
        if who:
            characters.setdefault(who, take.poster_path)
        if where:
            places.setdefault(where, take.poster_path)
    return characters, places


class CharacterDialog(QDialog):
    """Name, look, reference images and start state of a new character.

    ``add`` (when given) adds the character when Add is pressed; one it refuses (a view that
    is not a readable picture, say) keeps the dialog open with what was entered and says why."""

    def __init__(self, parent: QWidget | None = None,
                 add: Callable[[CharacterDialog], None] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add character")
        self._add = add
        self.error = QLabel("", self)
        self.error.setObjectName("errorLabel")
        self.error.setWordWrap(True)
        self.error.setTextFormat(Qt.TextFormat.PlainText)  # it quotes the name as typed, never as markup
        self.error.hide()
        self.name = QLineEdit(self)
        self.name.setPlaceholderText("the name used in instructions, e.g. Mei")
        self.look = {key: QLineEdit(self) for key, _label, _hint in LOOK_FIELDS}
        for key, _label, hint in LOOK_FIELDS:
            self.look[key].setPlaceholderText(hint)
        self.views = ViewsEditor(self)
        self.start = {}
        for stat in ("stamina", "social", "entertainment"):
            box = QSpinBox(self)
            box.setRange(0, STATE_MAX)
            box.setSingleStep(5)
            box.setValue(STATE_START)
            self.start[stat] = box
        form = QFormLayout(self)
        form.addRow("Name", self.name)
        for key, label, _hint in LOOK_FIELDS:
            form.addRow(label, self.look[key])
        form.addRow("Reference views", self.views)
        start_row = QHBoxLayout()
        for stat, label in (("stamina", "stamina"), ("social", "social"), ("entertainment", "fun")):
            stat_label = QLabel(label, self)
            stat_label.setBuddy(self.start[stat])  # a screen reader names the box after it
            self.start[stat].setAccessibleName(f"Starting {label}")
            start_row.addWidget(stat_label)
            start_row.addWidget(self.start[stat])
        form.addRow("Starts with", start_row)
        form.addRow(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                   parent=self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Add")
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    @property
    def images(self) -> list[Path | None]:
        """The four view slots, front, left, back, right (None where no view was given)."""
        return list(self.views.strip.paths)

    def _accept(self) -> None:
        if not self.name.text().strip():
            self.name.setFocus()
            self.name.setPlaceholderText("a character needs a name")
            return
        if self._add is not None:
            try:
                self._add(self)
            except StudioError as error:
                self.error.setText(f"{error.message}\n{error.hint}" if error.hint else error.message)
                self.error.show()
                return
        self.accept()

    def params(self) -> dict[str, str]:
        return {key: edit.text().strip() for key, edit in self.look.items() if edit.text().strip()}

    def start_state(self) -> CharacterState | None:
        state = CharacterState(**{stat: box.value() for stat, box in self.start.items()})
        return None if state == CharacterState() else state


class CastPanel(QWidget):
    character_used = Signal(str)
    location_used = Signal(str)
    error = Signal(object)
    message = Signal(str)
    """What a change made from the panel did (a rename, a removal), for the status bar."""

    def __init__(self, apply: ApplyCommand, resolve: Callable[[str], Path],
                 import_image: Callable[[Path, str], str], parent: QWidget | None = None,
                 discard: Callable[[Sequence[str]], object] | None = None,
                 drawn: DrawnPictureCache | None = None) -> None:
        super().__init__(parent)
        self._apply = apply
        self._drawn = drawn
        """Draws what has no picture of its own (None: a plain icon shows)."""
        if drawn is not None:
            drawn.ready.connect(self._picture_drawn)
        self._resolve = resolve
        self._import_image = import_image
        self._discard: Callable[[Sequence[str]], object] = discard or (lambda _refs: None)
        """Removes files imported for an add that was given up (a later view refused)."""
        self.characters = QListWidget(self)
        self.characters.setAccessibleName("Characters")
        self.locations = QListWidget(self)
        self.locations.setAccessibleName("Locations")
        for widget in (self.characters, self.locations):
            widget.setIconSize(THUMB)
            widget.setAlternatingRowColors(False)
            # a long name wraps in the panel's width (cut at the edge, it needed a sideways
            # scroll bar that hid a row of a short list)
            widget.setWordWrap(True)
            widget.setResizeMode(QListView.ResizeMode.Adjust)
            widget.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # activated: a double-click, or Enter on the name for who works from the keyboard
        self.characters.itemActivated.connect(lambda item: self.character_used.emit(item.text()))
        self.characters.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.characters.customContextMenuRequested.connect(self._character_menu)
        self._tree: StoryTree | None = None
        self.tree_source: Callable[[], StoryTree | None] = lambda: self._tree
        """The document as it is now (the workspace sets it): the panel is redrawn only when the cast
        or the places change, so a question about the turns must not read the tree of that redraw."""
        self.confirm: Callable[[str, str], bool] = lambda _title, _text: True
        """Asks before a change that reaches turns (the workspace sets its own question box)."""
        self.ask_name: Callable[[str], str | None] = self._ask_new_name
        self.locations.itemActivated.connect(lambda item: self.location_used.emit(item.text()))
        self.locations.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.locations.customContextMenuRequested.connect(self._location_menu)
        self.ask_location_name: Callable[[str], str | None] = self._ask_new_location_name
        self._members: dict[str, CastMember] = {}
        self.characters.currentItemChanged.connect(lambda *_: self._show_views())
        self.view_strip = ViewStrip(editable=False, parent=self, size=QSize(40, 54))
        self.views_note = QLabel(self)
        self.views_note.setObjectName("dimLabel")
        self.views_note.setWordWrap(True)
        self.views_note.setTextFormat(Qt.TextFormat.PlainText)  # a name is shown as written, never as markup
        self.clash_note = QLabel(self)
        """Names a character and a location share (a project made before they were refused)."""
        self.clash_note.setObjectName("warningLabel")
        self.clash_note.setWordWrap(True)
        self.clash_note.setTextFormat(Qt.TextFormat.PlainText)
        self.clash_note.hide()
        self.views_button = QPushButton("Reference views…", self)
        self.views_button.setToolTip("Add or change the selected character's front, left, back and right views")
        self.views_button.clicked.connect(self._ask_views)
        add_character = QPushButton(icon("person"), "Add character…", self)
        add_character.clicked.connect(self._ask_character)
        add_location = QPushButton(icon("image"), "Location from image or video…", self)
        add_location.setToolTip("A background image (a still scene) or a scene video for the location")
        add_location.clicked.connect(self._ask_location)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        title = QLabel("CHARACTERS", self)
        title.setObjectName("sectionTitle")
        layout.addWidget(title)
        layout.addWidget(self.characters, 1)
        layout.addWidget(self.view_strip)
        layout.addWidget(self.views_note)
        layout.addWidget(self.views_button, 0, Qt.AlignmentFlag.AlignLeft)
        title = QLabel("LOCATIONS", self)
        title.setObjectName("sectionTitle")
        layout.addWidget(title)
        layout.addWidget(self.locations, 2)
        layout.addWidget(self.clash_note)
        # one above the other: side by side they made the dock (and so the window) too wide
        # for a 1280-pixel screen
        for button in (add_character, add_location):
            layout.addWidget(button)
        # Tab in reading order: the widgets were made in another order (both lists first), so
        # Tab went from the characters to the locations and back up to "Reference views…"
        chain = [self.characters, self.views_button, self.locations, add_character, add_location]
        for before, after in itertools.pairwise(chain):
            QWidget.setTabOrder(before, after)
        hint = QLabel("Double-click a name (or press Enter on it) to use it in the instruction; right-click it "
                      "(Shift+F10) to rename it.", self)
        hint.setObjectName("dimLabel")
        hint.setWordWrap(True)
        layout.addWidget(hint)

    def _path(self, rel: str) -> Path | None:
        if not rel:
            return None
        try:
            return self._resolve(rel)
        except StudioError:
            return None

    def refresh(self, tree: StoryTree) -> None:
        """Redraw both lists; each keeps its selected entry (renamed, it moves to its new place),
        or, when that entry is gone (removed), the one now in its row: the keyboard keeps its
        place, and Delete pressed again removes the next one, as in a file list."""
        self._tree = tree
        acting, places = pictures_from_takes(tree)
        selected, selected_row = _current_of(self.characters)
        place, place_row = _current_of(self.locations)
        self._members = {m.id: m for m in tree.cast.values()}
        clashes = {name for pair in shared_names(tree) for name in pair}
        self.characters.blockSignals(True)
        self.characters.clear()
        for member in sorted(tree.cast.values(), key=lambda m: name_order(m.name)):
            own = member.reference_images[0] if member.reference_images else ""
            item = self._item(member.name, self._path(own), drawn_character_key(member.name, member.params),
                              self._path(acting.get(member.name.lower(), "")), icon("person"))
            item.setData(Qt.ItemDataRole.UserRole, member.id)
            tip = f"{member.name}: {views_note(len(member.reference_images))}"
            item.setToolTip(f"{tip}\n{clash_tip(member.name, 'location')}" if member.name in clashes else tip)
            self.characters.addItem(item)
        _select_again(self.characters, selected, selected_row)
        self.characters.blockSignals(False)
        self._show_views()
        self.locations.clear()
        for location in sorted(tree.locations.values(), key=lambda loc: name_order(loc.name)):
            own = location.image_path if not is_video_path(location.image_path) else ""
            item = self._item(location.name, self._path(own), drawn_place_key(location.name),
                              self._path(places.get(location.name.lower(), "")), icon("image"))
            item.setData(Qt.ItemDataRole.UserRole, location.id)
            tip = location_note(location)
            item.setToolTip(f"{tip}\n{clash_tip(location.name, 'character')}" if location.name in clashes else tip)
            self.locations.addItem(item)
        _select_again(self.locations, place, place_row)
        self._show_clashes(tree)

    def _item(self, name: str, own: Path | None, drawn: str, poster: Path | None, fallback: QIcon
              ) -> QListWidgetItem:
        """A list entry showing its own picture (``own``: a reference image, a place's picture);
        else the one drawn for the key ``drawn``, asked for now if it isn't drawn yet (the entry
        shows the ``poster`` of a turn, or ``fallback``, until it is); else that poster."""
        if own is not None and own.is_file():
            return QListWidgetItem(thumbnail(own, fallback), name)
        image = self._drawn.get(drawn) if self._drawn is not None else None
        item = QListWidgetItem(QIcon(QPixmap.fromImage(image)) if image is not None else thumbnail(poster, fallback),
                               name)
        item.setData(DRAWN_KEY_ROLE, drawn)
        return item

    def _picture_drawn(self, key: str) -> None:
        """A picture asked for has been drawn: the items still showing the plain icon get it."""
        image = self._drawn.get(key) if self._drawn is not None else None
        if image is None:
            return
        for widget in (self.characters, self.locations):
            for row in range(widget.count()):
                item = widget.item(row)
                if item.data(DRAWN_KEY_ROLE) == key:
                    item.setIcon(QIcon(QPixmap.fromImage(image)))

    def _show_clashes(self, tree: StoryTree) -> None:
        """Say which names a character and a location share, and what to do about it."""
        pairs = shared_names(tree)
        if pairs:
            names = ", ".join(repr(character) for character, _place in pairs)
            self.clash_note.setText(
                f"⚠ {names} {'is' if len(pairs) == 1 else 'are'} the name of a character and of a location. A "
                "turn's text may then mean either: a rename changes only the Character fields. Rename the "
                "character (right-click it › Rename…) so that each name says one thing.")
        self.clash_note.setVisible(bool(pairs))

    def selected_member(self) -> CastMember | None:
        item = self.characters.currentItem()
        return self._members.get(str(item.data(Qt.ItemDataRole.UserRole))) if item is not None else None

    def selected_location(self) -> Location | None:
        item = self.locations.currentItem()
        tree = self.tree_source()
        if item is None or tree is None:
            return None
        return tree.locations.get(str(item.data(Qt.ItemDataRole.UserRole)))

    def select_character(self, name: str) -> None:
        for index in range(self.characters.count()):
            if self.characters.item(index).text().lower() == name.lower():
                self.characters.setCurrentRow(index)
                return

    def _show_views(self) -> None:
        member = self.selected_member()
        self.views_button.setEnabled(member is not None)
        if member is None:
            self.view_strip.set_views([])
            self.view_strip.hide()  # four empty slots said "none" under no one: the note says what to do
            self.views_note.setText("Select a character to see its reference views.")
            return
        placed = self._placed(member)
        self.view_strip.set_views(placed)
        self.view_strip.setVisible(any(path is not None for path in placed))  # none at all: the note says so
        for label, path, side in zip(self.view_strip.pictures, placed, VIEWS, strict=False):
            if path is None:  # a slot left empty reads as a gap to fill, named under it
                label.setText(EMPTY_VIEW)
                label.setToolTip(f"No {side} view yet: Reference views… adds it")
        # a long name wraps rather than widen the panel
        self.views_note.setText(f"{breakable(member.name)}: {views_note(len(member.reference_images))}")

    # -- adding ---------------------------------------------------------------------------

    def _placed(self, member: CastMember) -> list[Path | None]:
        """A character's stored views in their slots (each stored name says its side)."""
        paths = [self._path(rel) for rel in member.reference_images]
        return place_views([p for p in paths if p is not None])

    def _import_view(self, source: Path, index: int) -> str:
        """Copy a view into the project under a name that says its side (``left-view-...``)."""
        import shutil
        import tempfile

        from studio.storage.media_import import gone_message

        with tempfile.TemporaryDirectory(prefix="kamishibai-view-") as folder:
            named = Path(folder) / f"{view_stem(index)}{source.suffix.lower()}"
            try:
                shutil.copyfile(source, named)
            except FileNotFoundError:
                raise StudioError(f"The {VIEWS[index]} view: {gone_message(source)}",
                                  hint=f"Choose the {VIEWS[index]} view again from where the file is now.") from None
            except OSError as error:
                raise StudioError(f"The {VIEWS[index]} view: can't read {source}: {error.strerror or error}.",
                                  hint=f"Choose another picture for the {VIEWS[index]} view.") from None
            try:
                return self._import_image(named, "characters")
            except StudioError as error:  # it names the copy made here: name the user's file instead
                message = error.message.replace(str(named), str(source)).replace(named.name, source.name)
                raise StudioError(f"The {VIEWS[index]} view: {message[:1].lower()}{message[1:]}",
                                  hint=error.hint or f"Choose another picture for the {VIEWS[index]} view.") from None

    def _import_views(self, views: Sequence[Path | None], known: dict[Path, str] | None = None) -> tuple[str, ...]:
        """The stored names of ``views`` (front, left, back, right; None for one left out): a
        picture in ``known`` keeps its name, the others are imported. All or none: when one is
        refused, the copies made before it are removed and the error is raised."""
        known = known or {}
        refs: list[str] = []
        made: list[str] = []
        try:
            for index, path in enumerate(views):
                if path is None:
                    continue
                rel = known.get(path.resolve())
                if rel is None:
                    rel = self._import_view(path, index)
                    made.append(rel)
                refs.append(rel)
        except BaseException:
            self._discard(made)
            raise
        return tuple(refs)

    def _check(self, command: Command) -> None:
        """Raise now what ``command`` would be refused for on the document as it is: the writer
        applies it later, after the dialog that asked for it has closed with what was entered."""
        tree = self.tree_source()
        if tree is not None:
            command.build(tree)

    def _check_no_clash(self, name: str, kind: str, renaming: str = "") -> None:
        """Refuse a character named like a location, or a location named like a character
        (``kind`` is what ``name`` is for): a turn names both with the same words, so a later
        rename of the character would rewrite those turns' Background fields as well.
        ``renaming``: the character's name now; a new spelling of it (its case) makes no new
        clash, whatever its old name shares."""
        tree = self.tree_source()
        if tree is None:
            return
        key = folded(name)  # "Ｐａｒｋ" or a "Café" typed with a combining accent is the place too
        if renaming and folded(renaming) == key:
            return
        others = tree.locations.values() if kind == "character" else tree.cast.values()
        same = next((other.name for other in others if folded(other.name) == key), None)
        if same is not None:
            other_kind = "location" if kind == "character" else "character"
            raise CommandError(f"{same!r} is already a {other_kind}'s name: a {kind} can't have it too (a turn "
                               f"would name both with the same words).", hint=f"Give the {kind} another name.")

    def _check_no_lookalike(self, name: str, kind: str, except_id: str = "") -> None:
        """Refuse a name that only the encoding of its letters tells from another character's
        (``kind`` "character") or location's (``kind`` "location"): "Zoé" typed as e + U+0301
        beside "Zoé", full-width "ＱＩＱＩ" beside "Qiqi". The document compares names by case and
        spacing alone, so it kept both, two entries that read the same in every list and turn.
        A name that differs by case alone is the document's to refuse (it says so itself)."""
        tree = self.tree_source()
        if tree is None:
            return
        others = tree.cast.values() if kind == "character" else tree.locations.values()
        key = folded(name)
        same = next((other.name for other in others if other.id != except_id and folded(other.name) == key
                     and character_key(other.name) != character_key(name)), None)
        if same is not None:
            raise CommandError(
                f"{name!r} reads the same as the {kind} {same!r}: only the way the letters are encoded differs "
                "(an accent typed as a separate mark, full-width letters), so the two would look alike everywhere.",
                hint=f"Use the {kind} {same!r}, or give the new name other letters.")

    def add_character(self, name: str, images: Sequence[Path | None] | None = None,
                      params: dict[str, str] | None = None, start: CharacterState | None = None) -> None:
        """A new character; ``images`` are its views in the order front, left, back, right
        (None for a view left out). A name the document refuses is refused here, before any
        view is copied into the project."""
        member = CastMember(id=new_id(), name=" ".join(name.split()), params=dict(params or {}))
        self._check(AddCharacter(member, start))
        self._check_no_lookalike(member.name, "character")
        self._check_no_clash(member.name, "character")
        refs = self._import_views(images or [])
        self._apply(AddCharacter(replace(member, reference_images=refs), start))

    def set_views(self, member_id: str, views: Sequence[Path | None]) -> None:
        """Give a character these views (front, left, back, right; None for one left out);
        pictures already in the project are kept as they are, others are imported into its
        media."""
        member = self._members.get(member_id)
        if member is None:
            raise CommandError(f"No character with id {member_id!r}.")
        known = {}
        for rel in member.reference_images:
            path = self._path(rel)
            if path is not None:
                known[path.resolve()] = rel
        refs = self._import_views(views, known)
        self._apply(SetReferenceViews(member.id, refs))

    def add_location_from_image(self, image: Path, name: str | None = None) -> None:
        self.add_location_from_file(image, name)

    def add_location_from_file(self, source: Path, name: str | None = None) -> None:
        """A location from a background image (a still scene) or a scene video, copied into the project."""
        video = is_video_path(str(source))
        label = " ".join((name or source.stem.replace("_", " ").replace("-", " ")).split())
        location = Location(id=new_id(), name=label, kind="scene" if video else "image")
        self._check(AddLocation(location))
        self._check_no_lookalike(label, "location")
        self._check_no_clash(label, "location")
        rel = self._import_image(source, "scenes" if video else "locations")
        self._apply(AddLocation(replace(location, image_path=rel)))

    # -- editing ----------------------------------------------------------------------------

    def keyPressEvent(self, event) -> None:  # type: ignore[no-untyped-def]  # noqa: N802
        # Shift+F10 opens the right-click menu (Rename…) at the selected entry: without a menu
        # key (most laptops have none) the keyboard could not reach Rename
        if event.key() == Qt.Key.Key_F10 and event.modifiers() == Qt.KeyboardModifier.ShiftModifier:
            for widget, menu in ((self.characters, self._character_menu), (self.locations, self._location_menu)):
                item = widget.currentItem()
                if widget.hasFocus() and item is not None:
                    menu(widget.visualItemRect(item).center())
                    return
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and self.characters.hasFocus():
            self.remove_selected()
            return
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and self.locations.hasFocus():
            self.remove_selected_location()
            return
        super().keyPressEvent(event)

    def _character_menu(self, pos) -> None:  # type: ignore[no-untyped-def]
        if self.selected_member() is None:
            return
        menu = QMenu(self)
        menu.addAction("Rename…", self.rename_selected)
        menu.addAction("Reference views…", self._ask_views)
        menu.addSeparator()
        menu.addAction("Remove from the cast", QKeySequence(Qt.Key.Key_Delete), self.remove_selected)
        menu.exec(self.characters.viewport().mapToGlobal(pos))

    def _location_menu(self, pos) -> None:  # type: ignore[no-untyped-def]
        if self.selected_location() is None:
            return
        menu = QMenu(self)
        menu.addAction("Rename…", self.rename_selected_location)
        menu.addSeparator()
        menu.addAction("Remove location", QKeySequence(Qt.Key.Key_Delete), self.remove_selected_location)
        menu.exec(self.locations.viewport().mapToGlobal(pos))

    def _turns_naming_place(self, location: Location) -> int:
        """How many turns a rename of ``location`` rewrites (:func:`renamed_place_text`)."""
        tree = self.tree_source()
        if tree is None:
            return 0
        only = character_named(tree, location.name)
        return sum(renamed_place_text(n.instruction.raw, location.name, "\x00", background_only=only)
                   != n.instruction.raw for n in tree.nodes.values() if not n.is_root)

    def remove_selected_location(self) -> None:
        """Remove the selected location; asks when turns name it (they keep their text)."""
        location = self.selected_location()
        if location is None:
            return
        count = self._turns_naming_place(location)
        named = f"{count} turns name it" if count > 1 else "1 turn names it" if count else ""
        if named and not self.confirm("Remove location", f"Remove the location {location.name}?\n{named}, and keep "
                                      "the text (the place is then drawn by its name alone, without this picture). "
                                      "You can undo this with Ctrl+Z."):
            return
        self._run(RemoveLocation(location.id),
                  lambda _changes: f"Removed the location {location.name}. Undo (Ctrl+Z) brings it back.")

    def rename_selected_location(self) -> None:
        """Rename the selected location, in the turns that name it too."""
        location = self.selected_location()
        if location is None:
            return
        name = self.ask_location_name(location.name)
        if name is None or " ".join(name.split()) == location.name:
            return
        new = " ".join(name.split())
        try:
            self._check(RenameLocation(location.id, new))
            self._check_no_lookalike(new, "location", except_id=location.id)
            self._check_no_clash(new, "location", renaming=location.name)
        except StudioError as error:
            self.error.emit(error)
            return
        count = self._turns_naming_place(location)
        named = f"{count} turns name it" if count > 1 else "1 turn names it" if count else ""
        if named and not self.confirm("Rename location", f"Rename the location {location.name} to {new}?\n{named}: "
                                      "those instructions change too, and their takes are marked out of date. You "
                                      "can undo this with Ctrl+Z."):
            return
        self._run(RenameLocation(location.id, new),
                  lambda changes: renamed_message("location", location.name, new,
                                                  turns_changed(changes, self.tree_source())))

    def _ask_new_location_name(self, current: str) -> str | None:
        name, ok = QInputDialog.getText(self, "Rename location", "New name:", QLineEdit.EchoMode.Normal, current)
        return name if ok else None

    def _named_by(self, name: str) -> str:
        """'3 turns name Mei' ('' when no turn does); where a location is named Mei too, only
        the turns whose Character field names Mei count ('3 turns have Mei as their character')."""
        tree = self.tree_source()
        if tree is not None and place_named(tree, name):
            count = len(turns_naming(tree, name, character_field_only=True))
            return (f"{count} turns have {name} as their character" if count > 1
                    else f"1 turn has {name} as its character" if count else "")
        count = len(turns_naming(tree, name)) if tree is not None else 0
        return f"{count} turns name {name}" if count > 1 else f"1 turn names {name}" if count else ""

    def _place_note(self, name: str) -> str:
        """What a rename leaves alone when a location is named ``name`` too ('' otherwise): the
        turns that name it elsewhere than in their Character field, where it may be the place."""
        tree = self.tree_source()
        place = place_named(tree, name) if tree is not None else ""
        if not place or tree is None:
            return ""
        elsewhere = len(turns_naming(tree, name)) - len(turns_naming(tree, name, character_field_only=True))
        note = f"\n{name!r} is also the location {place!r}: only the Character fields change."
        if elsewhere > 0:
            turns = f"{elsewhere} turns name" if elsewhere > 1 else "1 turn names"
            note += (f" {turns} it elsewhere in the text, where it may be the place: "
                     "they are left as they are (edit them if they mean the character).")
        return note

    def remove_selected(self) -> None:
        """Remove the selected character (its start state with it); asks when turns name it."""
        member = self.selected_member()
        if member is None:
            return
        named = self._named_by(member.name)
        if named and not self.confirm("Remove character", f"Remove {member.name} from the cast?\n{named}, and "
                                      f"keep the text (a turn that names {member.name} only in its text is then "
                                      "played by the character before it). You can undo this with Ctrl+Z."):
            return
        self._run(RemoveCastMember(member.id),
                  lambda _changes: f"Removed {member.name} from the cast. Undo (Ctrl+Z) brings {member.name} back.")

    def rename_selected(self) -> None:
        """Rename the selected character, in its start state, the turns that name it and its lines.
        The new name is checked before anything is asked (an empty one is refused at once), and
        the question counts the turns the rename changes as the status bar does after it."""
        member = self.selected_member()
        if member is None:
            return
        name = self.ask_name(member.name)
        if name is None or " ".join(name.split()) == member.name:
            return
        new = " ".join(name.split())
        command = RenameCastMember(member.id, name)
        tree = self.tree_source()
        try:
            self._check_no_lookalike(new, "character", except_id=member.id)
            self._check_no_clash(name, "character", renaming=member.name)
            changing = rename_changes(tree, command) if tree is not None else (0, 0)
        except StudioError as error:
            self.error.emit(error)
            return
        if sum(changing) and not self.confirm(
                "Rename character", f"Rename {member.name} to {new}?\n"
                f"{rename_note(member.name, *changing, place_too=bool(tree and place_named(tree, member.name)))} "
                f"You can undo this with Ctrl+Z.{self._place_note(member.name)}"):
            return
        self._run(command, lambda changes: renamed_message("character", member.name, new,
                                                           turns_changed(changes, self.tree_source())))

    def _ask_new_name(self, current: str) -> str | None:
        name, ok = QInputDialog.getText(self, "Rename character", "New name:", QLineEdit.EchoMode.Normal, current)
        return name if ok else None

    def _run(self, command: Command, said: Callable[[ChangeSet], str] | None = None) -> None:
        """Send ``command``; once it is made, the status bar says ``said(changes)``."""
        then = (lambda changes: self.message.emit(said(changes))) if said is not None else None
        try:
            self._apply(command, then)
        except StudioError as error:
            self.error.emit(error)

    def _ask_character(self) -> None:
        dialog = CharacterDialog(self, add=lambda d: self.add_character(d.name.text(), d.images, d.params(),
                                                                        d.start_state()))
        dialog.exec()  # Add adds it; a refusal is said in the dialog, which keeps what was entered

    def _ask_views(self) -> None:
        member = self.selected_member()
        if member is None:
            return
        # each stored view in its own slot, as the panel shows them (a character with only its
        # back and right views must not offer them as its front and left)
        dialog = ReferenceViewsDialog(member.name, self._placed(member), self,
                                      apply=lambda d: self.set_views(member.id, d.chosen()))
        dialog.exec()  # OK stores the views; a refusal is said in the dialog, which keeps the views chosen

    def _ask_location(self) -> None:
        file, _ = QFileDialog.getOpenFileName(self, "Background image or scene video", "", LOCATION_FILTER)
        if not file:
            return
        path = Path(file)
        name, ok = QInputDialog.getText(self, "Add location", "Name:", text=path.stem)
        if not ok or not name.strip():
            return
        try:
            self.add_location_from_file(path, name)
        except StudioError as error:
            self.error.emit(error)


def _current_of(widget: QListWidget) -> tuple[str | None, int]:
    """The id of ``widget``'s current entry and its row (None, -1: none)."""
    item = widget.currentItem()
    if item is None:
        return None, -1
    return str(item.data(Qt.ItemDataRole.UserRole)), widget.row(item)


def _select_again(widget: QListWidget, entry_id: str | None, row: int) -> None:
    """Make entry ``entry_id`` current again in the redrawn ``widget``; gone, the entry now at
    its ``row`` (the last one past the end); nothing when none was current."""
    if entry_id is None or not widget.count():
        return
    for index in range(widget.count()):
        if widget.item(index).data(Qt.ItemDataRole.UserRole) == entry_id:
            widget.setCurrentRow(index)
            return
    widget.setCurrentRow(min(row, widget.count() - 1))


def clash_tip(name: str, other_kind: str) -> str:
    """A tooltip line for a name that a character and a location share."""
    return (f"A {other_kind} is named {name!r} too: where a turn's text names it (outside its Character and "
            "Background fields) it may mean either.")


def is_video_path(path: str) -> bool:
    return Path(path).suffix.lower() in VIDEO_SUFFIXES


def location_note(location: Location) -> str:
    """A location's tooltip: what kind of world it gives the engines."""
    if location.image_path and is_video_path(location.image_path):
        return f"{location.name}: a scene video"
    if location.image_path:
        return f"{location.name}: a background image (a still scene)"
    if location.kind == "builtin":
        return f"{location.name}: built-in (the sketch world renders its scene clip)"
    return f"{location.name} ({location.kind})"
