"""``kamishibai open [PATH]``: the studio window (also what ``kamishibai`` alone runs)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.ui.services import AppServices


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("open", help="open the studio window (optionally on a project; a new path is created)")
    p.add_argument("path", nargs="?", help="project folder NAME.kamishibai")
    p.set_defaults(handler=cmd_open)


def app_services() -> AppServices:
    """The window's engines and project makers, from the composition root."""
    from studio import composition
    from studio.ui.services import AppServices

    return AppServices(registry=composition.default_registry(), default_engine=composition.DEFAULT_ENGINE,
                       create_project=composition.create_project,
                       create_sample_project=composition.create_sample_project,
                       checkpoints=composition.default_checkpoints())


def cmd_open(args: argparse.Namespace) -> int:
    from studio.ui.app import run_app

    return run_app(app_services(), Path(args.path).expanduser() if args.path else None)
