"""Every argument of every subcommand says what it is in `--help` (QA: `new`, `tree`, `info`,
`bundle`, `unbundle` and `sample` showed a bare `path`, `unbundle` a bare `bundle` and `dest`,
`info --json`, `state-scope`'s scope and `eval`'s engine nothing at all)."""

from __future__ import annotations

import argparse

from studio.cli import build_parser


def _subparsers(parser: argparse.ArgumentParser, prefix: str = "") -> dict[str, argparse.ArgumentParser]:
    found: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found[f"{prefix}{name}"] = sub
                found.update(_subparsers(sub, f"{prefix}{name} "))
    return found


def test_every_argument_of_every_command_has_help() -> None:
    missing = []
    for command, parser in _subparsers(build_parser()).items():
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
                continue
            if action.help == argparse.SUPPRESS:
                continue
            if not (action.help or "").strip():
                missing.append(f"{command}: {action.dest}")
    assert not missing, missing


def test_every_project_path_argument_says_what_it_is() -> None:
    commands = _subparsers(build_parser())
    for name in ("new", "tree", "info", "bundle", "sample"):
        path = next(a for a in commands[name]._actions if a.dest == "path")
        assert "folder" in (path.help or ""), (name, path.help)
    assert "unpack" in (commands["unbundle"].description or "")
