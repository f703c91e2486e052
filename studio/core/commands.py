"""Edit commands. Each builds a patch against the current tree; the document applies it,
persists it and keeps the reverse patch for undo.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from typing import ClassVar

from studio.core.changes import Entity, EntityKey, EntityKind, Patch
from studio.core.errors import StudioError
from studio.core.instruction import field_spans, parse_instruction, validate_instruction_text
from studio.core.model import CastMember, Location, Node, Take, TakeStatus, new_id, now_iso
from studio.core.state import (
    STAT_NAMES,
    STATE_MAX,
    STATE_MIN,
    CharacterState,
    StateScope,
    character_key,
    written_key,
)
from studio.core.story import (
    MAX_SPEAKER_CHARS,
    DialogueLine,
    StoryFields,
    check_dialogue_line,
    check_duration,
    check_story,
)
from studio.core.text import describe_character, first_control, is_control, name_shape_problem
from studio.core.tree import StoryTree, TreeError


class CommandError(StudioError):
    """A command that cannot be applied to the tree as it is."""


class Command:
    """Base class: ``label`` names it in the Undo menu; ``build`` returns its patch."""

    label: ClassVar[str] = "Edit"

    def build(self, tree: StoryTree) -> Patch:
        raise NotImplementedError


def _node(tree: StoryTree, node_id: str) -> Node:
    try:
        return tree.node(node_id)
    except TreeError as error:
        raise CommandError(str(error)) from None


TURN_NEEDED_HINT = "Use one of the story's turns instead."
"""Worded for every surface: the window selects a turn, the command line names one."""


def _turn(tree: StoryTree, node_id: str, action: str, *, refusal: str = "") -> Node:
    """The turn ``node_id``; the story's start is refused with ``refusal``, or else with a
    message saying it can't be ``action`` ("forked", "deleted")."""
    node = _node(tree, node_id)
    if node.is_root:
        raise CommandError(refusal or f"The story's start can't be {action}.", hint=TURN_NEEDED_HINT)
    return node


def restale(
    tree: StoryTree,
    start_id: str,
    node_overrides: dict[str, Node] | None = None,
    take_overrides: dict[str, Take] | None = None,
    out_of_date: frozenset[str] = frozenset(),
) -> dict[str, Take]:
    """Recompute ``stale`` for the takes of ``start_id`` and every node below it.

    A take is fresh when it was generated from the parent's selected take as it is now
    (``parent_take_id``), that take is itself fresh, the node's instruction is still the
    one it was generated from, and its turn starts from the state it was made from (where
    the take recorded it). Each is weighed as it is now, not against the last change: a
    start or a text set back to what a take was made from makes it current again. Returns
    the takes whose flag changes. ``out_of_date`` names takes stale for a reason they didn't
    record (a start changed under a take made before takes kept theirs).
    """
    nodes = node_overrides or {}
    takes = dict(take_overrides or {})
    now = _tree_now(tree, nodes, takes)

    def node_of(node_id: str) -> Node:
        return nodes.get(node_id) or tree.nodes[node_id]

    def take_of(take_id: str) -> Take:
        return takes.get(take_id) or tree.takes[take_id]

    new_takes: dict[str, list[str]] = {}
    for take in takes.values():
        if take.id not in tree.takes:
            new_takes.setdefault(take.node_id, []).append(take.id)

    changed: dict[str, Take] = {}
    queue = [start_id]
    while queue:
        node_id = queue.pop()
        node = node_of(node_id)
        if node.parent_id is not None:
            parent = node_of(node.parent_id)
            context = parent.selected_take_id or ""
            context_fresh = not context or not take_of(context).stale
            for take_id in [*(t.id for t in tree.takes_of(node_id)), *new_takes.get(node_id, ())]:
                take = take_of(take_id)
                fresh = take.parent_take_id == context and context_fresh
                if take.instruction_raw and take.instruction_raw != node.instruction.raw:
                    fresh = False
                if fresh and (take_id in out_of_date or not _starts_as_made(now, node_id, take)):
                    fresh = False
                if take.stale == fresh:
                    updated = replace(take, stale=not fresh)
                    takes[take_id] = updated
                    changed[take_id] = updated
        queue.extend(tree.child_ids(node_id))
    return changed


def _tree_now(tree: StoryTree, nodes: dict[str, Node], takes: dict[str, Take]) -> StoryTree:
    """``tree`` with the turns and takes a command is about to write (the states turns start
    from depend on the root's start and on the chosen takes)."""
    if not nodes and not any(take.id not in tree.takes for take in takes.values()):
        return tree
    patch: dict[EntityKey, Entity | None] = {(EntityKind.NODE, n.id): n for n in nodes.values()}
    patch.update({(EntityKind.TAKE, t.id): t for t in takes.values()})
    return tree.evolved(patch)[0]


def _starts_as_made(tree: StoryTree, node_id: str, take: Take) -> bool:
    """Whether the turn starts now from the state ``take`` was made from (True for a take
    that didn't record it)."""
    return take.start_state is None or take.start_state == tree.state_before(node_id)


def _with_takes(patch: dict[EntityKey, Entity | None], takes: dict[str, Take]) -> None:
    for take_id, take in takes.items():
        patch[(EntityKind.TAKE, take_id)] = take


def _renumber(siblings: list[Node]) -> dict[EntityKey, Node]:
    return {
        (EntityKind.NODE, node.id): replace(node, position=index)
        for index, node in enumerate(siblings)
        if node.position != index
    }


@dataclass(frozen=True)
class AddTurn(Command):
    """A new turn under ``parent_id`` (appended after its siblings, or at ``index``)."""

    parent_id: str
    text: str
    node_id: str = ""
    index: int | None = None
    label: ClassVar[str] = "New turn"

    def build(self, tree: StoryTree) -> Patch:
        validate_instruction_text(self.text)
        _node(tree, self.parent_id)
        node_id = self.node_id or new_id()
        if node_id in tree.nodes:
            raise CommandError(f"node {node_id} already exists")
        siblings = tree.children(self.parent_id)
        node = Node(id=node_id, parent_id=self.parent_id, instruction=parse_instruction(self.text),
                    position=len(siblings), created_at=now_iso())
        index = len(siblings) if self.index is None else max(0, min(self.index, len(siblings)))
        ordered = [*siblings[:index], node, *siblings[index:]]
        patch: dict[EntityKey, Node] = {(EntityKind.NODE, node_id): node}
        patch.update(_renumber(ordered))
        return patch


@dataclass(frozen=True)
class Fork(Command):
    """A new alternative right after a turn, another way to tell the same moment: a copy of
    what was written for it (the instruction, the story fields, the notes), nothing made or
    marked on it (no takes, no bookmark). With ``text``, the alternative gets that instruction
    instead (a line typed but not saved)."""

    node_id: str
    new_node_id: str = ""
    text: str = ""
    label: ClassVar[str] = "Fork turn"

    def build(self, tree: StoryTree) -> Patch:
        node = _turn(tree, self.node_id, "forked")
        assert node.parent_id is not None
        index = tree.child_ids(node.parent_id).index(node.id) + 1
        patch = dict(AddTurn(node.parent_id, self.text or node.instruction.raw, self.new_node_id, index).build(tree))
        if not node.story.is_empty or node.notes:  # the same dialogue, timing and notes
            for key, entity in patch.items():
                if isinstance(entity, Node) and key[1] not in tree.nodes:
                    patch[key] = replace(entity, story=node.story, notes=node.notes)
        return patch


@dataclass(frozen=True)
class EditInstruction(Command):
    node_id: str
    text: str
    label: ClassVar[str] = "Edit instruction"

    def build(self, tree: StoryTree) -> Patch:
        validate_instruction_text(self.text)
        node = _turn(tree, self.node_id, "given an instruction")
        updated = replace(node, instruction=parse_instruction(self.text))
        patch: dict[EntityKey, Entity | None] = {(EntityKind.NODE, node.id): updated}
        _with_takes(patch, restale(tree, node.id, {node.id: updated}))
        return patch


@dataclass(frozen=True)
class DeleteSubtree(Command):
    node_id: str
    label: ClassVar[str] = "Delete turns"

    def build(self, tree: StoryTree) -> Patch:
        node = _turn(tree, self.node_id, "deleted")
        patch: dict[EntityKey, Entity | None] = {}
        for doomed in [node, *tree.descendants(node.id)]:
            patch[(EntityKind.NODE, doomed.id)] = None
            for take in tree.takes_of(doomed.id):
                patch[(EntityKind.TAKE, take.id)] = None
        assert node.parent_id is not None
        rest = [n for n in tree.children(node.parent_id) if n.id != node.id]
        patch.update(_renumber(rest))
        return patch


@dataclass(frozen=True)
class MoveAmongSiblings(Command):
    node_id: str
    index: int
    label: ClassVar[str] = "Move turn"

    def build(self, tree: StoryTree) -> Patch:
        node = _turn(tree, self.node_id, "moved")
        assert node.parent_id is not None
        siblings = [n for n in tree.children(node.parent_id) if n.id != node.id]
        index = max(0, min(self.index, len(siblings)))
        return _renumber([*siblings[:index], node, *siblings[index:]])


@dataclass(frozen=True)
class SelectTake(Command):
    """Make ``take_id`` the node's take; takes below made from another past turn stale.

    A turn below whose chosen take was made from another take than the one now chosen above
    it, and which still has a finished take made from that one (for its text as it is), gets
    it back as its chosen take, and so on down: choosing an older take again after a branch
    re-roll brings back the takes that followed it (see :func:`takes_followed_back`)."""

    node_id: str
    take_id: str | None
    label: ClassVar[str] = "Select take"

    def build(self, tree: StoryTree) -> Patch:
        node = _turn(tree, self.node_id, "given a take")
        if self.take_id is not None:
            take = tree.takes.get(self.take_id)
            if take is None or take.node_id != node.id:
                raise CommandError(f"Take {self.take_id} is not a take of turn {node.id}.")
        if node.selected_take_id == self.take_id:
            return {}
        updated = replace(node, selected_take_id=self.take_id)
        overrides = {node.id: updated}
        if self.take_id is not None:
            overrides.update(_followers(tree, node.id, self.take_id))
        patch: dict[EntityKey, Entity | None] = {(EntityKind.NODE, n.id): n for n in overrides.values()}
        for child_id in tree.child_ids(node.id):
            _with_takes(patch, restale(tree, child_id, overrides))
        return patch


def _followers(tree: StoryTree, node_id: str, take_id: str) -> dict[str, Node]:
    """The turns below ``node_id`` that get back a take made from ``take_id`` (and below them,
    from the take they get back), with that take chosen: a turn whose chosen take was made
    from another take than the one above it now, and which has a finished take made from it
    for its text as it is (the newest such one)."""
    chosen: dict[str, Node] = {}
    pending = [(node_id, take_id)]
    while pending:
        parent_id, parent_take = pending.pop()
        for child in tree.children(parent_id):
            current = tree.selected_take(child.id)
            if current is None or current.parent_take_id == parent_take:
                continue
            made_from = [take for take in tree.takes_of(child.id)
                         if take.status == TakeStatus.DONE and take.parent_take_id == parent_take
                         and (not take.instruction_raw or take.instruction_raw == child.instruction.raw)]
            if made_from:
                chosen[child.id] = replace(child, selected_take_id=made_from[-1].id)
                pending.append((child.id, made_from[-1].id))
    return chosen


def takes_followed_back(before: StoryTree, after: StoryTree, node_id: str) -> list[str]:
    """The turns below ``node_id`` whose chosen take choosing a take of ``node_id`` changed
    (see :class:`SelectTake`), in story order."""
    return [node.id for node in after.descendants(node_id)
            if node.id in before.nodes and before.nodes[node.id].selected_take_id != node.selected_take_id]


@dataclass(frozen=True)
class AddTake(Command):
    """Store a finished (or failed) generation; a done take becomes the selected one.

    A take made from an instruction the turn no longer holds (its edit was undone, or the
    text changed again while it was generated) is kept beside the chosen take instead of
    replacing it: it would show a clip of words the turn doesn't say.
    """

    take: Take
    select: bool = True
    label: ClassVar[str] = "Generate take"

    def build(self, tree: StoryTree) -> Patch:
        node = _turn(tree, self.take.node_id, "given a take")
        if self.take.id in tree.takes:
            raise CommandError(f"take {self.take.id} already exists")
        take = self.take if self.take.created_at else replace(self.take, created_at=now_iso())
        patch: dict[EntityKey, Entity | None] = {(EntityKind.TAKE, take.id): take}
        # A new take is fresh only if it was made from the parent's current selection.
        overrides = {take.id: take}
        node_overrides: dict[str, Node] = {}
        if (self.select and take.status == TakeStatus.DONE and not _outdated_by_text(tree, node, take)
                and not _made_from_a_removed_take(tree, take)):
            node_overrides[node.id] = replace(node, selected_take_id=take.id)
            patch[(EntityKind.NODE, node.id)] = node_overrides[node.id]
        _with_takes(patch, restale(tree, node.id, node_overrides, overrides))
        return patch


def _made_from_a_removed_take(tree: StoryTree, take: Take) -> bool:
    """Whether ``take`` was made from a take of the turn above that is no longer there (an
    undone re-roll's take): kept beside the chosen take, never chosen, as it continues a
    clip the story no longer holds."""
    return bool(take.parent_take_id) and take.parent_take_id not in tree.takes


def _outdated_by_text(tree: StoryTree, node: Node, take: Take) -> bool:
    """Whether ``take`` was made from other words than the turn's while the turn has a
    chosen finished take to keep."""
    if not take.instruction_raw or take.instruction_raw == node.instruction.raw:
        return False
    chosen = tree.takes.get(node.selected_take_id or "")
    return chosen is not None and chosen.status == TakeStatus.DONE


@dataclass(frozen=True)
class AddRerolledTake(AddTake):
    """A new take of a turn that already had one ("Undo Re-roll" in the Edit menu)."""

    label: ClassVar[str] = "Re-roll"


@dataclass(frozen=True)
class AddBranchRerollTake(AddTake):
    """A turn's new take from a branch re-roll ("Undo Re-roll branch"). The worker applies
    the takes of one branch re-roll as an undo group (:class:`~studio.core.document.UndoGroup`):
    the takes that land one after another are one entry, undone and redone together."""

    label: ClassVar[str] = "Re-roll branch"


def reroll_keeps_selection(tree: StoryTree, node_id: str) -> bool:
    """Whether a re-rolled take of ``node_id`` should be added without being selected.

    A turn with later turns keeps its chosen take: selecting the new one would make every
    turn below stale before the author has even looked at it. A leaf, or a turn without a
    chosen take, takes the new one.
    """
    node = tree.nodes.get(node_id)
    if node is None or node.selected_take_id is None:
        return False
    chosen = tree.takes.get(node.selected_take_id)
    return chosen is not None and chosen.status == TakeStatus.DONE and bool(tree.child_ids(node_id))


@dataclass(frozen=True)
class SetBookmark(Command):
    node_id: str
    bookmarked: bool
    label: ClassVar[str] = "Bookmark"

    def build(self, tree: StoryTree) -> Patch:
        node = _node(tree, self.node_id)
        return {(EntityKind.NODE, node.id): replace(node, bookmarked=self.bookmarked)}


@dataclass(frozen=True)
class SetNotes(Command):
    node_id: str
    notes: str
    label: ClassVar[str] = "Edit notes"

    def build(self, tree: StoryTree) -> Patch:
        node = _node(tree, self.node_id)
        return {(EntityKind.NODE, node.id): replace(node, notes=check_node_notes(self.notes))}


NOTES_WHITESPACE = frozenset("\n\t")
"""The control characters a node's notes may hold: they are the author's multi-line scratch
pad (lists, indented lines), never drawn on a frame or written into subtitles."""


def check_node_notes(notes: str) -> str:
    """``notes`` with Windows line ends (``\\r\\n``) read as line breaks, or
    :class:`CommandError` naming the first control character other than a line break or a
    tab (NUL, ESC, BEL, a lone carriage return...): invisible in the inspector, they can
    rewrite a terminal when `kamishibai tree` prints the notes, and a lone surrogate can't
    even be stored."""
    if not isinstance(notes, str):
        raise CommandError(f"A turn's notes must be text, not {type(notes).__name__}.")
    notes = notes.replace("\r\n", "\n")
    for position, char in enumerate(notes, start=1):
        if char in NOTES_WHITESPACE:
            continue
        if 0xD800 <= ord(char) < 0xE000:
            raise CommandError(f"The notes are not valid text (a lone surrogate, U+{ord(char):04X}, at character "
                               f"{position}).", hint="Check the text's encoding; notes are stored as UTF-8.")
        if is_control(char):
            raise CommandError(
                f"The notes hold a control character ({describe_character(char)}) at character {position}.",
                hint="Remove it: notes may hold line breaks and tabs, but no other control characters.")
    return notes


NAME_SYNTAX = (";", ":", "；", "：")
"""What an instruction puts between and after its field names (full-width forms too): a cast
name can't hold them."""


def cast_name_problem(name: str) -> str:
    """Why ``name`` can't be a cast member's name ('' when it can): empty, or holding the
    instruction's field syntax (a turn could never name it)."""
    if not name.strip():
        return "A character needs a name."
    control = first_control(name.replace("\n", " "))  # a line break is named below, with the field syntax
    if control is not None:  # an instruction can't hold one: no turn could name the character
        position, char = control
        return (f"The name {name!r} holds a control character ({describe_character(char)}) at character "
                f"{position}: an instruction can't hold one, so a turn could never name it.")
    shape = name_shape_problem(name, "The name")
    if shape:
        return shape
    held = [c for c in NAME_SYNTAX if c in name] + (["a line break"] if "\n" in name else [])
    if held:
        return (f"The name {name!r} holds {' or '.join(repr(c) if len(c) == 1 else c for c in held)}, "
                "which instructions use between fields: a turn could never name it.")
    return ""


@dataclass(frozen=True)
class AddCastMember(Command):
    member: CastMember
    label: ClassVar[str] = "Add character"

    def build(self, tree: StoryTree) -> Patch:
        _check_cast_name(tree, self.member.name)
        return {(EntityKind.CAST, self.member.id): self.member}


def _check_cast_name(tree: StoryTree, name: str, member_id: str = "") -> None:
    """A cast name must be one no other member has (case and spacing aside, as start states
    and turns compare names) and hold none of the instruction's field syntax."""
    problem = cast_name_problem(name)
    if problem:
        raise CommandError(problem, hint="Use up to 100 characters, without control, directional or zero-width "
                           "characters, ; or : (e.g. 'Mei Run' for 'Mei; Run').")
    key = character_key(name)  # "STRASSE" is Straße
    same = next((m.name for m in tree.cast.values() if character_key(m.name) == key and m.id != member_id), None)
    if same is not None:
        shown = f"{name!r}" if same == name else f"{same!r} (the same name as {name!r}, whatever the case)"
        raise CommandError(f"A character named {shown} already exists.")


def _cast_member(tree: StoryTree, member_id: str) -> CastMember:
    member = tree.cast.get(member_id)
    if member is None:
        raise CommandError(f"No character with id {member_id!r}.")
    return member


def name_pattern(name: str) -> re.Pattern[str]:
    """``name`` as whole words, any case and spacing ("Mei" in "Mei's bread", not in "Meiko")."""
    return re.compile(r"(?<!\w)" + r"\s+".join(re.escape(w) for w in name.split()) + r"(?!\w)", re.IGNORECASE)


PLACE_FIELDS = ("background", "time")
"""The fields that say where and when a turn is set: a character's name in them is a place's
word (a location may be named "Mei's bakery", a character "Park"), never the character."""


def _outside_places(text: str) -> list[tuple[int, int]]:
    """The stretches of ``text`` outside its place fields' values (:data:`PLACE_FIELDS`)."""
    spans = field_spans(text)
    places = sorted(spans[name] for name in PLACE_FIELDS if name in spans)
    out, at = [], 0
    for start, end in places:
        out.append((at, start))
        at = end
    out.append((at, len(text)))
    return out


def replace_name(text: str, old: str, new: str) -> str:
    """``text`` with ``old`` (whole words, any case and spacing: :func:`name_pattern`) replaced
    by ``new``, taken as it is (a function, not a template: no backslash in it is read), outside
    the place fields (:data:`PLACE_FIELDS`): renaming a character "Park" rewrote every turn
    set in the day park."""
    pattern = name_pattern(old)
    pieces: list[str] = []
    at = 0
    for start, end in _outside_places(text):
        pieces.append(text[at:start])  # a place's value, as it is
        pieces.append(pattern.sub(lambda _found: new, text[start:end]))
        at = end
    return "".join(pieces)


def turns_naming(tree: StoryTree, name: str, *, character_field_only: bool = False) -> list[Node]:
    """The turns whose instruction names ``name``: in its Character field or in its text (case
    and spacing aside, whole words), its place fields aside (:func:`replace_name`);
    ``character_field_only``: in the Character field alone."""
    if not name.split():
        return []
    # the accents as the turn encodes them or composed (see written_key): "Ame\u0301lie" is Amélie
    key, pattern = written_key(name), name_pattern(unicodedata.normalize("NFC", name))

    def composed(text: str) -> str:
        return text if text.isascii() else unicodedata.normalize("NFC", text)

    if character_field_only:
        return [n for n in tree.nodes.values() if not n.is_root and (
            written_key(n.instruction.character) == key or pattern.search(composed(n.instruction.character)))]
    return [n for n in tree.nodes.values() if not n.is_root and (
        written_key(n.instruction.character) == key or _names(pattern, composed(n.instruction.raw)))]


def place_named(tree: StoryTree, name: str) -> str:
    """The name of the location that ``name`` also names (case and spacing aside), '' if none.
    The cast panel refuses such a pair, but a project made before it did (or by another
    program) may hold a character and a location of one name."""
    key = character_key(name)
    return next((loc.name for loc in tree.locations.values() if name.split() and character_key(loc.name) == key), "")


def replace_in_character_field(text: str, old: str, new: str) -> str:
    """``text`` with ``old`` (whole words, any case and spacing) replaced by ``new`` in its
    Character field's value only."""
    span = field_spans(text).get("character")
    if span is None:
        return text
    start, end = span
    return text[:start] + name_pattern(old).sub(lambda _found: new, text[start:end]) + text[end:]


def renamed_text(tree: StoryTree, text: str, old: str, new: str) -> str:
    """A turn's ``text`` after the character ``old`` is renamed ``new`` in ``tree``: every use
    outside the place fields (:func:`replace_name`); or, when a location is named ``old`` too,
    the Character field's alone: elsewhere ("swims in the river") the word may be the place,
    which a rename must not rewrite."""
    if place_named(tree, old):
        return replace_in_character_field(text, old, new)
    return replace_name(text, old, new)


def _names(pattern: re.Pattern[str], text: str) -> bool:
    return any(pattern.search(text, start, end) for start, end in _outside_places(text))


@dataclass(frozen=True)
class RemoveCastMember(Command):
    """Take a character out of the cast, with its start state; the turns that name it keep
    their text (a Character field names a character the cast does not know; a turn that
    names it only in its free text is then played by the character of the turn before)."""

    member_id: str
    label: ClassVar[str] = "Remove character"

    def build(self, tree: StoryTree) -> Patch:
        member = _cast_member(tree, self.member_id)
        patch: dict[EntityKey, Entity | None] = {(EntityKind.CAST, member.id): None}
        root, key = tree.root, character_key(member.name)
        starts = {n: s for n, s in root.start_states.items() if character_key(n) != key}
        if starts != root.start_states:
            patch[(EntityKind.NODE, root.id)] = replace(root, start_states=starts)
        return patch


@dataclass(frozen=True)
class RenameCastMember(Command):
    """Rename a character everywhere the story names it: its cast entry, its start state, every
    turn's instruction that names it (the Character field and the free text, as whole words;
    only the Character field where a location has the name too: :func:`renamed_text`; those
    turns' takes become stale, as after any instruction edit) and the dialogue lines it
    speaks."""

    member_id: str
    name: str
    label: ClassVar[str] = "Rename character"

    def build(self, tree: StoryTree) -> Patch:
        member = _cast_member(tree, self.member_id)
        name = " ".join(self.name.split())
        _check_cast_name(tree, name, member.id)
        patch: dict[EntityKey, Entity | None] = {(EntityKind.CAST, member.id): replace(member, name=name)}
        if name == member.name:
            return patch
        root, old, new = tree.root, character_key(member.name), character_key(name)
        if new != old and any(character_key(n) == new for n in root.start_states):
            raise CommandError(f"{name!r} already has a start state of its own; renaming {member.name!r} to it "
                               "would give one character two.",
                               hint=f"Choose another name, or set {name}'s start state on the Start card first.")
        starts = {(name if character_key(n) == old else n): s for n, s in root.start_states.items()}
        if starts != root.start_states:
            patch[(EntityKind.NODE, root.id)] = replace(root, start_states=starts)
        _check_speaker_name(tree, member.name, name)
        a_place_too = bool(place_named(tree, member.name))  # then only the Character fields change
        naming = {n.id for n in turns_naming(tree, member.name, character_field_only=a_place_too)}
        updated: dict[str, Node] = {}
        for node in tree.nodes.values():
            changed = node
            text = _renamed_turn_text(tree, node.instruction.raw, member.name, name) if node.id in naming else ""
            if text and text != node.instruction.raw:
                validate_instruction_text(text)
                changed = updated[node.id] = replace(node, instruction=parse_instruction(text))
            lines = tuple(replace(line, speaker=name) if character_key(line.speaker) == old else line
                          for line in node.story.dialogue)
            if lines != node.story.dialogue:
                changed = replace(changed, story=replace(node.story, dialogue=lines))
            if changed is not node:
                patch[(EntityKind.NODE, node.id)] = changed
        if updated:
            _with_takes(patch, restale(tree, tree.root_id, updated))
        return patch


def _renamed_turn_text(tree: StoryTree, text: str, old: str, new: str) -> str:
    """:func:`renamed_text` of a turn that names ``old`` (by :func:`character_key`). When its
    words are not written as ``old`` is, only for the way their accents are encoded ("Ame\u0301lie"
    and "Amélie" look alike), the text is read with its accents composed, so that the rename
    reaches it rather than leaving the turn naming a character the cast no longer has."""
    renamed = renamed_text(tree, text, old, new)
    if renamed != text:
        return renamed
    composed = unicodedata.normalize("NFC", text)
    again = renamed_text(tree, composed, unicodedata.normalize("NFC", old), new)
    return again if again != composed else text


def _check_speaker_name(tree: StoryTree, old: str, new: str) -> None:
    """A rename carries the new name into the dialogue lines the character speaks; a cast name
    may be longer (100 characters) than a speaker's name (:data:`MAX_SPEAKER_CHARS`), so a long
    name is refused while the character speaks, rather than leaving lines that break the
    speaker limit every other edit keeps."""
    if len(new) <= MAX_SPEAKER_CHARS:
        return
    key = character_key(old)
    spoken = sum(character_key(line.speaker) == key for node in tree.nodes.values() for line in node.story.dialogue)
    if spoken:
        lines = "a dialogue line" if spoken == 1 else f"{spoken:,} dialogue lines"
        raise CommandError(
            f"The name {_shown_name(new)} is {len(new):,} characters long, and {old} speaks {lines}; a speaker's "
            f"name is at most {MAX_SPEAKER_CHARS} characters.",
            hint=f"Choose a name of at most {MAX_SPEAKER_CHARS} characters.")


def _shown_name(name: str) -> str:
    return repr(name) if len(name) <= 40 else f"{name[:40]!r}..."


FIELD_SEPARATORS = (";", "；")
"""What ends a field's value in an instruction (a line break too, refused as a control character)."""


def _check_location_name(name: str) -> None:
    """A location's name is shown in the cast panel and typed in a turn's Background field:
    it must say something and hold no control character (an empty one was accepted and
    listed as a blank line)."""
    if not isinstance(name, str) or not name.strip():
        raise CommandError("A location needs a name.", hint="Give it the name a turn's Background field will use.")
    control = first_control(name)
    if control is not None:
        position, char = control
        raise CommandError(f"The location name {name!r} holds a control character ({describe_character(char)}) at "
                           f"character {position}.", hint="Give a name of one line, without control characters.")
    shape = name_shape_problem(name, "The location name")
    if shape:
        raise CommandError(shape, hint="Give a name of up to 100 characters, without directional or zero-width "
                           "characters.")
    held = [c for c in FIELD_SEPARATORS if c in name]
    if held:  # "Background: harbour; east" is the place "harbour" and the free text "east"
        raise CommandError(f"The location name {name!r} holds {' or '.join(repr(c) for c in held)}, which ends a "
                           "field in an instruction: a turn's Background could never name it.",
                           hint="Give the name without it (a comma or a dash reads the same).")


@dataclass(frozen=True)
class AddLocation(Command):
    location: Location
    label: ClassVar[str] = "Add location"

    def build(self, tree: StoryTree) -> Patch:
        _check_location_name(self.location.name)
        _check_location_unique(tree, self.location.name)
        return {(EntityKind.LOCATION, self.location.id): self.location}


def _check_location_unique(tree: StoryTree, name: str, location_id: str = "") -> None:
    """No two locations share a name, whatever its case (a location keeps its own in another case)."""
    same = next((loc.name for loc in tree.locations.values()
                 if loc.id != location_id and loc.name.lower() == name.lower()), None)
    if same is not None:
        raise CommandError(f"A location named {same!r} already exists.")


def character_named(tree: StoryTree, name: str) -> bool:
    """Whether a cast member has ``name`` (case and spacing aside): a location of that name is
    then renamed in the Background fields only (:func:`renamed_place_text`)."""
    return any(character_key(m.name) == character_key(name) for m in tree.cast.values())


def _location(tree: StoryTree, location_id: str) -> Location:
    location = tree.locations.get(location_id)
    if location is None:
        raise CommandError(f"No location with id {location_id!r}.")
    return location


@dataclass(frozen=True)
class RemoveLocation(Command):
    """Take a location out of the project; the turns that name it keep their text (the engines
    then draw the place by its name alone, as for any place the project has no picture of) and
    its picture stays in the project's media, so that an undo brings it back whole."""

    location_id: str
    label: ClassVar[str] = "Remove location"

    def build(self, tree: StoryTree) -> Patch:
        return {(EntityKind.LOCATION, _location(tree, self.location_id).id): None}


@dataclass(frozen=True)
class RenameLocation(Command):
    """Rename a location everywhere the story names it: its entry, and every turn's instruction
    that names it (the Background field, and the rest of the text as whole words outside the
    Character field: only the Background field where a character has the name too); those
    turns' takes become stale, as after any instruction edit."""

    location_id: str
    name: str
    label: ClassVar[str] = "Rename location"

    def build(self, tree: StoryTree) -> Patch:
        location = _location(tree, self.location_id)
        name = " ".join(self.name.split())
        _check_location_name(name)
        _check_location_unique(tree, name, location.id)
        patch: dict[EntityKey, Entity | None] = {(EntityKind.LOCATION, location.id): replace(location, name=name)}
        if name == location.name:
            return patch
        background_only = character_named(tree, location.name)
        updated: dict[str, Node] = {}
        for node in tree.nodes.values():
            if node.is_root:
                continue
            text = renamed_place_text(node.instruction.raw, location.name, name, background_only=background_only)
            if text != node.instruction.raw:
                validate_instruction_text(text)
                updated[node.id] = replace(node, instruction=parse_instruction(text))
                patch[(EntityKind.NODE, node.id)] = updated[node.id]
        if updated:
            _with_takes(patch, restale(tree, tree.root_id, updated))
        return patch


def renamed_place_text(text: str, old: str, new: str, *, background_only: bool = False) -> str:
    """A turn's ``text`` after the location ``old`` is renamed ``new``: in its Background
    field, and (unless ``background_only``) as whole words anywhere outside its Character
    field, where the word is the character's, never the place's."""
    pattern = name_pattern(old)
    spans = field_spans(text)
    keep = sorted(spans[name] for name in ("character", "time") if name in spans)
    if background_only:
        background = spans.get("background")
        if background is None:
            return text
        start, end = background
        return text[:start] + pattern.sub(lambda _found: new, text[start:end]) + text[end:]
    pieces: list[str] = []
    at = 0
    for start, end in keep:
        pieces.append(pattern.sub(lambda _found: new, text[at:start]))
        pieces.append(text[start:end])
        at = end
    pieces.append(pattern.sub(lambda _found: new, text[at:]))
    return "".join(pieces)


# -- story fields ---------------------------------------------------------------------
# They change what the audience reads and how long a turn lasts, never what an engine
# generates: no take becomes stale.


def _with_story(tree: StoryTree, node_id: str, story: StoryFields) -> Patch:
    node = _turn(tree, node_id, "given story fields",
                 refusal="The story's start holds no story fields: dialogue, narration, a duration and shot notes "
                         "belong to a turn.")
    checked = check_story(story, kept=node.story)  # what the edit leaves as it was is not checked again
    if checked == node.story:
        return {}
    return {(EntityKind.NODE, node.id): replace(node, story=checked)}


@dataclass(frozen=True)
class SetStory(Command):
    """Replace all of a turn's story fields at once (the inspector's form, an import)."""

    node_id: str
    story: StoryFields
    label: ClassVar[str] = "Edit story"

    def build(self, tree: StoryTree) -> Patch:
        return _with_story(tree, self.node_id, self.story)


@dataclass(frozen=True)
class AddDialogueLine(Command):
    """Append a spoken line (or insert it at ``index``)."""

    node_id: str
    speaker: str
    text: str
    index: int | None = None
    label: ClassVar[str] = "Add dialogue"

    def build(self, tree: StoryTree) -> Patch:
        story = _node(tree, self.node_id).story
        line = check_dialogue_line(self.speaker, self.text)
        lines = list(story.dialogue)
        lines.insert(len(lines) if self.index is None else max(0, min(self.index, len(lines))), line)
        return _with_story(tree, self.node_id, replace(story, dialogue=tuple(lines)))


@dataclass(frozen=True)
class SetDialogue(Command):
    """Replace every dialogue line of a turn (an empty tuple clears them)."""

    node_id: str
    lines: tuple[DialogueLine, ...]
    label: ClassVar[str] = "Edit dialogue"

    def build(self, tree: StoryTree) -> Patch:
        story = _node(tree, self.node_id).story
        return _with_story(tree, self.node_id, replace(story, dialogue=tuple(self.lines)))


@dataclass(frozen=True)
class SetNarration(Command):
    node_id: str
    narration: str
    label: ClassVar[str] = "Edit narration"

    def build(self, tree: StoryTree) -> Patch:
        story = _node(tree, self.node_id).story
        return _with_story(tree, self.node_id, replace(story, narration=self.narration))


@dataclass(frozen=True)
class SetDuration(Command):
    """How long the turn lasts in the episode, in seconds (None: its clip's own length)."""

    node_id: str
    seconds: float | None
    label: ClassVar[str] = "Set duration"

    def build(self, tree: StoryTree) -> Patch:
        story = _node(tree, self.node_id).story
        return _with_story(tree, self.node_id, replace(story, duration=check_duration(self.seconds)))


@dataclass(frozen=True)
class SetShotNotes(Command):
    node_id: str
    notes: str
    label: ClassVar[str] = "Edit shot notes"

    def build(self, tree: StoryTree) -> Patch:
        story = _node(tree, self.node_id).story
        return _with_story(tree, self.node_id, replace(story, shot_notes=self.notes))


# -- the story's start ------------------------------------------------------------------


@dataclass(frozen=True)
class SetStartState(Command):
    """Where ``character`` starts (""; every character without a start of their own)."""

    character: str
    state: CharacterState
    label: ClassVar[str] = "Set start state"

    def build(self, tree: StoryTree) -> Patch:
        check_start_state(self.state)
        root = tree.root
        name = " ".join(self.character.split())
        if not name:
            updated = replace(root, start_state=self.state)
        else:
            key = character_key(name)
            starts = {n: s for n, s in root.start_states.items() if character_key(n) != key}
            starts[name] = self.state
            updated = replace(root, start_states=starts)
        patch: dict[EntityKey, Entity | None] = {(EntityKind.NODE, root.id): updated}
        _with_takes(patch, _stale_from_start(tree, updated))
        return patch


def _stale_from_start(tree: StoryTree, root: Node) -> dict[str, Take]:
    """The takes whose flag changes once the story starts as ``root`` says: out of date, those
    of each turn whose acting character now starts it from another state than the take was
    made from (its level, its warnings, its change), and below them those made from a take
    now out of date, as after choosing another take; current again, those whose turn starts
    once more from the state they were made from (a start set back). A take made before
    takes kept their start is out of date once its turn's start moves, and stays so."""
    after, _before, _changes = tree.evolved({(EntityKind.NODE, root.id): root})
    moved = [node_id for node_id in tree.nodes
             if node_id != tree.root_id and tree.state_before(node_id) != after.state_before(node_id)]
    # a take that didn't record its start can only be told out of date by the change itself
    unrecorded = frozenset(take.id for node_id in moved for take in tree.takes_of(node_id)
                           if take.start_state is None)
    return restale(tree, tree.root_id, {root.id: root}, out_of_date=unrecorded)


def check_start_state(state: CharacterState) -> CharacterState:
    """``state`` if each stat is a whole number from 0 to 100, as the Start card and
    ``start-state`` allow; else :class:`CommandError` naming them (one stored out of range
    was shown as it was, "stamina 500", and given to the engines)."""
    stats = {name: getattr(state, name) for name in STAT_NAMES}
    wrong = [f"{name} {value!r}" for name, value in stats.items()
             if not isinstance(value, int) or isinstance(value, bool) or not STATE_MIN <= value <= STATE_MAX]
    if wrong:
        raise CommandError(f"A start state is {STATE_MIN} to {STATE_MAX} for each stat, not {', '.join(wrong)}.",
                           hint=f"Give whole numbers from {STATE_MIN} to {STATE_MAX}.")
    return state


@dataclass(frozen=True)
class SetStateScope(Command):
    """Whether a turn changes its own character's state or one state shared by the branch."""

    scope: StateScope
    label: ClassVar[str] = "Change whose state a turn changes"

    def build(self, tree: StoryTree) -> Patch:
        root = tree.root
        if root.state_scope is self.scope:
            return {}
        return {(EntityKind.NODE, root.id): replace(root, state_scope=StateScope(self.scope))}
