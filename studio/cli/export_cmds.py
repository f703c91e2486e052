"""The ``export`` subcommand: a branch as a video, storyboard sheet, subtitles or timeline."""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.cli.common import (
    excerpt,
    open_for_reading,
    printable,
    refuse_control_characters,
    resolve_node,
    shell_path,
)
from studio.core.errors import StudioError
from studio.core.text import first_few

if TYPE_CHECKING:
    from studio.core.tree import StoryTree
    from studio.export import ExportError, ExportOptions, ExportResult
    from studio.storage import Project

FORMATS = ("mp4", "webm", "gif", "pdf", "png", "srt", "vtt", "otio")
CAPTIONS = ("none", "burn", "srt")


GIVEN_FIELDS = {
    "size": "size", "fps": "fps", "crossfade": "crossfade", "title_duration": "title_duration",
    "end_card_duration": "end_card_duration", "overlay": "overlay", "stream_copy": "reencode",
    "panels_per_page": "panels", "panel_aspect": "aspect",
}
"""ExportOptions fields and the arguments that set them, each None (or False) unless given on
the command line, so that a default never counts as asked for. --title and --end-card count
when they hold text, --captions when it asks for captions, --crf always (see
:func:`studio.export.encoding.check_options`)."""


def _given(value: object) -> bool:
    """Whether an argument of :data:`GIVEN_FIELDS` was on the command line (``--crossfade 0``
    was: 0.0 == False, so this asks for identity)."""
    return value is not None and value is not False


def _pair(text: str, what: str, example: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not match:
        raise argparse.ArgumentTypeError(f"{what} must look like {example}, not {text!r}")
    return int(match[1]), int(match[2])


def _size(text: str) -> tuple[int, int]:
    return _pair(text, "--size (WIDTHxHEIGHT)", "720x480")


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "export", help="export a branch (story start to --leaf) as a video, sheet, subtitles or timeline",
        description="Export the branch from the story's start to --leaf. The format comes from --format or "
                    "from the --out file's suffix. Without cards, captions, overlay or crossfade an mp4 is made "
                    "by joining the clips without re-encoding.",
    )
    p.add_argument("path", help="project folder")
    p.add_argument("--leaf", help="last turn of the branch (node id or unique prefix); may be left out when the "
                   "story has one branch")
    p.add_argument("--out", required=True, help="file to write (sheets as PNG: one file per page if several)")
    p.add_argument("--format", choices=FORMATS, help="default: from the --out suffix")
    p.add_argument("--size", type=_size, metavar="WxH", help="output size (default: the clips' size)")
    p.add_argument("--fps", type=float, help="output frame rate (default: the clips' rate)")
    p.add_argument("--crossfade", type=float, metavar="S", help="dissolve between turns, seconds (default 0: cuts)")
    p.add_argument("--title", default="", metavar="TEXT",
                   help="title card text (a line break starts a new line on the card; other control characters "
                   "are refused)")
    p.add_argument("--title-duration", type=float, metavar="S", help="seconds the title card shows (default 2)")
    p.add_argument("--end-card", default="", metavar="TEXT",
                   help="end card text (a line break starts a new line on the card; other control characters "
                   "are refused)")
    p.add_argument("--end-card-duration", type=float, metavar="S", help="seconds the end card shows (default 2)")
    p.add_argument("--captions", choices=CAPTIONS, default="none",
                   help="each turn's dialogue and narration (else a sentence saying what happens): burned into "
                   "the video, or an .srt next to it")
    p.add_argument("--overlay", action="store_true", help="draw the stamina/social/fun bars")
    p.add_argument("--panels", type=int, choices=(1, 2, 3),
                   help="storyboard panels per page: 1 (large, landscape), 2 (landscape) or 3 (portrait, text "
                   "beside each panel; the default)")
    p.add_argument("--aspect", choices=("clip", "16:9"),
                   help="storyboard panel shape: the clip's own (default) or 16:9")
    p.add_argument("--crf", type=int, help="mp4/webm quality, lower is better: H.264 0..51 (default 18), VP9 0..63 "
                   "(default 32); given, the video is always re-encoded")
    p.add_argument("--reencode", action="store_true", help="never join clips by stream copy")
    p.add_argument("--force", "-f", action="store_true", help="replace files that already exist")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(handler=cmd_export)


class _Bar:
    """A tqdm bar on stderr that follows the export's phases (each phase resets the total)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.bar: Any = None
        self.phase = ""

    def __call__(self, progress: Any) -> None:
        if not self.enabled:
            return
        from tqdm import tqdm

        phase = progress.message.split(":", 1)[0].split(" (", 1)[0]
        if phase.startswith("page"):
            phase = "pages"
        if self.bar is None or phase != self.phase or progress.total != self.bar.total:
            if self.bar is not None:
                self.bar.close()
            self.bar = tqdm(total=progress.total, desc=phase, file=sys.stderr, unit="step", leave=False)
            self.phase = phase
        self.bar.n = min(progress.step, progress.total)
        self.bar.set_postfix_str(progress.message if phase != progress.message else "", refresh=False)
        self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def cmd_export(args: argparse.Namespace) -> int:
    from studio.core.progress import never_cancelled
    from studio.export import CaptionMode, ExportError, ExportOptions, export_task
    from studio.export.encoding import check_options
    from studio.export.options import PanelAspect, infer_format
    from studio.export.output import FileAppearedError

    # the cards' text is drawn on frames and written into timelines: lines of plain text only
    args.title = refuse_control_characters(args.title, "--title", line_breaks=True)
    args.end_card = refuse_control_characters(args.end_card, "--end-card", line_breaks=True)
    default = ExportOptions()
    options = ExportOptions(
        size=args.size, fps=args.fps, crossfade=default.crossfade if args.crossfade is None else args.crossfade,
        title=args.title, title_duration=_card_duration(args.title, args.title_duration, "title",
                                                        default.title_duration),
        end_card=args.end_card, end_card_duration=_card_duration(args.end_card, args.end_card_duration, "end-card",
                                                                 default.end_card_duration),
        captions=CaptionMode(args.captions), overlay=args.overlay, crf=args.crf,
        panels_per_page=default.panels_per_page if args.panels is None else args.panels,
        panel_aspect=default.panel_aspect if args.aspect is None else PanelAspect(args.aspect),
        stream_copy=not args.reencode,
    )
    if not args.out.strip():  # Path("") is the current folder: "Can't write .: a folder of that name exists"
        raise StudioError("--out is empty: it names the file to write.",
                          hint="Give a file name, e.g. --out episode.mp4 (--format picks the kind when the name "
                          "doesn't say it).")
    if args.out == "-":  # as `import-demo -` reads standard input; it wrote a file named "-" instead
        raise StudioError("--out - names standard output, and an export can't go there: it writes files.",
                          hint=f"Give a file name, e.g. --out episode.{args.format or 'mp4'} (./- for a file "
                          "named '-').")
    if args.out.endswith(tuple(sep for sep in (os.sep, os.altsep) if sep)):
        # Path() drops the slash: "episode.mp4/" wrote a file named episode.mp4 where a folder was meant
        inside = printable(args.out) + f"episode.{args.format or 'mp4'}"  # quoted: pasted back into a shell
        raise StudioError(f"--out {printable(args.out)} ends with a slash: it names a folder, and --out names "
                          "the file to write.",
                          hint=f"Name the file inside it, e.g. --out {shlex.quote(inside)}.")
    out = Path(args.out).expanduser()
    _refuse_a_folder(out, args.format)  # before the format: a folder's name says none
    # an option given on the command line is refused where the format can't honour it, even at
    # its default value (the defaults themselves, None here, pass for every format)
    given = [name for name, arg in GIVEN_FIELDS.items() if _given(getattr(args, arg))]
    check_options(infer_format(out, args.format), options, given)  # before --force could matter
    bar = _Bar(enabled=not args.quiet)
    with open_for_reading(args.path) as project:
        leaf = (resolve_node(project.tree, args.leaf, args.path) if args.leaf is not None
                else only_leaf(project.tree, args.path))
        # the branch, the folder and the project folder are checked first: --force can't make those right
        try:
            job = export_task(project, leaf, out, options, args.format)
        except StudioError as error:
            _advise_filling(error, args.path, leaf)
            if isinstance(error, ExportError):
                _name_every_bad_clip(error, project, leaf)
                _advise_rerolling(error, args.path, project.tree, leaf)
            raise
        _refuse_to_replace(out, args, lambda: _pages(project, leaf, out, args.format, options))
        try:
            result = job(bar, never_cancelled)
        except FileAppearedError as error:
            if not args.force:  # with --force given, "export again with --force" asked for what was done
                error.hint = "Choose another --out, or export again with --force to replace it."
            raise
        except ExportError as error:
            _name_every_bad_clip(error, project, leaf)
            _advise_rerolling(error, args.path, project.tree, leaf)
            raise
        finally:
            bar.close()
        read_with = list(project.problems)  # such as a stored duration out of range, read as unset
    if not result.paths:
        raise StudioError("The export wrote nothing.")
    for note in result.notes:  # some notes end with their own full stop
        print(printable(f"kamishibai: note: {note.rstrip('.')}."), file=sys.stderr)
    if read_with:
        more = f" (and {len(read_with) - 1} more: `kamishibai info` lists them)" if len(read_with) > 1 else ""
        print(printable(f"kamishibai: note: the project was read with a problem: {read_with[0].rstrip('.')}{more}."),
              file=sys.stderr)
    _print_summary(result)
    return 0


def _print_summary(result: ExportResult) -> None:
    """What was written, its paths escaped as the error messages escape them
    (:func:`~studio.cli.common.printable`): a folder name that is not UTF-8 read
    ``bad\\udce9dir`` here (Python's surrogate escape) and ``bad\\xe9dir`` in an error."""
    print(printable(result.summary()))
    for extra in result.paths[1:]:
        print(f"  also wrote {printable(str(extra))}")


def _advise_filling(error: StudioError, path: str, leaf: str) -> None:
    """Put the command that generates the branch's missing turns, with this project and this
    leaf, in place of the hint the window shares ("in the window: Turn › Generate missing
    turns ...; or `kamishibai fill PROJECT --leaf NODE --run`"), as the other commands' hints
    name them."""
    from studio.export.branch import GENERATE_ALL

    if GENERATE_ALL in error.hint:  # alone, or after another hint (a later turn's clip missing too)
        command = f"kamishibai fill {shell_path(path)} --leaf {leaf} --run"
        error.hint = error.hint.replace(
            GENERATE_ALL, f"Generate the turns of the branch that have none: `{command}`, then export again.")


def _name_every_bad_clip(error: ExportError, project: Project, leaf: str) -> None:
    """Where the export stopped at one unusable clip, name every chosen clip of the branch that
    can't be used, as `info` lists them: it named one (the missing clip of turn 3), and once
    that was made again the next export named the next (turn 2's, cut short)."""
    from studio.export.errors import ClipPermissionError
    from studio.storage.clip_check import chosen_clip_faults

    if not error.remake or isinstance(error, ClipPermissionError):
        return
    tree = project.tree
    branch = [node.id for node in tree.path_to(leaf) if not node.is_root]
    faults = chosen_clip_faults(project, branch)
    if not [node_id for node_id, _verdict in faults if node_id not in error.remake]:
        return
    depth = {node_id: index for index, node_id in enumerate(branch, start=1)}
    said = "; ".join(
        f"turn {depth[node_id]} (node {node_id}: {excerpt(printable(tree.node(node_id).instruction.raw), 40)!r}): "
        f"{verdict.message.rstrip('.')}" for node_id, verdict in faults)
    error.message = f"The branch can't be exported: {len(faults)} of its clips can't be used: {said}."
    error.remake = tuple(dict.fromkeys([*(node_id for node_id, _verdict in faults), *error.remake]))


_REROLL_COMMANDS_SHOWN = 3


def _advise_rerolling(error: ExportError, path: str, tree: StoryTree, leaf: str) -> None:
    """Name the commands that make each missing or unreadable clip again, in place of the
    window's "Re-roll the turn..." (which says what, not how, here): ``kamishibai reroll`` of
    the turn, and for a turn that later turns of the branch follow, ``kamishibai use`` of the
    new take (a re-roll keeps it beside the chosen one there, so that the branch does not
    change under the turns after it)."""
    from studio.export.branch import GENERATE_NEW, REMAKE_CLIPS_HINT
    from studio.export.errors import REMAKE_CLIP_HINT
    from studio.export.plan import UNREADABLE_CLIPS_HINT

    nodes = list(dict.fromkeys(error.remake))
    if not nodes or not error.hint.startswith(("Re-roll the turn", GENERATE_NEW)):
        return
    project = shell_path(path)
    steps = []
    for node in nodes[:_REROLL_COMMANDS_SHOWN]:
        step = f"`kamishibai reroll {project} {node}`"
        if node != leaf:
            step += f" then `kamishibai use {project} {node} latest`"
        steps.append(step)
    rest = nodes[_REROLL_COMMANDS_SHOWN:]
    if rest:
        steps.append(f"the same for node{'s' if len(rest) > 1 else ''} {first_few(rest, ', ')}")
    which = "its clip" if len(nodes) == 1 else "their clips"
    hint = f"Make {which} again: {'; '.join(steps)}; then export again."
    if any(node != leaf for node in nodes):
        hint += " The turns after a turn whose new take is used are then marked out of date."
    if REMAKE_CLIPS_HINT in error.hint or UNREADABLE_CLIPS_HINT in error.hint:
        hint += (" If the project was copied without its media folder (or the folder was damaged in the copy), "
                 "copy it back instead.")
    rest_of_hint = error.hint
    for replaced in (REMAKE_CLIPS_HINT, UNREADABLE_CLIPS_HINT, REMAKE_CLIP_HINT, "Re-roll the turn to make a clip.",
                     GENERATE_NEW):
        rest_of_hint = rest_of_hint.replace(replaced, "")
    error.hint = f"{rest_of_hint.strip()} {hint}".strip()


def only_leaf(tree: StoryTree, path: str) -> str:
    """The last turn of the story's only branch, for an export without --leaf; refused, naming
    the branches' last turns, when there are several (which one is meant is the user's to say)."""
    leaves = tree.leaves_under(tree.root_id)
    if leaves == [tree.node(tree.root_id)]:
        raise StudioError("The story has no turns yet: there is nothing to export.",
                          hint=f"Add one with `kamishibai play {shell_path(path)} TEXT`, or in the studio.")
    if len(leaves) == 1:
        return leaves[0].id
    shown = first_few([f"{leaf.id} ({printable(excerpt(leaf.instruction.raw, 40))})" for leaf in leaves],
                      limit=4)
    raise StudioError(f"The story has {len(leaves)} branches; say which one to export with --leaf NODE (the "
                      f"last turn of its branch): {shown}.",
                      hint=f"`kamishibai tree {shell_path(path)}` shows the branches.")


def _refuse_a_folder(out: Path, fmt: str | None) -> None:
    """``--out`` naming an existing folder is refused as such, with the file to name inside
    it, whether or not ``--format`` is given (without it, QA saw "Can't tell the export
    format from the file name", which sent people to add a suffix to a folder's name)."""
    if not os.path.isdir(out):  # never raises (a name too long is left to the export's own checks)
        return
    from studio.export import ExportError

    inside = shlex.quote(printable(str(out / f"episode.{fmt or 'mp4'}")))  # pasted back into a shell
    raise ExportError(f"Can't write {printable(str(out))}: a folder of that name exists, and --out names the file "
                      "to write.", hint=f"Name a file inside it, e.g. --out {inside}.")


def _card_duration(text: str, seconds: float | None, option: str, default: float) -> float:
    """``--OPTION-duration``, refused without the card it times (it would do nothing)."""
    if seconds is None:
        return default
    if text and not text.strip():  # given, but only spaces: no card is drawn, and saying it was not given misleads
        raise StudioError(f"--{option}-duration was given without --{option} text: --{option} {text!r} is blank "
                          f"(white space only), so there is no {option.replace('-', ' ')} to time.",
                          hint=f"Give --{option} some words, or leave out --{option}-duration.")
    if not text:
        raise StudioError(f"--{option}-duration was given without --{option}: there is no {option.replace('-', ' ')} "
                          "to time.", hint=f"Add --{option} TEXT, or leave out --{option}-duration.")
    return seconds


def _pages(project: Project, leaf: str, out: Path, fmt: str | None, options: ExportOptions) -> int:
    """The pages the export writes, which name a PNG sheet's files: counted exactly for a PNG
    sheet, whose long texts go on in continuation panels (counted from the turns alone, a
    sheet of 4 pages was taken for 1, and an existing ``NAME-04.png`` was replaced without
    --force); for the other formats, which write one file, the turns' count does."""
    from studio.export.branch import collect_branch
    from studio.export.options import ExportFormat, infer_format, sheet_page_count
    from studio.export.sheet import sheet_page_total

    if infer_format(out, fmt) is ExportFormat.PNG:
        return sheet_page_total(collect_branch(project, leaf), options, ExportFormat.PNG)
    turns = len(project.tree.path_to(leaf)) - 1  # the branch's turns, as collect_branch counts them
    return sheet_page_count(turns, options.panels_per_page)


def _refuse_to_replace(out: Path, args: argparse.Namespace, pages: Callable[[], int]) -> None:
    """Without --force, an export that would replace or remove files stops before it starts.
    ``pages`` counts the sheet's pages, which say which numbered PNG pages the export writes:
    called only where a file of the sheet's names is there to replace (a PNG sheet is laid out
    to count its pages, which cost a long sheet's export a fifth more)."""
    from studio.export import ExportError, describe_files, existing_outputs
    from studio.export.options import list_files, sheet_names_taken

    if args.force:
        return
    existing = existing_outputs(out, args.format, args.captions, pages=pages() if sheet_names_taken(out) else 1)
    if existing and not args.force:
        one = len(existing) == 1
        listed = f": {list_files(existing)}" if len(existing) > 2 else ""  # describe_files names one or two
        # the folder in full: a relative --out read "episode.mp4 already exists in ."
        raise ExportError(f"{describe_files(existing)} already {'exists' if one else 'exist'} in "
                          f"{out.absolute().parent}; "
                          f"the export would replace or remove {'it' if one else 'them'}{listed}.",
                          hint="Pass --force to replace, or choose another --out.")
