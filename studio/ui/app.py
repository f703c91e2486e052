"""Starting the studio: the Qt application on a qasync event loop, and the first run.

Uncaught exceptions in slots are logged and shown in the status bar; the app never dies
of one. The first run shows the welcome page (new project, the sample, shortcuts,
engines); later runs open the last project, or the welcome page if it is gone.

``KAMISHIBAI_QUIT_AFTER_MS=N`` closes the window N ms after it opened and exits with 0:
the packaging smoke test uses it to show that a built app really starts.

SIGTERM and SIGINT (``kill``, ``timeout``, a session ending, Ctrl+C in the terminal) close
the window as its close button does, keeping queued jobs for next time without asking,
and the process then exits with 128 + the signal's number (143, 130), as shells report a
program a signal stopped. Their default actions killed the process on the spot: its engine
processes' queues were left for Python's resource tracker ("leaked semaphore objects") and
the project's lock and journal files behind.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import signal
import socket
import sys
import threading
import traceback
from pathlib import Path
from types import FrameType, TracebackType
from typing import Protocol, runtime_checkable

# Qt's first import holds the stop signals back until it is done: a KeyboardInterrupt raised
# inside shiboken's start aborted the process ("Fatal Python error: libshiboken/signature"),
# or left Qt half made (an internal error, or a window that never heard of the Ctrl+C).
_MASK = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM}) \
    if hasattr(signal, "pthread_sigmask") else None
try:
    from PySide6.QtCore import QSocketNotifier, QThreadPool, QTimer
    from PySide6.QtWidgets import QApplication
finally:
    if _MASK is not None:  # a signal held back meanwhile acts now, as it would have before the import
        signal.pthread_sigmask(signal.SIG_SETMASK, _MASK)

from studio.core.errors import StudioError  # noqa: E402
from studio.core.text import one_line  # noqa: E402
from studio.ui.app_paths import DESKTOP_ID, set_application_names  # noqa: E402
from studio.ui.main_window import MainWindow, app_icon  # noqa: E402
from studio.ui.services import AppServices  # noqa: E402
from studio.ui.settings import PROJECT_DB, StudioSettings, is_project_folder, usable_engine_values  # noqa: E402
from studio.ui.theme import apply_theme  # noqa: E402
from studio.ui.window_state import keep_on_screen  # noqa: E402

log = logging.getLogger(__name__)


def install_excepthook(window: MainWindow) -> None:
    def hook(kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
        if isinstance(error, StudioError):
            window.show_error(error)
            return
        log.error("uncaught exception:\n%s", "".join(traceback.format_exception(kind, error, tb)))
        window.show_message(f"Internal error: {type(error).__name__}: {error} (see the log)")

    sys.excepthook = hook


def settings_reset_notes(window: MainWindow) -> list[str]:
    """What of the saved settings could not be used (and reads as its default), one
    sentence each: the file's own problems, then each engine's refused values."""
    settings = window.settings
    notes = settings.reset_notes()
    unknown = unknown_engine_note(window)
    if unknown:
        notes.append(unknown)
    for info in window.registry.infos():
        _, problems = usable_engine_values(info.settings, settings.engine_values(info.name))
        notes += [f"A saved {info.name} setting was refused (the engine's default is used): {problem}"
                  for problem in problems]
    return notes


def unknown_engine_note(window: MainWindow) -> str:
    """Why the saved engine is not the one new takes use ("" when it is, or none was saved): an
    engine this installation doesn't have (removed, or named by another version)."""
    saved = window.settings.engine
    if not saved or saved in window.registry:
        return ""
    shown = saved if len(saved) <= 40 else f"{saved[:37]}..."
    return (f"The saved engine {shown!r} is not installed here (or unknown to this version): new takes use the "
            f"{window.services.default_engine} engine. Choose another in the toolbar's Engine list.")


def report_settings_resets(window: MainWindow) -> None:
    """Say, once the window is up, which saved settings were reset to their defaults (a
    damaged file, or values edited by hand or written by another version; the others hold),
    and whether what is changed now can be kept at all (a read-only settings file, or a
    folder this user can't write in). Said in the status bar and in a message that does not
    block the window: the studio starts and works either way."""
    notes = settings_reset_notes(window)
    unwritable = window.settings.write_access_problem()
    if not notes and not unwritable:
        return
    if unknown_engine_note(window):  # the picker shows the engine used: said once, not at every start
        window.settings.engine = window.services.default_engine
    if notes:
        window.settings.forget_refused()  # (and writes the file, where it can)
    window.show_error(start_settings_error(notes, unwritable, kept=not window.settings.file_unusable()))


def start_settings_error(notes: list[str], unwritable: str, *, kept: bool) -> StudioError:
    """The start's one message about the settings: ``notes`` (what was reset), then
    ``unwritable`` (why changes won't be kept). ``kept``: whether the file's other settings
    were read (not when the file itself could not be)."""
    if not notes:
        return StudioError(unwritable, hint="The studio works as usual meanwhile: your projects are saved as "
                                            "always; only its own settings are not.")
    shown = "\n".join(f"• {note}" for note in notes)
    message = f"Some saved settings could not be used and were reset to their defaults:\n{shown}"
    if unwritable:
        message += f"\n\n{unwritable}"
    if unwritable or not kept:
        hint = ("The studio works as usual meanwhile; settings chosen in File › Settings hold until it "
                "closes.")
    else:
        hint = ("Your other settings are kept. Choose these again in File › Settings (OK there saves the "
                "values shown).")
    return StudioError(message, hint=hint)


def open_initial(window: MainWindow, path: Path | None) -> None:
    """Open ``path`` (created if it doesn't exist); else, after the first run, the last
    project. The first run (and a last project that is gone) leaves the welcome page up.

    A start on a path (``make run``, ``kamishibai open``) counts as the first run: the next
    plain start opens the last project, as later ones do, rather than the welcome page."""
    settings = window.settings
    first_run = not settings.first_run_done
    if first_run:
        settings.mark_first_run_done()
    if path is not None:
        if is_project_folder(path) or is_project_folder(path.with_name(path.name + ".kamishibai")) \
                or not _free_for_a_project(path):
            window.open_project(path)  # a file or a folder of other things: refused, saying why
        else:
            window.new_project(path)
        return
    if first_run:
        return
    recent = settings.present_projects()
    gone = last_project_gone(settings)
    opened = bool(recent) and window.open_project(recent[0])
    if gone and (opened or not recent):  # (a project that could not be opened said why)
        window.show_message(f"{window.status_label.text()}. {gone}" if opened else gone)


def last_project_gone(settings: StudioSettings) -> str:
    """What to say when the project used last is not there now (empty: it is, or none was):
    moved, deleted, or on a drive that is not connected. It stays in the recent projects (a
    drive connected again brings it back); the start opens the one before it, if any."""
    entries = [entry for entry in settings.recent_projects if entry]
    if not entries or is_project_folder(Path(entries[0])):
        return ""
    last = Path(entries[0])
    if not last.is_absolute():  # not a path as this version writes them (another version's entry)
        return ""
    name, folder = one_line(last.name), one_line(str(last.parent))
    try:
        there = os.path.lexists(last)
    except (OSError, ValueError):  # a name no system call takes (edited into the file by hand)
        there = False
    if there:  # a file, or a folder without its project.db
        return (f"Your last project, {name} in {folder}, is not a Kamishibai project now (it holds no "
                f"{PROJECT_DB}): open the project you meant with File › Open project…")
    return (f"Your last project, {name}, isn't at {folder} now (moved, deleted, or on a drive that is not "
            "connected): open it where it is with File › Open project…")


def _free_for_a_project(path: Path) -> bool:
    """Whether ``open PATH`` may create a project there: nothing is there, or an empty folder.

    A file, or a folder that holds other things, is not made a project beside it
    (``notes.txt.kamishibai``): the user meant to open what is there, and hears why it isn't one."""
    try:
        return not os.path.lexists(path) or (path.is_dir() and not any(path.iterdir()))
    except OSError as error:  # a folder that can't be read: opening it says why
        return error.errno == errno.ENAMETOOLONG  # ...a name too long: creating it says why


def show_at_start(window: MainWindow, path: Path | None) -> None:
    """Show the new ``window`` as the studio starts: fitted to the screen, saying what of its
    settings can't be used or kept, then (on the next turn of the event loop) opening
    ``path``, the last project or the welcome page; not once the window was closed meanwhile
    (a signal that came as it was shown: the project opened after the close, and stayed open)."""
    keep_on_screen(window)  # the default size, or one saved on a larger screen, fitted to this one
    window.show()
    report_settings_resets(window)
    QTimer.singleShot(0, lambda: open_initial(window, path) if window.isVisible() else None)


def quit_after_ms() -> int | None:
    value = os.environ.get("KAMISHIBAI_QUIT_AFTER_MS", "")
    return int(value) if value.isdigit() else None


def run_app(services: AppServices, path: Path | None = None, argv: list[str] | None = None) -> int:
    """Run the studio window until it closes; the exit status: 0, or 128 + the number of the
    signal that closed it.

    The signals are taken first: one that comes while the window is being made (seconds on a
    busy machine) is noted and ends the start there, where Python's own SIGINT handler raised
    KeyboardInterrupt wherever the start was and SIGTERM killed the process. The drawing process of the cast's
    pictures is ended as the window exits (see :func:`end_background_work`)."""
    stop = SignalClose()
    try:
        code = _run_window(services, path, argv, stop)
    finally:
        end_background_work(services)  # (a second signal meanwhile still has its default action)
        stop.uninstall()
    return 128 + stop.received if stop.received is not None else code


def _run_window(services: AppServices, path: Path | None, argv: list[str] | None, stop: SignalClose) -> int:
    """Make the window and run it until it closes (or a signal came before it was shown); 0,
    or the exit status of a start refused."""
    import qasync

    from studio.ui.gui_tuning import tune_for_gui

    tune_for_gui()
    set_application_names()
    existing = QApplication.instance()
    if not isinstance(existing, QApplication):
        from studio.system_check import EXIT_MISSING_LIBRARIES, check_window_libraries

        missing = check_window_libraries(os.environ)  # Qt would abort (134) without its xcb libraries
        if missing is not None:
            print(missing, file=sys.stderr)
            return EXIT_MISSING_LIBRARIES
    app = existing if isinstance(existing, QApplication) else QApplication(argv if argv is not None else sys.argv)
    app.setDesktopFileName(DESKTOP_ID)
    app.setWindowIcon(app_icon())
    settings = StudioSettings()
    apply_theme(app, settings.appearance)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    window = MainWindow(settings, services, loop=loop)
    if stop.received is not None:  # before the window was shown: nothing opened, nothing to close
        log.info("not opening the window: %s received", signal.Signals(stop.received).name)
        return 0
    install_excepthook(window)
    stop.attach(window)
    show_at_start(window, path)
    quit_after = quit_after_ms()
    if quit_after is not None:
        QTimer.singleShot(quit_after, window.close)
    closing = asyncio.Event()
    app.aboutToQuit.connect(closing.set)
    with loop:
        loop.run_until_complete(closing.wait())
    if window.session is not None:  # opened after the close (should not happen): closed, its lock released
        log.warning("a project was still open as the window exited: closing it")
        window.close_project("keep")
    return 0


@runtime_checkable
class _Ends(Protocol):
    def end(self) -> None: ...


def end_background_work(services: AppServices) -> None:
    """As the window's process exits: drop the loads still queued on Qt's shared thread pool and
    end the process drawing the cast's pictures (one it was drawing comes back undrawn).

    Python's exit waited for every picture asked for to be drawn, then for that process to
    end, with no time limit; the process runs in the idle scheduling class, so on a machine
    whose cores were busy it got almost no time, and the window's process was still there a
    minute after it closed."""
    QThreadPool.globalInstance().clear()
    pictures = services.pictures
    if isinstance(pictures, _Ends):
        try:
            pictures.end()
        except Exception:  # the exit goes on: the process ends with this one at the latest
            log.warning("could not end the process drawing the cast's pictures", exc_info=True)


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
"""The signals that close the window as its close button does."""


class SignalClose:
    """Close the window when the process gets one of :data:`STOP_SIGNALS`.

    Made first, before the window: a signal that comes while the window is being made is
    only noted (:attr:`received`), and the start ends once the window is made, unshown.
    Once the window is attached (:meth:`attach`), the handler asks for its close.

    Qt's event loop runs no Python while it waits, and Python runs a signal's handler only
    between two of its own steps: the C handler's byte on a wakeup socket wakes the loop (a
    socket notifier), so the handler runs at once. The handler only notes the signal and
    asks for the close on the next turn of the loop, never in the middle of what the signal
    interrupted. A second signal while closing has its default action (a stuck close can
    still be stopped). Installed only on the main thread, where handlers can be set; a
    SIGTERM that was ignored (``nohup``-like launchers) stays ignored."""

    def __init__(self) -> None:
        self.window: MainWindow | None = None
        self.received: int | None = None
        self._previous: dict[int, signal.Handlers | object] = {}
        self._wakeup_fd: int | None = None
        self._notifier: QSocketNotifier | None = None
        self._sockets: tuple[socket.socket, socket.socket] | None = None
        if threading.current_thread() is threading.main_thread():
            for number in STOP_SIGNALS:
                if signal.getsignal(number) is not signal.SIG_IGN:
                    self._previous[number] = signal.signal(number, self._handle)

    def attach(self, window: MainWindow) -> None:
        """Close ``window`` at the next signal (the Qt application and its loop exist now), or
        at the loop's first turn if one came meanwhile."""
        self.window = window
        if self.received is not None:
            QTimer.singleShot(0, self._close)
        if threading.current_thread() is not threading.main_thread():
            return
        reader, writer = socket.socketpair()
        reader.setblocking(False)
        writer.setblocking(False)
        self._sockets = (reader, writer)
        self._wakeup_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
        self._notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read)
        self._notifier.activated.connect(self._drain)

    def _drain(self) -> None:
        """Empty the wakeup socket (its bytes only woke the loop: the handler has run)."""
        if self._sockets is not None:
            try:
                while self._sockets[0].recv(512):
                    pass
            except (BlockingIOError, InterruptedError):
                pass

    def _handle(self, number: int, _frame: FrameType | None) -> None:
        if self.received is not None:  # closing already: this one stops the process now
            signal.signal(number, signal.SIG_DFL)
            os.kill(os.getpid(), number)
            return
        self.received = number
        if self.window is not None:  # (before: the start ends once the window is made)
            QTimer.singleShot(0, self._close)

    def _close(self) -> None:
        """Close as the close button does, without its question about queued jobs (nobody is
        there to answer it): they are kept for next time, a running one stops and can run
        again with its seed. Then quit, also out of a dialog's own loop that was open."""
        name = signal.Signals(self.received).name if self.received is not None else "a signal"
        log.info("closing the window: %s received", name)
        if self.window is None:
            return
        self.window.close_project("keep")
        self.window.close()
        app = QApplication.instance()
        if app is not None:
            app.quit()

    def uninstall(self) -> None:
        """Put back the handlers and the wakeup descriptor found (the process may go on, as
        under tests that start the app again)."""
        if threading.current_thread() is not threading.main_thread():
            return
        for number, handler in self._previous.items():
            if signal.getsignal(number) == self._handle:
                signal.signal(number, handler)  # type: ignore[arg-type]
        self._previous.clear()
        if self._sockets is not None:
            signal.set_wakeup_fd(self._wakeup_fd if self._wakeup_fd is not None else -1)
            if self._notifier is not None:
                self._notifier.setEnabled(False)
                self._notifier.deleteLater()
                self._notifier = None
            for end in self._sockets:
                end.close()
            self._sockets = None
