"""Files dropped on the studio window.

A ``.kamishibai`` project folder is opened as File › Open does (the same checks, the same
question about the open project's queued jobs). A story file that ``kamishibai import-demo``
reads (plain text, Markdown, CSV or tab-separated text) is imported into a new project
beside it, as ``kamishibai import-demo FILE --project FILE-NAME.kamishibai`` would, and that
project is opened. Anything else (several files, a video, a picture, a folder that is no
project) is refused while it is dragged: the pointer shows that it can't be dropped, and the
status bar says why.

What a drop will do is told from the names alone (a suffix, whether it is a folder), so that
a drag over the window never waits for a disk; the file itself is read on the drop.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol, cast

from PySide6.QtCore import QEvent, QMimeData, QObject, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent, QGuiApplication

from studio.core.errors import StudioError
from studio.storage import DB_NAME

if TYPE_CHECKING:
    from studio.storage import Project
    from studio.ui.elided_label import ElidedLabel
    from studio.ui.services import AppServices
    from studio.ui.settings import StudioSettings


class DropWindow(Protocol):
    """What a drop needs of the window it lands on (the studio's main window)."""

    services: AppServices
    settings: StudioSettings
    status_label: ElidedLabel

    def open_project(self, path: Path | str) -> bool: ...
    def show_message(self, text: str) -> None: ...
    def show_error(self, error: object) -> None: ...
    def setAcceptDrops(self, on: bool) -> None: ...  # noqa: N802 (Qt's name)
    def installEventFilter(self, watcher: QObject) -> None: ...  # noqa: N802 (Qt's name)

PROJECT_SUFFIX = ".kamishibai"
STORY_SUFFIXES = (".txt", ".text", ".md", ".markdown", ".csv", ".tsv")
"""The story files a drop imports: the plain text forms ``kamishibai import-demo`` reads."""
_VIDEO_SUFFIXES = (".mp4", ".mov", ".m4v", ".webm", ".mkv", ".avi", ".gif")
_PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp", ".tif", ".tiff")
WHAT_CAN_BE_DROPPED = "drop a .kamishibai project folder to open it, or a story file (.txt, .md, .csv) to import it"
MOST_NEW_NAMES = 100
"""How many names (``story``, ``story 2``…) a story's new project is given a free one among."""


@dataclass(frozen=True)
class DropPlan:
    """What dropping the dragged files would do: open a project, import a story, or nothing
    (``reason`` says why, in a sentence)."""

    action: Literal["open", "import", "refuse"]
    path: Path | None = None
    reason: str = ""

    @property
    def accepted(self) -> bool:
        return self.action != "refuse"

    def hint(self) -> str:
        """What the status bar says while the files are dragged over the window."""
        name = self.path.name if self.path is not None else ""
        if self.action == "open":
            return f"Drop to open {name}."
        if self.action == "import":
            return f"Drop to import {name} into a new project beside it."
        return self.reason


def _refuse(reason: str) -> DropPlan:
    return DropPlan("refuse", None, reason)


def is_project_folder(path: Path) -> bool:
    """A project folder by its name (``.kamishibai``) or, named otherwise, by its database."""
    if not path.is_dir():
        return False
    return path.suffix.lower() == PROJECT_SUFFIX or (path / DB_NAME).is_file()


def plan_drop(paths: Sequence[Path], others: int = 0) -> DropPlan:
    """What dropping ``paths`` (local files and folders; ``others``: how many dragged things
    are no local file, a web address say) would do."""
    if len(paths) + others > 1:
        return _refuse(f"Can't drop {len(paths) + others} things at once: {WHAT_CAN_BE_DROPPED}, one at a time.")
    if not paths:
        return _refuse(f"Only a file on this computer can be dropped here: {WHAT_CAN_BE_DROPPED}.")
    path = paths[0]
    suffix = path.suffix.lower()
    if path.is_dir():
        if is_project_folder(path):
            return DropPlan("open", path)
        return _refuse(f"{path.name} is a folder that is no Kamishibai project: {WHAT_CAN_BE_DROPPED}.")
    if suffix in STORY_SUFFIXES:
        return DropPlan("import", path)
    if path.name == DB_NAME and is_project_folder(path.parent):
        return DropPlan("open", path.parent)  # a project's database: its project is meant
    if suffix in _VIDEO_SUFFIXES:
        return _refuse(f"{path.name} is a video: the studio makes clips, it does not import them; "
                       f"{WHAT_CAN_BE_DROPPED}.")
    if suffix in _PICTURE_SUFFIXES:
        return _refuse(f"{path.name} is a picture: add it to a character or a place in the Cast & world panel; "
                       f"{WHAT_CAN_BE_DROPPED}.")
    if suffix == ".zip":
        return _refuse(f"{path.name} is a zip file: unpack a project bundle with kamishibai unbundle first; "
                       f"{WHAT_CAN_BE_DROPPED}.")
    return _refuse(f"{path.name} can't be opened here: {WHAT_CAN_BE_DROPPED}.")


def plan_for(mime: QMimeData | None) -> DropPlan:
    """:func:`plan_drop` for what a drag carries."""
    if mime is None or not mime.hasUrls():
        return _refuse(f"Only files can be dropped here: {WHAT_CAN_BE_DROPPED}.")
    urls = mime.urls()
    local = [Path(url.toLocalFile()) for url in urls if url.isLocalFile() and url.toLocalFile()]
    return plan_drop(local, others=len(urls) - len(local))


def new_project_place(source: Path) -> Path:
    """A free project folder beside the story file ``source``: ``story.kamishibai``, else
    ``story 2.kamishibai``, ``story 3.kamishibai``… (an existing project is never added to:
    dropping the same file twice makes two projects, not one with every turn twice)."""
    stem = source.stem.strip() or "story"
    for number in range(1, MOST_NEW_NAMES + 1):
        name = stem if number == 1 else f"{stem} {number}"
        folder = source.parent / f"{name}{PROJECT_SUFFIX}"
        if not folder.exists() and not folder.is_symlink():
            return folder
    raise StudioError(f"Can't import {source.name}: {source.parent} already holds {stem}.kamishibai and "
                      f"{MOST_NEW_NAMES - 1} more projects named after it.",
                      hint=f"Import it with kamishibai import-demo {source.name} --project NEW-NAME.kamishibai.")


def import_story_file(create: Callable[[Path], Project], source: Path) -> tuple[Path, str]:
    """Import the story file ``source`` into a new project beside it, as ``kamishibai
    import-demo`` does (the file is read and checked whole before anything is made: a file
    with a bad line makes no project); the new project's folder, and what was done."""
    from studio.core.sentence import plural
    from studio.storage.demo_import import DemoImportError, demo_name, import_story, read_demo

    story = read_demo(source)
    if story.problems or not story.importable:
        raise DemoImportError(demo_name(source), story.problems or [(1, "the file holds no turns")])
    folder = new_project_place(source)
    project = create(folder)
    try:
        result = import_story(project, story, demo_name(source))
        ends = [leaf for leaf in dict.fromkeys(result.leaves) if not project.tree.child_ids(leaf)]
        folder = project.path
    finally:
        project.close()
    branches = f" in {len(ends)} branches" if len(ends) > 1 else ""
    return folder, f"Imported {plural(len(result.node_ids), 'turn')}{branches} from {source.name} into {folder.name}"


class FileDrop(QObject):
    """Takes the files dropped on ``window`` (installed as its event filter)."""

    def __init__(self, window: DropWindow) -> None:
        super().__init__(cast(QObject, window))
        self.window = window
        self._before = ""
        """The status bar's text before a drag showed what dropping would do."""
        self._hint = ""
        window.setAcceptDrops(True)
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        kind = event.type()
        if kind == QEvent.Type.DragEnter and isinstance(event, QDragEnterEvent):
            self._enter(event)
        elif kind == QEvent.Type.DragMove and isinstance(event, QDragMoveEvent):
            self._judge(event)
        elif kind == QEvent.Type.DragLeave:
            self._leave()
        elif kind == QEvent.Type.Drop and isinstance(event, QDropEvent):
            self._drop(event)
        else:
            return super().eventFilter(watched, event)
        return True

    def _judge(self, event: QDragMoveEvent) -> DropPlan:
        """Accept the drag where the drop would do something (the pointer says so), else not."""
        plan = plan_for(event.mimeData())
        if plan.accepted:
            event.setDropAction(Qt.DropAction.CopyAction)  # the file stays where it is
            event.accept()
        else:
            event.ignore()
        return plan

    def _enter(self, event: QDragEnterEvent) -> None:
        plan = self._judge(event)
        self._before = self.window.status_label.text()
        self._hint = plan.hint()
        self.window.show_message(self._hint)

    def _leave(self) -> None:
        """A drag that would have done something left: the status bar says what it said
        before (a refusal's reason stays, to be read after the drop that did nothing)."""
        if self._hint and self.window.status_label.text() == self._hint and plan_is_hint(self._hint):
            self.window.show_message(self._before)
        self._hint = ""

    def _drop(self, event: QDropEvent) -> None:
        plan = plan_for(event.mimeData())
        self._hint = ""
        if not plan.accepted or plan.path is None:
            event.ignore()
            self.window.show_message(plan.reason)
            return
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()
        if plan.action == "open":
            self.window.open_project(plan.path)
        else:
            self.import_story(plan.path)

    def import_story(self, source: Path) -> bool:
        """Import ``source`` into a new project beside it, then open that (asking about the
        open project's queued jobs as File › Open does); False if nothing was imported."""
        window = self.window
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            folder, done = import_story_file(lambda place: window.services.create_project(place, None), source)
        except StudioError as error:
            window.show_error(error)
            return False
        finally:
            QGuiApplication.restoreOverrideCursor()
        with contextlib.suppress(OSError):
            window.settings.add_recent(folder)  # listed, whether it opens now, later or not
        opened = window.open_project(folder)  # False: kept the open project, or opens it once its queue is done
        window.show_message(f"{done}." if opened else f"{done}; it is in File › Open recent.")
        return True


def plan_is_hint(text: str) -> bool:
    """Whether ``text`` is what an accepted drag says (not a refusal's reason)."""
    return text.startswith("Drop to ")
