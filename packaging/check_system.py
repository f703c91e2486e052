"""Check the system packages in ``packaging/system-packages.txt`` and install missing ones.

    python3 packaging/check_system.py {setup,run,test} [--yes] [--list FILE] [--again COMMAND]

``make run`` and ``make test`` call this before they need the packages (``run``: the
libraries Qt's xcb plugin and QtGui load; ``test`` adds Xvfb and the desktop-file and
AppStream validators; ``setup``: make and what ``python3 -m venv`` needs). What is missing is
installed with apt-get (through sudo when not root) if ``--yes`` is given or, when a
terminal is attached, if the user says yes; otherwise nothing is installed and one message
names the exact command to run. Exit status: 0 when everything is there (or was just
installed), 1 when something is still missing, 2 for a bad list file.

Standard library only: it runs with the system's python3, before ``.venv`` exists. The list
is read, and its probes answered, by ``studio/system_check.py`` of the same checkout, which
the window uses too. The probes are functions the tests replace (:class:`Probes`, :class:`Host`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

# The list and its probes are shared with the window, which checks Qt's libraries before it
# opens (studio/system_check.py): imported from the checkout this script belongs to.
SOURCE_TREE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(SOURCE_TREE))
try:
    from studio import system_check
    from studio.system_check import (  # re-exported: the names this script always had
        NEEDS,
        PROBE_KINDS,
        WHAT,
        ListError,
        Probes,
        Requirement,
        command_text,
        missing,
        read_requirements,
        system_library_lookup,
        unique_packages,
    )
except ImportError:
    print(f"check_system: {SOURCE_TREE / 'studio' / 'system_check.py'} can't be imported: run this script from "
          "the studio's source tree, where packaging/ and studio/ sit side by side.", file=sys.stderr)
    raise SystemExit(2) from None

__all__ = ["NEEDS", "PROBE_KINDS", "WHAT", "Host", "ListError", "Probes", "Requirement", "command_text", "ensure",
           "font_installed", "install_commands", "main", "missing", "read_requirements", "stop_message",
           "system_library_lookup", "unique_packages"]

DEFAULT_LIST = Path(__file__).resolve().with_name("system-packages.txt")
FONT_DIRS = system_check.FONT_DIRS
"""The font folders looked in (the tests point it elsewhere)."""


def font_installed(target: str) -> bool:
    """``any``: whether any TrueType/OpenType font is installed; else whether one of the
    comma-separated font file names is (in :data:`FONT_DIRS`)."""
    return system_check.font_installed(target, FONT_DIRS)


# -- what to do about it -------------------------------------------------------------------


@dataclass(frozen=True)
class Host:
    """What this machine allows: who we are, which tools exist, whether someone can answer."""

    is_root: bool
    has_sudo: bool
    has_apt: bool
    interactive: bool

    @classmethod
    def this_one(cls) -> Host:
        is_root = hasattr(os, "geteuid") and os.geteuid() == 0
        interactive = sys.stdin is not None and sys.stdin.isatty() and sys.stderr.isatty()
        return cls(is_root, shutil.which("sudo") is not None, shutil.which("apt-get") is not None, interactive)

    @property
    def can_install(self) -> bool:
        return self.has_apt and (self.is_root or self.has_sudo)


def install_commands(packages: Sequence[str], host: Host, *, prompt_for_password: bool = True) -> list[list[str]]:
    """apt-get update, then install (``sudo`` unless root; ``sudo -n`` when no one can type a password)."""
    prefix = [] if host.is_root else (["sudo"] if prompt_for_password else ["sudo", "-n"])
    env = ["env", "DEBIAN_FRONTEND=noninteractive"] if not host.interactive else []
    return [
        [*prefix, *env, "apt-get", "update"],
        [*prefix, *env, "apt-get", "install", "-y", "--no-install-recommends", *packages],
    ]


def stop_message(absent: Sequence[Requirement], host: Host, reason: str = "", again: str = "") -> str:
    """The one message shown when the packages are not installed for the user. ``again``: the
    command that called the check (``make test``), to say what to run afterwards."""
    packages = unique_packages(absent)
    plural = len(packages) != 1
    lines = [f"Kamishibai Studio needs {len(packages)} system package{'s' if plural else ''} "
             f"that {'are' if plural else 'is'} not installed:"]
    lines += [f"  {r.describe()}" for r in absent]
    if reason:
        lines.append(reason)
    if host.has_apt:
        lines.append("Install them with:" if host.is_root or host.has_sudo else "Install them as root with:")
        lines.append(f"  {command_text(packages, as_root=host.is_root or not host.has_sudo)}")
        lines.append(f"then run `{again}` again (`{again} YES=1` installs them without asking)." if again else
                     "then run the command again (with --yes it installs them without asking).")
    else:
        lines.append("This is not a Debian or Ubuntu system (no apt-get): install the packages that provide "
                     "these with your package manager (the names above are Debian's), then run "
                     f"{f'`{again}`' if again else 'the command'} again.")
    return "\n".join(lines)


def ask_yes(question: str, ask: Callable[[str], str]) -> bool:
    try:
        answer = ask(question).strip().lower()
    except EOFError:
        return False
    return answer in ("", "y", "yes")


def ensure(need: str, requirements: Sequence[Requirement], *, yes: bool, probes: Probes | None = None,
           host: Host | None = None, run: Callable[[list[str]], int] | None = None,
           ask: Callable[[str], str] = input, say: Callable[[str], None] | None = None,
           reprobe: Callable[[], Probes] | None = None, again: str = "") -> int:
    """Check ``need``; install what is missing when allowed. 0 when all is there at the end."""
    say = say or (lambda text: print(text, file=sys.stderr, flush=True))
    run = run or (lambda argv: subprocess.call(argv))
    host = host or Host.this_one()
    probes = probes or Probes.of_this_system()
    absent = missing(requirements, need, probes)
    if not absent:
        return 0
    packages = unique_packages(absent)
    if not host.can_install:
        say(stop_message(absent, host, again=again))
        return 1
    if not yes:
        if not host.interactive:
            say(stop_message(absent, host, again=again))
            return 1
        listing = "\n".join(f"  {r.describe()}" for r in absent)
        who = "" if host.is_root else " (through sudo, which may ask for your password)"
        if not ask_yes(f"Kamishibai Studio needs these system packages:\n{listing}\n"
                       f"Install them now with apt-get{who}? [Y/n] ", ask):
            say(stop_message(absent, host, again=again))
            return 1
    say(f"Installing {' '.join(packages)} with apt-get…")
    for argv in install_commands(packages, host, prompt_for_password=host.interactive):
        status = run(argv)
        if status != 0:
            say(stop_message(absent, host, reason=f"`{' '.join(argv)}` failed (exit status {status}).", again=again))
            return 1
    still = missing(requirements, need, (reprobe or Probes.of_this_system)())
    if still:
        say(stop_message(still, host, reason="apt-get finished, but these are still missing.", again=again))
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("need", choices=list(NEEDS), help="what the packages are needed for")
    parser.add_argument("--yes", action="store_true", help="install missing packages without asking")
    parser.add_argument("--list", type=Path, default=DEFAULT_LIST, help="the package list (default: %(default)s)")
    parser.add_argument("--again", default="", help="the command to name in the message (e.g. 'make test')")
    args = parser.parse_args(argv)
    try:
        requirements = read_requirements(args.list)
    except (OSError, ListError) as error:
        print(f"check_system: {error}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as error:
        print(f"check_system: {args.list} is not UTF-8 text ({error.reason} at byte {error.start})", file=sys.stderr)
        return 2
    return ensure(args.need, requirements, yes=args.yes, again=args.again)


if __name__ == "__main__":
    raise SystemExit(main())
