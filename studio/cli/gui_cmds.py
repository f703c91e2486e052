"""``kamishibai open [PATH]``: the studio window (also what ``kamishibai`` alone runs)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.ui.services import AppServices


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("open", help="open the studio window (optionally on a project; a new path is created)",
                       description="Open the studio window. With PATH, on that project; a PATH that does not "
                       "exist yet (or an empty folder) is created as a new project first, as `kamishibai new` "
                       "does. Without PATH, on the last project, or the welcome page the first time. "
                       "`kamishibai` alone does the same.")
    p.add_argument("path", nargs="?", help="project folder NAME.kamishibai (created if it does not exist)")
    p.set_defaults(handler=cmd_open)


def app_services() -> AppServices:
    """The window's engines and project makers, from the composition root."""
    from studio import composition
    from studio.ui.services import AppServices

    return AppServices(registry=composition.default_registry(), default_engine=composition.DEFAULT_ENGINE,
                       create_project=composition.create_project,
                       create_sample_project=composition.create_sample_project,
                       checkpoints=composition.default_checkpoints(), pictures=composition.sketch_pictures())


def cmd_open(args: argparse.Namespace) -> int:
    _refuse_without_a_display()
    from studio.ui.app import run_app

    code = run_app(app_services(), Path(args.path).expanduser() if args.path else None)
    _say_stopped(code)
    return code


def _say_stopped(code: int) -> None:
    """After a window a signal closed (exit status 128 + its number), say so as the other
    commands a signal stops say it: the window closed the way its close button does."""
    import signal

    said = {128 + signal.SIGTERM: "terminated (SIGTERM)", 128 + signal.SIGINT: "interrupted"}.get(code)
    if said:
        print(f"kamishibai: {said}: the window was closed; any queued jobs are kept for next time", file=sys.stderr)


def _refuse_without_a_display() -> None:
    """On Linux and the BSDs, refuse to open the window when there is no screen to show it on
    (no ``DISPLAY`` nor ``WAYLAND_DISPLAY``, and no ``QT_QPA_PLATFORM`` choosing a platform
    that needs none): Qt then aborts the process (exit status 134, a core dump) with its own
    plugin messages, which read as a broken install. ``kamishibai`` alone runs ``open``, so a
    terminal over SSH or a container met that abort first."""
    if sys.platform == "darwin" or sys.platform.startswith(("win", "cygwin")):
        return  # these have their own window systems, with no variable to name them
    if os.environ.get("QT_QPA_PLATFORM", "").strip():
        return  # chosen on purpose (offscreen, vnc, eglfs...): Qt's own messages are for that user
    if any(os.environ.get(name, "").strip() for name in ("DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET")):
        return
    runtime = os.environ.get("XDG_RUNTIME_DIR", "").strip()
    if runtime and os.path.exists(os.path.join(runtime, "wayland-0")):  # Wayland's default display
        return
    from studio.core.errors import StudioError

    raise StudioError("There is no display to open the studio window on: neither DISPLAY nor WAYLAND_DISPLAY is "
                      "set (as in a terminal over SSH, a container or a server).",
                      hint="Start it from a desktop session (or over `ssh -X`), or work with the command line: "
                      "`kamishibai --help` lists its commands.")
