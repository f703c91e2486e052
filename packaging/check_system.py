"""Check the system packages in ``packaging/system-packages.txt`` and install missing ones.

    python3 packaging/check_system.py {setup,run,test} [--yes] [--list FILE] [--again COMMAND]

``make run`` and ``make test`` call this before they need the packages (``run``: the
libraries Qt's xcb plugin and QtGui load; ``test`` adds Xvfb and the desktop-file and
AppStream validators; ``setup``: make and what ``python3 -m venv`` needs). What is missing is
installed with apt-get (through sudo when not root) if ``--yes`` is given or, when a
terminal is attached, if the user says yes; otherwise nothing is installed and one message
names the exact command to run. Exit status: 0 when everything is there (or was just
installed), 1 when something is still missing, 2 for a bad list file.

Standard library only: it runs with the system's python3, before ``.venv`` exists. The
probes are functions the tests replace (:class:`Probes`, :class:`Host`).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

DEFAULT_LIST = Path(__file__).resolve().with_name("system-packages.txt")
NEEDS: dict[str, tuple[str, ...]] = {"setup": ("setup",), "run": ("setup", "run"), "test": ("setup", "run", "test")}
PROBE_KINDS = ("lib", "bin", "py", "font")
WHAT: dict[str, str] = {"setup": "to set up .venv", "run": "to run the studio", "test": "for the tests"}
LIBRARY_DIRS = ("/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib")
FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts")
FONT_SUFFIXES = (".ttf", ".otf", ".ttc")


class ListError(ValueError):
    """A malformed line in the package list (the message names the file and line)."""


@dataclass(frozen=True)
class Requirement:
    need: str
    package: str
    probe: str  # "lib:libGL.so.1", "bin:Xvfb", "py:ensurepip", "font:any", "font:A.ttf,B.ttc" (one of these files)

    @property
    def kind(self) -> str:
        return self.probe.split(":", 1)[0]

    @property
    def target(self) -> str:
        return self.probe.split(":", 1)[1]

    def describe(self) -> str:
        """``libxcb-icccm4 (libxcb-icccm.so.4, to run the studio)``: the package, what was looked for, why."""
        names = self.target.split(",")
        fonts = ("a font" if self.target == "any" else
                 f"the font {names[0]}" if len(names) == 1 else f"one of the fonts {', '.join(names)}")
        what = {"lib": self.target, "bin": f"the {self.target} command", "py": f"Python's {self.target} module",
                "font": fonts}[self.kind]
        return f"{self.package} ({what}, {WHAT[self.need]})"


def read_requirements(path: Path) -> list[Requirement]:
    requirements: list[Requirement] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        where = f"{path}:{number}"
        if len(fields) != 3:
            raise ListError(f"{where}: expected 'NEED PACKAGE PROBE', got {raw.strip()!r}")
        need, package, probe = fields
        if need not in NEEDS:
            raise ListError(f"{where}: NEED must be one of {', '.join(NEEDS)}, not {need!r}")
        kind, _, target = probe.partition(":")
        if kind not in PROBE_KINDS or not target:
            raise ListError(f"{where}: PROBE must be one of {', '.join(k + ':…' for k in PROBE_KINDS)}, not {probe!r}")
        requirements.append(Requirement(need, package, probe))
    return requirements


# -- probes --------------------------------------------------------------------------------


def _ldconfig_names() -> set[str]:
    """Sonames in the dynamic loader's cache (``ldconfig -p``), if ldconfig can be found."""
    candidates = [shutil.which("ldconfig"), "/sbin/ldconfig", "/usr/sbin/ldconfig"]
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            try:
                output = subprocess.run([candidate, "-p"], capture_output=True, text=True, timeout=30).stdout
            except (OSError, subprocess.SubprocessError):
                continue
            entries = (line.split() for line in output.splitlines()[1:] if line.startswith(("\t", " ")))
            return {fields[0] for fields in entries if fields}
    return set()


def _library_dir_names() -> set[str]:
    """File names in LD_LIBRARY_PATH and the standard library folders (one level of multiarch)."""
    folders = [p for p in os.environ.get("LD_LIBRARY_PATH", "").split(":") if p]
    for base in LIBRARY_DIRS:
        folders.append(base)
        try:
            folders.extend(str(entry) for entry in Path(base).iterdir() if entry.name.endswith("-linux-gnu"))
        except OSError:
            pass
    names: set[str] = set()
    for folder in folders:
        try:
            names.update(os.listdir(folder))
        except OSError:
            pass
    return names


def system_library_lookup() -> Callable[[str], bool]:
    """``lookup(soname)``: whether the dynamic loader would find it. Reads the system once."""
    known = _ldconfig_names() | _library_dir_names()
    return known.__contains__


def font_installed(target: str) -> bool:
    """``any``: whether any TrueType/OpenType font is installed; else whether one of the
    comma-separated font file names is."""
    names = set(target.split(","))
    for folder in FONT_DIRS:
        try:
            root = Path(folder).expanduser()
        except RuntimeError:  # no HOME and a user the system doesn't know (a container's --user 1234)
            continue
        if not root.is_dir():
            continue
        for _dirpath, _dirs, files in os.walk(root):
            if any(name.lower().endswith(FONT_SUFFIXES) if target == "any" else name in names for name in files):
                return True
    return False


def _module_available(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


@dataclass
class Probes:
    """How each kind of probe is answered; the tests pass fakes."""

    has_library: Callable[[str], bool]
    has_program: Callable[[str], bool]
    has_module: Callable[[str], bool]
    has_font: Callable[[str], bool]

    @classmethod
    def of_this_system(cls) -> Probes:
        return cls(system_library_lookup(), lambda name: shutil.which(name) is not None, _module_available,
                   font_installed)

    def present(self, requirement: Requirement) -> bool:
        kind, target = requirement.kind, requirement.target
        if kind == "lib":
            return self.has_library(target)
        if kind == "bin":
            return self.has_program(target)
        if kind == "py":
            return self.has_module(target)
        return self.has_font(target)


def missing(requirements: Iterable[Requirement], need: str, probes: Probes) -> list[Requirement]:
    """The requirements of ``need`` (and the needs it includes) that are not met, in list order."""
    wanted = NEEDS[need]
    return [r for r in requirements if r.need in wanted and not probes.present(r)]


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


def command_text(packages: Sequence[str], as_root: bool) -> str:
    """The command a person should type (``sudo`` unless they are root)."""
    sudo = "" if as_root else "sudo "
    return f"{sudo}apt-get update && {sudo}apt-get install -y --no-install-recommends {' '.join(packages)}"


def unique_packages(requirements: Iterable[Requirement]) -> list[str]:
    return list(dict.fromkeys(r.package for r in requirements))


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
