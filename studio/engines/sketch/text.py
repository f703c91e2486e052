"""Words: tokenising and a small lemmatiser for instruction text.

The lemmatiser only has to be good enough to map the inflections a user writes
("flies", "flying", "flew", "ran", "danced", "cries") onto the base forms our vocabulary
knows. It tries rules in a fixed order and keeps the first candidate that is a known
word, so it never invents a lemma for a word we could not use anyway.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

MAX_ANALYSED_CHARS = 400
"""Longest stretch of one instruction field that is analysed, in characters as a reader sees them
(an emoji with its skin tone is one), counted as the user wrote it. Each field is held to it on
its own before anything else is read (:func:`~studio.core.instruction.read_within`: a longer field
is cut, with a warning that names it)."""
MAX_TRANSLATED_CHARS = 16 * MAX_ANALYSED_CHARS
"""Longest stretch of one field read while reading a turn put into English from Japanese
(:func:`reading_translation`). Its fields are the English of their first :data:`MAX_ANALYSED_CHARS`
characters as written, and an English word is longer than its Japanese one (峠, one character,
is " mountainside "), so the English of what is read as written can be many times that long."""

_READ_CHARS: ContextVar[int] = ContextVar("sketch_read_chars", default=MAX_ANALYSED_CHARS)


def analysed_chars() -> int:
    """How many characters of one field are read now: :data:`MAX_ANALYSED_CHARS`, or
    :data:`MAX_TRANSLATED_CHARS` while reading a turn put into English (:func:`reading_translation`)."""
    return _READ_CHARS.get()


@contextmanager
def reading_translation(translated: bool = True) -> Iterator[None]:
    """Within it, a field is read as far as :data:`MAX_TRANSLATED_CHARS` (when ``translated``):
    the limit of :data:`MAX_ANALYSED_CHARS` was applied to the text as written, before its
    Japanese words were put into longer English ones, so that a Japanese turn is read as far as
    an English turn of the same length is."""
    token = _READ_CHARS.set(MAX_TRANSLATED_CHARS if translated else _READ_CHARS.get())
    try:
        yield
    finally:
        _READ_CHARS.reset(token)

IRREGULAR: dict[str, str] = {
    "flew": "fly", "flown": "fly", "ran": "run", "lay": "lie", "lain": "lie", "lying": "lie",
    "lays": "lie", "laid": "lie", "laying": "lie",  # "lay down" is read as "lie down", so are its forms
    "sat": "sit", "ate": "eat", "eaten": "eat", "drank": "drink", "drunk": "drink", "swam": "swim",
    "swum": "swim", "fell": "fall", "fallen": "fall", "sang": "sing", "sung": "sing", "threw": "throw",
    "thrown": "throw", "caught": "catch", "wrote": "write", "written": "write", "slept": "sleep",
    "met": "meet", "spoke": "speak", "spoken": "speak", "said": "say", "went": "go", "gone": "go",
    "took": "take", "taken": "take", "held": "hold", "stood": "stand", "woke": "wake", "began": "begin",
    "saw": "see", "seen": "see", "rode": "ride", "ridden": "ride", "bit": "bite", "bitten": "bite",
    "hid": "hide", "hidden": "hide", "told": "tell", "fought": "fight", "brought": "bring",
    "shook": "shake", "shaken": "shake", "struck": "strike", "froze": "freeze", "frozen": "freeze",
    "dove": "dive", "leapt": "leap", "crept": "creep", "swept": "sweep", "knelt": "kneel",
    "dug": "dig", "drew": "draw", "drawn": "draw", "hung": "hang", "sought": "seek", "wept": "weep",
    "thought": "think", "felt": "feel", "made": "make", "did": "do", "done": "do", "was": "be",
    "were": "be", "is": "be", "are": "be", "am": "be", "has": "have", "had": "have", "children": "child",
    "people": "people", "men": "man", "women": "woman", "feet": "foot",
    "shelves": "shelf", "waves": "wave", "dying": "die", "tying": "tie", "skies": "sky",
}
"""Irregular forms, mapped to their base form."""

E_VERBS_LIKE_SHORTER = (
    "hope", "mope", "tape", "dine", "bare", "spare", "site", "pine", "wine", "robe", "cope", "plane", "scrape",
    "gripe", "slope", "stare", "care", "scare", "hate", "rate", "note", "cute", "bite", "snipe", "spite",
)
"""Verbs ending in "e" whose forms, the "e" dropped, spell another word's: "hoped" is not "hop"
("hopped" is), "moped" not "mop", "spared" not "spar". A short verb doubles its last letter
before "-ed" and "-ing", so the form with one letter is the "e" verb's."""
E_VERB_FORMS: dict[str, str] = {
    form: verb for verb in E_VERBS_LIKE_SHORTER for form in (verb + "d", verb[:-1] + "ing", verb + "s")
}

STOPWORDS: frozenset[str] = frozenset({
    "a", "an", "the", "to", "of", "on", "in", "at", "into", "onto", "over", "under", "by", "with", "from", "for",
    "and", "or", "but", "her", "his", "their", "its", "my", "your", "our", "some", "very", "really", "then",
    "while", "as", "about", "through", "across", "toward", "towards", "near", "next", "this", "that", "these",
    "those", "there", "here", "it", "she", "he", "they", "we", "i", "you", "him", "them", "me", "is", "be",
    "being", "been", "just", "also", "again", "still", "too", "so",
})
"""Words that carry no motion or place meaning ("up", "down", "off", "around" are kept:
they tell "look around" from "look" and "lie down" from "lie")."""

_WORD_RE = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?", re.UNICODE)


def visible(text: str) -> str:
    """``text`` without invisible format characters (zero-width spaces and joiners, soft hyphens,
    direction marks): a soft hyphen inside "dance" still gives "dance", and a text of nothing else is empty."""
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


def first_read(text: str, limit: int | None = None) -> str:
    """The start of ``text`` that is read: its first ``limit`` characters as a reader sees them
    (by default :func:`analysed_chars`), never part of one, so an emoji keeps its skin tone and
    joined people stay joined. Each field is already held to :data:`MAX_ANALYSED_CHARS` as
    written; this bounds what is read of several fields read together, and of the English of a
    Japanese turn (:func:`reading_translation`)."""
    limit = analysed_chars() if limit is None else limit
    if len(text) <= limit:  # no text of n code points holds more than n characters
        return text
    from studio.core.graphemes import first_graphemes

    return first_graphemes(text, limit)


def normalise(text: str, limit: int | None = None) -> tuple[str, bool]:
    """Lowercase and NFKC-normalise what is read of ``text`` (:func:`first_read`, at ``limit``),
    without its invisible characters (:func:`visible`); returns (text, was_cut). It is cut as
    written, before its joiners are taken out, so that it counts as the field's limit counts."""
    text = text or ""
    read = first_read(text, limit)
    return visible(unicodedata.normalize("NFKC", read)).lower(), len(read) < len(text)


def tokenise(text: str) -> list[str]:
    """Lowercase words made of letters (emoji, digits and punctuation are dropped)."""
    words = _WORD_RE.findall(visible(unicodedata.normalize("NFKC", text)).lower())
    return [w.replace("'s", "") for w in words]


def word_spans(text: str) -> list[tuple[str, int, int]]:
    """The words :func:`tokenise` finds in ``text``, each with where it starts and ends.

    ``text`` must already be normalised (:func:`normalise`): the positions are in it, so that
    a caller can take words out of the text and read the rest as written."""
    return [(m.group().replace("'s", ""), m.start(), m.end()) for m in _WORD_RE.finditer(text)]


def _candidates(word: str) -> list[str]:
    out: list[str] = []
    if word.endswith("ies") and len(word) > 4:
        out.append(word[:-3] + "y")
    if word.endswith("ied") and len(word) > 4:
        out.append(word[:-3] + "y")
    if word.endswith("ying") and len(word) > 5:
        out.append(word[:-3])  # flying -> fly, crying -> cry
    if word.endswith("ing") and len(word) > 4:
        stem = word[:-3]
        out += [stem, stem + "e"]
        if len(stem) > 2 and stem[-1] == stem[-2]:
            out.append(stem[:-1])
    if word.endswith("ed") and len(word) > 3:
        stem = word[:-2]
        out += [stem, word[:-1]]
        if len(stem) > 2 and stem[-1] == stem[-2]:
            out.append(stem[:-1])
    if word.endswith("es") and len(word) > 3:
        out.append(word[:-2])
    if word.endswith("s") and not word.endswith("ss") and len(word) > 2:
        out.append(word[:-1])
    return out


def lemmatise(word: str, known: Collection[str] = ()) -> str:
    """Base form of ``word``: irregulars first, then suffix rules checked against ``known``.

    When no candidate is known, a plain plural/3rd-person ``-s`` is still stripped and
    ``-ing``/``-ed`` are kept, so unknown words stay recognisable in warnings.
    """
    word = word.lower()
    if word in IRREGULAR:
        return IRREGULAR[word]
    if word in E_VERB_FORMS:  # "hoped" is hope, whether or not a "hop" is known
        return E_VERB_FORMS[word]
    if word in known:
        return word
    candidates = _candidates(word)
    for candidate in candidates:
        if candidate in known or candidate in IRREGULAR.values():
            return candidate
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def lemmas(text: str, known: Collection[str] = ()) -> list[str]:
    """Tokenise and lemmatise ``text``."""
    return [lemmatise(w, known) for w in tokenise(text)]


def content_words(words: list[str]) -> list[str]:
    """``words`` without stopwords."""
    return [w for w in words if w not in STOPWORDS]
