"""The story tree: every node, take, cast member and location, with fast lookups."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from studio.core.changes import ChangeSet, Entity, EntityKey, EntityKind, Patch
from studio.core.instruction import Instruction
from studio.core.joined_names import character_names
from studio.core.model import CastMember, Location, Node, Take
from studio.core.speech import is_script_line, outside_quotes
from studio.core.state import CharacterState, StateScope, character_key, folded_text, written_key

StateTable = dict[str, tuple[str, CharacterState]]
"""Per character (by :func:`character_key`): the name as first written, and the state."""


class TreeError(ValueError):
    """A patch or query that would break the tree's structure."""


ORDERED_KINDS = (EntityKind.CAST, EntityKind.LOCATION)
"""The tables whose order means something: the cast's order (the first member is a new turn's
default character, and the Start and Cast panels list them so), and the places'."""


def _kept_in_place(key: EntityKey, other: Entity | None) -> bool:
    """Whether a cast member or location at ``key`` is edited where it stands (a rename used
    to move it to the end)."""
    return other is not None and key[0] in ORDERED_KINDS


class StoryTree:
    """In-memory document. Mutated only through :meth:`apply_patch`.

    The document never mutates a tree that readers may hold: it applies each patch to a
    copy (:meth:`evolved`) and publishes the copy, so a tree handed to a reader is an
    immutable snapshot (its lazily filled caches aside, which only ever hold values
    derived from that snapshot).
    """

    def __init__(self) -> None:
        self.nodes: dict[str, Node] = {}
        self.takes: dict[str, Take] = {}
        self.cast: dict[str, CastMember] = {}
        self.locations: dict[str, Location] = {}
        self._children: dict[str, list[str]] = {}
        self._takes_of: dict[str, list[str]] = {}
        self._root_id: str | None = None
        self._state_cache: dict[str, StateTable] = {}
        self._acting_cache: dict[str, str] = {}

    # -- building -----------------------------------------------------------------------

    @classmethod
    def from_entities(cls, entities: Iterable[Entity]) -> StoryTree:
        """Build a tree in bulk (used when a project is opened)."""
        tree = cls()
        for entity in entities:
            tree._store(entity)
        for ids in tree._children.values():
            ids.sort(key=tree._sibling_key)
        for ids in tree._takes_of.values():
            ids.sort(key=lambda i: (tree.takes[i].created_at, i))
        return tree

    def _table(self, kind: EntityKind) -> dict[str, Entity]:
        tables: dict[EntityKind, dict[str, Any]] = {
            EntityKind.NODE: self.nodes,
            EntityKind.TAKE: self.takes,
            EntityKind.CAST: self.cast,
            EntityKind.LOCATION: self.locations,
        }
        return tables[kind]

    def _sibling_key(self, node_id: str) -> tuple[int, str, str]:
        node = self.nodes[node_id]
        return (node.position, node.created_at, node.id)

    def _store(self, entity: Entity) -> None:
        if isinstance(entity, Node):
            self.nodes[entity.id] = entity
            if entity.parent_id is None:
                if self._root_id not in (None, entity.id):
                    raise TreeError(f"second root {entity.id} (root is {self._root_id})")
                self._root_id = entity.id
            else:
                self._children.setdefault(entity.parent_id, []).append(entity.id)
        elif isinstance(entity, Take):
            self.takes[entity.id] = entity
            self._takes_of.setdefault(entity.node_id, []).append(entity.id)
        elif isinstance(entity, CastMember):
            self.cast[entity.id] = entity
        else:
            self.locations[entity.id] = entity

    def _unstore(self, kind: EntityKind, ident: str) -> None:
        entity = self._table(kind).pop(ident)
        if isinstance(entity, Node):
            if entity.parent_id is None:
                self._root_id = None
            else:
                self._children[entity.parent_id].remove(ident)
        elif isinstance(entity, Take):
            self._takes_of[entity.node_id].remove(ident)

    def get(self, key: EntityKey) -> Entity | None:
        return self._table(key[0]).get(key[1])

    def apply_patch(self, patch: Patch, label: str = "") -> tuple[dict[EntityKey, Entity | None], ChangeSet]:
        """Apply ``patch``; return its reverse and the change set."""
        before: dict[EntityKey, Entity | None] = {key: self.get(key) for key in patch}
        reverse = self._ordered_reverse(patch, before)
        resort: set[str] = set()
        for key, new in patch.items():
            if new is not None and new.id != key[1]:
                raise TreeError(f"patch key {key} does not match entity id {new.id}")
        for key, old in before.items():
            if old is not None and not _kept_in_place(key, patch[key]):
                self._unstore(*key)
        for key, new in patch.items():
            if new is None:
                continue
            if _kept_in_place(key, before[key]):
                self._table(key[0])[key[1]] = new  # an edit keeps the member's place in the cast order
                continue
            self._store(new)
            if isinstance(new, Node) and new.parent_id is not None:
                resort.add(new.parent_id)
            if isinstance(new, Take):
                self._takes_of[new.node_id].sort(key=lambda i: (self.takes[i].created_at, i))
        for parent in resort:
            self._children[parent].sort(key=self._sibling_key)
        for kind in ORDERED_KINDS:
            self._place_inserted(kind, patch, before)
        self._state_cache.clear()
        self._acting_cache.clear()
        return reverse, ChangeSet.from_patch(patch, before, label)

    def _ordered_reverse(self, patch: Patch, before: dict[EntityKey, Entity | None]) -> dict[EntityKey, Entity | None]:
        """``before`` as the reverse patch, its cast members and locations in table order,
        each one ``patch`` removes followed by the member that followed it (unchanged), so
        that applying the reverse puts the removed member back where it stood (see
        :meth:`_place_inserted`) rather than at the end of the cast."""
        reverse = {key: old for key, old in before.items() if key[0] not in ORDERED_KINDS}
        for kind in ORDERED_KINDS:
            table, follows_removed = self._table(kind), False
            for ident, entity in table.items():
                key = (kind, ident)
                if key in patch or follows_removed:
                    reverse[key] = entity
                follows_removed = key in patch and patch[key] is None
            reverse.update((key, old) for key, old in before.items() if key[0] is kind and key not in reverse)
        return reverse

    def _place_inserted(self, kind: EntityKind, patch: Patch, before: dict[EntityKey, Entity | None]) -> None:
        """Move each cast member or location ``patch`` inserts to just before the next member
        the patch names that was already there (as :meth:`_ordered_reverse` writes it);
        one with none after it stays at the end."""
        moves: dict[str, list[str]] = {}
        pending: list[str] = []
        for key, new in patch.items():
            if key[0] is not kind or new is None:
                continue
            if before[key] is None:
                pending.append(key[1])
            elif pending:
                moves[key[1]], pending = pending, []
        if not moves:
            return
        table = self._table(kind)
        entities = dict(table)
        moved = {ident for idents in moves.values() for ident in idents}
        table.clear()
        for ident in (ident for ident in entities if ident not in moved):
            table.update((inserted, entities[inserted]) for inserted in moves.get(ident, []))
            table[ident] = entities[ident]

    def evolved(self, patch: Patch, label: str = "") -> tuple[StoryTree, dict[EntityKey, Entity | None], ChangeSet]:
        """A new tree with ``patch`` applied; this one is left exactly as it was.

        Tables are copied shallowly (entities are frozen); only the child and take lists
        the patch touches are copied, so the cost is one dict copy per table.
        """
        new = StoryTree.__new__(StoryTree)
        new.nodes = dict(self.nodes)
        new.takes = dict(self.takes)
        new.cast = dict(self.cast)
        new.locations = dict(self.locations)
        new._children = dict(self._children)
        new._takes_of = dict(self._takes_of)
        new._root_id = self._root_id
        new._state_cache = {}
        new._acting_cache = {}
        for key, value in patch.items():
            for entity in (self.get(key), value):
                if isinstance(entity, Node) and entity.parent_id is not None and entity.parent_id in new._children:
                    new._children[entity.parent_id] = list(new._children[entity.parent_id])
                elif isinstance(entity, Take) and entity.node_id in new._takes_of:
                    new._takes_of[entity.node_id] = list(new._takes_of[entity.node_id])
        before, changes = new.apply_patch(patch, label)
        return new, before, changes

    # -- queries ------------------------------------------------------------------------

    @property
    def root_id(self) -> str:
        if self._root_id is None:
            raise TreeError("the story has no root")
        return self._root_id

    @property
    def root(self) -> Node:
        return self.nodes[self.root_id]

    def node(self, node_id: str) -> Node:
        try:
            return self.nodes[node_id]
        except KeyError:
            raise TreeError(f"no node {node_id!r} in this story") from None

    def children(self, node_id: str) -> list[Node]:
        return [self.nodes[i] for i in self._children.get(node_id, ())]

    def child_ids(self, node_id: str) -> list[str]:
        return list(self._children.get(node_id, ()))

    def takes_of(self, node_id: str) -> list[Take]:
        return [self.takes[i] for i in self._takes_of.get(node_id, ())]

    def selected_take(self, node_id: str) -> Take | None:
        selected = self.node(node_id).selected_take_id
        return self.takes.get(selected) if selected else None

    def path_to(self, node_id: str) -> list[Node]:
        """Nodes from the root down to ``node_id``, both included."""
        path: list[Node] = []
        seen: set[str] = set()
        current: str | None = node_id
        while current is not None:
            if current in seen:
                raise TreeError(f"cycle through node {current}")
            seen.add(current)
            node = self.node(current)
            path.append(node)
            current = node.parent_id
        path.reverse()
        return path

    def descendants(self, node_id: str) -> Iterator[Node]:
        """Every node below ``node_id`` in breadth-first order (parents before children)."""
        queue = list(self._children.get(node_id, ()))
        index = 0
        while index < len(queue):
            current = queue[index]
            index += 1
            yield self.nodes[current]
            queue.extend(self._children.get(current, ()))

    def leaves_under(self, node_id: str) -> list[Node]:
        """Leaves below ``node_id`` in depth-first order (top to bottom, as drawn)."""
        leaves: list[Node] = []
        stack = [self.node(node_id).id]
        while stack:
            current = stack.pop()
            children = self._children.get(current)
            if children:
                stack.extend(reversed(children))
            else:
                leaves.append(self.nodes[current])
        return leaves

    def first_leaf(self, node_id: str) -> Node:
        """Follow the first child down to a leaf: the default branch through a node."""
        current = self.node(node_id)
        while self._children.get(current.id):
            current = self.nodes[self._children[current.id][0]]
        return current

    # -- state --------------------------------------------------------------------------

    @property
    def state_scope(self) -> StateScope:
        root = self.nodes.get(self._root_id) if self._root_id else None
        return root.state_scope if root is not None else StateScope.CHARACTER

    def cast_names(self) -> list[str]:
        """The cast's names, in the cast's order (a caption spells a name typed in another case
        as the cast does: :func:`studio.core.sentence.describe_action`)."""
        return [member.name for member in self.cast.values()]

    def acting_character(self, node_id: str) -> str:
        """Whose turn ``node_id`` is: the instruction's character (of several joined, "Qiqi and
        Yuzu", the first of the cast: :func:`field_actor`); else the cast member its free text
        names first, outside quoted speech, or the speaker of its script line
        (:func:`_actor_named`), unless a pronoun is its subject ("She talks to Yuzu",
        :func:`subject_pronoun`); else the acting character of the turn before it, or at the
        story's start the first member of the cast, whom the engines draw then ("" for the root
        and for a story without a cast)."""
        cached = self._acting_cache.get(node_id)
        if cached is not None:
            return cached
        pending: list[Node] = []
        current: Node | None = self.node(node_id)
        name = ""
        while current is not None:
            hit = self._acting_cache.get(current.id)
            if hit is not None:
                name = hit
                break
            pending.append(current)
            current = self.nodes.get(current.parent_id) if current.parent_id else None
        cast_names = [m.name for m in self.cast.values() if m.name.strip()]
        # a name a location has too ("River" and the river: a project made before the pair was
        # refused) may be the place in free text: a name that is only a character's comes first
        places = {character_key(loc.name) for loc in self.locations.values()}
        tiers = ([n for n in cast_names if character_key(n) not in places],
                 [n for n in cast_names if character_key(n) in places])
        root = self.nodes.get(self._root_id) if self._root_id else None
        known = {written_key(n): n for n in [*(root.start_states if root else ()), *cast_names] if n.strip()}
        first = cast_names[0] if cast_names else ""  # who the engines draw when no turn has named anyone
        for node in reversed(pending):
            own = _field_actor(node.instruction.character, known, cast_names) or _actor_named(node.instruction, tiers)
            name = own or name or (first if node.id != self._root_id else "")
            self._acting_cache[node.id] = name
        return name

    def start_state_of(self, character: str) -> CharacterState:
        """Where ``character`` starts (the root's ``start_states``, else its ``start_state``)."""
        root = self.root
        key = character_key(character)
        for name, state in root.start_states.items():
            if character_key(name) == key:
                return state
        return root.start_state or CharacterState()

    def _states(self, node_id: str) -> StateTable:
        cached = self._state_cache.get(node_id)
        if cached is not None:
            return cached
        pending: list[Node] = []
        current: Node | None = self.node(node_id)
        table: StateTable = {}
        while current is not None:
            hit = self._state_cache.get(current.id)
            if hit is not None:
                table = hit
                break
            pending.append(current)
            current = self.nodes.get(current.parent_id) if current.parent_id else None
        shared = self.state_scope is StateScope.BRANCH
        for node in reversed(pending):
            if node.parent_id is None:
                table = {"": ("", node.start_state or CharacterState())}
                if not shared:
                    table.update({character_key(n): (n, s) for n, s in node.start_states.items()})
            else:
                take = self.selected_take(node.id)
                if take is not None:
                    name = "" if shared else self.acting_character(node.id)
                    key = character_key(name)
                    shown, before = table.get(key) or (name, self.start_state_of(name))
                    table = {**table, key: (shown or name, before.apply(take.deltas))}
            self._state_cache[node.id] = table
        return table

    def _state_in(self, table: StateTable, character: str) -> CharacterState:
        if self.state_scope is StateScope.BRANCH:
            return table[""][1]
        entry = table.get(character_key(character))
        return entry[1] if entry is not None else self.start_state_of(character)

    def state_of(self, node_id: str) -> CharacterState:
        """The acting character's state after ``node_id`` (the root: the story's start state).

        A turn changes its acting character's state by its selected take's deltas; every
        other character keeps theirs (in a ``BRANCH``-scoped story one state runs down the
        branch, as in projects made before per-character state)."""
        table = self._states(node_id)
        return self._state_in(table, self.acting_character(node_id))

    def state_before(self, node_id: str) -> CharacterState:
        """The acting character's state before ``node_id``: what its turn starts from."""
        node = self.node(node_id)
        if node.parent_id is None:
            return self.state_of(node_id)
        return self._state_in(self._states(node.parent_id), self.acting_character(node_id))

    def cast_states(self, node_id: str) -> dict[str, CharacterState]:
        """Every character's state after ``node_id``, by name: those who acted on the branch
        and those with their own start state (a shared state is listed under "")."""
        table = self._states(node_id)
        if self.state_scope is StateScope.BRANCH:
            return {"": table[""][1]}
        return {shown: state for key, (shown, state) in table.items() if key}

    def depth(self, node_id: str) -> int:
        return len(self.path_to(node_id)) - 1

    def __len__(self) -> int:
        return len(self.nodes)

    def entities(self) -> Iterator[Entity]:
        yield from self.nodes.values()
        yield from self.takes.values()
        yield from self.cast.values()
        yield from self.locations.values()


def _known_spelling(written: str, known: dict[str, str]) -> str:
    """``written`` (a turn's Character field), or the cast's (or a start state's) spelling of
    the name when only the way its accents are encoded differs (see :func:`written_key`)."""
    if not written or written.isascii():
        return written
    spelling = known.get(written_key(written))
    return spelling if spelling is not None and character_key(spelling) != character_key(written) else written


def _field_actor(field: str, known: dict[str, str], cast_names: list[str]) -> str:
    """:func:`field_actor` with the cast's (or a start state's) spelling of the name."""
    return _known_spelling(field_actor(field, cast_names), known)


def _actor_named(instruction: Instruction, tiers: tuple[list[str], list[str]]) -> str:
    """The cast member a turn without a Character field is about: the first one its free text
    names outside quotes ('"Hi Yuzu!" says Aoi' is Aoi's turn: Yuzu is only spoken to); else
    the cast member who speaks its script line ('Aoi: "I am home"'); else one named in its
    free text whose name is a location's too (``tiers[1]``: it may be the place). "" for none,
    and for a turn whose subject is a pronoun written before any of them ("She talks to Yuzu":
    the turn goes on with the character before, Yuzu is who she talks to)."""
    text = outside_quotes(instruction.free_text)
    if subject_pronoun(text, [*tiers[0], *tiers[1]]):
        return ""
    return (_named_in(text, tiers[0]) or _speaker_in(instruction, [*tiers[0], *tiers[1]]) or _named_in(text, tiers[1])
            or motion_subject(instruction.motion, [*tiers[0], *tiers[1]]))


def motion_subject(motion: str, names: Sequence[str]) -> str:
    """The cast member a Motion field written as a whole clause starts with, its subject
    ("Motion: Yuzu reads a book", "Motion: ユズは本を読む" for a cast member ユズ); "" when the
    field starts with anything else ("waves to Yuzu": Yuzu is only waved to) or is the name
    alone (a name is no motion, and says nothing of who acts). A new turn's keyboard starts
    in the Motion field, so authors write whole sentences there."""
    folded = folded_text(outside_quotes(motion)).lstrip()
    name, at = _first_named_at(folded, names)
    if not name or at != 0:
        return ""
    rest = folded[len(written_key(name)):].strip(" \t,.;:!?、。，！？")
    return name if rest else ""


def _speaker_in(instruction: Instruction, names: list[str]) -> str:
    """The cast member (of ``names``) who speaks the first script line of ``instruction`` that
    a cast member speaks, as the cast spells the name ("" if none)."""
    spelled = {written_key(name): name for name in names}
    for key, value in instruction.extra:
        name = spelled.get(written_key(key))
        if name is not None and is_script_line(value):
            return name
    return ""


def _hiragana(char: str) -> bool:
    return "\u3041" <= char <= "\u309f"


def _latin(char: str) -> bool:
    """Whether ``char`` is a letter of the Latin script ("Q", "é"), not a Japanese, Chinese or Korean one."""
    return char.isascii() or unicodedata.name(char, "").startswith("LATIN")


def _apart(neighbour: str, edge: str) -> bool:
    """Whether a name whose first or last character is ``edge`` stands apart from the character
    next to it: a space or punctuation, as in English; in Japanese, written without spaces, a
    kana particle after (or before) a name in kanji or katakana ("美咲が", "そして美咲"); a letter of
    another script next to a Latin name ("Qiqiは", "Qiqi가", "Qiqi在"). A name
    in hiragana, or one next to kanji, can't be told from a longer word ("海老" is no "海")."""
    if not neighbour.isalnum():
        return True
    if neighbour.isalpha() and edge.isalpha() and _latin(neighbour) != _latin(edge):
        return True  # "Qiqiは走る", "Qiqi가 달린다", "Qiqi在公园": scripts change at a word's edge
    return _hiragana(neighbour) and edge.isalpha() and not edge.isascii() and not _hiragana(edge) \
        and unicodedata.east_asian_width(edge) == "W"


def _named_in(text: str, names: Sequence[str]) -> str:
    """The name in ``names`` that ``text`` mentions first, as a whole word ("" if none)."""
    if not text:
        return ""
    return _first_named_at(folded_text(text), names)[0]


def _first_named_at(folded: str, names: Sequence[str]) -> tuple[str, int]:
    """The name in ``names`` that ``folded`` (a :func:`folded_text`) mentions first, as a whole
    word, and where: ("", len(folded) + 1) if none."""
    best = ""
    best_at = len(folded) + 1
    for name in names:
        key = written_key(name)
        at = folded.find(key)
        while at >= 0:
            end = at + len(key)
            before_ok = at == 0 or _apart(folded[at - 1], key[0])
            after_ok = end == len(folded) or _apart(folded[end], key[-1])
            if before_ok and after_ok:
                if at < best_at:
                    best, best_at = name, at
                break
            at = folded.find(key, at + 1)
    return best, best_at


# -- who a turn's subject is: a pronoun, or several characters ------------------------------

ONE = "one"
""":func:`subject_pronoun` for a pronoun of one person ("she", "彼女", "她", "그녀")."""
SEVERAL = "several"
""":func:`subject_pronoun` for a pronoun of several ("they", "彼ら", "他们", "그들")."""

_CLAUSE_START = r"(?:^|(?<=[,;:.!?、。，；：！？\s]))"
_EN_PRONOUN = re.compile(r"(?<![\w'’-])(she|he|they)(?![\w'’-])")
"""Pronouns that are always a subject, wherever they stand ("Exhausted, she sits down")."""
_EN_OPENING_PRONOUN = re.compile(r"(?:^|(?<=[,;:.!?]\s))(it|her|him)\s+(and\b|&|[^\W\d_]+)")
"""Pronouns that may be an object too: a subject only opening a clause, before a verb or a
second subject ("It runs after Yuzu", "Her and Yuzu dance"), not in "Yuzu hugs her"."""
_IMPERSONAL_IT = re.compile(
    r"it\s+(?:is|was|gets|got|has\s+been|keeps)\s+(?:still\s+|very\s+|so\s+|getting\s+|already\s+)?"
    r"(?:raining|snowing|pouring|drizzling|storming|hailing|sunny|cloudy|windy|foggy|misty|rainy|snowy|stormy|"
    r"cold|hot|warm|chilly|freezing|dark|light|bright|late|early|night|morning|evening|noon|midnight|dawn|dusk|"
    r"a\s+\w+\s+(?:day|night|morning|evening)|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"summer|winter|spring|autumn|quiet|time)\b"
    r"|it(?:\s+(?:is|was)|['’]s)\s+(?:only\s+|just\s+|always\s+|not\s+|also\s+)?"
    r"[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*)?\s+(?:who|that)\b")
"""An "it" that stands for no one: the weather, the time or the day ("It is raining. Qiqi walks
to school", "It was a cold night"), or the "it" of a sentence that puts its subject first ("It
is Qiqi who runs", "It was Yuzu that laughed"): no pronoun subject."""
_CJK_PRONOUN = re.compile(
    _CLAUSE_START + r"(?:(彼女たち|彼女ら|彼ら|彼女|彼)(?=[はがもと])"  # Japanese, with its particle
    r"|(她们|他们|它们|她|他|它)(?![的们])"  # Chinese: not "his"/"her" (他的)
    r"|(그녀들|그녀|그들|그)(?=(?:은|는|이|가|도|와|과|하고|랑)\s))")  # Korean, with its particle
_SEVERAL = frozenset({"they", "彼女たち", "彼女ら", "彼ら", "她们", "他们", "它们", "그녀들", "그들"})


def subject_pronoun(text: str, names: Sequence[str]) -> str:
    """Whether ``text`` (a turn's free text, outside quotes) has a pronoun for its subject,
    written before any of ``names`` (the cast): :data:`ONE` ("She talks to Yuzu", "Exhausted,
    she sits down", "彼女はゆずと話す", "她和小红聊天", "그녀는 지수와 이야기한다"), :data:`SEVERAL`
    ("They laugh together", "彼らは笑う"), "" for none ("Qiqi says she is tired": Qiqi's turn).

    Such a turn goes on with the character of the turn before: the cast member it names is
    who they are with, not who acts."""
    if not text:
        return ""
    folded = folded_text(text)
    found = [(m.start(), m.group(1)) for m in _EN_PRONOUN.finditer(folded, 0, 400)][:1]
    found += [(m.start(), m.group(1)) for m in _EN_OPENING_PRONOUN.finditer(folded, 0, 400)
              if _subject_word(m.group(2)) and not _IMPERSONAL_IT.match(folded, m.start())][:1]
    found += [(m.start(), next(g for g in m.groups() if g)) for m in _CJK_PRONOUN.finditer(folded, 0, 400)][:1]
    if not found:
        return ""
    at, pronoun = min(found)
    if at > _first_named_at(folded, names)[1]:
        return ""
    return SEVERAL if pronoun in _SEVERAL else ONE


def _subject_word(word: str) -> bool:
    """Whether ``word`` after "it", "her" or "him" makes it a subject: a verb of a person
    ("It runs", "Her walks") or a second subject ("Her and Yuzu")."""
    from studio.core.sentence import VERBS_AFTER_TO, third_person  # lazily: sentence is large

    if word in ("and", "&", "is", "was", "has", "says", "gets", "tries"):
        return True
    return any(third_person(verb) == word for verb in VERBS_AFTER_TO)


_FIELD_PRONOUNS = frozenset({"she", "he", "her", "him", "it", "彼女", "彼", "她", "他", "它", "그녀", "그"})
_FIELD_SEVERAL = frozenset({"they", "them", *_SEVERAL})


def field_pronoun(field: str, names: Sequence[str]) -> str:
    """Whether a Character field stands for whoever the turn before was about: a pronoun, alone
    or before any of ``names`` (the cast) (:func:`subject_pronoun`: "she", "Her", "彼女", "They",
    "she and Yuzu"): :data:`ONE` or :data:`SEVERAL`; "" for a name."""
    written = character_names(field, names)
    if not written or written_key(written[0]) in {written_key(name) for name in names}:
        return ""  # a cast member's name ("It", "Her Majesty") is theirs
    first = folded_text(written[0])
    if first in _FIELD_SEVERAL:
        return SEVERAL
    if first in _FIELD_PRONOUNS:
        return ONE
    return subject_pronoun(field, names)


def field_actor(field: str, names: Sequence[str]) -> str:
    """Who acts for a Character field: its one name, or of several joined ("Qiqi and Yuzu":
    :func:`character_names`) the first that is in the cast (``names``), else the first
    written. "" for an empty field, and for a pronoun (:func:`field_pronoun`: the turn goes on
    with the character of the turn before, as "She runs" does)."""
    if field_pronoun(field, names):
        return ""
    written = character_names(field, names)
    keys = {written_key(name) for name in names if name.strip()}
    return next((name for name in written if written_key(name) in keys), written[0] if written else "")
