"""The rescue subcommand: a damaged project's readable turns, takes and clips into a new project.

The window's "Save a copy…" writes the story it still holds in memory; the command line
holds none, so it reads what it can of the damaged database itself
(:mod:`studio.storage.salvage`). A project that opens is copied whole, as the window's copy
is made (:func:`studio.storage.rescue.copy_from_memory`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from studio.cli.common import given_project_path, print_json, printable, shell_path
from studio.core.errors import StudioError
from studio.core.sentence import plural


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("rescue", help="copy every readable turn, take and clip of a damaged project into a new one",
                       description="Write what can still be read of PATH (a project whose database is damaged, "
                       "which `bundle`, `export` and the window refuse) into the new project NEW: every turn, "
                       "take, cast member and place whose row can be read, with the clips, posters and pictures "
                       "that can be read, and name what could not be read. A turn whose parent was lost goes "
                       "under the story's start. The generation queue is not copied. PATH is only read, and may "
                       "be open in the window. "
                       "A project that is not damaged is copied whole. Exit status 0 when nothing was lost, 1 "
                       "when something could not be read (the new project holds the rest), 2 when nothing was "
                       "written.")
    p.add_argument("path", help="the damaged project folder")
    p.add_argument("dest", help="the new project folder (NAME or NAME.kamishibai; it must not exist yet)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_rescue)


def _refuse_the_same_place(source: Path, dest: str) -> None:
    from studio.storage.project import normalise_project_path

    target = normalise_project_path(dest)
    if target.exists():
        shown = shell_path(dest)
        raise StudioError(f"{printable(str(target))} exists already: the rescued copy goes into a new folder.",
                          hint=f"Give a name that is not taken, e.g. {shell_path(source.stem + '-rescued')} "
                          f"(not {shown}). Nothing was written.")


def cmd_rescue(args: argparse.Namespace) -> int:
    from studio.storage import Project
    from studio.storage.errors import ProjectDamagedError
    from studio.storage.project import normalise_project_path

    source = normalise_project_path(given_project_path(args.path))
    given_project_path(args.dest)
    _refuse_the_same_place(source, args.dest)
    try:
        opened = Project.open(source, read_only=True)
    except ProjectDamagedError as error:
        damage = error.message
    else:
        return _copy_whole(opened, args)
    from studio.storage.salvage import salvage_project

    salvaged = salvage_project(source, args.dest)
    with salvaged.project as made:
        report: dict[str, Any] = {
            "path": str(made.path.absolute()), "damaged": True, "damage": damage,
            "turns": salvaged.turns, "takes": salvaged.takes, "cast": salvaged.cast, "locations": salvaged.locations,
            "lost": salvaged.lost, "moved": salvaged.moved, "unreadable_media": salvaged.unreadable_media,
            "problems": list(made.problems),
        }
    complete = not (salvaged.lost or salvaged.unreadable_media)
    if args.json:
        print_json(report)
    else:
        _print_report(report, source)
    return 0 if complete else 1


def _copy_whole(opened: Any, args: argparse.Namespace) -> int:
    from studio.storage.rescue import copy_from_memory

    with opened as source:
        copy = copy_from_memory(source, source.tree, args.dest)
    with copy.project as made:
        tree = made.tree
        report: dict[str, Any] = {
            "path": str(made.path.absolute()), "damaged": False, "damage": "",
            "turns": len(tree.nodes) - 1, "takes": len(tree.takes), "cast": len(tree.cast),
            "locations": len(tree.locations), "lost": [], "moved": [], "unreadable_media": copy.unreadable,
            "problems": list(made.problems),
        }
    if args.json:
        print_json(report)
    else:
        _print_report(report, Path(args.path))
    return 1 if copy.unreadable else 0


def _print_report(report: dict[str, Any], source: Path) -> None:
    what = (f"{plural(report['turns'], 'turn')}, {plural(report['takes'], 'take')}, "
            f"{plural(report['cast'], 'cast member')}, {plural(report['locations'], 'place')}")
    if report["damaged"]:
        print(f"rescued {what} of the damaged {printable(str(source))} into {printable(report['path'])}")
    else:
        print(f"{printable(str(source))} is not damaged: copied {what} into {printable(report['path'])}")
    for line in report["lost"]:
        print(f"  lost: {printable(line)}")
    for line in report["moved"]:
        print(f"  moved: {printable(line)}")
    for rel in report["unreadable_media"]:
        print(f"  file not copied (can't be read): {printable(rel)}")
    if report["lost"] or report["unreadable_media"]:
        print("kamishibai: some of the story could not be read; the new project holds the rest. Keep the damaged "
              "project until you have checked the copy.", file=sys.stderr)
