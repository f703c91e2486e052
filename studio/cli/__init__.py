"""The ``kamishibai`` command. With no arguments it opens the studio window.

Subcommands live in modules of this package, each with ``add_parsers(subparsers)``; a
subcommand's handler returns an exit code. Bad input (a :class:`StudioError`) prints its
message to stderr and exits with 2, never with a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from studio import __version__
from studio.core.errors import StudioError

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 1

_COMMAND_MODULES = ("project_cmds", "generate_cmds", "export_cmds", "gui_cmds", "doctor_cmds", "eval_cmds")


def build_parser() -> argparse.ArgumentParser:
    import importlib

    parser = argparse.ArgumentParser(
        prog="kamishibai",
        description="Kamishibai Studio: author branching anime stories. Without a command, opens the studio.",
    )
    parser.add_argument("--version", action="version", version=f"kamishibai {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(f"studio.cli.{name}")
        except ModuleNotFoundError as error:
            if error.name == f"studio.cli.{name}":
                continue
            raise
        module.add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args_list:
        args_list = ["open"] if "open" in parser._subparsers._group_actions[0].choices else ["--help"]  # type: ignore[union-attr]
    args = parser.parse_args(args_list)
    if not getattr(args, "handler", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return int(args.handler(args) or 0)
    except StudioError as error:
        print(f"kamishibai: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. `kamishibai tree PATH | head`: the reader left, nothing to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("kamishibai: interrupted", file=sys.stderr)
        return 130
    except Exception as error:
        if os.environ.get("KAMISHIBAI_DEBUG"):
            raise
        print(f"kamishibai: internal error: {type(error).__name__}: {error}\n"
              "  (set KAMISHIBAI_DEBUG=1 to see the traceback)", file=sys.stderr)
        return EXIT_INTERNAL


def gui_main() -> int:
    return main(["open", *sys.argv[1:]])
