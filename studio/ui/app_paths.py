"""Where the studio keeps its files, from QStandardPaths (XDG folders on Linux, the usual
places on Windows and macOS), and where "beside the app" is.

On Linux, with the default XDG variables::

    ~/.config/Kamishibai/Kamishibai Studio/settings.ini    settings and recent projects
    ~/.local/share/Kamishibai/Kamishibai Studio/           the sample project, checkpoints/ (fallback)
    ~/.cache/Kamishibai/Kamishibai Studio/                 regenerable files (theme images)
    ~/Documents/                                           where "New project" proposes to save
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QStandardPaths

from studio.shipped import shipped

ORGANIZATION = "Kamishibai"
APPLICATION = "Kamishibai Studio"
DESKTOP_ID = "io.kamishibai.Studio"  # packaging/io.kamishibai.Studio.desktop; the Wayland app id
SETTINGS_FILE = "settings.ini"
CHECKPOINTS = "checkpoints"


def set_application_names() -> None:
    """The names QStandardPaths builds the App* folders from (and QSettings its defaults)."""
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APPLICATION)


def app_dir() -> Path:
    """The folder "beside the app": the one holding the executable of a frozen (PyInstaller)
    build, else the source checkout (the folder holding ``studio/``)."""
    if getattr(sys, "frozen", False):
        return Path(sys.executable).resolve().parent
    return Path(__file__).resolve().parents[2]


def _location(kind: QStandardPaths.StandardLocation, fallback: Path) -> Path:
    found = QStandardPaths.writableLocation(kind)
    return Path(found) if found else fallback


def documents_or_home(documents: Path, home: Path) -> Path:
    """``documents`` if it is a folder this user can write in, else ``home``.

    The Documents folder the desktop names may not exist (a fresh account, a server, a
    removed drive it pointed to) or be read-only: "New project" proposed a name in it, the
    file dialog could not go there and fell back to the folder the studio was started from
    (``/`` from a desktop launcher), where the project was made or refused."""
    try:
        usable = documents.is_dir() and os.access(documents, os.W_OK | os.X_OK)
    except OSError:
        usable = False
    return documents if usable else home


@dataclass(frozen=True)
class AppPaths:
    config_dir: Path
    data_dir: Path
    cache_dir: Path
    documents_dir: Path

    @classmethod
    def standard(cls) -> AppPaths:
        set_application_names()
        home = Path.home()
        location = QStandardPaths.StandardLocation
        return cls(
            config_dir=_location(location.AppConfigLocation, home / ".config" / ORGANIZATION / APPLICATION),
            data_dir=_location(location.AppDataLocation, home / ".local" / "share" / ORGANIZATION / APPLICATION),
            cache_dir=_location(location.CacheLocation, home / ".cache" / ORGANIZATION / APPLICATION),
            documents_dir=documents_or_home(_location(location.DocumentsLocation, home), home),
        )

    @property
    def settings_file(self) -> Path:
        return self.config_dir / SETTINGS_FILE

    @property
    def projects_dir(self) -> Path:
        """The studio's own projects (the sample): not the user's documents."""
        return self.data_dir / "projects"

    def default_checkpoint_dirs(self) -> list[Path]:
        """Where weights are looked for unless the user chose a folder: ``checkpoints/``
        beside the app, then ``checkpoints/`` in the data folder (for installs whose own folder
        is read-only). In a copy installed with pip the data folder comes first: it is where
        ``checkpoints convert`` puts the big engines' weights, and the first folder is the one
        a missing engine's advice names; the package's own holds only the shipped mini."""
        from studio import shipped as shipped_module

        beside = app_dir() / CHECKPOINTS if getattr(sys, "frozen", False) else shipped(CHECKPOINTS)
        data = self.data_dir / CHECKPOINTS
        return [data, beside] if shipped_module.is_installed() else [beside, data]

    def cache(self, *parts: str) -> Path:
        """A folder under the cache folder, created if needed."""
        folder = self.cache_dir.joinpath(*parts)
        folder.mkdir(parents=True, exist_ok=True)
        return folder
