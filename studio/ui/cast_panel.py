"""Cast & world: the project's characters and locations with their pictures.

A character's picture is its first reference image, else the poster of a generated turn
in which it acts; a location's is its background image, else the poster of a turn set
there. Double-click a name to put it into the instruction editor. Adding a character asks
for its look (the engine's render parameters), reference images and where its stamina,
social and fun start; a location can be added from any background image (storage copies
it into the project's media first).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QIcon, QImageReader, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from studio.core.changes import Patch
from studio.core.commands import AddCastMember, AddLocation, Command, SetStartState
from studio.core.errors import StudioError
from studio.core.model import CastMember, Location, new_id
from studio.core.state import STATE_MAX, STATE_START, CharacterState
from studio.core.tree import StoryTree
from studio.ui.icons import icon

THUMB = QSize(56, 40)


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
    """Name, look, reference images and start state of a new character."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add character")
        self.name = QLineEdit(self)
        self.name.setPlaceholderText("the name used in instructions, e.g. Mei")
        self.look = {key: QLineEdit(self) for key, _label, _hint in LOOK_FIELDS}
        for key, _label, hint in LOOK_FIELDS:
            self.look[key].setPlaceholderText(hint)
        self.images: list[Path] = []
        self.images_button = QPushButton("Choose images…", self)
        self.images_button.clicked.connect(self._choose_images)
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
        form.addRow("Reference images", self.images_button)
        start_row = QHBoxLayout()
        for stat, label in (("stamina", "stamina"), ("social", "social"), ("entertainment", "fun")):
            start_row.addWidget(QLabel(label, self))
            start_row.addWidget(self.start[stat])
        form.addRow("Starts with", start_row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                   parent=self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Add")
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _choose_images(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, "Reference images (up to 4 views)", "",
                                                "Images (*.png *.jpg *.jpeg *.webp *.bmp)")
        if files:
            self.images = [Path(f) for f in files[:4]]
            self.images_button.setText(f"{len(self.images)} image{'s' if len(self.images) != 1 else ''}")

    def _accept(self) -> None:
        if not self.name.text().strip():
            self.name.setFocus()
            self.name.setPlaceholderText("a character needs a name")
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

    def __init__(self, apply: Callable[[Command], object], resolve: Callable[[str], Path],
                 import_image: Callable[[Path, str], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._apply = apply
        self._resolve = resolve
        self._import_image = import_image
        self.characters = QListWidget(self)
        self.locations = QListWidget(self)
        for widget in (self.characters, self.locations):
            widget.setIconSize(THUMB)
            widget.setAlternatingRowColors(False)
        self.characters.itemDoubleClicked.connect(lambda item: self.character_used.emit(item.text()))
        self.locations.itemDoubleClicked.connect(lambda item: self.location_used.emit(item.text()))
        add_character = QPushButton(icon("person"), "Add character…", self)
        add_character.clicked.connect(self._ask_character)
        add_location = QPushButton(icon("image"), "Location from image…", self)
        add_location.clicked.connect(self._ask_location)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        title = QLabel("CHARACTERS", self)
        title.setObjectName("sectionTitle")
        layout.addWidget(title)
        layout.addWidget(self.characters, 1)
        title = QLabel("LOCATIONS", self)
        title.setObjectName("sectionTitle")
        layout.addWidget(title)
        layout.addWidget(self.locations, 2)
        row = QHBoxLayout()
        row.addWidget(add_character)
        row.addWidget(add_location)
        layout.addLayout(row)
        hint = QLabel("Double-click a name to use it in the instruction.", self)
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
        acting, places = pictures_from_takes(tree)
        self.characters.clear()
        for member in sorted(tree.cast.values(), key=lambda m: m.name.lower()):
            first = member.reference_images[0] if member.reference_images else acting.get(member.name.lower(), "")
            item = QListWidgetItem(thumbnail(self._path(first), icon("person")), member.name)
            views = len(member.reference_images)
            item.setToolTip(f"{member.name}: {views} reference image{'s' if views != 1 else ''}")
            self.characters.addItem(item)
        self.locations.clear()
        for location in sorted(tree.locations.values(), key=lambda loc: loc.name.lower()):
            picture = location.image_path or places.get(location.name.lower(), "")
            item = QListWidgetItem(thumbnail(self._path(picture), icon("image")), location.name)
            item.setToolTip(f"{location.name} ({location.kind})")
            self.locations.addItem(item)

    # -- adding ---------------------------------------------------------------------------

    def add_character(self, name: str, images: list[Path] | None = None, params: dict[str, str] | None = None,
                      start: CharacterState | None = None) -> None:
        refs = tuple(self._import_image(path, "characters") for path in images or [])
        member = CastMember(id=new_id(), name=" ".join(name.split()), params=dict(params or {}), reference_images=refs)
        self._apply(AddCharacter(member, start))

    def add_location_from_image(self, image: Path, name: str | None = None) -> None:
        rel = self._import_image(image, "locations")
        label = (name or image.stem.replace("_", " ").replace("-", " ")).strip()
        self._apply(AddLocation(Location(id=new_id(), name=label, kind="image", image_path=rel)))

    def _ask_character(self) -> None:
        dialog = CharacterDialog(self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        try:
            self.add_character(dialog.name.text(), dialog.images, dialog.params(), dialog.start_state())
        except StudioError as error:
            self.error.emit(error)

    def _ask_location(self) -> None:
        file, _ = QFileDialog.getOpenFileName(self, "Background image", "",
                                              "Images (*.png *.jpg *.jpeg *.webp *.bmp)")
        if not file:
            return
        path = Path(file)
        name, ok = QInputDialog.getText(self, "Add location", "Name:", text=path.stem)
        if not ok or not name.strip():
            return
        try:
            self.add_location_from_image(path, name)
        except StudioError as error:
            self.error.emit(error)
