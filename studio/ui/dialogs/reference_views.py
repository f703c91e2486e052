"""A character's reference views: front, left, back and right, each chosen and shown on its own.

Engines that animate a character from pictures (CustomX) need exactly these four views, in
this order; other engines use the first picture only. The widgets here let the author pick
each view explicitly (or several files at once, placed by the side their names say), show
the four pictures, and say whether the character is ready for a four-view engine.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QImage, QImageIOHandler, QImageReader, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QGridLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.core.errors import StudioError
from studio.ui.text_wrap import breakable

VIEWS: tuple[str, ...] = ("front", "left", "back", "right")
IMAGE_FILTER = "Images (*.png *.jpg *.jpeg *.webp *.bmp *.gif)"
"""A GIF is a picture here: a view keeps its first frame."""
PICTURE = QSize(72, 96)


def views_note(count: int) -> str:
    """What a character with ``count`` reference pictures is ready for, in the author's words."""
    if count == len(VIEWS):
        return "Front, left, back and right views: ready for CustomX."
    if count == 0:
        return "No reference views: CustomX would animate a grey stand-in. Add the front, left, back and right views."
    if count > len(VIEWS):
        return (f"{count} reference pictures: CustomX takes exactly four views and refuses this character until "
                f"they are chosen again (Reference views…: front, left, back and right).")
    return (f"{count} of 4 views: CustomX refuses this character until it has its front, left, back and right "
            f"views (other engines use the first picture).")


def view_stem(index: int) -> str:
    """The name a view is stored under in the project (``back-view``): it keeps its side
    even when the author left other views out."""
    return f"{VIEWS[index]}-view"


def side_of(path: Path) -> int | None:
    """Which view a file's name says it is (``back-view-...``, ``mei_back.png``,
    ``MeiBack.png`` -> 2), or None when it names none or several.

    Whole words only: the "right" in ``bright.png``, the "back" in ``backpack.png`` or the
    "left" in ``cleft.png`` say nothing about the side."""
    stem = path.stem.lower()
    marked = [index for index in range(len(VIEWS)) if stem.startswith(view_stem(index))]
    if marked:
        return marked[0]
    words = {word.lower() for word in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", path.stem)}
    found = [index for index, view in enumerate(VIEWS) if view in words]
    return found[0] if len(found) == 1 else None


def place_views(files: Sequence[Path], current: Sequence[Path | None] = (None,) * len(VIEWS)
                ) -> list[Path | None]:
    """Put ``files`` into the four slots: a file whose name says its side goes there, the
    others fill the empty slots in the order given (extra files are left out). A second
    file naming a side already filled from ``files`` is one of the others: it never
    replaces the first unseen."""
    slots: list[Path | None] = list(current) + [None] * (len(VIEWS) - len(current))
    rest: list[Path] = []
    placed: set[int] = set()
    for file in files:
        side = side_of(file)
        if side is not None and side not in placed:
            slots[side] = file
            placed.add(side)
        else:
            rest.append(file)
    for file in rest:
        if None not in slots:
            break
        slots[slots.index(None)] = file
    return slots


def picture(path: Path | None, size: QSize = PICTURE, ratio: float = 1.0) -> QPixmap:
    """``path`` scaled into ``size`` (aspect kept), or an empty pixmap.

    ``ratio``: the screen's device pixels per pixel; the picture holds that many more pixels
    (and says so), so that a 2x screen shows it sharp rather than blown up from half as many."""
    return shown_picture(path, size, ratio)[0]


def shown_picture(path: Path | None, size: QSize = PICTURE, ratio: float = 1.0) -> tuple[QPixmap, str]:
    """:func:`picture` and, when it is empty for a file given, what is wrong with the file, in
    the author's words ('' otherwise).

    A picture Qt refuses to decode for its size alone (over Qt's 256 MB allocation limit, such
    as a 9,000 x 8,000 scan) is still shown when the studio would import it: it is read again
    with a limit large enough for it. One over the import's own limit is said to be too large."""
    if path is None:
        return QPixmap(), ""
    if not path.exists():
        return QPixmap(), f"{path.name} does not exist in {path.parent} any more (moved, renamed or deleted)"
    if not path.is_file():
        return QPixmap(), f"{path} is not a file"
    image, stored = _read_scaled(path, size * ratio)
    if image.isNull() and stored.isValid():
        from studio.storage.media_import import MAX_IMPORT_PIXELS

        width, height = stored.width(), stored.height()
        if width * height > MAX_IMPORT_PIXELS:
            return QPixmap(), (f"{path.name} is {width:,} x {height:,} pixels ({width * height / 1e6:.1f} megapixels), "
                               f"more than the {MAX_IMPORT_PIXELS / 1e6:.1f} the studio takes: scale it down in "
                               f"an image editor")
        image, _stored = _read_scaled(path, size * ratio, allocation_mb=width * height * 8 // 2**20 + 1)
    if image.isNull():
        return QPixmap(), (f"{path.name} is in no picture format the studio reads (PNG, JPEG, WebP, BMP, GIF), "
                           f"or is damaged")
    pixmap = QPixmap.fromImage(image)
    pixmap.setDevicePixelRatio(ratio)
    return pixmap, ""


def _read_scaled(path: Path, size: QSize, allocation_mb: int | None = None) -> tuple[QImage, QSize]:
    """``path`` decoded scaled into ``size`` (aspect kept), upright, and its size as stored
    (invalid when its header can't be read); with ``allocation_mb``, Qt's allocation limit is
    raised to that many megabytes while it is decoded."""
    reader = QImageReader(str(path))
    reader.setAutoTransform(True)  # a phone's portrait photo is stored sideways with an EXIF orientation
    found = reader.size()  # as stored: the scaled size is applied before the picture is turned
    if found.isValid():
        turned = bool(reader.transformation() & QImageIOHandler.Transformation.TransformationRotate90)
        shown = found.transposed() if turned else found
        scaled = shown.scaled(size, Qt.AspectRatioMode.KeepAspectRatio)
        reader.setScaledSize(scaled.transposed() if turned else scaled)
    if allocation_mb is None:
        return reader.read(), found
    limit = QImageReader.allocationLimit()
    QImageReader.setAllocationLimit(max(limit, allocation_mb))
    try:
        return reader.read(), found
    finally:
        QImageReader.setAllocationLimit(limit)


class ViewStrip(QWidget):
    """The four views side by side, each with its caption; when ``editable``, a button under
    each picks or replaces that view and another clears it."""

    changed = Signal()

    def __init__(self, editable: bool, parent: QWidget | None = None, size: QSize = PICTURE) -> None:
        super().__init__(parent)
        self.size_ = size
        self.paths: list[Path | None] = [None] * len(VIEWS)
        self.problems: list[str] = [""] * len(VIEWS)
        """What is wrong with each slot's file ('' where it shows, or is empty)."""
        self._decoded: dict[tuple[object, ...], tuple[QPixmap, str]] = {}
        """The pictures shown, by file and state: a change to one slot does not decode the other
        three again (a large scan takes a second)."""
        self.pictures: list[QLabel] = []
        self.choose_buttons: list[QPushButton] = []
        self.clear_buttons: list[QPushButton] = []
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(6)
        for column, view in enumerate(VIEWS):
            label = QLabel(self)
            label.setFixedSize(size)
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            label.setObjectName("viewPicture")
            label.setFrameShape(QLabel.Shape.StyledPanel)
            self.pictures.append(label)
            caption = QLabel(view, self)
            caption.setAlignment(Qt.AlignmentFlag.AlignCenter)
            caption.setObjectName("dimLabel")
            grid.addWidget(label, 0, column)
            grid.addWidget(caption, 1, column)
            if editable:
                choose = QPushButton(f"{view.capitalize()}…", self)
                choose.setToolTip(f"Choose the character's {view} view")
                choose.clicked.connect(lambda _checked=False, i=column: self._choose(i))
                clear = QPushButton("Clear", self)
                clear.setAccessibleName(f"Clear the {view} view")  # four "Clear" buttons read alike
                clear.clicked.connect(lambda _checked=False, i=column: self.set_view(i, None))
                self.choose_buttons.append(choose)
                self.clear_buttons.append(clear)
                grid.addWidget(choose, 2, column)
                grid.addWidget(clear, 3, column)
        self._show()

    # the file dialog is an attribute so tests can answer it
    ask_file: Callable[[QWidget, str], str] = staticmethod(
        lambda parent, title: QFileDialog.getOpenFileName(parent, title, "", IMAGE_FILTER)[0])

    def _choose(self, index: int) -> None:
        file = self.ask_file(self, f"The {VIEWS[index]} view")
        if file:
            self.set_view(index, Path(file))

    def set_view(self, index: int, path: Path | None) -> None:
        self.paths[index] = path
        self._show()
        self.changed.emit()

    def set_views(self, paths: Sequence[Path | None]) -> None:
        self.paths = (list(paths) + [None] * len(VIEWS))[:len(VIEWS)]
        self._show()
        self.changed.emit()

    def chosen(self) -> list[Path]:
        """The views given, in the order front, left, back, right (empty slots left out)."""
        return [p for p in self.paths if p is not None]

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.DevicePixelRatioChange:  # moved to a screen of another scale
            self._show()
        return super().event(event)

    def unreadable(self) -> list[int]:
        """The slots whose file can't be shown as a picture (missing, or not a picture)."""
        return [index for index, label in enumerate(self.pictures)
                if self.paths[index] is not None and label.pixmap().isNull()]

    def _picture(self, path: Path | None) -> tuple[QPixmap, str]:
        """:func:`shown_picture` of ``path`` at this strip's size, decoded again only when the
        file changed (or the screen's scale did)."""
        ratio = self.devicePixelRatioF()
        try:
            state = path.stat() if path is not None else None
        except OSError:
            state = None
        key = (str(path), ratio, state.st_mtime_ns if state else None, state.st_size if state else None,
               state.st_ino if state else None)
        if key not in self._decoded:
            self._decoded[key] = shown_picture(path, self.size_, ratio)
        return self._decoded[key]

    def _show(self) -> None:
        for index, label in enumerate(self.pictures):
            path = self.paths[index]
            pixmap, problem = self._picture(path)
            self.problems[index] = problem
            label.setPixmap(pixmap)
            label.setText("" if not pixmap.isNull() else ("?" if path is not None else "none"))
            if path is None:
                label.setToolTip(f"no {VIEWS[index]} view")
            elif pixmap.isNull():
                label.setToolTip(f"{VIEWS[index]}: {path} can't be read as a picture: {problem}")
            else:
                label.setToolTip(f"{VIEWS[index]}: {path}")
        # keep only what the slots show now
        self._decoded = {key: value for key, value in self._decoded.items()
                         if any(key[0] == str(path) for path in self.paths)}
        for index, button in enumerate(self.clear_buttons):
            button.setEnabled(self.paths[index] is not None)


class ViewsEditor(QWidget):
    """An editable :class:`ViewStrip`, a button that places several files at once, and a note
    saying whether the views are complete."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.strip = ViewStrip(editable=True, parent=self)
        self.several = QPushButton("Choose several…", self)
        self.several.setToolTip("Pick up to four pictures; names with front, left, back or right go to that side")
        self.several.clicked.connect(self._choose_several)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self.note.setObjectName("dimLabel")
        self.note.setTextFormat(Qt.TextFormat.PlainText)  # it names files as they are named, never as markup
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.strip)
        layout.addWidget(self.several, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.note)
        self.strip.changed.connect(self._update_note)
        self._update_note()

    ask_files: Callable[[QWidget], list[str]] = staticmethod(
        lambda parent: QFileDialog.getOpenFileNames(parent, "Reference views (front, left, back, right)", "",
                                                    IMAGE_FILTER)[0])

    def _choose_several(self) -> None:
        files = self.ask_files(self)
        if files:
            self.strip.set_views(place_views([Path(f) for f in files], self.strip.paths))

    def _update_note(self) -> None:
        note = views_note(len(self.strip.chosen()))
        for index in self.strip.unreadable():
            note += (f" The {VIEWS[index]} view can't be read as a picture: "
                     f"{self.strip.problems[index] or 'it is not an image'}. Choose another file.")
        self.note.setText(note)


class ReferenceViewsDialog(QDialog):
    """Change the reference views of an existing character.

    ``apply`` (when given) stores the views when OK is pressed; one it refuses (a picture that
    can't be read, say) keeps the dialog open with the views chosen and says why."""

    def __init__(self, name: str, current: Sequence[Path | None], parent: QWidget | None = None,
                 apply: Callable[[ReferenceViewsDialog], None] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Reference views of {name}")
        self._apply = apply
        self.editor = ViewsEditor(self)
        self.editor.strip.set_views(current)
        self.error = QLabel("", self)
        self.error.setObjectName("errorLabel")
        self.error.setWordWrap(True)
        self.error.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                   parent=self)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        self.intro = QLabel(f"Add {breakable(name)}'s front, left, back and right views. CustomX animates a character "
                            f"from all four; other engines use the first.", self)
        self.intro.setWordWrap(True)  # a long name wraps rather than widen the dialog past the screen
        for label in (self.intro, self.error):  # a name ("<b>Kai</b>") is shown as written, never as markup
            label.setTextFormat(Qt.TextFormat.PlainText)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.editor)
        layout.addWidget(self.error)
        layout.addWidget(buttons)

    def _accept(self) -> None:
        if self._apply is not None:
            try:
                self._apply(self)
            except StudioError as error:
                self.error.setText(f"{error.message}\n{error.hint}" if error.hint else error.message)
                self.error.show()
                return
        self.accept()

    def chosen(self) -> list[Path | None]:
        """The four slots, front, left, back, right (None where no view was given)."""
        return list(self.editor.strip.paths)
