"""Starting the studio: the Qt application on a qasync event loop, and the first run.

Uncaught exceptions in slots are logged and shown in the status bar; the app never dies
of one. On the first run the shipped sample project opens (or one is built from
``resources/samples`` in the user's data folder) and its branches are queued for the
sketch engine, so posters appear within seconds.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import traceback
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QStandardPaths, QTimer
from PySide6.QtWidgets import QApplication

from studio.core.errors import StudioError
from studio.ui.main_window import MainWindow
from studio.ui.services import AppServices
from studio.ui.settings import StudioSettings
from studio.ui.theme import apply_theme

log = logging.getLogger(__name__)


def install_excepthook(window: MainWindow) -> None:
    def hook(kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
        if isinstance(error, StudioError):
            window.show_error(error)
            return
        log.error("uncaught exception:\n%s", "".join(traceback.format_exception(kind, error, tb)))
        window.show_message(f"Internal error: {type(error).__name__}: {error} (see the log)")

    sys.excepthook = hook


def user_projects_dir() -> Path:
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or Path.home() / ".local/share/kamishibai") / "projects"


def open_initial(window: MainWindow, path: Path | None) -> None:
    """Open ``path`` (created if it doesn't exist), else the first-run sample or the last project."""
    from studio.ui.sample_story import create_sample_project, shipped_sample

    settings = window.settings
    if path is not None:
        if (path / "project.db").is_file() or path.with_name(path.name + ".kamishibai").exists():
            window.open_project(path)
        else:
            window.new_project(path)
        return
    if not settings.first_run_done:
        settings.mark_first_run_done()
        sample = shipped_sample()
        if sample is not None:
            window.open_project(sample)
            return
        target = user_projects_dir()
        existing = target / "Sample.kamishibai"
        try:
            if (existing / "project.db").is_file():
                window.open_project(existing)
                return
            target.mkdir(parents=True, exist_ok=True)
            project = create_sample_project(window.services, target)
            project.close()
        except (StudioError, OSError) as error:
            window.show_error(error if isinstance(error, StudioError) else StudioError(str(error)))
            return
        if window.open_project(existing) and window.workspace is not None:
            fill_all_branches(window)
        return
    recent = [Path(p) for p in settings.recent_projects if (Path(p) / "project.db").is_file()]
    if recent:
        window.open_project(recent[0])


def fill_all_branches(window: MainWindow) -> None:
    """Queue every turn of the open project that has no take (the sample's first run)."""
    session = window.session
    if session is None or session.service is None:
        return
    tree = session.project.tree
    for leaf in tree.leaves_under(tree.root_id):
        if not leaf.is_root:
            session.service.fill(leaf.id, engine=session.engine, settings=session.job_settings())


def run_app(services: AppServices, path: Path | None = None, argv: list[str] | None = None) -> int:
    import qasync

    from studio.ui.gui_tuning import tune_for_gui

    tune_for_gui()
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(argv if argv is not None else sys.argv)
    app.setOrganizationName("Kamishibai")
    app.setApplicationName("Kamishibai Studio")
    app.setDesktopFileName("kamishibai-studio")
    apply_theme(app)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    window = MainWindow(StudioSettings(), services, loop=loop)
    install_excepthook(window)
    window.show()
    QTimer.singleShot(0, lambda: open_initial(window, path))
    closing = asyncio.Event()
    app.aboutToQuit.connect(closing.set)
    with loop:
        loop.run_until_complete(closing.wait())
    return 0
