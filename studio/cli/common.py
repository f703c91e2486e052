"""Helpers shared by the CLI's subcommands."""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import shlex
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.cli.folder_args import checkpoints_path
from studio.core.errors import StudioError
from studio.core.model import Take
from studio.core.text import first_control, first_few, unix_line_breaks
from studio.core.tree import StoryTree
from studio.storage import Project
from studio.storage.lock import LockHolder

if TYPE_CHECKING:
    from studio.storage.errors import ProjectDamagedError


class WorkFailedError(StudioError):
    """The command was used rightly and began its work, which then failed (a generation the
    engine could not finish, an engine process that died): exit status 1, as a failed
    `run-queue` job gives. Input the command refuses before doing anything is a plain
    :class:`StudioError`, exit status 2."""

    exit_code = 1


DEFAULT_WAIT_S = 60.0
"""How long a writing command waits for another process that is changing the project."""


def add_wait_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--wait", type=_seconds, default=DEFAULT_WAIT_S, metavar="SECONDS",
        help="if another process is changing the project, wait this long for it to finish "
        f"(default {DEFAULT_WAIT_S:.0f}; 0 stops at once)",
    )


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not 0 <= value <= 7 * 24 * 3600:
        raise argparse.ArgumentTypeError(f"expected 0 to 604800 seconds, not {text!r}")
    return value


def _say_waiting(holder: LockHolder | None) -> None:
    who = holder.describe() if holder is not None else "another Kamishibai process"
    print(f"kamishibai: waiting for {who} to finish changing the project...", file=sys.stderr, flush=True)


def open_project(path: str, *, wait: float = DEFAULT_WAIT_S) -> Project:
    """Open for writing: wait up to ``wait`` seconds for another process that holds it. A
    damaged project is refused with the `rescue` command (:func:`with_rescue_hint`)."""
    with _rescue_told(path):
        return Project.open(given_project_path(path), wait=wait, on_wait=_say_waiting)


def open_for_reading(path: str, *, after_rescue: str = "") -> Project:
    """Open without the writer lock; works while another process writes, and on read-only disks.
    A damaged project is refused with the `rescue` command, and ``after_rescue`` (what the
    rescued copy allows: "which can then be bundled")."""
    with _rescue_told(path, after_rescue):
        return Project.open(given_project_path(path), read_only=True)


@contextlib.contextmanager
def _rescue_told(path: str, then: str = "") -> Iterator[None]:
    """Every command that opens a damaged project says the same: the file and what is wrong
    with it, then how to save what can still be read (`bundle` said it, `tree`, `play` and
    the rest did not)."""
    from studio.storage.errors import ProjectDamagedError

    try:
        yield
    except ProjectDamagedError as error:
        raise with_rescue_hint(error, path, then) from None


def with_rescue_hint(error: ProjectDamagedError, path: str, then: str = "") -> ProjectDamagedError:
    """``error`` (a damaged project's) with the `rescue` command that saves what can still be
    read of the project at ``path``."""
    from studio.storage.errors import ProjectDamagedError

    rescued = shell_path(f"{Path(path.rstrip('/') or '.').stem or 'story'}-rescued")
    told = (f"{error.hint} `kamishibai rescue {shell_path(path)} {rescued}` writes every turn, take and clip that "
            f"can still be read into a new project{', ' + then if then else ''}.").strip()
    return ProjectDamagedError(error.message, hint=told)


def given_project_path(path: str) -> str:
    """``path``, refused when empty or blank. An empty argument (often an unset shell variable:
    ``kamishibai reroll "$P" NODE``) was read as the current folder: the error named "." as the
    project, and inside a project folder the command read or changed that project."""
    if not path.strip():
        raise StudioError(f"The project path is empty{' (it holds only spaces)' if path else ''}.",
                          hint="Give the project folder, for example my-story.kamishibai (`.` for the current "
                          "folder).")
    return path


ROOT_NAMES = frozenset({"root", "start"})
"""What a node argument may say for the story's start, whatever its id."""


def resolve_node(tree: StoryTree, ref: str, path: str | None = None) -> str:
    """A node id, a unique id prefix, or 'root'. Spaces around it (copied from `tree`'s
    indented listing) are ignored; an empty one is refused, not taken as a prefix of every id.
    ``path``: the project as given, for the hints' commands (else they say PATH)."""
    ref = ref.strip()
    listing = f"`kamishibai tree {shell_path(path) if path is not None else 'PATH'}`"
    if not ref:
        raise StudioError("The node id is empty.",
                          hint=f"Give a node id or a unique prefix of one ({listing} lists them), "
                          "or 'root' for the story's start.")
    if ref.lower() in ROOT_NAMES:
        return tree.root_id
    if ref in tree.nodes:
        return ref
    matches = [node_id for node_id in tree.nodes if node_id.startswith(ref)]
    if not matches:  # ids are lower-case hex: "7E3A" (typed, or read aloud) names "7e3a…"
        matches = [node_id for node_id in tree.nodes if node_id.lower().startswith(ref.lower())]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        _refuse_a_take_id(tree, ref)
        raise StudioError(f"No node {printable(ref)!r} in this project.",
                          hint=f"{listing} lists the node ids.")
    raise StudioError(f"{printable(ref)!r} matches {len(matches)} nodes; give more characters of the id.",
                      hint=f"It is the start of {first_few(sorted(matches), limit=5)}.")


def _refuse_a_take_id(tree: StoryTree, ref: str) -> None:
    """Refuse ``ref`` naming a take where a turn is asked for, with the turn's id: `play`
    prints both ("node 0d03…  take 42fa…"), and a take's id given to `reroll`, `--parent` or
    `--leaf` was only "No node '42fa…' in this project"."""
    takes = [take for take in tree.takes.values() if take.id.lower().startswith(ref.lower())]
    if len(takes) != 1 or takes[0].node_id not in tree.nodes:
        return
    take = takes[0]
    named = "is the id of a take" if take.id == ref.lower() else f"is the start of take {take.id}'s id, a take"
    raise StudioError(f"{printable(ref)!r} {named} of turn {take.node_id}, not a turn's id.",
                      hint=f"Give the turn's id: {take.node_id}.")


def refuse_control_characters(text: str, option: str, *, line_breaks: bool = False) -> str:
    """Refuse free text given with ``option`` (drawn on frames, written into subtitles,
    timelines or the project) that holds a control character: C0 (U+0000..U+001F, tab
    included), DEL or C1 (U+007F..U+009F), named by its code point and position. With
    ``line_breaks``, ``\\n`` is allowed (it starts a new line where the text is drawn), and
    Windows (``\\r\\n``) and old Mac (``\\r``) line ends count as ``\\n``: a title pasted from
    a Windows file was refused for its carriage returns. Returns the text as checked (its line
    ends as ``\\n``), which is what the caller should use."""
    # the position counts the characters as typed: the check reads the carriage returns as line breaks
    found = first_control(text.replace("\r", "\n") if line_breaks else text, line_breaks=line_breaks)
    if found is not None:
        position, char = found
        allowed = ("line breaks (\\n) are the only control characters it may hold" if line_breaks
                   else "it is one line of plain text")
        raise StudioError(f"{option} holds a control character (U+{ord(char):04X}) at character {position}.",
                          hint=f"Remove it: {allowed}.")
    return unix_line_breaks(text) if line_breaks else text


_SHOWN_CONTROLS = {"\n": "⏎", "\t": " ", "\r": "⏎"}
_BIDI_CONTROLS = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def printable(text: str) -> str:
    """``text`` safe to print on a terminal: control characters (ESC, BEL, NUL...) and
    bidirectional overrides shown as escapes, line breaks as ⏎, invalid UTF-8 escaped."""
    out: list[str] = []
    for char in text:
        code = ord(char)
        if char in _SHOWN_CONTROLS:
            out.append(_SHOWN_CONTROLS[char])
        elif code < 0x20 or 0x7F <= code < 0xA0 or char in _BIDI_CONTROLS:
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        elif 0xD800 <= code < 0xE000:  # a byte of invalid UTF-8 (surrogate-escaped)
            out.append(f"\\x{code - 0xDC00:02x}" if code >= 0xDC80 else f"\\u{code:04x}")
        else:
            out.append(char)
    return "".join(out)


def command_path(path: str | os.PathLike[str]) -> str:
    """``path`` as an argument of a command the user is told to type: ``./`` before a path
    that starts with ``-`` (only a relative one can), which the command's own parser took for
    an option (`kamishibai fill -story.kamishibai --run`: "unrecognized arguments")."""
    text = os.fspath(path)
    return f"./{text}" if text.startswith("-") else text


def shell_path(path: str | os.PathLike[str]) -> str:
    """``path`` as printed in a command to type: see :func:`command_path`, then quoted for
    the shell and shown safely (:func:`printable`)."""
    return shlex.quote(printable(command_path(path)))


def print_json(value: Any) -> None:
    """Print ``value`` as one JSON document, whole or not at all: it is encoded first, so
    that a value that can't be encoded (a stored field of the wrong type) leaves stdout
    empty rather than holding the half of a document printed before it.

    The document is written in full or the write fails: Python's buffered output takes a
    large write that the disk cuts short (a full disk, ``ulimit -f``) as done, the rest
    dropped without an error, so `tree --json > out.json` left half a document and exit
    status 0. What was not written is written again, which then raises the disk's error."""
    text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    binary = getattr(sys.stdout, "buffer", None)
    if binary is None:  # a text-only stream (output captured by a program) takes the whole text
        sys.stdout.write(text)
        return
    sys.stdout.flush()  # what was printed before it comes first
    encoding = sys.stdout.encoding or "utf-8"
    try:
        encoded = text.encode(encoding)
    except UnicodeEncodeError:
        # a character the output's encoding lacks (PYTHONIOENCODING=ascii, a Latin-1 locale, a
        # Windows console) or a file name that is not UTF-8: written in JSON's own escapes
        # (\ud83c\udfac), where the stream's own replacement (\U0001f3ac) made the document invalid
        encoded = (json.dumps(value, indent=2) + "\n").encode(encoding)
    data = memoryview(encoded)
    while data:
        written = binary.write(data)
        if not written:  # never for a blocking stream: it writes something or raises
            raise OSError(errno.EIO, "the output took none of the bytes written to it")
        data = data[written:]
    binary.flush()


DEVICE_FORMS = "cpu, cuda:N, per stage predict=cuda:0,decode=cuda:1, or cuda:N+offload"
"""How a ``--device`` is written, for the messages that refuse one."""


def device_spec(text: str) -> str:
    """``--device``: one worker's placement, checked in full when the arguments are read, so
    that a value the engines can't use (an unknown device, ``+offload`` alone, a stage given
    no device or twice) is refused in one line that names the option, before a project is
    opened or anything is written. An empty value is refused too: the engines' configuration
    reads it as the CPU, so an unset shell variable (``--device "$GPU"``,
    ``predict=$GPU0,decode=$GPU1``) sent the work to the CPU without a word."""
    _refuse_no_device(text, ",")
    _check_placement(text, ",")
    return text


def devices_spec(text: str) -> str:
    """``--devices``: one worker per comma-separated entry, each one a placement whose
    stages are parted by ``;`` (``predict=cuda:0;decode=cuda:1,cpu``), checked as
    :func:`device_spec` checks one."""
    _refuse_no_device(text, ",")
    workers = [item.strip() for item in text.split(",")]
    if not all(workers):
        raise argparse.ArgumentTypeError(f"an empty entry in the device list {text!r} "
                                         "(separate devices with one comma each, e.g. cpu,cpu or cuda:0,cuda:1)")
    for worker in workers:
        _refuse_no_device(worker, ";")
        _check_placement(worker, ";")
    return text


def _refuse_no_device(text: str, separator: str) -> None:
    if not text.strip():
        raise argparse.ArgumentTypeError(
            f"an empty value names no device (give {DEVICE_FORMS}; leave the option out for cpu)")
    for part in text.split(separator):
        stage, equals, where = part.partition("=")
        if equals and not where.strip():
            forms = DEVICE_FORMS.replace(",decode=", f"{separator}decode=")  # the stages as this option parts them
            raise argparse.ArgumentTypeError(
                f"{stage.strip() or 'a stage'}= names no device in {text!r} (give {forms})")


def _check_placement(text: str, separator: str) -> None:
    """The engines' own reading of one worker's placement, its refusal as the option's error."""
    from studio.engines.config import ConfigError, EngineConfig

    try:
        EngineConfig.parse(text, separator=separator)
    except ConfigError as error:
        raise argparse.ArgumentTypeError(f"{error.message} {error.hint}".strip()) from None


def thread_count(text: str) -> int:
    """``--threads N``: CPU threads for an engine, from 1 to the cores the studio may use
    (:func:`studio.engines.config.check_threads`), checked when the arguments are read. The
    generating commands and ``eval`` share it, so that one value is refused (or taken) by all
    of them with the same message."""
    from studio.engines.config import ConfigError, check_threads

    try:
        return check_threads(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    except ConfigError as error:
        raise argparse.ArgumentTypeError(error.message) from None


CHECKPOINTS_SEARCH_ORDER = ("checkpoints/ beside the app, then checkpoints/ in the data folder; in a copy installed "
                            "with pip, the data folder's first, then the package's own")
"""The folders weights are looked in when none is chosen, in the order
:meth:`studio.ui.app_paths.AppPaths.default_checkpoint_dirs` gives them."""


def doctor_command(device: str | None = None, checkpoints: str | os.PathLike[str] | None = None) -> str:
    """`kamishibai doctor` with the ``--device`` (unless the CPU) and ``--checkpoints`` the user
    gave, as they can paste it: the hints said ``--device DEVICE``, which the doctor refuses."""
    command = "kamishibai doctor"
    if device and device.strip().lower() != "cpu":
        command += f" --device {shlex.quote(printable(device))}"
    if checkpoints:
        command += f" --checkpoints {shell_path(checkpoints)}"
    return command


def add_checkpoints_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--checkpoints", type=checkpoints_path, metavar="DIR",
                        help="checkpoints folder (default: the one chosen in the window's Settings, else "
                        f"{CHECKPOINTS_SEARCH_ORDER})")


def checkpoint_dirs(chosen: str | Path | None = None) -> list[Path]:
    """Where engines look for weights: ``chosen`` (``--checkpoints``, refused when it is no folder
    or one engine's own folder; the app's own checkpoints folder is looked in after it for the
    shipped mini), else the folders the window
    uses (*Settings › Checkpoints folder*, else :data:`CHECKPOINTS_SEARCH_ORDER`). Those are
    read by the window's own settings code, so that the two never disagree; it needs only
    QtCore (no display), and without Qt the app's folder is used."""
    if chosen:
        from studio.engines.checkpoints_folder import with_the_app_weights

        folder = Path(chosen).expanduser()
        if not folder.is_dir():  # mistyped: every engine listed its weights missing under it (doctor said so)
            from studio.cli.folder_args import CHECKPOINTS_FOLDER_HINT, require_folder

            require_folder("--checkpoints", str(folder), CHECKPOINTS_FOLDER_HINT)
        _refuse_an_engines_own_folder(folder)
        return with_the_app_weights(folder)
    from studio.composition import default_checkpoints

    with ctrl_c_deferred():  # a KeyboardInterrupt inside PySide6's first import aborts Python (core dump)
        try:
            from studio.ui.settings import StudioSettings
        except ImportError:  # an install without Qt: the command line still runs
            return [default_checkpoints()]
        return StudioSettings().checkpoint_dirs() or [default_checkpoints()]


def _refuse_an_engines_own_folder(folder: Path, option: str = "--checkpoints") -> None:
    """Refuse ``--checkpoints`` naming one engine's weights folder (``checkpoints/mini``,
    ``checkpoints/animegamer``) rather than the folder that holds it: the engines would look in
    ``mini/mini`` and report every file there missing, and ask for the weights to be put where
    they already are. Settings refuses it in the same words (``OwnFolder``)."""
    from studio.composition import default_registry
    from studio.engines.checkpoints_folder import own_folder

    found = own_folder(folder, default_registry().infos())
    if found is not None:
        raise StudioError(found.message(f"{option} {printable(str(folder))}"),
                          hint=printable(found.hint()))


refuse_an_engines_own_folder = _refuse_an_engines_own_folder
"""For the commands that read ``--checkpoints`` themselves (`checkpoints doctor`, the
conversions)."""


@contextlib.contextmanager
def ctrl_c_deferred() -> Iterator[None]:
    """Within the block, a Ctrl+C (SIGINT) is noted rather than raised; KeyboardInterrupt is
    raised once the block is done. For code that must not be cut short by one: a
    KeyboardInterrupt raised while shiboken6 (PySide6) initialises is a fatal Python error
    ("libshiboken/signature: could not initialize part 2") that aborts the process. Off the
    main thread, or where SIGINT has a handler other than Python's own, this does nothing."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def excerpt(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters or fewer, between whole characters, with an
    ellipsis when cut."""
    from studio.core.graphemes import whole_characters

    return text if len(text) <= limit else whole_characters(text, limit) + "…"


def take_start(take: Take) -> dict[str, Any] | None:
    """The state ``take`` was made from, as the JSON outputs give it: ``character`` (whose
    state; "" where one state runs down the branch) and the three stats; None for a take made
    before the studio kept it."""
    if take.start_state is None:
        return None
    return {"character": take.start_character, **take.start_state.as_dict()}
