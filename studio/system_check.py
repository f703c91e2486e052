"""The system packages the studio needs, and whether this machine has them: the one list
(``system-packages.txt``) read, and each of its probes answered, without asking dpkg.

Two callers share this module: ``packaging/check_system.py``, which ``make run`` and ``make
test`` run with the system's python3 before ``.venv`` exists (it installs what is missing),
and the window (``studio/ui/app.py``), which checks the libraries Qt's X11 (xcb) plugin
loads before it creates its QApplication: without them Qt aborts the process (exit status
134) saying "Reinstalling the application may fix this problem", which it does not; an
installed wheel has no ``make run`` to install them first.

Standard library only, and the syntax of older Pythons than the studio's own: the system's
python3 imports it. No Qt.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

LIST = Path(__file__).resolve().with_name("system-packages.txt")
"""The list as the package holds it: in a checkout a link to ``packaging/system-packages.txt``,
in the wheel a copy of it."""
NEEDS: dict[str, tuple[str, ...]] = {"setup": ("setup",), "run": ("setup", "run"), "test": ("setup", "run", "test")}
PROBE_KINDS = ("lib", "bin", "py", "font")
WHAT: dict[str, str] = {"setup": "to set up .venv", "run": "to run the studio", "test": "for the tests"}
LIBRARY_DIRS = ("/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib")
FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts")
FONT_SUFFIXES = (".ttf", ".otf", ".ttc")
EXIT_MISSING_LIBRARIES = 2
"""The window's exit status when it can't start for want of system libraries (refused before
doing anything, as the command line's other refusals)."""


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


def font_installed(target: str, folders: Sequence[str] = FONT_DIRS) -> bool:
    """``any``: whether any TrueType/OpenType font is installed in ``folders``; else whether
    one of the comma-separated font file names is."""
    names = set(target.split(","))
    for folder in folders:
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


def unique_packages(requirements: Iterable[Requirement]) -> list[str]:
    return list(dict.fromkeys(r.package for r in requirements))


def command_text(packages: Sequence[str], as_root: bool) -> str:
    """The command a person should type (``sudo`` unless they are root)."""
    sudo = "" if as_root else "sudo "
    return f"{sudo}apt-get update && {sudo}apt-get install -y --no-install-recommends {' '.join(packages)}"


# -- the window ----------------------------------------------------------------------------


def uses_xcb(environ: Mapping[str, str], platform: str = sys.platform) -> bool:
    """Whether Qt will open the window with its X11 (xcb) plugin: ``QT_QPA_PLATFORM`` names
    xcb first, or names nothing on Linux (or a BSD) outside a Wayland session. Offscreen,
    Wayland and the other platforms load other libraries, and are not checked."""
    if platform == "darwin" or platform.startswith(("win", "cygwin")):
        return False
    chosen = environ.get("QT_QPA_PLATFORM", "").strip()
    if chosen:
        return chosen.split(";")[0].split(":")[0].strip() == "xcb"
    return environ.get("XDG_SESSION_TYPE", "").strip().lower() != "wayland"


def window_libraries_missing(requirements: Iterable[Requirement], has_library: Callable[[str], bool]) -> list[
        Requirement]:
    """The libraries of the ``run`` need that ``has_library`` does not find: what Qt's window
    loads (fonts and the setup tools do not stop it from opening)."""
    return [r for r in requirements if r.need == "run" and r.kind == "lib" and not has_library(r.target)]


def window_message(absent: Sequence[Requirement], *, is_root: bool, has_sudo: bool, has_apt: bool) -> str:
    """What the window prints instead of Qt's abort: the packages, and the command that installs them."""
    packages = unique_packages(absent)
    plural = len(packages) != 1
    lines = [f"kamishibai: the window can't open: Qt's X11 (xcb) platform needs {len(packages)} system "
             f"package{'s' if plural else ''} that {'are' if plural else 'is'} not installed:"]
    lines += [f"  {r.describe()}" for r in absent]
    if has_apt:
        lines += ["Install them with:" if is_root or has_sudo else "Install them as root with:",
                  f"  {command_text(packages, as_root=is_root or not has_sudo)}"]
    else:
        lines.append("Install the packages that provide these libraries with your system's package manager "
                     "(the names above are Debian's and Ubuntu's).")
    lines.append("Then start the studio again. The command line (`kamishibai --help`) runs without them.")
    return "\n".join(lines)


def check_window_libraries(environ: Mapping[str, str], *, list_path: Path | None = None,
                           has_library: Callable[[str], bool] | None = None) -> str | None:
    """The message to print, and exit with, when the window would open on xcb without the
    libraries it loads; None when it may go on: another platform, all of them there, or no
    list to check against (a frozen app has none), where Qt's own message stands."""
    if not uses_xcb(environ):
        return None
    try:
        requirements = read_requirements(list_path or LIST)
    except (OSError, ValueError):  # no list, or one edited badly (UnicodeDecodeError and ListError are ValueErrors)
        return None
    absent = window_libraries_missing(requirements, has_library or system_library_lookup())
    if not absent:
        return None
    return window_message(absent, is_root=hasattr(os, "geteuid") and os.geteuid() == 0,
                          has_sudo=shutil.which("sudo") is not None, has_apt=shutil.which("apt-get") is not None)
