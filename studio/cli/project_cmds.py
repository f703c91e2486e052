"""Project subcommands: new, import-demo, tree, info, bundle, unbundle, sample, bench, sketch-sheet."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.cli.common import (
    CHECKPOINTS_SEARCH_ORDER,
    ROOT_NAMES,
    add_wait_option,
    command_path,
    device_spec,
    excerpt,
    given_project_path,
    open_for_reading,
    open_project,
    print_json,
    printable,
    resolve_node,
    shell_path,
    take_start,
    thread_count,
)
from studio.cli.folder_args import checkpoints_path
from studio.core.errors import StudioError
from studio.core.sentence import plural
from studio.core.state import CharacterState, StateScope
from studio.core.story import MAX_DURATION_S, MIN_DURATION_S
from studio.core.tree import StoryTree

if TYPE_CHECKING:
    from studio.core.model import Take
    from studio.storage import Project
    from studio.storage.clip_check import TakeClipFault

IMPORT_DEMO_FORMAT = f"""\
Import an AnimeGamer game_demo file into a project: one turn per line, continuing from
--parent (default: the story's start).

Lines:
  Character: Qiqi; Motion: gently sit on railing; Background: day town.
                        a turn: Character, Motion and Background are needed, none
                        empty (Time:, Camera: and Adverb: may be added; another field
                        name is refused). Fields may also be separated by tabs, and
                        a spreadsheet's CSV (quoted cells, empty cells) is read too,
                        with or without a header row naming its columns
                        (Character,Motion,Background[,Time,Camera,Duration,...]);
                        a column of another name (an ID, a comment) is skipped
                        with a note, and so is a column of numbers only (Scene)
                        beside the column it would name (Background). A file
                        whose every line looks like a table's row is noted as
                        a table without its header row
  Qiqi eats bread slowly in the bakery at night
                        a line without field names: a free-text turn
  # ...                 a comment; blank lines are skipped too

Our extensions (AnimeGamer's files hold neither):
  ## branch after N     the lines below it (up to the next marker) are another branch
                        that continues from turn N of the file's first branch (the
                        turns above the first marker); 0 continues from --parent
                        itself. N is at most the first branch's number of turns;
                        a '##' line that names a branch in another way is refused
  > NAME: text          a dialogue line of the turn above, said by NAME (several
                        lines are kept in order)
  > narration: text     the narrator's words for the turn above (more lines add to it)
  > duration: SECONDS   how long the turn above lasts in the episode ({MIN_DURATION_S:g} to
                        {MAX_DURATION_S:g} seconds: "3" or "3.5s"; one a turn)
  > notes: text         shot notes for the turn above (more lines add to them)

A malformed line is reported by its line number and nothing is imported (--skip-bad
imports the good lines). The import is one edit: all of it is written or none, and one
Undo takes it back. resources/samples/first_story.txt is an example."""


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("new", help="create a project folder NAME.kamishibai",
                       description="Create an empty project: the folder NAME.kamishibai (the suffix is added when "
                       "PATH lacks it), with the folders above it if they are missing.")
    p.add_argument("path", help="the project folder to create (NAME or NAME.kamishibai)")
    p.add_argument("--name", help="the story's title (default: none, the project is named for its folder, "
                   "wherever it is copied or moved)")
    p.set_defaults(handler=cmd_new)

    p = sub.add_parser("import-demo", help="import an AnimeGamer game_demo file (its turns, branches and story "
                       "lines)", description=IMPORT_DEMO_FORMAT, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", help="the game_demo text file (- reads standard input)")
    p.add_argument("--project", required=True,
                   help="project folder; created, as `kamishibai new` does, if missing or an empty folder")
    p.add_argument("--parent", default="root", help="node to continue from (default: the story's start)")
    p.add_argument("--skip-bad", action="store_true", help="import the good lines, report the bad ones")
    p.add_argument("--generate", action="store_true",
                   help="then generate every imported turn at once (a demo file in, every turn's clip out)")
    p.add_argument("--engine", help="engine for --generate (default: sketch)")
    p.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE",
                   help="engine setting for --generate, repeatable (e.g. --setting frames=9); values are read as "
                   "JSON when they parse; the engine's defaults for the rest")
    p.add_argument("--device", type=device_spec,
                   help="where --generate runs engines (as run-queue --device; default: cpu)")
    p.add_argument("--checkpoints", type=checkpoints_path, metavar="DIR",
                   help="checkpoints folder for --generate (default: the one chosen in the window's Settings, else "
                   f"{CHECKPOINTS_SEARCH_ORDER})")
    p.add_argument("--threads", type=thread_count, metavar="N",
                   help="CPU threads for --generate's engine (default: every core the studio may use)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar for --generate")
    add_wait_option(p)
    p.set_defaults(handler=cmd_import_demo)

    p = sub.add_parser("tree", help="print the story tree",
                       description="Print every turn, indented under the one it continues: its node id, "
                       "instruction, the state it leads to and its number of takes. Only reads the project.")
    p.add_argument("path", help="project folder")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_tree)

    p = sub.add_parser("info", help="print a project's summary",
                       description="Print a project's name, schema version, turns, takes, branches, cast, "
                       "locations, size and the problems found in it, with every take whose clip is missing, "
                       "empty, cut short or not a video (by turn, with the command that mends it). Only reads "
                       "the project. Exit status 0, 1 when the chosen take of a turn has such a clip (an "
                       "export of a branch through it would stop), 2 when the project can't be read.")
    p.add_argument("path", help="project folder")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_info)

    p = sub.add_parser("bundle", help="pack a project into one .zip file",
                       description="Pack the project (a consistent copy of its database and its media) into one "
                       ".zip file, outside the project folder. Only reads the project.")
    p.add_argument("path", help="project folder")
    p.add_argument("out", help="the .zip file to write (.zip is appended if the name lacks it)")
    p.add_argument("--force", "-f", action="store_true", help="replace OUT if it exists")
    p.set_defaults(handler=cmd_bundle)

    p = sub.add_parser("unbundle", help="unpack a .zip bundle into a new project folder",
                       description="Unpack a bundle made by `kamishibai bundle` into a new project folder. The "
                       "bundle is treated as untrusted: it is checked before anything is unpacked, and only the "
                       "media files its database names are unpacked.")
    p.add_argument("bundle", help="the .zip file to unpack")
    p.add_argument("dest", nargs="?", help="the new project folder (NAME or NAME.kamishibai; missing, or an empty "
                   "NAME.kamishibai folder), or an existing folder to unpack into (out: out/story.kamishibai). "
                   "Default: the bundle's name beside it (story.zip: story.kamishibai)")
    p.set_defaults(handler=cmd_unbundle)

    from studio.benchmarks import benchmark_names

    names = benchmark_names()
    p = sub.add_parser("bench", help="run benchmarks and update docs/BENCHMARKS.md (from a source checkout)",
                       description="Run the benchmarks of tests/bench/ and rewrite each one's section of "
                       "docs/BENCHMARKS.md with its figures, the machine and the date (other sections are kept). "
                       "Runs only from a source checkout. Benchmarks: "
                       + (", ".join(names) if names else "none here (this copy is not a source checkout)") + ".")
    p.add_argument("names", nargs="*", metavar="NAME",
                   help="benchmarks to run (default: all): " + (", ".join(names) if names else "none here"))
    p.add_argument("--quick", action="store_true", help="small sizes, nothing written")
    p.set_defaults(handler=cmd_bench)

    p = sub.add_parser("sample", help="build the sample project (two branches) and generate its turns",
                       description="Build the sample story, Qiqi's first delivery (two branches, with dialogue "
                       "and narration), in a new project folder and generate its clips with the sketch engine.")
    p.add_argument("path", help="the project folder to create (NAME or NAME.kamishibai)")
    p.add_argument("--no-generate", action="store_true", help="only the turns, no takes")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar (nor the line saying what is generated)")
    p.add_argument("--keep-intact", action="store_true",
                   help="when PATH already holds a project that is not damaged, leave it as it is (edits "
                   "included); when what stands there is damaged, rename it NAME.damaged-DATE.kamishibai and build "
                   "a new sample (`make run` uses this)")
    p.set_defaults(handler=cmd_sample)

    p = sub.add_parser("sketch-sheet", help="render every sketch-engine motion into one PNG",
                       description="Render one frame of every motion the sketch engine knows into a labelled "
                       "grid. OUT must end in .png, in a folder that exists outside every project folder.")
    p.add_argument("out", help="the .png file to write")
    p.add_argument("--force", "-f", action="store_true", help="replace OUT if it exists")
    p.set_defaults(handler=cmd_sketch_sheet)


def cmd_new(args: argparse.Namespace) -> int:
    with new_project(args.path, name=args.name) as project:
        print(printable(str(project.path)))
    return 0


def new_project(path: str | os.PathLike[str], name: str | None = None) -> Project:
    """A new project at ``path``, as ``kamishibai new`` makes it (``path`` may be an empty folder)."""
    from studio.composition import create_project

    return create_project(_new_project_folder(path), name=name)


def _new_project_folder(given: str | os.PathLike[str]) -> str | os.PathLike[str]:
    """``given`` as the place of a new project, with the command line's own checks first:
    a suffix that is ``.kamishibai`` in other letters (``x.KAMISHIBAI``) is refused, where
    it became part of the name (``x.KAMISHIBAI.kamishibai``); ``..`` in the folder above is
    followed here (``a/../b`` is ``b``), where making the folder above left an empty ``a``
    behind; a folder that is not empty is refused by what it holds (a project: open it;
    other files: choose another name), where the advice was to open any of them."""
    from studio.storage.project import PROJECT_SUFFIX, check_name_length, check_project_folder_name, is_project_folder

    check_project_folder_name(given)  # the storage layer's own checks first, as it makes them
    path = Path(given).expanduser()
    if path.suffix != PROJECT_SUFFIX and path.suffix.lower() == PROJECT_SUFFIX:
        right = path.with_suffix(PROJECT_SUFFIX)
        raise StudioError(f"{printable(str(path))} ends in {printable(path.suffix)}; project folders end in "
                          f"{PROJECT_SUFFIX}, in small letters.", hint=f"Give {printable(str(right))}.")
    if ".." in path.parent.parts:
        path = given = Path(os.path.realpath(path.parent)) / path.name
    folder = path if path.suffix == PROJECT_SUFFIX else path.with_name(path.name + PROJECT_SUFFIX)
    check_name_length(folder)  # before asking the file system about it
    if _missing_or_empty(folder) or not folder.is_dir() or folder.is_symlink():
        return given  # the storage layer says what is wrong with a file or a link
    if is_project_folder(folder):
        opener = f"kamishibai open {shell_path(folder)}"
        raise StudioError(f"{printable(str(folder))} is already a project.",
                          hint=f"Open it ({opener}), or choose another name.")
    raise StudioError(f"{printable(str(folder))} already exists and holds other files; a new project needs a "
                      "new or empty folder.", hint="Choose another name, or empty that folder first.")


def _missing_or_empty(folder: Path) -> bool:
    """Nothing at ``folder``, or an empty folder: where ``new`` makes a project."""
    if not folder.exists() and not folder.is_symlink():
        return True
    try:
        return folder.is_dir() and not folder.is_symlink() and not any(folder.iterdir())
    except OSError:  # unreadable: opening it says what is wrong
        return False


def cmd_import_demo(args: argparse.Namespace) -> int:
    from studio.storage.demo_import import DemoImportError, demo_name, import_story, read_demo
    from studio.storage.project import normalise_project_path

    source = Path(args.file)
    _check_generate_options(args)  # before the import: a bad engine must not leave the turns imported
    story = read_demo(source)  # check the file before creating anything
    for note in story.notes:  # a header row's columns skipped, a table without a header row
        print(f"note: {printable(note)}", file=sys.stderr)
    if (story.problems and not args.skip_bad) or not story.importable:  # a new project is made for nothing
        raise DemoImportError(demo_name(source), story.problems or [(1, "the file holds no turns")],
                              skip_bad=args.skip_bad)
    folder = normalise_project_path(given_project_path(args.project))  # "" named "." as the project
    create = _missing_or_empty(folder)
    if create and args.parent not in ROOT_NAMES:  # a new project has no turn but its start
        raise StudioError(f"--parent {printable(args.parent)!r}: there is no project at {printable(str(folder))} "
                          "yet; a new project has no turn but the story's start.",
                          hint="Leave --parent out (or give 'root') to import into a new project.")
    project = new_project(folder) if create else open_project(str(folder), wait=args.wait)
    with project:
        parent = resolve_node(project.tree, args.parent, str(folder))
        result = import_story(project, story, demo_name(source), parent_id=parent, skip_bad=args.skip_bad)
        for number, reason in result.skipped:
            print(f"skipped line {number}: {printable(reason)}")
        for number, node_id in result.free_text:
            print(f"line {number}: free text (no field names), turn {node_id}")
        # a file's branch that continues from the first branch's last turn makes no new branch
        ends = [leaf for leaf in dict.fromkeys(result.leaves) if not project.tree.child_ids(leaf)]
        branches = f" in {len(ends)} branches" if len(ends) > 1 else ""
        print(f"imported {plural(len(result.node_ids), 'turn')}{branches} into {printable(str(project.path))}")
        if result.new_cast:
            print(f"added to the cast: {printable(', '.join(result.new_cast))}")
        if not args.generate:
            return 0
        from studio.cli.generate_cmds import _service, fill_branches, parse_settings, run_until_idle

        args.device = args.device or "cpu"
        service = _service(project, args)
        queued = fill_branches(service, project.tree, result.leaves, engine=args.engine,
                               settings=parse_settings(args.setting))
        print(f"generating {len(queued)} turn(s)")
        return run_until_idle(project, service, command_path(project.path), quiet=args.quiet)


def _check_generate_options(args: argparse.Namespace) -> None:
    """Refuse ``--engine``, ``--setting``, ``--device``, ``--checkpoints`` and ``--threads``
    without ``--generate`` (they would do nothing), and
    with it an engine or device that can't generate here, before anything is imported: the
    import would stay, and running the corrected command again would import every turn twice."""
    given = [option for option, value in (("--engine", args.engine), ("--setting", args.setting or None),
                                          ("--device", args.device), ("--checkpoints", args.checkpoints),
                                          ("--threads", args.threads)) if value is not None]
    if not args.generate:
        if given:
            raise StudioError(f"{' and '.join(given)} only appl{'ies' if len(given) == 1 else 'y'} with --generate.",
                              hint="Add --generate to make the imported turns' clips, or leave "
                              f"{' and '.join(given)} out.")
        return
    from studio.cli.generate_cmds import check_engine_here, parse_settings

    check_engine_here(args.engine, args.device or "cpu", checkpoints=args.checkpoints)
    parse_settings(args.setting)  # a malformed KEY=VALUE, before the turns are imported


def node_summary(tree: StoryTree, node_id: str, depth: int | None = None,
                 project: Project | None = None) -> dict[str, Any]:
    """One turn as ``tree --json`` prints it; with ``project``, each take's ``clip`` is an
    absolute path, as ``play --json`` and ``reroll --json`` give it (else as stored: relative
    to the project folder)."""
    node = tree.node(node_id)
    return {
        "id": node.id,
        "parent": node.parent_id,
        "depth": tree.depth(node.id) if depth is None else depth,
        "instruction": node.instruction.raw,
        "fields": node.instruction.fields(),
        "character": tree.acting_character(node.id),
        "state": tree.state_of(node.id).as_dict(),
        "bookmarked": node.bookmarked,
        "notes": node.notes,
        # each line as `story --json` prints it (an object, not a pair): one shape for both commands
        "story": {"dialogue": [{"speaker": line.speaker, "text": line.text} for line in node.story.dialogue],
                  "narration": node.story.narration, "duration": node.story.duration,
                  "shot_notes": node.story.shot_notes},
        # where the turn starts now, to set beside each take's start_state (where it started when made)
        "start": None if node.is_root else tree.state_before(node.id).as_dict(),
        "selected_take": node.selected_take_id,
        "takes": [
            {
                "id": t.id, "engine": t.engine, "seed": t.seed, "status": t.status.value, "stale": t.stale,
                "deltas": t.deltas.as_dict(), "motion_level": t.motion_level, "clip": _media_path(project, t.clip_path),
                "warnings": list(t.warnings), "error": t.error, "hint": t.hint, "start_state": take_start(t),
            }
            for t in tree.takes_of(node.id)
        ],
    }


def _media_path(project: Project | None, rel: str) -> str:
    """A take's stored file as scripts can use it from anywhere: absolute ('' for none)."""
    if not rel or project is None:
        return rel
    from studio.storage import UnsafePathError

    try:
        return str(project.resolve(rel))
    except UnsafePathError:  # a link changed since the project was opened: never name a path outside it
        return ""


def cmd_tree(args: argparse.Namespace) -> int:
    with open_for_reading(args.path) as project:
        tree = project.tree
        order = [tree.root, *tree.descendants(tree.root_id)]
        if args.json:
            from studio.cli.generate_cmds import node_depths

            depths = node_depths(tree)
            nodes = [node_summary(tree, n.id, depths[n.id], project) for n in order]
            print_json({"root": tree.root_id, "nodes": nodes})
            return 0
        _print_text_tree(tree)
    return 0


MAX_INDENT = 32
"""Deeper turns are indented no further but numbered (a story of thousands of turns in one
branch would otherwise print mostly spaces)."""


TREE_TEXT_CHARS = 70
"""How much of each instruction ``tree`` prints."""


def _stats_tag(state: CharacterState) -> str:
    return f"[st {state.stamina} so {state.social} fun {state.entertainment}]"


def _start_row_states(tree: StoryTree) -> str:
    """The start row's states: every character's start, then each start of a character's
    own (``start-state --character``), as the turns below go on from them. It showed the
    shared start alone, so a character set to start at 100 read 50 there."""
    root = tree.root
    everyone = root.start_state or CharacterState()
    own = dict(root.start_states) if tree.state_scope is StateScope.CHARACTER else {}
    if not own:
        return _stats_tag(everyone)
    rest = "; ".join(f"{printable(name)} {_stats_tag(state)[1:-1]}" for name, state in own.items())
    return f"[everyone {_stats_tag(everyone)[1:-1]}; {rest}]"


def _print_text_tree(tree: StoryTree) -> None:
    stack: list[tuple[str, int]] = [(tree.root_id, 0)]
    while stack:
        node_id, depth = stack.pop()
        node = tree.node(node_id)
        state = tree.state_of(node_id)
        takes = tree.takes_of(node_id)
        text = printable(excerpt(node.instruction.raw, TREE_TEXT_CHARS)) or "(start)"
        selected = tree.selected_take(node_id)
        flags = (" *" if node.bookmarked else "") + (_stale_flag(tree, selected) if selected is not None else "")
        indent = "  " * depth if depth <= MAX_INDENT else "  " * MAX_INDENT + f"[{depth}] "
        shown = _start_row_states(tree) if node.is_root else _stats_tag(state)
        print(f"{indent}{printable(node.id)}  {text}  {shown} {len(takes)} take(s){flags}")
        if node.notes.strip():
            note = " ".join(node.notes.split())
            print(f"{indent}{'  ' if depth <= MAX_INDENT else ''}  note: {printable(excerpt(note, TREE_TEXT_CHARS))}")
        stack.extend((child, depth + 1) for child in reversed(tree.child_ids(node_id)))


def _stale_flag(tree: StoryTree, take: Take) -> str:
    """`` (stale: why)`` for a chosen take out of date (its instruction was edited, an earlier
    turn changed, the start state changed), with the start it was made from where the turn now
    starts elsewhere."""
    from studio.core.stale_reasons import stale_words

    if not take.stale:
        return ""
    why = stale_words(tree, take)
    if take.start_state is None or take.start_state == tree.state_before(take.node_id):
        return f" (stale: {why})"
    return f" (stale: {why}; made from {_stats_tag(take.start_state)[1:-1]})"


def cmd_info(args: argparse.Namespace) -> int:
    from studio.storage.clip_check import take_clip_faults
    from studio.storage.errors import ProjectDamagedError, ProjectTooNewError

    try:
        with open_for_reading(args.path) as project:
            # the folder absolute, as every path in JSON output is: a script can use it from anywhere
            info = {**project.info(), "damaged": False, "path": os.path.abspath(project.path)}
            faults, checked = take_clip_faults(project)
    except ProjectDamagedError as error:
        # A damaged project is what a user runs `info` on to learn about: report what can be
        # told without reading the database, then fail as before (the message on stderr, exit 2).
        _print_info(damaged_info(args.path, error), as_json=args.json)
        raise  # with the `rescue` command to run (see open_for_reading)
    except ProjectTooNewError as error:
        # a newer version's project is not damaged, and `info` is how a user learns which
        # version saved it: the same block as for a damaged one, with the schema it holds
        _print_info(damaged_info(args.path, error, damaged=False, schema_version=error.schema_version),
                    as_json=args.json)
        raise
    clips = [_clip_fault_entry(info["path"], fault) for fault in faults]
    info["clips"] = {"checked": checked, "damaged": clips}
    _print_info(info, as_json=args.json)
    # a clip this user may not read is not damaged (the problems say which folder to open up)
    return 1 if any(clip["selected"] and clip["problem"] in CLIP_DAMAGE for clip in clips) else 0


CLIP_DAMAGE = frozenset({"missing", "empty", "truncated", "not_video", "outside"})
"""The clip faults that make ``info`` exit 1 when the turn's chosen take has one."""


def _clip_fault_entry(folder: str, fault: TakeClipFault) -> dict[str, Any]:
    """One damaged clip as ``info --json`` gives it: the turn (its depth) and node, the take
    (its id and number among the node's takes), whether it is the turn's chosen take, the
    fault, the sentence saying it, the clip's path and the commands that mend it (first the
    one to try first; none for a take that is not chosen: exports don't use it)."""
    project = shell_path(folder)
    node = shlex.quote(fault.node_id)
    fixes: list[str] = []
    if fault.verdict.fault.value == "unreadable":
        fixes = [f"chmod u+r {shlex.quote(fault.path)}"] if fault.path else []
    elif fault.selected:
        if fault.alternative:
            fixes.append(f"kamishibai use {project} {node} {shlex.quote(fault.alternative)}")
        fixes.append(f"kamishibai reroll {project} {node}")
    return {"turn": fault.turn, "node": fault.node_id, "instruction": fault.instruction, "take": fault.take_id,
            "take_number": fault.number, "selected": fault.selected, "problem": fault.verdict.fault.value,
            "message": fault.verdict.message, "clip": fault.path, "fix": fixes}


def damaged_info(path: str, error: StudioError, *, damaged: bool = True,
                 schema_version: int | None = None) -> dict[str, Any]:
    """What ``info`` can say of the project at ``path`` whose database can't be read: its
    folder, its schema version when known, its size on disk, whether it is damaged and
    ``error``'s message as its problem."""
    from studio.storage.project import _folder_size, normalise_project_path

    folder = normalise_project_path(path)
    version = {} if schema_version is None else {"schema_version": schema_version}
    return {"path": os.path.abspath(folder), **version, "damaged": damaged, "size_bytes": _folder_size(folder),
            "problems": [error.message]}


def _print_info(info: dict[str, Any], *, as_json: bool) -> None:
    if as_json:
        print_json(info)
        return
    clips = info.get("clips")
    for key, value in info.items():
        if key == "clips":
            continue
        if isinstance(value, list):
            value = ", ".join(value) if value else "-"
        elif isinstance(value, bool):
            value = "yes" if value else "no"
        print(f"{key:>15}: {printable(str(value))}")
    if clips is not None:
        _print_clip_faults(clips)


CLIP_FAULT_WORDS = {"missing": "missing", "empty": "empty", "truncated": "cut short", "not_video": "not a video",
                    "unreadable": "can't be read", "outside": "outside the project folder"}
"""How ``info``'s text says each clip fault (``--json`` gives the keys)."""

INFO_TEXT_CHARS = 50
"""How much of a turn's instruction ``info`` prints beside a damaged clip."""


def _print_clip_faults(clips: dict[str, Any]) -> None:
    """The clips line of ``info`` and, under it, each damaged clip by turn with its fix."""
    damaged = clips["damaged"]
    count = f", {len(damaged)} damaged" if damaged else ", all sound"
    print(f"{'clips':>15}: {plural(clips['checked'], 'clip')} checked{count}")
    for clip in damaged:
        text = printable(excerpt(clip["instruction"], INFO_TEXT_CHARS))
        chosen = "its chosen take" if clip["selected"] else "not its chosen take"
        print(f"  turn {clip['turn']} (node {printable(clip['node'])}{': ' + repr(text) if text else ''}), "
              f"take {clip['take_number']} ({printable(clip['take'])}, {chosen}): {CLIP_FAULT_WORDS[clip['problem']]}")
        print(f"    {printable(clip['message'])}")
        if clip["fix"]:
            print(f"    fix: {', or: '.join(printable(fix) for fix in clip['fix'])}")
        elif not clip["selected"]:
            print("    exports don't use it (only a turn's chosen take is exported)")


def _open_to_bundle(path: str) -> Project:
    """The project to bundle; a damaged one is refused with the command that rescues what
    can still be read of it (a bundle is a whole project's copy, never part of one)."""
    return open_for_reading(path, after_rescue="which can then be bundled")


def cmd_bundle(args: argparse.Namespace) -> int:
    from studio.storage.bundle import export_bundle, folder_given_error

    with _open_to_bundle(args.path) as project:
        if not args.out.strip():  # Path("") is the current folder: "Can't write the bundle to ."
            raise StudioError("The bundle's file name is empty.",
                              hint=f"Give the .zip file to write, e.g. {shlex.quote(project.path.stem or 'story')}.zip "
                              "(or a folder to write it into).")
        if args.out == "-":  # as `import-demo -` reads standard input; it wrote a file named "-.zip" instead
            example = shlex.quote(f"{project.path.stem or 'story'}.zip")
            raise StudioError("The bundle can't go to standard output (-): it is a .zip file written in place.",
                              hint=f"Give the .zip file to write, e.g. {example} (./- for one named '-.zip').")
        out = Path(args.out)
        if args.out and out.is_dir():  # into the folder, as cp does: `bundle P backups` writes backups/P.zip
            out = out / f"{project.path.stem or 'story'}.zip"
        elif not args.out or args.out.endswith(("/", os.sep)):  # '' or `missing/`: no file named
            raise folder_given_error(out, project)
        print(printable(str(export_bundle(project, out, overwrite=args.force))))
        for problem in project.problems:  # what the project lacks, the bundle lacks too: said, as unbundle says it
            print(f"  note: {printable(problem)} (the bundle holds the project as it is)")
        _say_damaged_clips(project)
    return 0


def _say_damaged_clips(project: Project) -> None:
    """Name, on stderr, each chosen take whose clip is damaged: the bundle holds it as it is,
    and was written without a word, where an export of the same project refuses. A clip
    named by a path outside the project is among the problems said already."""
    from studio.storage.clip_check import ClipFault, take_clip_faults

    faults, _checked = take_clip_faults(project)
    for fault in faults:
        problem = fault.verdict.fault
        if not fault.selected or problem.value not in CLIP_DAMAGE or problem is ClipFault.OUTSIDE:
            continue
        print(printable(f"kamishibai: note: the clip of turn {fault.turn} (node {fault.node_id}) is "
                        f"{CLIP_FAULT_WORDS[problem.value]}: {fault.verdict.message.rstrip('.')}. The bundle holds it "
                        "as it is; `kamishibai info` says how to mend it."), file=sys.stderr)


def cmd_unbundle(args: argparse.Namespace) -> int:
    from studio.storage.bundle import import_bundle

    bundle = Path(args.bundle).expanduser()
    _check_bundle_given(args.bundle, bundle)
    if args.dest is not None and not args.dest.strip():  # "" was read as "no destination given"
        raise StudioError("The destination is empty.", hint="Give the new project folder, for example "
                          f"{shlex.quote(printable(_bundle_stem(bundle)))}.kamishibai, or leave it out to unpack "
                          "beside the bundle.")
    dest = Path(args.dest).expanduser() if args.dest else bundle.with_name(_bundle_stem(bundle))
    if args.dest and _plain_folder(dest):  # into the folder, as `bundle P backups` writes backups/P.zip
        dest = dest / _bundle_stem(bundle)
    with import_bundle(bundle, dest) as project:
        print(printable(str(project.path)))
        for problem in project.problems:
            print(f"  note: {printable(problem)}")
    return 0


def _plain_folder(dest: Path) -> bool:
    """True for an existing folder that is not itself a project's (no ``.kamishibai`` name,
    no database): ``unbundle B.zip out`` unpacks into it, where it made ``out.kamishibai``
    beside it. An empty ``NAME.kamishibai`` folder still becomes the project."""
    from studio.storage.project import PROJECT_SUFFIX

    return dest.is_dir() and dest.suffix.lower() != PROJECT_SUFFIX and not (dest / "project.db").exists()


def _bundle_stem(bundle: Path) -> str:
    """The bundle's name without its ``.zip``, in any letters, as `bundle` reads the suffix
    (``STORY.ZIP`` is unpacked to ``STORY.kamishibai``, not ``STORY.ZIP.kamishibai``)."""
    name = bundle.name
    return name[:-4] if name.lower().endswith(".zip") and len(name) > 4 else name


def _check_bundle_given(given: str, bundle: Path) -> None:
    """Refuse an empty bundle path, a folder and a missing file, each by what it is (all three
    read "is not a readable bundle: it does not exist or is not a file")."""
    if not given.strip():
        raise StudioError("The bundle path is empty.", hint="Give the .zip file `kamishibai bundle` wrote.")
    shown = printable(str(bundle))
    if bundle.is_dir():
        project = (bundle / "project.db").is_file()
        raise StudioError(f"{shown} is a {'project ' if project else ''}folder, not a bundle.",
                          hint="Give the .zip file `kamishibai bundle` wrote" + (
                              f"; a project folder is opened as it is: kamishibai open {shlex.quote(shown)}."
                              if project else "."))
    if not bundle.exists():
        raise StudioError(f"No bundle at {shown}: there is no such file.",
                          hint="Check the name and the folder (`ls` lists them).")


def cmd_bench(args: argparse.Namespace) -> int:
    from studio.benchmarks import run_benchmarks

    return run_benchmarks(args.names, quick=args.quick)


def cmd_sketch_sheet(args: argparse.Namespace) -> int:
    from studio.engines.sketch import render_contact_sheet
    from studio.export.errors import os_error
    from studio.storage.errors import FULL_ERRNOS, full_error

    _refuse_a_sheet_name_without_a_file(args.out)
    out = Path(args.out).expanduser()
    _check_sheet_destination(out, force=args.force)
    try:  # written beside OUT and renamed into place: a kill or a full disk leaves no half sheet
        print(printable(str(render_contact_sheet(out))))
    except OSError as error:  # a read-only folder, a full disk, a file where a folder should be
        if error.errno in FULL_ERRNOS:  # the export's words ("then export again") fit no sheet, nor `ulimit -f`
            raise full_error(out.parent, f"write the sheet {out}") from None
        raise os_error(error, out) from None
    return 0


def _refuse_a_sheet_name_without_a_file(text: str) -> None:
    """OUT that names no file, refused as ``export --out`` refuses it: an empty one was read as
    the current folder ("Can't write .: a folder of that name exists"), a blank one was offered
    "for example    .png", and ``motions.png/`` (a folder, by its slash) wrote a file
    ``motions.png``, as ``Path`` drops the slash."""
    if not text.strip():
        raise StudioError(f"The sheet's file name is empty{' (it holds only spaces)' if text else ''}.",
                          hint="Give the .png file to write, e.g. `kamishibai sketch-sheet motions.png`.")
    if text.endswith(tuple(sep for sep in (os.sep, os.altsep) if sep)):
        raise StudioError(f"{printable(text)} ends with a slash: it names a folder, and OUT names the .png file "
                          "to write.", hint="Name the file inside it, e.g. "
                          f"`kamishibai sketch-sheet {shlex.quote(printable(text) + 'motions.png')}`.")


def _check_sheet_destination(out: Path, *, force: bool) -> None:
    """The output policy of ``export``, for a sheet written without a project: never inside a
    project folder (nor inside a folder named like one), only in a folder that exists, only a
    ``.png`` name, and an existing file replaced only with ``--force``."""
    from studio.export import ExportError
    from studio.export.output import check_destination, check_outside_project
    from studio.storage.project import PROJECT_SUFFIX, enclosing_project

    here = Path(os.path.abspath(out))
    named = [folder for path in (here, here.parent.resolve() / here.name) for folder in path.parents
             if folder.suffix == PROJECT_SUFFIX]
    project = named[0] if named else enclosing_project(out)
    if project is not None:
        try:
            check_outside_project(out, project)
        except ExportError as error:
            raise ExportError(error.message, hint="Write the sheet to a folder outside every project folder "
                              "(a project holds only what the studio writes).") from None
    check_destination(out)
    if out.suffix.lower() != ".png":
        raise ExportError(f"Can't write {out}: a sketch sheet is a PNG image, so the file name must end in .png.",
                          hint=f"Choose a name ending in .png, for example {out.stem or 'motions'}.png.")
    if (out.exists() or out.is_symlink()) and not force:
        raise ExportError(f"{out} already exists; the sketch sheet would replace it.",
                          hint="Pass --force to replace it, or choose another file name.")


def cmd_sample(args: argparse.Namespace) -> int:
    """Build the sample project and generate every turn with the default engine."""
    if args.keep_intact and not _sample_to_build(args.path, say_unmade=not args.no_generate):
        return 0
    from studio.composition import DEFAULT_ENGINE, create_sample_project, default_registry
    from studio.worker import GenerationService

    try:
        opened = create_sample_project(args.path)
    except StudioError as error:  # a sample stopped midway: say what it left and how to go on
        unmade = "" if args.no_generate else _turns_without_clip(args.path)
        error.hint = " ".join(part for part in (error.hint, unmade) if part)
        raise
    with opened as project:
        if args.no_generate:
            print(printable(str(project.path)))
            return 0
        from studio.cli.generate_cmds import run_until_idle

        service = GenerationService(project, default_registry(), default_engine=DEFAULT_ENGINE)
        try:
            tree = project.tree
            for leaf in tree.leaves_under(tree.root_id):
                service.fill(leaf.id)
            # a progress bar on stderr, as run-queue's: `make run` builds the sample before the
            # window opens, and printed nothing until every turn was made (an interrupt leaves
            # the turns made so far, and says how to generate the others)
            if not args.quiet:
                print(f"kamishibai: generating the sample story's {len(service.jobs())} turns with "
                      f"{DEFAULT_ENGINE}...", file=sys.stderr)
            run_until_idle(project, service, command_path(project.path), quiet=args.quiet)
        finally:
            service.stop()
        failed = [job for job in service.jobs(include_finished=True) if job.status.value == "failed"]
        if not failed:
            service.clear_finished()  # the sample opens with an empty queue
        print(printable(str(project.path)))
        return 1 if failed else 0


def _sample_to_build(given: str, say_unmade: bool = True) -> bool:
    """``sample --keep-intact``: whether to build the sample at ``given``. A project already
    there that is not damaged is kept untouched (its path printed), as is anything whose
    problem is not damage (opening it says what to do); a damaged one is renamed aside, never
    removed, and said so. Only the storage layer is imported: `make run` asks this each time."""
    from studio.storage.project import new_project_path, project_damage

    folder = new_project_path(given)
    if _missing_or_empty(folder):
        return True
    damage = project_damage(folder)
    if not damage:
        print(printable(str(folder)))
        if say_unmade:  # a sample stopped midway: how to make the rest (--no-generate asked for none)
            _say_turns_without_clip(folder)
        return False
    aside = _move_aside(folder)
    print(f"kamishibai: {printable(damage)}. Moved {printable(str(folder))} aside to {printable(str(aside))} "
          "(nothing was deleted); building a new sample.", file=sys.stderr)
    return True


def _turns_without_clip(given: str) -> str:
    """The sentence on the turns of the project at ``given`` left without a clip ('' if none)."""
    from studio.cli.generate_cmds import turns_without_clip
    from studio.storage.project import new_project_path

    try:
        return turns_without_clip(str(new_project_path(given)))
    except StudioError:  # a path that names no project: the error being said tells what is wrong
        return ""


def _say_turns_without_clip(folder: Path) -> None:
    note = _turns_without_clip(str(folder))
    if note:
        print(f"kamishibai: note: {printable(str(folder))}: {note}", file=sys.stderr)


MAX_ASIDE_NAMES = 1000


def _move_aside(folder: Path) -> Path:
    """Rename the damaged ``folder`` to ``NAME.damaged-DATE.kamishibai`` beside it (``-2``,
    ``-3``... when taken), so that the user's files stay where they can find them."""
    import time

    from studio.storage.project import PROJECT_SUFFIX

    base = f"{folder.name.removesuffix(PROJECT_SUFFIX)}.damaged-{time.strftime('%Y-%m-%d')}"
    for number in range(1, MAX_ASIDE_NAMES + 1):
        aside = folder.with_name(f"{base}{'' if number == 1 else f'-{number}'}{PROJECT_SUFFIX}")
        if os.path.lexists(aside):
            continue
        try:
            os.rename(folder, aside)
        except OSError as error:
            raise StudioError(f"{printable(str(folder))} is damaged and can't be moved aside to "
                              f"{printable(str(aside))}: {error.strerror or error}.",
                              hint="Move it elsewhere yourself (or remove it), then run the command again.") from None
        return aside
    raise StudioError(f"{printable(str(folder))} is damaged, and {MAX_ASIDE_NAMES} names to move it aside to are "
                      "taken.", hint="Move the damaged copies you don't need elsewhere, then run the command again.")
