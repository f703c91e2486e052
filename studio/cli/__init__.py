"""The ``kamishibai`` command. With no arguments it opens the studio window.

Subcommands live in modules of this package, each with ``add_parsers(subparsers)``; a
subcommand's handler returns an exit code. Bad input (a :class:`StudioError`) prints its
message to stderr and exits with 2, never with a traceback.

Exit status: 0 done; 1 the work failed (a generation or a job failed, a write found no room,
an internal error); 2 the command was used wrongly or refused before doing anything; 130
stopped by Ctrl+C, 143 by SIGTERM.
"""

from __future__ import annotations

import argparse
import errno
import logging
import os
import re
import signal
import sys
import threading
from collections.abc import Sequence

from studio import __version__

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 1
EXIT_WORK_FAILED = 1
"""Work that began and failed (an engine's, a disk without room), as an internal error is."""

_COMMAND_MODULES = ("project_cmds", "story_cmds", "turn_cmds", "rescue_cmds", "generate_cmds", "export_cmds",
                    "gui_cmds", "doctor_cmds", "checkpoint_cmds", "eval_cmds")


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


def _command_names(parser: argparse.ArgumentParser) -> set[str]:
    """The subcommands ``parser`` knows (a command module that failed to import is absent)."""
    names: set[str] = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            names.update(action.choices)
    return names


def _command_parser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the (sub)command ``args`` were read for, e.g. ``checkpoints convert``'s."""
    while True:
        chosen = next((action.choices.get(str(getattr(args, action.dest, None)))
                       for action in parser._actions if isinstance(action, argparse._SubParsersAction)), None)
        if chosen is None:
            return parser
        parser = chosen


_NEGATIVE_NUMBER = re.compile(r"-\d+|-\d*\.\d+")
"""What argparse itself reads as a positional, though it starts with '-'."""


def _option(parser: argparse.ArgumentParser, item: str) -> tuple[bool, bool]:
    """Whether argparse reads ``item`` (which starts with '-') as one of ``parser``'s options,
    and whether that option then takes the next argument as its value. A text with white
    space is never an option unless written ``--option=value``."""
    actions = {flag: action for action in parser._actions for flag in action.option_strings}
    name, equals, _value = item.partition("=")
    if item in actions:
        return True, actions[item].nargs != 0
    if item.startswith("--"):
        matches = [flag for flag in actions if flag.startswith("--") and flag.startswith(name)]
        if not matches or (not equals and any(c.isspace() for c in item)):
            return False, False
        return True, not equals and len(matches) == 1 and actions[matches[0]].nargs != 0
    if equals and name in actions:
        return True, False
    if any(c.isspace() for c in item) or item[:2] not in actions:
        return False, False
    if actions[item[:2]].nargs != 0:  # a short option and its value: -iTEXT
        return True, False
    return all(actions.get(f"-{c}") is not None and actions[f"-{c}"].nargs == 0 for c in item[1:]), False


def _texts_starting_with_a_dash(parser: argparse.ArgumentParser, args_list: list[str]) -> list[str]:
    """``args_list``, a free text that starts with '-' (``say P NODE "-hello"``) taken as the
    text, where argparse took it for an option ("argument -h/--help: ignored explicit argument
    'ello'").

    For a command whose parser sets the default ``free_text``, an argument that starts with
    '-' and is none of its options is the text: with white space in it (no option has any),
    it is taken as such; a single word (``-hello``, ``--clear``) may be a mistyped option, so
    the command is refused, naming the command line that gives it as text (``--`` before
    it). The value of an option that takes one (``play -i "-hello"``) is that value.
    ``play`` without a project nor an instruction names both ways of giving one."""
    command = next((action.choices.get(args_list[0]) for action in parser._actions
                    if isinstance(action, argparse._SubParsersAction)), None) if args_list else None
    if command is None or not command.get_default("free_text"):
        return args_list
    rest = args_list[1:]
    end = rest.index("--") if "--" in rest else len(rest)
    options: list[str] = []
    positionals: list[str] = []
    first_text: int | None = None
    joined: list[str] = []  # the options as given, to tell whether a value was joined to its option
    index = 0
    while index < end:
        item = rest[index]
        is_option, takes_value = (_option(command, item) if item.startswith("-") and len(item) > 1
                                  and not _NEGATIVE_NUMBER.fullmatch(item) else (False, False))
        if is_option:
            options.append(item)
            joined.append(item)
            if takes_value and index + 1 < end:
                index += 1
                value = rest[index]
                joined.append(value)
                if value.startswith("-") and not _NEGATIVE_NUMBER.fullmatch(value) and not _option(command, value)[0]:
                    options[-1] = f"{item}={value}"  # its value, as argparse reads it: ``--speaker=-Bob``
                else:
                    options.append(value)
        else:
            if first_text is None and item.startswith("-") and len(item) > 1 and not _NEGATIVE_NUMBER.fullmatch(item):
                first_text = len(positionals)
            positionals.append(item)
        index += 1
    positionals += rest[end + 1:]
    many = command.get_default("many_positionals")
    given = {action.dest for action in command._actions for flag in action.option_strings
             if any(option == flag or option.startswith(f"{flag}=") for option in options)}
    if many and not positionals and not given & {"help", many.rstrip("s")}:
        command.error(f"the following arguments are required: path, and the turn's {many.rstrip('s').upper()} "
                      f"(after the path, or as --{many.rstrip('s')} TEXT)")
    if first_text is None:  # the options first, then every positional, as given (after "--" if there was one)
        return args_list if options == joined else [args_list[0], *options, "--", *positionals]
    rewritten = [args_list[0], *options, *positionals[:first_text], "--", *positionals[first_text:]]
    text = positionals[first_text]
    if not any(c.isspace() for c in text):
        import shlex

        from studio.cli.common import printable

        command.error(f"unrecognized arguments: {printable(text)} (`kamishibai {args_list[0]}` has no such "
                      "option; a text that starts with '-' reads as one). If it is the text, write -- before it: "
                      f"{printable(shlex.join(['kamishibai', *rewritten]))}")
    return rewritten


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command ``argv`` (default: this process's arguments) and return its exit code.

    Ctrl+C at any point of it gives 130. Called as the process's own command (no ``argv``),
    a Ctrl+C that comes once the command is done, while Python shuts down, gives 130 too,
    where it would otherwise kill the process (exit status -2 for its parent). There, a
    SIGTERM (``timeout``, ``kill``, systemd, CI runners) stops the command as Ctrl+C does,
    the same clean way (a stopped turn not kept, a stopped job queued again), with 143."""
    return _main(list(sys.argv[1:] if argv is None else argv), entry=argv is None)


def _main(args_list: list[str], *, entry: bool) -> int:
    try:
        try:
            if entry:
                _open_closed_standard_streams()
                _guard_the_exit()
            code = _run(args_list, entry=entry)
        finally:
            if entry:
                _ctrl_c_means_130()
    except KeyboardInterrupt:  # also one raised while a handler of _run reported another error
        code = _interrupted()
    _exit_code[:] = [code]
    return code


def _run(args_list: list[str], *, entry: bool = False) -> int:
    from studio.core.errors import StudioError  # imported here: a Ctrl+C during it is caught in main

    parser = build_parser()
    if not args_list:
        args_list = ["open"] if "open" in _command_names(parser) else ["--help"]
    args_list = _texts_starting_with_a_dash(parser, args_list)
    args, extra = parser.parse_known_args(args_list)
    many = getattr(args, "many_positionals", None)  # argparse takes them only before the first option
    if extra and many and not any(item.startswith("-") for item in extra):
        getattr(args, many).extend(extra)
        extra = []
    if extra:  # said by the command's own parser: its usage line, not the top level's
        _command_parser(parser, args).error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "handler", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    if entry and args.command != "open":  # the window's event loop would not see it: SIGTERM closes it as before
        _sigterm_as_ctrl_c()
    _tolerant_output()
    if args.command != "open":
        _say_logged_warnings()
    bad = _not_utf8(args)
    if bad:
        print(f"kamishibai: error: {bad} is not valid UTF-8 text.", file=sys.stderr)
        return EXIT_BAD_INPUT
    from studio.storage.lock import set_process_label

    set_process_label("the Kamishibai Studio window" if args.command == "open" else f"kamishibai {args.command}")
    try:
        code = int(args.handler(args) or 0)
        sys.stdout.flush()  # output held in the buffer fails here, where it is said (at exit: a traceback)
        return code
    except StudioError as error:
        _advise_the_command_line(error, args)
        print(f"kamishibai: error: {_shown(str(error))}", file=sys.stderr)
        return _exit_status(error)
    except BrokenPipeError:  # e.g. `kamishibai tree PATH | head`: the reader left, nothing to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as error:
        if error.errno in _NO_ROOM and error.filename is None and not os.environ.get("KAMISHIBAI_DEBUG"):
            return _no_room(error)
        if error.errno != errno.ENAMETOOLONG or os.environ.get("KAMISHIBAI_DEBUG"):
            return _internal_error(error)
        name = os.fsdecode(error.filename) if error.filename is not None else "a path"
        shown = _shown(name if len(name) <= 60 else f"{name[:30]}…{name[-20:]}")
        print(f"kamishibai: error: a file or folder name in {shown} is too long for the file system (the usual "
              "limit is 255 bytes a name).", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as error:
        return _internal_error(error)


def _exit_status(error: Exception) -> int:
    """The exit status of a command that ended with ``error``, a :class:`StudioError`: its own
    ``exit_code`` (1 for work that began and failed), else 2 (used wrongly, refused). A disk
    without room (full, over quota, past the file-size limit) is 1 for every command, as the
    README promises, though the storage layer and the export raise it as a plain StudioError:
    `new`, `play`, `unbundle`... on a full disk exited with 2, and a script took the full disk
    for a mistake in its own arguments."""
    from studio.export.errors import ExportDiskFullError
    from studio.storage.errors import DiskFullError

    cause: BaseException | None = error
    while cause is not None:  # also a message of its own given to a disk's error
        if isinstance(cause, DiskFullError | ExportDiskFullError):
            return EXIT_WORK_FAILED
        cause = cause.__cause__
    return int(getattr(error, "exit_code", EXIT_BAD_INPUT))


_NO_ROOM = {errno.ENOSPC: "no space is left on the device (the disk, or the one the output is redirected to)",
            errno.EDQUOT: "your disk quota is used up",
            errno.EFBIG: "the file would grow past the file-size limit (`ulimit -f`)"}
"""Why a write without a file name (the command's output, redirected to a file or a device)
can fail for want of room, as :func:`_no_room` says it."""


def _no_room(error: OSError) -> int:
    """Say that a write failed for want of room (QA: `kamishibai tree P --json > out.json` on a
    full disk said "internal error: OSError: [Errno 28]" and asked for a traceback). What the
    command did before stands; the output is dropped so that Python's exit does not try to
    write it again."""
    try:  # the rest of the output goes nowhere: a second failing flush at exit would print a traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no file descriptor (output captured by a program)
        pass
    print(f"kamishibai: error: A write failed: {_NO_ROOM.get(error.errno or 0, error.strerror)}.\n"
          "  hint: Make room, then run the command again; a command that changes the project may have done "
          "so already (`kamishibai tree PATH` shows it).", file=sys.stderr)
    return EXIT_INTERNAL


LOCKED_ADVICE = ("`--wait SECONDS` waits longer. Reading commands (tree, info, queue, export, bundle) "
                 "work meanwhile.")
"""What the command line adds to the hint of a project another process is changing. Not
in the storage layer's hint, which the window shows too, where there is no ``--wait``."""


def _advise_the_command_line(error: Exception, args: argparse.Namespace) -> None:
    """Add to ``error``'s hint what only the command line offers: ``--wait`` (for a command
    that has it) and the reading commands, when another process holds the project."""
    from studio.storage.lock import ProjectLockedError

    if not isinstance(error, ProjectLockedError) or "is being changed by" not in error.message:
        return  # this process holds it (a second open of it): waiting would not help
    advice = LOCKED_ADVICE if hasattr(args, "wait") else LOCKED_ADVICE.split(". ", 1)[1]
    error.hint = f"{error.hint} {advice}".strip()


EXIT_INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl+C (128 + SIGINT), as shells report it."""

EXIT_TERMINATED = 128 + signal.SIGTERM
"""The exit status of a command stopped by SIGTERM (143), as shells report it."""

_late_ctrl_c: list[int] = []
"""SIGINTs (and SIGTERMs) that came after the command was done (see :func:`_ctrl_c_means_130`)."""

_terminated: list[int] = []
"""The SIGTERMs received: the command stopped for one ends with :data:`EXIT_TERMINATED`."""


def _sigterm_as_ctrl_c() -> None:
    """Make SIGTERM do what Ctrl+C does at that moment. Its default action kills the process
    on the spot: a `play` kept a new turn without take and its job interrupted, a
    `run-queue` left its job marked running, with nothing said. Passed to the SIGINT
    handler in place (Python's own raises KeyboardInterrupt; one that defers or notes a
    Ctrl+C does so for it too), every command's Ctrl+C path cleans up after it. Only on the
    main thread (signal handlers can be set nowhere else), and not where SIGTERM is ignored
    (``nohup``-like launchers): that choice stays."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGTERM) is signal.SIG_IGN):
        return
    signal.signal(signal.SIGTERM, _on_sigterm)


def stopped_by() -> str:
    """What stopped the command, as its messages name it: ``SIGTERM`` once one came (the
    command then ends with 143), else ``Ctrl+C``."""
    return "SIGTERM" if _terminated else "Ctrl+C"


def _on_sigterm(signum: int, frame: object) -> None:
    _terminated.append(signum)
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signum, frame)  # type: ignore[arg-type]  # a frame, as the handler was given
    else:  # no Python handler (SIGINT ignored, as in a script's `cmd &`): SIGTERM still stops it
        raise KeyboardInterrupt

_exit_code: list[int] = []
"""The exit code the command returned, once it did."""


def _interrupted() -> int:
    """Say the command was stopped; its exit status: 143 when a SIGTERM stopped it, else 130."""
    terminated = bool(_terminated)
    try:
        print("kamishibai: terminated (SIGTERM)" if terminated else "kamishibai: interrupted",
              file=sys.stderr, flush=True)
    except (KeyboardInterrupt, OSError, ValueError):  # a second Ctrl+C, or a closed stderr: the status says it
        pass
    return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED


def _ctrl_c_means_130() -> None:
    """From here to the end of the process, a Ctrl+C is noted instead of raised: no
    KeyboardInterrupt escapes ``sys.exit(main())`` (a traceback and exit status -2), and
    :func:`_exit_guard` turns it into exit status 130."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, lambda signum, _frame: _late_ctrl_c.append(signum))


_STANDARD_STREAMS = ((0, "stdin", os.O_RDONLY), (1, "stdout", os.O_WRONLY), (2, "stderr", os.O_WRONLY))


def _open_closed_standard_streams() -> None:
    """Give each standard stream the command was started without (``2>&-``, ``>&-``, a service
    that closes them) the null device: its output is dropped, as Python's ``print`` drops it.

    Python leaves such a stream ``None``: the progress bar and the messages written to it
    failed ("internal error: AttributeError", exit status 1, the queued jobs not run), and an
    error meant for a closed stderr went to stdout, into the JSON a script reads. The null
    device is inherited, so that an engine process has all three streams too (one without
    stdout took that descriptor for the first file it opened)."""
    for fd, name, flags in _STANDARD_STREAMS:
        try:
            os.fstat(fd)
            continue
        except OSError:  # closed
            pass
        opened = os.open(os.devnull, flags)  # the lowest free descriptor: this one, the ones below are open
        if opened != fd:
            os.dup2(opened, fd)
            os.close(opened)
        os.set_inheritable(fd, True)  # os.open's descriptors are not: the engine process would lack it
        if getattr(sys, name) is None:
            stream = open(fd, "r" if fd == 0 else "w", encoding="utf-8",  # noqa: SIM115 (it stays open)
                          errors="backslashreplace", closefd=False)
            setattr(sys, name, stream)


def _guard_the_exit() -> None:
    """Register :func:`_exit_guard`. Registered before the command imports anything that
    registers its own (multiprocessing, logging), it runs after them, as atexit runs last
    what was registered first."""
    import atexit

    atexit.register(_exit_guard)


def _exit_guard() -> None:
    """The last exit hook. Python's shutdown then puts SIGINT back to its default action
    (``_PySignal_Fini``), so a Ctrl+C in the rest of the shutdown would kill the process:
    ignore it from here on. One noted since the command was done ends the process with
    130 now, its output flushed."""
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if signal.getsignal(signal.SIGTERM) is _on_sigterm:  # no KeyboardInterrupt in the shutdown: its default
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if not _late_ctrl_c:
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    stopped = _exit_code if _exit_code in ([EXIT_INTERRUPTED], [EXIT_TERMINATED]) else []
    os._exit(stopped[0] if stopped else _interrupted())  # a stopped command has said it already


class _LoggedWarnings(logging.Handler):
    """Warnings the studio's modules log (a worker thread, the engine host), said in the
    command's own format, ``kamishibai: warning: ...``. Without a handler Python printed them
    bare ("The engine process exited with signal 9 (SIGKILL) during loading. (device cpu)"),
    and a logged exception as a whole traceback."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if _reported_by_the_job(record):
                return
            text = record.getMessage()
            if not text.startswith("kamishibai:"):
                text = f"kamishibai: warning: {text}"
            error = record.exc_info[1] if record.exc_info else None
            if error is not None and os.environ.get("KAMISHIBAI_DEBUG"):
                import traceback

                text += "\n" + "".join(traceback.format_exception(error)).rstrip()
            elif error is not None:
                text += f": {type(error).__name__}: {error}\n  (set KAMISHIBAI_DEBUG=1 to see the traceback)"
            print(_shown(text), file=sys.stderr, flush=True)
        except Exception:  # a closed stderr: the exit status and the job's own report say the rest
            pass


def _reported_by_the_job(record: logging.LogRecord) -> bool:
    """An engine process that died fails its job with the same words, and the command reports
    that failure with what to do: the log line would only say it twice."""
    return (record.name == "studio.worker.engine_process"
            and record.getMessage().startswith("The engine process exited"))


def _say_logged_warnings() -> None:
    """Send the studio's logged warnings through :class:`_LoggedWarnings` (once a process)."""
    logger = logging.getLogger("studio")
    if not any(isinstance(handler, _LoggedWarnings) for handler in logger.handlers):
        logger.addHandler(_LoggedWarnings(logging.WARNING))


def _internal_error(error: BaseException) -> int:
    if os.environ.get("KAMISHIBAI_DEBUG"):
        raise error
    print(f"kamishibai: internal error: {type(error).__name__}: {error}\n"
          "  (set KAMISHIBAI_DEBUG=1 to see the traceback)", file=sys.stderr)
    return EXIT_INTERNAL


PATH_ARGUMENTS = frozenset({"path", "out", "file", "project", "bundle", "dest", "names"})
"""Arguments that name files: any bytes are fine there (file names need not be UTF-8)."""


def _not_utf8(args: argparse.Namespace) -> str:
    """The first text argument holding bytes that are not UTF-8 (seen as surrogates), or ""."""
    for name, value in vars(args).items():
        if name in PATH_ARGUMENTS:
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and any(0xD800 <= ord(c) < 0xE000 for c in item):
                return name.upper() if name == "node" else f"--{name.replace('_', '-')}"
    return ""


def _shown(text: str) -> str:
    """A message made safe for a terminal: control characters (line breaks aside) escaped."""
    from studio.cli.common import printable

    return "\n".join(printable(line) for line in text.split("\n"))


def _tolerant_output() -> None:
    """Text that is not valid UTF-8 (a file name, a stored string) is printed escaped
    rather than ending the command with an encoding error."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):
                pass


def gui_main() -> int:
    return _main(["open", *sys.argv[1:]], entry=True)
