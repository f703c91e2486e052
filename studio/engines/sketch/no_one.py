"""Whom a motion meant for someone is done to, when that is no person.

Talking, meeting people, hugging and waving are done to someone: with no cast member named, the
sketch engine makes up a friend for a talk, a meeting or a hug, and each gains social. Done to the
character ("talks to herself"), to no one ("waves at nobody"), to a thing ("hugs her pillow") or
to an animal ("hugs her cat"), the motion is done alone: no friend is made up, no social is
gained, and an animal, which the sketch world does not draw, is said not to be drawn.
"""

from __future__ import annotations

import re

from studio.engines.sketch.text import normalise
from studio.engines.sketch.understanding import split_negated
from studio.engines.sketch.vocabulary import MotionSpec

MEANT_FOR_SOMEONE = frozenset({"talk", "meet people", "hug", "wave"})
"""Motions done to someone: with no person there, they are done alone (:func:`done_to_no_one`)."""
SELF_WORDS = frozenset({"herself", "himself", "themselves", "themself", "myself", "yourself", "itself", "oneself"})
NO_ONE_WORDS = frozenset({"nobody", "noone", "nothing", "no-one"})
ANIMAL_WORDS = frozenset({
    "cat", "cats", "kitten", "kitty", "dog", "dogs", "puppy", "puppies", "bird", "birds", "rabbit", "bunny",
    "horse", "pony", "cow", "fish", "frog", "crow", "owl", "hamster", "mouse", "duck", "fox", "pet", "pets",
    "animal", "animals", "jiji", "parrot", "turtle", "squirrel", "deer",
})
"""Animals a character may hug, talk to or wave at: the sketch world draws no animals."""
THING_WORDS = frozenset({
    "pillow", "cushion", "doll", "dolls", "teddy", "toy", "toys", "plushie", "plush", "tree", "trees", "flower",
    "flowers", "plant", "plants", "book", "blanket", "letter", "phone", "mirror", "broom", "broomstick", "bag",
    "box", "ball", "picture", "photo", "photograph", "statue", "umbrella", "hat", "scarf", "bread", "cake", "sky",
    "moon", "sun", "stars", "sea", "wall", "door", "window", "camera", "radio", "diary", "present", "gift",
    "bear", "scarecrow", "snowman", "wind", "clouds",
})
"""Things a character may hug, talk to or wave at, which are no one to draw beside them."""
_DONE_TO_RE = re.compile(
    r"\b(?:hug|hugs|hugged|hugging|embrace|embraces|embraced|embracing|cuddle|cuddles|cuddled|cuddling|talk|talks"
    r"|talked|talking|chat|chats|chatted|chatting|speak|speaks|spoke|speaking|whisper|whispers|whispered|whispering"
    r"|wave|waves|waved|waving|meet|meets|met|meeting|greet|greets|greeted|greeting)"
    r"\s+(?:(?:to|at|with)\s+)?(?:(?:her|his|their|my|your|its|our|the|a|an|little|old|favourite|favorite|pet|"
    r"stuffed|soft|big|small|own|beloved|black|white|grey|gray|fluffy|teddy)\s+)*(?P<who>[^\W\d_][\w-]*)")
"""A verb of a motion done to someone and the word for whom (or what): "hugs her pillow",
"talks to herself", "waves at nobody", "hugs her black cat"."""


def done_to_no_one(text: str, motion: MotionSpec) -> str:
    """For a ``motion`` meant for someone (:data:`MEANT_FOR_SOMEONE`), the word free ``text``
    (speech taken out) writes for whom it is done to when that is no person: the character
    ("herself"), no one ("nobody"), an animal ("cat") or a thing ("pillow"); '' for a person,
    a name, or a motion done to no one in particular ("Qiqi talks")."""
    if motion.name not in MEANT_FOR_SOMEONE:
        return ""
    kept, _ = split_negated(re.sub(r"\bno[\s-]+one\b", "nobody", normalise(text)[0]))  # "no" is no negation here
    for match in _DONE_TO_RE.finditer(kept):
        who = match.group("who")
        if who in NO_ONE_WORDS:
            return "nobody"
        if who in SELF_WORDS or who in ANIMAL_WORDS or who in THING_WORDS:
            return who
    return ""


def an_animal(word: str) -> bool:
    """Whether ``word`` (from :attr:`Reading.no_one`) names an animal, which the sketch world does not draw."""
    return word in ANIMAL_WORDS
