"""Notices when the open project's folder is moved or deleted under the window.

The project's database stays open through such a move (its edits follow the file, or go
nowhere once it is deleted), but media are written by path: takes made after the move land
in a new folder where the project used to be, and the moved project's clips go missing.
Nothing fails on the way, so without this the window would go on saying "Take ready".
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, Signal

from studio.core.errors import StudioError
from studio.storage import DB_NAME


def _identity(folder: Path) -> tuple[int, int] | None:
    """The project database's file identity (device, inode); None when there is none."""
    try:
        info = os.stat(folder / DB_NAME)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def folder_lost_error(folder: Path) -> StudioError:
    return StudioError(
        f"The project folder {folder.name} was moved or deleted while it was open (it was in {folder.parent}).",
        hint="What is made now can't be saved with it: new takes go to where the folder was. Put the folder "
             "back, or close the project (Ctrl+W) and open it where it is now (File > Open project…).")


class ProjectFolderWatch(QObject):
    """Watches ``folder`` (and the folder holding it, where a rename shows) and says once,
    through :attr:`lost`, that the project is no longer there; put back, it watches again."""

    lost = Signal(object)  # StudioError

    def __init__(self, folder: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.folder = folder
        self._identity = _identity(folder)
        self._told = False
        self._watcher = QFileSystemWatcher(self)
        for path in (folder, folder.parent):
            if path.is_dir():
                self._watcher.addPath(str(path))
        self._watcher.directoryChanged.connect(lambda _path: self.check())

    @property
    def in_place(self) -> bool:
        """Whether the project's database is still the file the project was opened from."""
        return self._identity is not None and _identity(self.folder) == self._identity

    def check(self) -> bool:
        """Whether the project is still in place; the first time it isn't, :attr:`lost` says so."""
        if self.in_place:
            if self._told and str(self.folder) not in self._watcher.directories():
                self._watcher.addPath(str(self.folder))  # put back: a deleted folder's watch was dropped
            self._told = False
            return True
        if not self._told and self._identity is not None:
            self._told = True
            self.lost.emit(folder_lost_error(self.folder))
        return False
