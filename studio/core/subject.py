"""A name a free-text turn opens with that is nobody in the cast ("Hana waves at Aoi").

A turn's character is its Character field, else the first cast member its text names,
else the character of the turn before (:meth:`StoryTree.acting_character`). A name the cast
doesn't hold is none of these, so "Hana waves" silently goes on with someone else; this
finds such a name so that the turn can say so.
"""

from __future__ import annotations

import re

from studio.core.instruction import Instruction
from studio.core.sentence import VERBS_AFTER_TO, third_person
from studio.core.speech import is_script_line
from studio.core.state import written_key
from studio.core.tree import StoryTree

_PERSON_VERBS = frozenset(third_person(verb) for verb in VERBS_AFTER_TO) | {"is", "gets", "tries", "says"}
"""The words after a subject that make the word before them one ("Hana waves", "Hana is")."""

_NOT_NAMES = frozenset((
    "i", "he", "she", "they", "we", "you", "it", "one", "everyone", "everybody", "someone", "somebody", "nobody",
    "anyone", "anybody", "no-one", "all", "both", "each", "none", "who", "what", "the", "a", "an", "this", "that",
    "these", "those", "then", "now", "suddenly", "later", "meanwhile", "today", "tonight", "tomorrow", "yesterday",
    "finally", "next", "here", "there", "again", "still", "rain", "snow", "wind", "sun", "moon", "night", "day",
    "time", "music", "everything", "nothing", "something", "morning", "evening", "dawn", "dusk", "noon", "midnight",
    "sunset", "sunrise", "afternoon", "cut", "camera", "scene", "character", "motion", "background",
))
"""Capitalised sentence openers that are not names (pronouns, time words, weather...)."""

_WORD = re.compile(r"[^\W\d_]+(?:['\u2019-][^\W\d_]+)*")
_SCANNED = 200  # the opening words are all that is read


def opening_name(text: str) -> str:
    """The capitalised word ``text`` opens with when a verb follows it, directly or after an
    adverb ("Hana waves", "Hana slowly walks", "Hana is dancing"): a subject, and most likely
    a name. "" for anything else: pronouns and other openers ("She waves", "Suddenly it
    rains"), scripts without capitals, a name followed by anything but a verb."""
    words = text[:_SCANNED].split()
    if len(words) < 2:
        return ""
    first = words[0]
    if not _WORD.fullmatch(first) or len(first) < 2 or not first[0].isupper() or first.lower() in _NOT_NAMES:
        return ""
    verb = words[1].lower()
    if verb.endswith("ly") and len(words) > 2:  # an adverb between: "Hana slowly walks"
        verb = words[2].lower()
    return first if verb in _PERSON_VERBS else ""


def script_speaker(instruction: Instruction) -> str:
    """Who speaks the first script line of ``instruction`` ('Hana: "I am home"' -> Hana): the
    turn is theirs, as the story credits it when the speaker is in the cast; "" for none."""
    for key, value in instruction.extra:
        if not is_script_line(value) or not _WORD.fullmatch(key) or key.lower() in _NOT_NAMES:
            continue
        written = re.search(rf"(?<!\w){re.escape(key)}(?=\s*:)", instruction.raw, re.IGNORECASE)
        name = written.group(0) if written else key  # the key is kept in lower case; the name as typed
        if name[0].isupper():  # as an opening name: a capital marks it ("hana:" is no one's line)
            return name
    return ""


def unlisted_subject(tree: StoryTree, node_id: str) -> str:
    """A warning for a turn whose free text opens with a name that is not in the cast (nor a
    place, nor a character with a start state, nor the character the turns before went on
    with); "" when there is none or the turn has a Character field (the engine speaks of an
    unknown name there)."""
    instruction = tree.node(node_id).instruction
    if instruction.character.strip():
        return ""
    name = opening_name(instruction.free_text) or script_speaker(instruction)
    if not name:
        return ""
    known = [member.name for member in tree.cast.values()]
    known += [location.name for location in tree.locations.values()]
    known += list(tree.root.start_states)
    if written_key(name) in {written_key(other) for other in known if other.strip()}:
        return ""
    actor = tree.acting_character(node_id)
    if written_key(actor) == written_key(name):  # named in a Character field of a turn before
        return ""
    shown = actor or "another character"
    return (f"{name!r} is not in the cast: the turn shows {shown}; add {name} to the cast, or write "
            f"'Character: {name};' in the instruction, to draw them.")
