"""Story subcommands: say (a dialogue line), narrate, story (show or set every story field),
start-state and state-scope (whose state a turn changes).

Each writing command is one edit (one Undo step in the window) and marks no take stale:
story fields change what the audience reads and how long a turn lasts, not the clip.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from studio.cli.common import (
    add_wait_option,
    open_for_reading,
    open_project,
    print_json,
    printable,
    refuse_control_characters,
    resolve_node,
    shell_path,
)
from studio.core.errors import StudioError
from studio.core.model import Take
from studio.core.stale_reasons import stale_reasons, stale_words
from studio.core.state import STAT_NAMES, STAT_WORDS, CharacterState, StateScope
from studio.core.story import MAX_DURATION_S, StoryFields
from studio.core.text import first_few, unix_line_breaks
from studio.core.tree import StoryTree


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("say", help="add a dialogue line to a turn",
                       description="Add a spoken line to turn NODE (after its other lines, or at --at). "
                       "The speaker defaults to the turn's acting character.")
    p.add_argument("path", help="project folder")
    p.add_argument("node", help="node id or unique id prefix")
    p.add_argument("text", help="what is said")
    p.add_argument("--speaker", help="who says it (default: the turn's character)")
    p.add_argument("--at", type=int, metavar="N", help="insert as line N (1 = first) instead of appending")
    add_wait_option(p)
    p.set_defaults(handler=cmd_say, free_text=True)

    p = sub.add_parser("use", help="make one of a turn's takes the one its story goes on with",
                       description="Choose TAKE as turn NODE's take, as \"Use this take\" does in the window: "
                       "the card, exports and the turns after it go on with it (those made from another take "
                       "are marked out of date).")
    p.add_argument("path", help="project folder")
    p.add_argument("node", help="node id or unique id prefix")
    p.add_argument("take", help="take id, a unique prefix of it, the take's number (1 = the turn's first take), or "
                   "'latest' (the turn's newest take)")
    add_wait_option(p)
    p.set_defaults(handler=cmd_use)

    p = sub.add_parser("narrate", help="set a turn's narration (an empty text clears it)",
                       description="Set the narrator's words for a turn: they are read over its clip in the "
                       "episode, and exported as subtitles, on the storyboard sheets and in the timeline. An "
                       "empty text ('') clears them. `story` sets them too, with the turn's other story fields.")
    p.add_argument("path", help="project folder")
    p.add_argument("node", help="node id or unique id prefix")
    p.add_argument("text", help="the narrator's words for this turn")
    add_wait_option(p)
    p.set_defaults(handler=cmd_narrate, free_text=True)

    p = sub.add_parser("story", help="show a turn's story fields, or set them",
                       description="Without options, print the turn's dialogue, narration, duration and shot "
                       "notes. With options, change them in one edit.")
    p.add_argument("path", help="project folder")
    p.add_argument("node", help="node id or unique id prefix")
    p.add_argument("--duration", metavar="SECONDS|clip",
                   help=f"how long the turn lasts in the episode (0.1 to {MAX_DURATION_S:g} s; the clip is held on "
                   "its last frame or trimmed); 'clip' for the clip's own length")
    p.add_argument("--narration", help="the narrator's words ('' clears them)")
    p.add_argument("--notes", help="shot notes ('' clears them)")
    p.add_argument("--clear-dialogue", action="store_true", help="remove every dialogue line")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_wait_option(p)
    p.set_defaults(handler=cmd_story, free_text=True)

    p = sub.add_parser("start-state", help="set where a character (or everyone) starts: stamina social fun",
                       description="Set the starting stamina, social and fun (0 to 100) of --character, "
                       "or of every character without a start of their own.")
    p.add_argument("path", help="project folder")
    # three positionals, not one with nargs=3: argparse can't print a tuple metavar for a positional
    for stat in STAT_NAMES:  # "entertainment" is read as args.entertainment, shown as "fun"
        p.add_argument(stat, type=_stat, metavar=STAT_WORDS[stat], help=f"the starting {STAT_WORDS[stat]}, 0 to 100")
    p.add_argument("--character", help="the cast member (default: everyone); a name the story doesn't "
                   "know is refused, with the closest names, and so is an empty one, and any in a project "
                   "whose one state runs down each branch (state-scope branch), where no turn reads it")
    p.add_argument("--new", action="store_true",
                   help="--character is someone the story doesn't know yet (no cast member, turn or start state "
                   "names them): set their start anyway")
    add_wait_option(p)
    p.set_defaults(handler=cmd_start_state)

    p = sub.add_parser("state-scope", help="whose state a turn changes: its character's, or one per branch",
                       description="'character' (new projects): a turn changes its acting character's state. "
                       "'branch' (projects made before per-character state): one state runs down the branch.")
    p.add_argument("path", help="project folder")
    p.add_argument("scope", choices=("character", "branch"),
                   help="character: a turn changes its acting character's state; branch: one state per branch")
    add_wait_option(p)
    p.set_defaults(handler=cmd_state_scope)


def _duration(text: str) -> float | None:
    """``--duration``: seconds (``3``, ``3.5``, ``3.5s``), read strictly (``3ss``, ``1e309`` and
    ``inf`` are refused with what was written), or ``clip`` (None: the clip's own length).
    Refused as every bad value of a story field is: a message, exit status 2."""
    from studio.core.story import StoryFieldError, parse_duration

    if text.strip().lower() in ("clip", "auto", "none"):
        return None
    try:
        return parse_duration(text, alternatives=", or 'clip' (the clip's own length)")
    except StoryFieldError as error:
        raise StoryFieldError(f"--duration: {error.message}", hint=error.hint) from None


def story_dict(tree: StoryTree, node_id: str) -> dict[str, Any]:
    """A turn's story fields as ``story --json`` prints them; the story's start (which has
    none) says so with ``"start": true`` and gives its start states instead."""
    node = tree.node(node_id)
    story = node.story
    shown: dict[str, Any] = {
        "node": node_id,
        "start": node.is_root,
        "character": tree.acting_character(node_id),
        "dialogue": [{"speaker": line.speaker, "text": line.text} for line in story.dialogue],
        "narration": story.narration,
        "duration": story.duration,
        "shot_notes": story.shot_notes,
        "notes": node.notes,  # the author's own notes (`kamishibai note`), never exported
    }
    if not node.is_root:
        chosen = tree.selected_take(node_id)
        shown["chosen_take"] = None if chosen is None else {
            "id": chosen.id, "stale": chosen.stale,
            "stale_reasons": [reason.value for reason in stale_reasons(tree, chosen)]}
    if node.is_root:
        everyone, own = _start_states(tree)
        shown["start_states"] = {"everyone": everyone.as_dict(),
                                 "characters": {name: state.as_dict() for name, state in own.items()}}
    return shown


def _start_states(tree: StoryTree) -> tuple[CharacterState, dict[str, CharacterState]]:
    """Where every character starts, and the characters that start elsewhere (none are read
    in a story whose one state runs down each branch)."""
    root = tree.root
    own = dict(root.start_states) if tree.state_scope is StateScope.CHARACTER else {}
    return root.start_state or CharacterState(), own


def _stats(state: CharacterState) -> str:
    """As ``start-state`` says them."""
    return f"stamina {state.stamina}, social {state.social}, fun {state.entertainment}"


def _print_start(tree: StoryTree, path: str) -> None:
    """The story's start, as ``story`` shows it: it holds no instruction and no story fields
    (an empty instruction line and "duration: the clip's own length" were printed for it, as
    if it were a turn), so its start states are shown, as the window's Start panel does."""
    everyone, own = _start_states(tree)
    print(f"start {printable(tree.root_id)}: (start of the story)")
    if tree.state_scope is StateScope.BRANCH:
        print(f"  one state runs down each branch, from {_stats(everyone)}")
    else:
        print(f"  every character starts at {_stats(everyone)}")
    for name, state in own.items():
        print(f"  {printable(name)} starts at {_stats(state)}")
    print("  dialogue, narration, duration and shot notes belong to turns: give a turn's id "
          f"(`kamishibai tree {shell_path(path)}` lists them)")


def _print_story(tree: StoryTree, node_id: str, path: str) -> None:
    if tree.node(node_id).is_root:
        _print_start(tree, path)
        return
    story = tree.node(node_id).story
    print(f"turn {node_id}: {printable(tree.node(node_id).instruction.raw)}")
    for line in story.dialogue:
        print(f"  {printable(line.speaker) or '(nobody)'}: {printable(line.text)}")
    if story.narration:
        print(f"  narration: {printable(story.narration)}")
    print(f"  duration: {f'{story.duration:g} s' if story.duration is not None else 'the clip’s own length'}")
    if story.shot_notes:
        print(f"  shot notes: {printable(story.shot_notes)}")
    notes = tree.node(node_id).notes
    if notes.strip():  # the author's own, never exported: `kamishibai note` sets them
        print(f"  notes: {printable(notes)}")
    chosen = tree.selected_take(node_id)
    if chosen is not None and chosen.stale:
        print(f"  chosen take {chosen.id} is out of date: {stale_words(tree, chosen)} "
              f"(kamishibai reroll {shell_path(path)} {node_id} makes it again)")


def cmd_say(args: argparse.Namespace) -> int:
    """Add a dialogue line. On a turn with no character and without --speaker, the line is
    kept with no speaker, as asked (a voice nobody on screen owns is a line of its own, and
    --speaker can't be given empty to ask for one), and a note on stderr says so, with the
    commands that give it a speaker: a script goes on, and its writer sees why the sheet
    shows "(nobody)" instead of a name (the line was stored without a word)."""
    from studio.core.commands import AddDialogueLine

    with open_project(args.path, wait=args.wait) as project:
        node_id = resolve_node(project.tree, args.node, args.path)
        speaker = args.speaker if args.speaker is not None else project.tree.acting_character(node_id)
        count = len(project.tree.nodes[node_id].story.dialogue)
        if args.at is not None and not 1 <= args.at <= count + 1:
            raise StudioError(f"--at {args.at}: the turn has {count} dialogue line(s), so N is from 1 to {count + 1} "
                              f"({count + 1} appends).")
        if args.speaker is not None and not args.speaker.strip():
            raise StudioError("--speaker is empty: give a name (the default is the turn's character).")
        index = None if args.at is None else args.at - 1
        project.apply(AddDialogueLine(node_id, speaker, args.text, index))
        _print_story(project.tree, node_id, args.path)
        if not speaker.strip():
            _say_nobody_speaks(args.path, node_id)
    return 0


def _say_nobody_speaks(path: str, node_id: str) -> None:
    """The note of a line kept with no speaker (see :func:`cmd_say`)."""
    import sys

    shown = shell_path(path)
    print(f"kamishibai: note: turn {node_id} has no character, so this line has no speaker (shown as "
          f"\"(nobody)\"). To name who says it, add --speaker NAME: `kamishibai story {shown} {node_id} "
          f"--clear-dialogue` removes the turn's lines, then `kamishibai say {shown} {node_id} TEXT --speaker "
          "NAME` says them again.", file=sys.stderr)


def cmd_use(args: argparse.Namespace) -> int:
    from studio.core.commands import SelectTake

    with open_project(args.path, wait=args.wait) as project:
        tree = project.tree
        node_id = resolve_node(tree, args.node, args.path)
        if tree.node(node_id).is_root:  # its hint named `reroll` of the start, which is refused
            raise StudioError("The story's start has no takes to choose from: takes belong to turns.",
                              hint=f"Give a turn's id (`kamishibai tree {shell_path(args.path)}` lists "
                              "them and their takes).")
        shown = shell_path(args.path)
        take = _take_of(tree, node_id, args.take, shown)
        takes = [t.id for t in tree.takes_of(node_id)]
        number = takes.index(take.id) + 1
        if take.status.value != "done":
            raise StudioError(f"Take {take.id} (take {number}) of turn {node_id} {take.status.value}: it has no clip "
                              "to use.", hint=f"Re-roll the turn: kamishibai reroll {shown} {node_id}.")
        if not take.clip_path or not project.resolve(take.clip_path).is_file():
            raise StudioError(f"Take {take.id} (take {number}) of turn {node_id} has lost its clip file, so it "
                              "can't be used.",
                              hint=f"Put the file back, or re-roll the turn: kamishibai reroll {shown} {node_id}.")
        before = _chosen_stale(tree)
        project.apply(SelectTake(node_id, take.id))
        print(f"turn {node_id} uses take {take.id} (take {number} of {len(takes)})")
        _say_followed_back(tree, project.tree, node_id, before)
        _say_out_of_date(project.tree, before, shown, "after it were made from another take")
    return 0


def _say_followed_back(before: StoryTree, after: StoryTree, node_id: str, stale_before: set[str]) -> None:
    """Name the later turns that use their takes made from the chosen take again (see
    :class:`~studio.core.commands.SelectTake`), and those whose chosen take is current again."""
    from studio.core.commands import takes_followed_back

    back = takes_followed_back(before, after, node_id)
    if back:
        print(f"  {len(back)} turn(s) after it use their takes made from this take again: "
              f"{', '.join(back[:8])}{' and more' if len(back) > 8 else ''}")
    again = [node.id for node in after.descendants(node_id)
             if node.id in stale_before and node.id not in back
             and (take := after.selected_take(node.id)) is not None and not take.stale]
    if again:
        print(f"  {len(again)} turn(s) after it are current again: "
              f"{', '.join(again[:8])}{' and more' if len(again) > 8 else ''}")


def _chosen_stale(tree: StoryTree) -> set[str]:
    """The turns whose chosen take is out of date: what a turn shows and an export plays (a
    take kept beside it being out of date changes nothing the author sees)."""
    return {node_id for node_id in tree.nodes
            if (take := tree.selected_take(node_id)) is not None and take.stale}


def _say_out_of_date(tree: StoryTree, before: set[str], shown_path: str, why: str) -> None:
    """Name the turns whose chosen take an edit put out of date (``before``: those that
    were already), and the re-rolls that make them again: one ``--branch`` from each
    topmost such turn."""
    newly = _chosen_stale(tree) - before
    turns = [node.id for node in tree.descendants(tree.root_id) if node.id in newly]  # story order
    if not turns:
        return
    marked = set(turns)
    tops = [node_id for node_id in turns if tree.node(node_id).parent_id not in marked]
    commands = " and ".join(f"kamishibai reroll {shown_path} {node_id} --branch" for node_id in tops[:3])
    more = " and so on" if len(tops) > 3 else ""
    print(f"  {len(turns)} turn(s) {why} and are now out of date: "
          f"{', '.join(turns[:8])}{' and more' if len(turns) > 8 else ''} "
          f"({commands}{more} make{'s' if len(tops) == 1 else ''} them again)")


def _take_of(tree: StoryTree, node_id: str, ref: str, shown_path: str) -> Any:
    """Turn ``node_id``'s take named by ``ref``: its id, a unique prefix of it, its number
    among the turn's takes (1 = the first), or ``latest``, its newest (no take id can start so:
    ids are hexadecimal), which a script that has just re-rolled the turn can name without
    reading the new id back; a number that is also a prefix is refused. A whole id wins over
    the longer ids it starts (a project made by another program may hold ids of several
    lengths), and case does not matter where it decides nothing ("7E3A" names "7e3a…", as node
    ids are named). ``shown_path``: the project as the hints write it."""
    takes = tree.takes_of(node_id)
    if not takes:
        raise StudioError(f"Turn {node_id} has no take yet.",
                          hint=f"Generate one: kamishibai reroll {shown_path} {node_id}.")
    if ref.strip().lower() == "latest":
        return takes[-1]  # the highest number
    exact = _exact_take(takes, ref.strip())
    if exact is not None:
        return exact
    by_prefix = _takes_starting(takes, ref.strip())
    number = int(ref) if ref.strip().isdigit() else 0
    if ref.strip().isdigit() and number == 0:  # "0" read as an id prefix picked whichever take's id starts so
        listed = ", ".join(f"{i}: {t.id}" for i, t in enumerate(takes, start=1))
        raise StudioError(f"Take numbers start at 1: take 1 is turn {node_id}'s first take, so there is no take "
                          f"{ref.strip()}.", hint=f"Its takes: {listed} (give an id's first characters to name one by "
                          "its id).")
    by_number = takes[number - 1] if 1 <= number <= len(takes) else None
    if by_number is not None and by_prefix and by_prefix != [by_number]:  # say which id each one has
        others = first_few([t.id for t in by_prefix if t is not by_number])
        raise StudioError(f"{ref!r} is both take number {number} of turn {node_id} and the start of another take's "
                          "id.", hint=f"Give the id of the one you mean: take number {number} is {by_number.id}; "
                          f"{ref.strip()!r} starts {others}.")
    if by_number is not None:
        return by_number
    if len(by_prefix) == 1:
        return by_prefix[0]
    listed = ", ".join(f"{i}: {t.id}" for i, t in enumerate(takes, start=1))
    if by_prefix:
        raise StudioError(f"{ref!r} starts {len(by_prefix)} of turn {node_id}'s take ids; give more characters.",
                          hint=f"Its takes: {listed}.")
    raise StudioError(f"Turn {node_id} has no take {ref!r}.", hint=f"Its takes: {listed}.")


def _exact_take(takes: Sequence[Take], ref: str) -> Take | None:
    """The take whose whole id is ``ref``, as written, else the only one whose id is ``ref`` in
    another case; None for none (or two ids that differ only in case, and neither written so)."""
    if not ref:
        return None
    for take in takes:
        if take.id == ref:
            return take
    folded = [take for take in takes if take.id.casefold() == ref.casefold()]
    return folded[0] if len(folded) == 1 else None


def _takes_starting(takes: Sequence[Take], ref: str) -> list[Take]:
    """The takes whose ids start with ``ref`` (case aside where none does as written)."""
    if not ref:
        return []
    as_written = [take for take in takes if take.id.startswith(ref)]
    return as_written or [take for take in takes if take.id.casefold().startswith(ref.casefold())]


def cmd_narrate(args: argparse.Namespace) -> int:
    from studio.core.commands import SetNarration

    with open_project(args.path, wait=args.wait) as project:
        node_id = resolve_node(project.tree, args.node, args.path)
        project.apply(SetNarration(node_id, unix_line_breaks(args.text)))
        _print_story(project.tree, node_id, args.path)
    return 0


def cmd_story(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from studio.core.commands import SetStory

    changes: dict[str, Any] = {}
    if args.duration is not None:  # checked before the project is opened
        changes["duration"] = _duration(args.duration)
    if args.narration is not None:
        changes["narration"] = unix_line_breaks(args.narration)
    if args.notes is not None:
        changes["shot_notes"] = unix_line_breaks(args.notes)
    if args.clear_dialogue:
        changes["dialogue"] = ()
    if not changes:
        with open_for_reading(args.path) as project:
            node_id = resolve_node(project.tree, args.node, args.path)
            _show(project.tree, node_id, args.json, args.path)
        return 0
    with open_project(args.path, wait=args.wait) as project:
        node_id = resolve_node(project.tree, args.node, args.path)
        story: StoryFields = replace(project.tree.node(node_id).story, **changes)
        project.apply(SetStory(node_id, story))
        _show(project.tree, node_id, args.json, args.path)
    return 0


def _show(tree: StoryTree, node_id: str, as_json: bool, path: str) -> None:
    if as_json:
        print_json(story_dict(tree, node_id))
    else:
        _print_story(tree, node_id, path)


def _stat(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0 to 100, not {text!r}") from None
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"a state value is from 0 to 100, not {value}")
    return value


def story_characters(tree: StoryTree) -> dict[str, str]:
    """Every character the project knows, by :func:`~studio.core.state.character_key`: its cast
    members, the characters its turns act with, those with a start state of their own, and
    the characters the built-in engines draw (the default cast a new project starts with)."""
    from studio.composition import default_cast_and_world
    from studio.core.state import character_key

    names = [member.name for member in tree.cast.values()]
    names += [tree.acting_character(node.id) for node in tree.nodes.values() if not node.is_root]
    names += list(tree.root.start_states)
    names += [member.name for member in default_cast_and_world()[0]]
    known: dict[str, str] = {}
    for name in names:
        shown = " ".join(name.split())
        if shown:
            known.setdefault(character_key(shown), shown)
    return known


def _start_state_character(tree: StoryTree, name: str, new: bool) -> str:
    """The character ``--character NAME`` means, as the story spells it (``""``: everyone).

    A start state for a name nobody acts with changes nothing anyone sees, so a name the
    story doesn't know is refused, with the closest names, unless ``--new`` says it is meant."""
    import difflib

    from studio.core.state import character_key

    shown = " ".join(name.split())
    if not shown:
        return ""
    known = story_characters(tree)
    spelled = known.get(character_key(shown))
    if spelled is not None:
        return spelled
    if new:
        return _new_character_name(shown)
    close = difflib.get_close_matches(character_key(shown), list(known), n=3, cutoff=0.6)
    if close:  # the closest names, closest first: the whole cast hid the one meant among many
        which = f". Did you mean {' or '.join(known[key] for key in close)}?"
    else:
        which = f" (characters: {', '.join(sorted(known.values(), key=character_key)) or 'none yet'})."
    raise StudioError(f"'{printable(shown)}' is not a character of this story{printable(which)}",
                      hint="Pass --new to set the start of a character who has not appeared yet.")


def _new_character_name(name: str) -> str:
    """``name`` if a turn could ever act with it, else a :class:`StudioError`. A start state
    is only read for a turn's character, so a name no instruction can hold (field syntax such
    as ``;``, a directional override, thousands of characters) would be stored and never used:
    it is refused as the cast refuses it."""
    from studio.core.commands import cast_name_problem

    problem = cast_name_problem(name)
    if problem:
        raise StudioError(f"--character: {printable(problem)}",
                          hint="Give the name a turn's Character field uses (at most 100 characters, "
                          "without ';', ':' or directional controls).")
    return name


def cmd_start_state(args: argparse.Namespace) -> int:
    from studio.core.commands import SetStartState
    from studio.core.state import CharacterState

    if args.character is not None and not args.character.strip():  # "" would mean everyone: say so, as say does
        raise StudioError("--character is empty: give a name, or leave --character out to set every character's "
                          "start.")
    if args.character is not None:  # a name drawn on sheets and overlays, and stored in the project
        refuse_control_characters(args.character, "--character")
    if args.new and args.character is None:
        raise StudioError("--new needs --character NAME: it sets the start of a character the story doesn't "
                          "know yet.")
    with open_project(args.path, wait=args.wait) as project:
        _refuse_a_character_of_a_shared_state(project.tree, args.character, args.path)
        character = _start_state_character(project.tree, args.character or "", args.new)
        state = CharacterState(args.stamina, args.social, args.entertainment)
        before = _chosen_stale(project.tree)
        project.apply(SetStartState(character, state))
        shared = project.tree.state_scope is StateScope.BRANCH
        who = printable(character) or ("each branch's state" if shared else "every character")
        print(f"{who} starts at {_stats(state)}")
        if not character:
            _say_who_keeps_their_own(project.tree, args.path)
        _say_out_of_date(project.tree, before, shell_path(args.path), "were made from the old start")
    return 0


def _say_who_keeps_their_own(tree: StoryTree, path: str) -> None:
    """After a start set for everyone: the characters whose own start still holds. "every
    character starts at stamina 10" was all it said, while a character given a start of their
    own (``--character``) went on from that one."""
    _everyone, own = _start_states(tree)
    if not own:
        return
    names = sorted(own, key=str.casefold)
    shown = first_few([printable(name) for name in names], limit=5)
    one = len(names) == 1
    print(f"  except {shown}, who keep{'s a start' if one else ' starts'} of their own "
          f"(`kamishibai story {shell_path(path)} root` lists every start)")


def _refuse_a_character_of_a_shared_state(tree: StoryTree, character: str | None, path: str) -> None:
    """Refuse ``--character`` in a project whose one state runs down each branch: no turn reads
    a character's own start there (``story`` and the window's Start card show only the shared
    one), so "Qiqi starts at stamina 5" was printed for a change nothing used."""
    if character is None or tree.state_scope is not StateScope.BRANCH:
        return
    raise StudioError(f"This project runs one state down each branch, so a character's own start "
                      f"('{printable(' '.join(character.split()))}') would not be used.",
                      hint="Leave --character out to set the start of the branch's state, or first make each "
                      "turn change its character's state: "
                      f"kamishibai state-scope {shell_path(path)} character.")


def cmd_state_scope(args: argparse.Namespace) -> int:
    from studio.core.commands import SetStateScope
    from studio.core.state import StateScope

    with open_project(args.path, wait=args.wait) as project:
        project.apply(SetStateScope(StateScope(args.scope)))
        print("a turn changes its character's state" if args.scope == "character"
              else "one state runs down each branch")
    return 0
