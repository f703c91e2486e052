"""``kamishibai open [PATH]``: the studio window (also what ``kamishibai`` alone runs)."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("open", help="open the studio window (optionally on a project; a new path is created)")
    p.add_argument("path", nargs="?", help="project folder NAME.kamishibai")
    p.set_defaults(handler=cmd_open)


def cmd_open(args: argparse.Namespace) -> int:
    from studio.ui.app import run_app

    return run_app(Path(args.path).expanduser() if args.path else None)
