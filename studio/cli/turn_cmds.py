"""Turn subcommands: note (read or write a turn's notes), takes (a turn's takes, each with the
start it was made from) and delete (a turn, and with --branch the turns below it).

The writing ones use the document model's own commands, as the window does: ``SetNotes`` (the
inspector's Notes box) and ``DeleteSubtree`` (Delete on a card). The command line has no
Undo: a delete is asked about first (``--yes`` answers for a script), and the files of the
takes it removes are removed with it.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from studio.cli.common import (
    add_wait_option,
    open_for_reading,
    open_project,
    print_json,
    printable,
    resolve_node,
    shell_path,
)
from studio.core.errors import StudioError
from studio.core.sentence import plural
from studio.core.state import CharacterState
from studio.core.tree import StoryTree

if TYPE_CHECKING:
    from studio.storage import Project


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("note", help="show a turn's notes, or set them",
                       description="Without TEXT, print the notes of turn NODE (the window's Notes box: the "
                       "author's own scratch pad, never drawn on a frame nor exported). With TEXT, replace them "
                       "('' or --clear removes them). Notes may hold line breaks and tabs, no other control "
                       "character. Writing them marks no take out of date.")
    p.add_argument("path", help="project folder")
    p.add_argument("node", help="node id or unique id prefix ('start' for the story's start)")
    p.add_argument("text", nargs="?", help="the new notes (replacing the old ones); leave out to print them")
    p.add_argument("--clear", action="store_true", help="remove the turn's notes")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_wait_option(p)
    p.set_defaults(handler=cmd_note, free_text=True)

    p = sub.add_parser("takes", help="list a turn's takes, with the start each was made from",
                       description="List the takes of turn NODE, in the order they were made: number, id, "
                       "status, engine and seed, whether it is the chosen one and whether it is out of date, and "
                       "the state it was made from beside where the turn starts now (a start changed since, by "
                       "`start-state` or an edit above the turn, is why a take is out of date). Takes made "
                       "before the studio kept their start say so. Only reads the project.")
    p.add_argument("path", help="project folder")
    p.add_argument("node", help="node id or unique id prefix")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_takes)

    p = sub.add_parser("delete", help="delete a turn (and, with --branch, the turns below it)",
                       description="Delete turn NODE with its takes, as Delete does in the window. A turn with "
                       "turns below it is deleted only with --branch, which deletes them too (a turn can't "
                       "stay without the turn it continues). The command line can't undo it, so it asks "
                       "first (answer y); --yes answers for a script. The clips, posters and other files of "
                       "the deleted takes are removed; queued generations of the deleted turns are cancelled "
                       "when the queue next runs. The story's start can't be deleted.")
    p.add_argument("path", help="project folder")
    p.add_argument("node", help="node id or unique id prefix")
    p.add_argument("--branch", action="store_true", help="delete the turns below it too")
    p.add_argument("--yes", "-y", action="store_true", help="don't ask: delete at once")
    p.add_argument("--json", action="store_true", help="machine-readable output (what was deleted)")
    add_wait_option(p)
    p.set_defaults(handler=cmd_delete)


# -- note -------------------------------------------------------------------------------------


def _print_notes(tree: StoryTree, node_id: str) -> None:
    node = tree.node(node_id)
    what = "the story's start" if node.is_root else f"turn {tree.depth(node_id)} ({node_id})"
    if not node.notes:
        print(f"{what} has no notes")
        return
    print(f"notes of {what}:")
    for line in node.notes.split("\n"):
        print(f"  {printable(line.replace(chr(9), '    '))}")


def cmd_note(args: argparse.Namespace) -> int:
    from studio.core.commands import SetNotes

    if args.clear and args.text is not None:
        raise StudioError("Give the new notes or --clear, not both.",
                          hint="--clear removes the notes; TEXT replaces them.")
    if args.text is None and not args.clear:  # reading only: works while the window has the project open
        with open_for_reading(args.path) as project:
            node_id = resolve_node(project.tree, args.node, args.path)
            if args.json:
                print_json({"node": node_id, "notes": project.tree.node(node_id).notes})
            else:
                _print_notes(project.tree, node_id)
        return 0
    with open_project(args.path, wait=args.wait) as project:
        node_id = resolve_node(project.tree, args.node, args.path)
        project.apply(SetNotes(node_id, "" if args.clear else args.text))
        if args.json:
            print_json({"node": node_id, "notes": project.tree.node(node_id).notes})
        else:
            _print_notes(project.tree, node_id)
    return 0


# -- takes ------------------------------------------------------------------------------------


def _stats(state: CharacterState) -> str:
    return f"stamina {state.stamina}, social {state.social}, fun {state.entertainment}"


def cmd_takes(args: argparse.Namespace) -> int:
    from studio.cli.common import take_start
    from studio.core.stale_reasons import stale_reasons, stale_words

    with open_for_reading(args.path) as project:
        tree = project.tree
        node_id = resolve_node(tree, args.node, args.path)
        node = tree.node(node_id)
        if node.is_root:
            raise StudioError("The story's start has no takes: takes belong to turns.",
                              hint=f"Give a turn's id (`kamishibai tree {shell_path(args.path)}` lists them).")
        now = tree.state_before(node_id)
        takes = tree.takes_of(node_id)
        if args.json:
            print_json({"node": node_id, "turn": tree.depth(node_id), "character": tree.acting_character(node_id),
                        "start": now.as_dict(), "selected_take": node.selected_take_id,
                        "takes": [{"number": number, "id": take.id, "status": take.status.value,
                                   "engine": take.engine, "seed": take.seed, "chosen": take.id == node.selected_take_id,
                                   "stale": take.stale,
                                   "stale_reasons": [reason.value for reason in stale_reasons(tree, take)],
                                   "instruction": take.instruction_raw or None, "start_state": take_start(take),
                                   "started_elsewhere": take.start_state is not None and take.start_state != now,
                                   "created_at": take.created_at}
                                  for number, take in enumerate(takes, start=1)]})
            return 0
        who = tree.acting_character(node_id)
        print(f"turn {tree.depth(node_id)} ({node_id}): {printable(node.instruction.raw)}")
        print(f"  starts now from {printable(who) + chr(39) + 's ' if who else ''}{_stats(now)}")
        if not takes:
            print("  no takes yet")
        for number, take in enumerate(takes, start=1):
            marks = [word for word, there in (("chosen", take.id == node.selected_take_id),
                                              (f"out of date: {stale_words(tree, take)}", take.stale)) if there]
            print(f"  take {number}  {take.id}  {take.status.value}  {printable(take.engine)} seed {take.seed}"
                  + (f"  ({', '.join(marks)})" if marks else ""))
            if take.stale and take.instruction_raw and take.instruction_raw != node.instruction.raw:
                print(f"    made for: {printable(take.instruction_raw)}")
            if take.start_state is None:
                print("    made from: not recorded (made before the studio kept it)")
                continue
            whose = f"{printable(take.start_character)}'s " if take.start_character else ""
            differs = "" if take.start_state == now else "  (the turn starts elsewhere now)"
            print(f"    made from: {whose}{_stats(take.start_state)}{differs}")
    return 0


# -- delete -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Doomed:
    """What deleting a turn takes away: the turn, the turns below it, and their takes."""

    node_id: str
    turn: int
    below: tuple[str, ...]
    takes: tuple[str, ...]

    @classmethod
    def of(cls, tree: StoryTree, node_id: str) -> Doomed:
        below = tuple(node.id for node in tree.descendants(node_id))
        takes = tuple(take.id for n in (node_id, *below) for take in tree.takes_of(n))
        return cls(node_id, tree.depth(node_id), below, takes)

    def describe(self) -> str:
        below = f" and the {plural(len(self.below), 'turn')} below it" if self.below else ""
        takes = f", with {plural(len(self.takes), 'take')}" if self.takes else ""
        return f"turn {self.turn} ({self.node_id}){below}{takes}"


def _doomed(tree: StoryTree, ref: str, path: str, *, branch: bool) -> Doomed:
    """What ``delete`` would take away, or a refusal naming why it can't."""
    node_id = resolve_node(tree, ref, path)
    if tree.node(node_id).is_root:
        raise StudioError("The story's start can't be deleted: every turn continues from it.",
                          hint=f"Give a turn's id (`kamishibai tree {shell_path(path)}` lists them); to delete "
                          "every turn, delete each first turn with --branch.")
    doomed = Doomed.of(tree, node_id)
    if doomed.below and not branch:
        raise StudioError(f"Turn {doomed.turn} ({node_id}) has {plural(len(doomed.below), 'turn')} below it, "
                          "which can't stay without it.",
                          hint=f"Add --branch to delete them with it: kamishibai delete {shell_path(path)} "
                          f"{node_id} --branch. Nothing was deleted.")
    return doomed


def _confirm(doomed: Doomed) -> None:
    """Ask on stderr, read the answer on standard input; anything but yes refuses."""
    print(f"Delete {doomed.describe()}? The command line can't undo this. [y/N] ", end="", file=sys.stderr,
          flush=True)
    answer = sys.stdin.readline() if sys.stdin is not None else ""
    if not answer or not sys.stdin.isatty():  # the answer read from a pipe was not echoed: end the line
        print(file=sys.stderr)
    if not answer:
        raise StudioError("Nothing was deleted: no answer came (standard input is closed).",
                          hint="Add --yes to delete without being asked.")
    if answer.strip().lower() not in ("y", "yes"):
        raise StudioError("Nothing was deleted.")


def cmd_delete(args: argparse.Namespace) -> int:
    from studio.core.changes import EntityKind
    from studio.core.commands import DeleteSubtree

    if not args.yes:  # asked without the writer lock: a slow answer keeps nobody else from the project
        from studio.storage.lock import writer_is_live

        with open_for_reading(args.path) as project:
            asked = _doomed(project.tree, args.node, args.path, branch=args.branch)
            folder = project.path
        if writer_is_live(folder):  # the window has it open: waited for or refused now, not after the answer
            open_project(args.path, wait=args.wait).close()
        _confirm(asked)
    with open_project(args.path, wait=args.wait) as project:
        doomed = _doomed(project.tree, args.node, args.path, branch=args.branch)
        if not args.yes and doomed != asked:
            raise StudioError(f"The project changed while you were asked: deleting now would delete "
                              f"{doomed.describe()}. Nothing was deleted.", hint="Run the command again.")
        change = project.apply(DeleteSubtree(doomed.node_id), undoable=False)
        waiting = _jobs_waiting(project, {doomed.node_id, *doomed.below})
        # nothing can bring these takes back: their files go now (a Ctrl+C here leaves them to
        # the next opening for writing, which removes every take folder no take names)
        for take_id in sorted(change.removed.get(EntityKind.TAKE, frozenset())):
            project.remove_take_media(take_id)
    if args.json:
        print_json({"deleted": doomed.node_id, "turn": doomed.turn, "turns_below": list(doomed.below),
                    "takes": list(doomed.takes), "jobs_never_run": waiting})
        return 0
    print(f"deleted {doomed.describe()}")
    if waiting:
        one = len(waiting) == 1
        print(f"  {plural(len(waiting), 'queued generation')} of these turns never run{'s' if one else ''}: "
              f"the queue cancels {'it' if one else 'them'} when it next runs ({', '.join(waiting)})")
    return 0


def _jobs_waiting(project: Project, node_ids: set[str]) -> list[str]:
    """The generations queued (or interrupted, to run again) for the turns ``node_ids``."""
    from studio.storage.job_store import JobStore
    from studio.worker.jobs import JobStatus

    try:
        jobs = JobStore(project.database).load(include_finished=False)
    except StudioError:  # the queue can't be read: the delete is done all the same
        return []
    return [job.id for job in jobs if job.node_id in node_ids
            and job.status in (JobStatus.QUEUED, JobStatus.INTERRUPTED)]
