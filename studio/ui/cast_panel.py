"""Cast & world: the project's characters and locations with their reference images.

Double-click a name to put it into the instruction editor. A location can be added from
any background image: storage copies it into the project's media first.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QIcon, QImageReader, QPixmap
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.core.commands import AddCastMember, AddLocation, Command
from studio.core.errors import StudioError
from studio.core.model import CastMember, Location, new_id
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
        self.characters.clear()
        for member in sorted(tree.cast.values(), key=lambda m: m.name.lower()):
            first = member.reference_images[0] if member.reference_images else ""
            item = QListWidgetItem(thumbnail(self._path(first), icon("person")), member.name)
            views = len(member.reference_images)
            item.setToolTip(f"{member.name}: {views} reference image{'s' if views != 1 else ''}")
            self.characters.addItem(item)
        self.locations.clear()
        for location in sorted(tree.locations.values(), key=lambda loc: loc.name.lower()):
            item = QListWidgetItem(thumbnail(self._path(location.image_path), icon("image")), location.name)
            item.setToolTip(f"{location.name} ({location.kind})")
            self.locations.addItem(item)

    # -- adding ---------------------------------------------------------------------------

    def add_character(self, name: str, images: list[Path] | None = None) -> None:
        refs = tuple(self._import_image(path, "characters") for path in images or [])
        self._apply(AddCastMember(CastMember(id=new_id(), name=name.strip(), reference_images=refs)))

    def add_location_from_image(self, image: Path, name: str | None = None) -> None:
        rel = self._import_image(image, "locations")
        label = (name or image.stem.replace("_", " ").replace("-", " ")).strip()
        self._apply(AddLocation(Location(id=new_id(), name=label, kind="image", image_path=rel)))

    def _ask_character(self) -> None:
        name, ok = QInputDialog.getText(self, "Add character", "Name:")
        if not ok or not name.strip():
            return
        files, _ = QFileDialog.getOpenFileNames(self, "Reference images (optional, up to 4 views)", "",
                                                "Images (*.png *.jpg *.jpeg *.webp *.bmp)")
        try:
            self.add_character(name, [Path(f) for f in files[:4]])
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
