"""Reading an instruction: which motion, how strongly, where, when, seen by which camera.

The parsed fields of :class:`~studio.core.instruction.Instruction` come first; free text
fills the gaps ("Qiqi runs through the town at night"). Anything we cannot place maps to
the nearest thing we can draw, with a warning in one fixed form::

    'juggle' unknown, shown as 'wave'

so the user sees exactly what was substituted. Nothing here raises on bad text.
"""

from __future__ import annotations

import difflib
import itertools
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from studio.core.instruction import TIME_WORDS, FieldCut, Instruction, read_within
from studio.core.sentence import marked_chinese
from studio.core.speech import QUOTED_RE, is_script_line, outside_quotes
from studio.core.text import shows_something
from studio.engines.sketch import chinese, japanese, korean
from studio.engines.sketch.han_hangul_names import cast_names_in_han_and_hangul
from studio.engines.sketch.idioms import motion_of_emoji, plainly
from studio.engines.sketch.japanese import in_english, written_as
from studio.engines.sketch.kana_names import cast_names_in_kana
from studio.engines.sketch.seats import SEAT_WORDS, SEATED_ANIMS
from studio.engines.sketch.text import (
    E_VERB_FORMS,
    MAX_ANALYSED_CHARS,
    STOPWORDS,
    first_read,
    lemmas,
    lemmatise,
    normalise,
    reading_translation,
    tokenise,
    visible,
    word_spans,
)
from studio.engines.sketch.vocabulary import (
    ADVERB_LEVELS,
    CAMERA_PHRASES,
    DEFAULT_LOCATION,
    IDLE,
    INSTRUMENT_STAND_IN,
    INSTRUMENTS,
    KNOWN_WORDS,
    LOCATION_BY_NAME,
    LOCATIONS,
    LOCATIVE_PREPOSITIONS,
    MORE_MOTION_PHRASES,
    MOTION_BY_NAME,
    MOTIONS,
    SCHOOL_ROOM_KINDS,
    SCHOOL_ROOM_STAND_IN,
    TIMES_OF_DAY,
    UNKNOWN_LOCATION_HINTS,
    UNKNOWN_MOTION_HINTS,
    CameraMode,
    MotionFamily,
    MotionSpec,
    Setting,
)
from studio.engines.sketch.weather import NOT_DRAWN as WEATHER_NOT_DRAWN
from studio.engines.sketch.weather import weather_named, without_weather_verbs

INTENSIFIERS = frozenset({"very", "really", "super", "extremely", "so"})
CAMERA_CUE_WORDS = frozenset({"camera", "shot", "cam", "view"})
UNAMBIGUOUS_CAMERA = frozenset({"zoom", "orbit", "pan", "panning", "tracking", "closeup"})
NEAREST_CUTOFF = 0.85
"""How alike (difflib ratio) an unknown word and a known one must be for the first to be
read as the second misspelt, besides one letter off (:func:`_look_alike`)."""
NEGATORS = frozenset({"not", "never", "no", "without", "cannot", "dont", "doesnt", "didnt", "isnt", "wont", "cant",
                      "arent", "wasnt", "werent", "aint", "shouldnt", "wouldnt", "couldnt", "mustnt", "neither", "nor",
                      "refuse", "refuses", "refused", "refusing"})
"""Words that say a motion is not done ("doesn't run", "refuses to dance"); words ending in "n't" count too."""
NO_MOTION_WORDS = frozenset({"nothing", "none", "nil", "null", "nope", "nada"})
"""A motion field that says there is no motion ("Motion: none") is idle, not the nearest word."""
_CLAUSE_RE = re.compile(r"[,.;:!?…()\[\]]|\b(?:but|instead|then|rather|yet)\b")
"""Where a negation stops: punctuation, or a word that turns to the next clause."""
STOP_FORMS = ("stop", "stops", "stopped", "stopping", "quit", "quits", "quitting", "cease", "ceases", "ceased",
              "ceasing")
"""Words that end a motion: a negated one ("never stops running") says the motion goes on."""
_NEGATED_STOP_RE = re.compile(
    r"\b(?:" + "|".join(sorted(NEGATORS)) + r"|[^\W\d_]+n't)\s+(?:ever\s+)?(?:" + "|".join(STOP_FORMS)
    + r")\s+(?=[^\W\d_]+ing\b)")
"""A negator and a stop word right before an "-ing" form: "can't stop laughing" is laughing."""
_STOPPED_MOTION_RE = re.compile(r"\b(" + "|".join(STOP_FORMS) + r")\s+[^\W\d_]+ing\b")
_STOPPED_THEN_RE = re.compile(
    r"\b(?:" + "|".join(STOP_FORMS) + r")\s+[^\W\d_]+ing\s*(?:,\s*)?(?:and\s+(?:then\s+)?|then\s+)(?=[^\W\d_])")
"""A stop that ends a motion and the word "and" that turns to the next one: "stopped crying
and smiles" shows the smile, the cry being over."""
"""A stop word and the "-ing" form it ends: "stops running" is a stop, not a second motion."""


_SPEECH_RE = QUOTED_RE
"""Words in quotes (:data:`studio.core.speech.QUOTED_RE`): what a character says ("Qiqi says
"let's run!""), not what the turn shows."""


def without_speech(text: str) -> tuple[str, bool]:
    """``text`` with the words in quotes taken out, each left as a clause break, and whether
    any were: "Qiqi says "see you at night" at noon" is said at noon, and "Qiqi says "don't
    run"" names no run. Words said without quotes go too (:func:`without_said`: "Qiqi says:
    let's go home"). A text that is all one quote ("\u201cQiqi runs\u201d") is kept as it is: it
    is the instruction itself, quoted."""
    spoken = _SPEECH_RE.findall(text)
    rest, quoted = text, False
    if spoken:
        rest = _SPEECH_RE.sub(" . ", text)
        if not any(ch.isalnum() for ch in rest):
            return text, False
        quoted = any(_has_symbols(quote[1:-1]) for quote in spoken)
    rest, said = without_said(rest)
    return rest, quoted or said


def _forms(*verbs: str) -> frozenset[str]:
    """The written forms of regular ``verbs`` ("whisper" -> whisper, whispers, whispered,
    whispering; "reply" -> replies, replied, replying); irregular pasts are listed apart."""
    out: set[str] = set()
    for verb in verbs:
        if verb.endswith("y") and verb[-2] not in "aeiou":
            out |= {verb, verb[:-1] + "ies", verb[:-1] + "ied", verb + "ing"}
        elif verb.endswith("e"):
            out |= {verb, verb + "s", verb + "d", verb[:-1] + "ing"}
        elif verb.endswith(("sh", "ch", "ss")):
            out |= {verb, verb + "es", verb + "ed", verb + "ing"}
        else:
            out |= {verb, verb + "s", verb + "ed", verb + "ing"}
    return frozenset(out)


_TELLING = _forms("ask", "beg", "order", "remind", "urge", "warn", "invite", "encourage", "instruct", "plead") | {
    "tell", "tells", "told", "telling", "begs", "begged", "begging", "pleads", "pleaded"}
"""Verbs whose "to" says what is asked for: "tells Yuzu to run", "asks to go home"."""
_SAYING = _TELLING | _forms(
    "shout", "yell", "scream", "whisper", "call", "reply", "answer", "mutter", "murmur", "exclaim", "announce",
    "declare", "explain", "add", "insist", "promise", "admit", "suggest", "complain", "claim", "cry", "sigh",
    "agree", "wonder", "think") | {"say", "says", "said", "saying", "think", "thinks", "thought", "thinking"}
"""Verbs whose "that" or colon starts what is said or thought: "says that...", "whispers: ..."."""
_WRITING = _forms("write", "sing", "chant", "text", "note") | {"wrote", "written", "sang", "sung", "writes"}
"""Verbs whose colon (only) starts the words: "writes: see you", "sings: la la" ("writes that letter" is a letter)."""
MAX_ADDRESSEE_WORDS = 4
"""Most words between a verb of speech and its colon, "that" or "to": "tells her little brother to run"."""
_NOT_ADDRESSEE = (frozenset({"or", "but", "then", "while", "so", "because", "before", "after", "when", "for", "about",
                             "of", "with"}) | LOCATIVE_PREPOSITIONS) - {"to", "at"}
"""Words no one spoken to is written with ("asks Yuzu for directions to the park" says nothing
with its "to"); "to" and "at" are ("says to Yuzu: ...", "shouts at Yuzu that ...")."""
_COLON_SAID_END_RE = re.compile(r"[.!?;…。！？\n]|,\s*(?:and\s+)?then\b|,\s*but\b")
"""Where words after a colon stop being said: the sentence's end, or ", then" turning to what is shown."""
_CLAUSE_SAID_END_RE = re.compile(r"[.!?;:,…。！？\n]|\b(?:then|but)\b")
"""Where words after "that" or "to" stop being said: the clause's end."""
_LINE_START_RE = re.compile(r"(?:^|[;\n])\s*(?P<name>[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*)?)\s*[:：]")
"""A name and a colon at the start of a text or of a part of it: 'Aoi: I am home'."""
_SPOKEN_WORDS = frozenset({
    "i", "i'm", "i'll", "i've", "i'd", "me", "my", "mine", "we", "we're", "we'll", "let's", "us", "our", "you",
    "you're", "you'll", "your", "yours"})
"""Words a line of speech has and a description of the turn has not: a speaker's first and second person."""
_INTERJECTIONS = frozenset({
    "hi", "hello", "hey", "oh", "ah", "wow", "yes", "yeah", "okay", "ok", "thanks", "sorry", "please", "bye",
    "goodbye", "ouch", "hmm", "huh", "um", "welcome", "ahh", "ohh", "yay", "whoa"})
"""Words a line of speech opens with: 'Aoi: hello!'."""


def _addressee(text: str, words: Sequence[tuple[str, int, int]], verb: int) -> int | None:
    """How many words stand between the verb of speech ``words[verb]`` and what is said: the one
    spoken to ("tells Yuzu to", "whispers to Yuzu that"); None when a motion or a turn to
    another clause comes first ("tells Yuzu and runs to..."). A "to" ends it after a verb of
    asking ("asks to go"), and is the way to the one spoken to after the others ("says to Yuzu")."""
    asking = words[verb][0].lower() in _TELLING
    for n in range(MAX_ADDRESSEE_WORDS + 1):
        i = verb + 1 + n
        if i >= len(words) or _CLAUSE_BREAK_RE.search(text[words[i - 1][2]:words[i][1]]):
            return n
        token = words[i][0].lower()
        if token == "that" or (token == "to" and asking):
            return n
        lemma = lemmatise(token, KNOWN_WORDS)
        if token in _NOT_ADDRESSEE or lemma in _MOTION_WORDS or lemma in UNKNOWN_MOTION_HINTS or \
                token in _SAYING or token in _WRITING:
            return None
    return None


def _clause_after(words: Sequence[tuple[str, int, int]], that: int) -> bool:
    """Whether the "that" at ``words[that]`` leads what is said ("says that it is late"), not
    a place, a time or a manner written after a "that" that stands for a thing ("thinks that
    over in the park")."""
    if that + 1 >= len(words):
        return False
    following = words[that + 1][0].lower()
    return following not in LOCATIVE_PREPOSITIONS and following not in TIME_WORDS and following not in ADVERB_LEVELS \
        and following not in _NOT_ADDRESSEE


def _infinitive_after(words: Sequence[tuple[str, int, int]], to: int) -> bool:
    """Whether the "to" at ``words[to]`` leads a verb ("asks Yuzu to dance"), not a place or a
    thing ("invites Yuzu to the park", "asks Yuzu to school")."""
    if to + 1 >= len(words):
        return False
    following = words[to + 1][0].lower()
    lemma = lemmatise(following, KNOWN_WORDS)
    return following not in _PLACE_LEADS and (lemma not in _LOCATION_WORDS or lemma in _MOTION_WORDS)


def _said_after(text: str, words: Sequence[tuple[str, int, int]], i: int) -> tuple[int, int] | None:
    """Where the words said after the verb of speech ``words[i]`` are in ``text`` (start, end),
    or None when it says nothing that way: a colon ("says: let's go"), "that" ("says that it is
    late") or, after a verb of asking, "to" ("tells Yuzu to run"), with the one spoken to between."""
    verb = words[i][0].lower()
    between = _addressee(text, words, i)
    if between is None:
        return None
    last = words[i + between][2]
    after = text[last:]
    colon = re.match(r"\s*[:：]", after)
    if colon is not None:
        start, ends = last + colon.end(), _COLON_SAID_END_RE
    else:
        k = i + 1 + between
        if k >= len(words) or _CLAUSE_BREAK_RE.search(text[last:words[k][1]]):
            return None
        link = words[k][0].lower()
        if not ((link == "that" and verb in _SAYING and _clause_after(words, k))
                or (link == "to" and verb in _TELLING and _infinitive_after(words, k))):
            return None
        start, ends = words[k][2], _CLAUSE_SAID_END_RE
    stop = ends.search(text, start)
    end = stop.start() if stop is not None else len(text)
    start += len(text[start:end]) - len(text[start:end].lstrip())
    return (start, end) if any(ch.isalpha() for ch in text[start:end]) else None


def _a_line_of_speech(line: str) -> bool:
    """Whether ``line``, written after a name and a colon, is what the name says ('Aoi: I am
    home', 'Aoi: are you there?') rather than what they do ('Aoi: runs to the park'): it speaks
    in the first or second person, opens with a greeting or an exclamation, or asks."""
    words = tokenise(_apostrophes(line))
    return bool(words) and (any(w in _SPOKEN_WORDS or w.startswith(("i'", "you'", "we'")) for w in words)
                            or words[0] in _INTERJECTIONS or line.rstrip().endswith(("?", "？")))


def _script_line_spans(text: str) -> list[tuple[int, int]]:
    """The lines of a script written without quotes in ``text``: 'Aoi: I am home' says "I am
    home" (to the end of its sentence). A name is a word or two; a label or a field name never
    gets here (the instruction parser takes those)."""
    found: list[tuple[int, int]] = []
    for match in _LINE_START_RE.finditer(text):
        name = match.group("name")
        if not name[0].isupper() or any(w in STOPWORDS or lemmatise(w, KNOWN_WORDS) in _MOTION_WORDS
                                        for w in tokenise(name)):
            continue
        start = match.end() + len(text[match.end():]) - len(text[match.end():].lstrip())
        stop = _COLON_SAID_END_RE.search(text, start)
        end = stop.start() if stop is not None else len(text)
        if _a_line_of_speech(text[start:stop.end() if stop is not None else end]):
            found.append((start, end))
    return found


def said_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` writes words said without quotes (start, end), in order: after a verb of
    speech and a colon, "that" or (asking) "to" ("Qiqi says: let's go home", "tells Yuzu to
    run", "says that it is late"), and the line of a script ('Aoi: I am home')."""
    words = word_spans(text)
    found = _script_line_spans(text)
    for i, (token, _, _) in enumerate(words):
        low = token.lower()
        if low in _SAYING or low in _WRITING:
            span = _said_after(text, words, i)
            if span is not None and not any(s <= span[0] < e for s, e in found):
                found.append(span)
    return sorted(found)


def without_said(text: str) -> tuple[str, bool]:
    """``text`` with the words said without quotes (:func:`said_spans`) taken out, each left as
    a clause break, and whether any were: "Qiqi says: let's go home" talks where she is."""
    spans = said_spans(text)
    if not spans:
        return text, False
    parts: list[str] = []
    kept_from = 0
    for start, end in spans:
        if start < kept_from:
            continue
        parts += [text[kept_from:start], " . "]
        kept_from = end
    parts.append(text[kept_from:])
    return "".join(parts), True


is_quoted_line = is_script_line
"""Whether a value is one quote and nothing else: the line of a script ('Aoi: "I'm home!"')."""


def speakers(instr: Instruction) -> list[str]:
    """Who speaks the script lines of ``instr``: the names before the quotes ('Aoi: "I'm home!"' -> Aoi)."""
    return [key for key, value in instr.extra if is_quoted_line(value)]


def _heard(instr: Instruction) -> tuple[Instruction, bool]:
    """``instr`` with the speech in its free text taken out (:func:`without_speech`), and whether
    there was any, there or as a script line (:func:`speakers`). The Motion field is kept:
    quotes there ("Motion: "dance"") only mark the word."""
    free_text, spoken = without_speech(instr.free_text)
    spoken = spoken or bool(speakers(instr))
    return (replace(instr, free_text=free_text) if free_text != instr.free_text else instr), spoken


def _quoted_motion(text: str) -> MotionSpec | None:
    """The motion words in quotes name when nothing else in ``text`` names one: a word set off
    in quotes ('Qiqi does a "dance"') rather than speech; None when they name none, or negate it."""
    said = " . ".join(quote[1:-1] for quote in _SPEECH_RE.findall(text))
    said = settle_stops(normalise(said)[0])
    if split_negated(said)[1]:
        return None
    match = drawn_match(_content(said), motion_phrases(said))
    return MOTION_BY_NAME[match.name] if match is not None else None


@dataclass(frozen=True, slots=True)
class Match:
    name: str
    words: int
    position: int
    phrase: tuple[str, ...] = ()


@dataclass(slots=True)
class Reading:
    """What an instruction says, resolved against the sketch world's vocabulary."""

    motion: MotionSpec = IDLE
    level: int = IDLE.level
    adverb: str = ""
    location: str = ""
    location_given: bool = False
    time: str = ""
    camera: CameraMode | None = None
    zoom_out: bool = False
    character: str = ""
    warnings: list[str] = field(default_factory=list)
    unknown_places: tuple[str, ...] = ()
    """Names the free text gives as the place that are no place of ours ("runs in Mordor"):
    the engine, which knows the cast and where the turn is drawn, warns about them."""
    from_where_it_starts: bool = False
    """The place is where a way the free text names starts ("walks from the station to Mordor"):
    where it goes is no place of ours, and is said (``unknown_places``)."""
    together: bool = False
    """The free text says the motion is done with someone not of the cast ("with a friend",
    "together"): a social gain (:data:`studio.engines.sketch.rules.COMPANY_SOCIAL`). A friend
    of the cast named is the engine's to tell."""


def _phrase_words(phrase: str) -> tuple[str, ...]:
    return tuple(w for w in lemmas(phrase, KNOWN_WORDS) if w not in STOPWORDS)


_MOTION_PHRASES: list[tuple[str, tuple[str, ...]]] = [
    (m.name, _phrase_words(p)) for m in MOTIONS for p in (*m.phrases, *MORE_MOTION_PHRASES.get(m.name, ()))
]
_LOCATION_PHRASES: list[tuple[str, tuple[str, ...]]] = [
    (loc.name, _phrase_words(p)) for loc in LOCATIONS for p in loc.phrases
]
_CAMERA_PHRASES: list[tuple[str, tuple[str, ...]]] = [
    (mode.value, _phrase_words(p)) for mode, phrases in CAMERA_PHRASES.items() for p in phrases
]
_CAMERA_FIELD_STOPWORDS = STOPWORDS - {w for phrases in CAMERA_PHRASES.values() for p in phrases for w in p.split()}
"""What a Camera field leaves out of its words: the stopwords, less those a camera phrase is
made of ("still" is the static camera, "in" tells "dolly in", a zoom, from "dolly", a follow)."""


def _camera_field_words(text: str) -> tuple[str, ...]:
    return tuple(w for w in lemmas(text, KNOWN_WORDS) if w not in _CAMERA_FIELD_STOPWORDS)


_CAMERA_FIELD_PHRASES: list[tuple[str, tuple[str, ...]]] = [
    (mode.value, _camera_field_words(p)) for mode, phrases in CAMERA_PHRASES.items() for p in phrases
]
"""The camera phrases as a Camera field is read (:data:`_CAMERA_FIELD_STOPWORDS`); free text
reads them without the stopwords ("still" there is seldom the camera: "still running")."""


_ANY_MOTION_WORD = frozenset(w for _, words in _MOTION_PHRASES for w in words)
_NOT_MOTIONS: dict[str, frozenset[str]] = {
    "a place": frozenset({w for _, words in _LOCATION_PHRASES for w in words} | set(UNKNOWN_LOCATION_HINTS)),
    "a time of day": frozenset({*TIMES_OF_DAY, *TIME_WORDS, "tonight", "overnight"}),
    "a camera move": frozenset(w for _, words in _CAMERA_PHRASES for w in words),
}
"""Words the world knows as a place, a time of day or a camera move, and never as part of a
motion (those are taken out of each set): in a Motion field they are not a misspelt motion
("night" is not "fight", "park" not "spar"), so no motion is guessed from them."""
_NOT_MOTIONS = {what: words - _ANY_MOTION_WORD for what, words in _NOT_MOTIONS.items()}


def _names_no_motion(word: str) -> bool:
    return any(word in words for words in _NOT_MOTIONS.values())


def _what_is_named(words: Sequence[str]) -> str:
    """What ``words`` name instead of a motion: "a place", "a place and a time of day"..."""
    named = [what for what, known in _NOT_MOTIONS.items() if any(w in known for w in words)]
    return " and ".join(named) or "no motion"


def best_match(words: Sequence[str], phrases: Iterable[tuple[str, tuple[str, ...]]]) -> Match | None:
    """The entry whose phrase has the most words all present in ``words`` (earliest wins ties)."""
    positions: dict[str, int] = {}
    for i, w in enumerate(words):
        positions.setdefault(w, i)
    best: Match | None = None
    for name, pw in phrases:
        if not pw or not all(w in positions for w in pw):
            continue
        cand = Match(name, len(pw), min(positions[w] for w in pw), pw)
        if best is None or cand.words > best.words or (cand.words == best.words and cand.position < best.position):
            best = cand
    return best


def _content(text: str) -> list[str]:
    return [w for w in lemmas(text, KNOWN_WORDS) if w not in STOPWORDS]


def _quote(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def nearest(word: str, choices: Iterable[str]) -> tuple[str, float]:
    best, score = "", 0.0
    for choice in choices:
        ratio = difflib.SequenceMatcher(None, word, choice).ratio()
        if ratio > score:
            best, score = choice, ratio
    return best, score


def _single_word_phrases(phrases: list[tuple[str, tuple[str, ...]]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, pw in phrases:
        if len(pw) == 1:
            out.setdefault(pw[0], name)
    return out


_MOTION_WORDS = _single_word_phrases(_MOTION_PHRASES)
_LOCATION_WORDS = _single_word_phrases(_LOCATION_PHRASES)

_NAME_GAP_RE = re.compile(r"[\s\-\u2010-\u2015]*")
"""What may stand between the words of a place name as written ("bus stop", "bus-stop"):
punctuation ends it ("studies, room by room" names no study room)."""


def _name_words(name: str) -> tuple[str, ...]:
    """A place name's words (lemmas) as a text writes them, without the stopwords around it
    ("The Old Mill" -> old mill); those inside stay ("tea of the moon")."""
    words = lemmas(name, KNOWN_WORDS)
    while words and words[0] in STOPWORDS:
        words.pop(0)
    while words and words[-1] in STOPWORDS:
        words.pop()
    return tuple(words)


def _compound(words: tuple[str, ...]) -> bool:
    return sum(w not in STOPWORDS for w in words) > 1


_PLACE_NAMES: tuple[tuple[str, ...], ...] = tuple(dict.fromkeys(
    words for loc in LOCATIONS for phrase in loc.phrases if _compound(words := _name_words(phrase))))
"""The built-in place names (and aliases) of more than one word: "bus stop", "study room", "tea house"..."""


def _place_name_at(text: str, spans: Sequence[tuple[str, int, int]], words: Sequence[str], start: int,
                   names: Iterable[tuple[str, ...]]) -> int:
    """How many words the longest of ``names`` written at word ``start`` takes (0: none is)."""
    longest = 0
    for name in names:
        end = start + len(name)
        if len(name) > longest and tuple(words[start:end]) == name and all(
                _NAME_GAP_RE.fullmatch(text[spans[i][2]:spans[i + 1][1]]) for i in range(start, end - 1)):
            longest = len(name)
    return longest


def without_place_names(text: str, user_locations: Sequence[str] = ()) -> str:
    """``text`` (normalised) with the place names of more than one word taken out, built-in
    ones and their aliases and the project's ``user_locations``, so that the motion is read
    from the rest: a place is not a motion ("laughs at the bus stop" names no stop, "at the
    study room" no studying), while a motion word elsewhere still counts ("stops at the bus
    stop" is a stop). Names of one word stay: such a word can be a motion ("waves", "trains")
    or part of one ("go to bed", "lie on the grass"); only a project's own one-word name goes
    where it is written as a place ("sits at the Jump", :func:`_written_as_place`), and a
    motion word that is a built-in place's name where it is written as that place ("catches
    the train", "swims in the waves", :func:`_place_noun`)."""
    names = _PLACE_NAMES + tuple(named for name in user_locations if _compound(named := _name_words(name)))
    one_word = {named[0] for name in user_locations if len(named := _name_words(name)) == 1}
    spans = word_spans(text)
    words = [lemmatise(word, KNOWN_WORDS) for word, _, _ in spans]
    parts: list[str] = []
    kept_from, i = 0, 0
    while i < len(spans):
        taken = _place_name_at(text, spans, words, i, names)
        if not taken and ((words[i] in one_word and _written_as_place(text, spans, i))
                          or _place_noun(text, spans, words, i) or _kind_of_stand_in(text, spans, i)):
            taken = 1
        if taken:
            parts.append(text[kept_from:spans[i][1]])
            kept_from = spans[i + taken - 1][2]
            i += taken
        else:
            i += 1
    return " ".join([*parts, text[kept_from:]]) if parts else text


_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "my", "his", "her", "their", "our", "your", "its"})


def _kind_of_stand_in(text: str, spans: Sequence[tuple[str, int, int]], i: int) -> bool:
    """Whether word ``i`` of ``text`` (normalised) is a motion word that says which kind of a
    place with a stand-in follows it, behind a determiner: "the karaoke bar" names a bar, not
    singing ("waits at the karaoke bar" is a wait)."""
    return 0 < i < len(spans) - 1 and spans[i - 1][0] in _DETERMINERS \
        and lemmatise(spans[i][0], KNOWN_WORDS) in _ANY_MOTION_WORD and _stand_in_head([spans[i + 1][0]]) \
        and bool(_NAME_GAP_RE.fullmatch(text[spans[i][2]:spans[i + 1][1]]))


_MOTION_PHRASE_WORDS: dict[str, frozenset[str]] = {
    m.name: frozenset(w for name, pw in _MOTION_PHRASES if name == m.name for w in pw) for m in MOTIONS}
"""Each motion's words: a place written as part of the drawn motion ("lies on the grass in
the garden") says where only when no other place follows a preposition."""
_PLURAL_PLACE_NOUNS = frozenset({"wave"})
"""Motion words that name a place only in the plural: "the waves" are the sea, "a little wave" a greeting."""
_PLACE_LEADS = _DETERMINERS | {"some", "these", "those", "every", "each", "very", "really", "so", "of"}
"""Words that may stand between a preposition and its place: "in the", "in front of the"."""
MAX_PLACE_GAP = 3
"""Most other words (adjectives, "front") skipped between a preposition and its place: "in the busy old town"."""
_CLAUSE_BREAK_RE = re.compile(r"[,.;:!?…()\[\]]")


def _verb_like(phrase: tuple[str, ...]) -> bool:
    """A place word that is also a stand-in for a motion ("shop"): a place only behind a
    determiner or an adjective ("walks to the shop", not "wants to shop")."""
    return len(phrase) == 1 and phrase[0] in UNKNOWN_MOTION_HINTS


def _ends_place_search(token: str, lemma: str) -> bool:
    """Words a place named after a preposition cannot lie behind: another part of the sentence starts."""
    return (lemma in STOPWORDS or lemma in _MOTION_WORDS or lemma in UNKNOWN_MOTION_HINTS or token in TIME_WORDS
            or token in ADVERB_LEVELS or _is_negator(token) or token in CAMERA_CUE_WORDS)


def _place_phrase_at(words: Sequence[str], start: int) -> tuple[str, tuple[str, ...]] | None:
    """The longest built-in place phrase written at word ``start`` (earliest listed wins ties)."""
    best: tuple[str, tuple[str, ...]] | None = None
    for name, pw in _LOCATION_PHRASES:
        if pw and tuple(words[start:start + len(pw)]) == pw and (best is None or len(pw) > len(best[1])):
            best = (name, pw)
    return best


def placed_names(text: str) -> list[Match]:
    """The built-in places ``text`` (normalised) names after a locative preposition, with
    determiners and up to a few adjectives between: "in town", "at the busy market", "in front
    of the bakery" (``position``: the place's first word's index among the text's words).
    Punctuation, a verb, a time word or another stopword between the two ends the search: "at
    dusk she shops" places nothing. Place words that are motions ("train", "wave") are left
    out as elsewhere (:func:`_motion_word`)."""
    spans = word_spans(text)
    tokens = [word for word, _, _ in spans]
    words = [lemmatise(word, KNOWN_WORDS) for word in tokens]

    def joined(i: int) -> bool:
        return i + 1 < len(spans) and not _CLAUSE_BREAK_RE.search(text[spans[i][2]:spans[i + 1][1]])

    found: list[Match] = []
    for i, token in enumerate(tokens):
        if token not in LOCATIVE_PREPOSITIONS:
            continue
        j, gap, led = i + 1, 0, False
        while joined(j - 1):
            phrase = _place_phrase_at(words, j)
            if phrase is not None:
                name, pw = phrase
                if (not _motion_word(pw) or _place_noun(text, spans, words, j)) and (led or not _verb_like(pw)):
                    found.append(Match(name, len(pw), j, pw))
                break
            if tokens[j] in LOCATIVE_PREPOSITIONS:
                break
            if tokens[j] not in _PLACE_LEADS:
                gap += 1
                if gap > MAX_PLACE_GAP or _ends_place_search(tokens[j], words[j]):
                    break
            led, j = True, j + 1
    return found


def _written_as_place(text: str, spans: Sequence[tuple[str, int, int]], i: int) -> bool:
    """Whether word ``i`` of ``text`` follows a locative preposition, with only determiners
    between: "at the jump", "in jump"; not "wants to jump" (a motion) or "will jump"."""
    j, led = i - 1, False
    while j >= 0 and not _CLAUSE_BREAK_RE.search(text[spans[j][2]:spans[j + 1][1]]):
        token = spans[j][0]
        if token in LOCATIVE_PREPOSITIONS:
            return led or token != "to"
        if token not in _PLACE_LEADS:
            return False
        led, j = True, j - 1
    return False


def _names_a_motion(name: str) -> bool:
    """A project location whose name is one motion word ("Jump", "The Swing" is not one)."""
    named = _name_words(name)
    return len(named) == 1 and named[0] in _MOTION_WORDS


def _named_as_place(text: str, name: str) -> bool:
    """Whether ``text`` (normalised) writes the one-word ``name`` as a place somewhere."""
    word = _name_words(name)[0]
    spans = word_spans(text)
    return any(lemmatise(w, KNOWN_WORDS) == word and _written_as_place(text, spans, k)
               for k, (w, _, _) in enumerate(spans))


def _hint_words(text: str) -> list[str]:
    """The words of ``text`` that have a stand-in motion (``UNKNOWN_MOTION_HINTS``), but not a
    place's name written as a noun ("at the shop" is where, not "shops"; "Qiqi shops" still is)."""
    found: list[str] = []
    before = ""
    for word in (_with_g(w) for w in lemmas(text, KNOWN_WORDS)):
        if word in UNKNOWN_MOTION_HINTS and not (word in _LOCATION_WORDS and before in _DETERMINERS):
            found.append(word)
        before = word
    return found


MIN_DROPPED_G_CHARS = 6
"""Shortest word read as an "-ing" form with its g dropped ("chillin", "skatin"): shorter ones
are most often words of their own ("skin" is no skiing)."""


def _with_g(word: str) -> str:
    """``word`` (a lemma) read as an "-ing" form with its g dropped when that is a word with a
    stand-in ("chillin" -> chill); else ``word``. ("runnin", "dancin" are motion verbs misspelt,
    :func:`misspelt_motion`.)"""
    if word in KNOWN_WORDS or len(word) < MIN_DROPPED_G_CHARS or not word.endswith("in"):
        return word
    full = lemmatise(word + "g", KNOWN_WORDS)
    return full if full in UNKNOWN_MOTION_HINTS else word


def _nearest_motion(words: list[str]) -> tuple[MotionSpec, bool]:
    """A stand-in for words that name no motion; second value: found something close. A word
    with a stand-in (:data:`UNKNOWN_MOTION_HINTS`) first, then a motion word misspelt
    (:func:`_misspelt`), then one that looks much alike (:func:`_look_alike`); else idle: a
    word only a few letters like a motion's ("chill", "call") is not that motion."""
    for w in words:
        if w in UNKNOWN_MOTION_HINTS:
            return MOTION_BY_NAME[UNKNOWN_MOTION_HINTS[w]], True
    for w in words[:8]:
        if len(w) < MIN_SWAP_CHARS:
            continue
        for motion_word, forms in _TYPO_TARGETS:
            if _misspelt(w, motion_word, forms):
                return MOTION_BY_NAME[_MOTION_WORDS[motion_word]], True
        hint = _look_alike(w, UNKNOWN_MOTION_HINTS)
        if hint:
            return MOTION_BY_NAME[UNKNOWN_MOTION_HINTS[hint]], True
    for w in words[:8]:
        close = _look_alike(w, _MOTION_WORDS)
        if close:
            return MOTION_BY_NAME[_MOTION_WORDS[close]], True
    return IDLE, False


def _look_alike(word: str, choices: Iterable[str]) -> str:
    """The one of ``choices`` that ``word`` is most likely a misspelling of: the same first
    letter, and one letter added, dropped, changed or swapped ("parkk", "beech"), or, for a
    longer word, most of its letters in order (:data:`NEAREST_CUTOFF`: "resturant"); '' when
    none is. Only letters are compared, so the bar is high: "sofa" is not "sea"."""
    if len(word) < MIN_SWAP_CHARS + 1:
        return ""
    best, best_score = "", 0.0
    for choice in choices:
        if len(choice) < MIN_SWAP_CHARS or choice[0] != word[0]:
            continue
        score = difflib.SequenceMatcher(None, word, choice).ratio()
        if (score >= NEAREST_CUTOFF or (len(choice) > MIN_SWAP_CHARS and _one_edit_apart(word, choice))) \
                and score > best_score:
            best, best_score = choice, score
    return best


MIN_TYPO_CHARS = 5
"""Shortest word (and motion word) read as misspelt by any one letter: shorter ones are too
often other words one letter away ("wall", "sick", "tall"). Shorter motion verbs are read
misspelt only with two neighbouring letters swapped ("rnus", "wlaks"), see :data:`MIN_SWAP_CHARS`."""
MIN_SWAP_CHARS = 3
"""Shortest motion verb (and word) read as misspelt by two neighbouring letters swapped: "rnus" runs."""
MAX_TYPO_WORDS = 40
"""Words of a free text tried as a misspelt motion (a long text is mostly not motions)."""
_BE_FORMS = frozenset({"is", "are", "was", "were", "be", "am", "being", "been"})
_BEFORE_A_VERB = frozenset({"she", "he", "they", "we", "i", "you", "to", "will", "would", "can", "could", "should",
                            "must", "might", "may", "shall", "then", "also", "just", "still", "again"})
"""Words a verb follows ("she danses", "wants to danse"), besides a name and an adverb."""
_NOUN_MOTION_TARGETS = frozenset({"book", "food", "milk", "tea", "song", "game", "cold", "sad", "box", "tear",
                                  "note", "seat", "head", "idle", "view", "go"})
"""Short motion words that are things, not verbs: no misspelling of a verb is read as one of them."""
_REAL_SWAPS = frozenset({"sign", "signs", "signed", "signing", "east", "posse", "hist", "leis", "hoped", "hoping",
                         "payed", "bowled", "bowling", "stroke", "strokes", "stroked", "stroking"})
"""English words two swapped letters from a motion verb's form ("signs" / "sings", "east" / "eats"):
words as written, never misspellings."""


def _one_edit_apart(a: str, b: str) -> bool:
    """Whether ``a`` becomes ``b`` by one letter added, dropped, changed, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return a == b
    if len(a) == len(b):
        diffs = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        return len(diffs) == 1 or _swapped(a, b)
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k, (x, y) in enumerate(zip(short, long, strict=False)) if x != y), len(short))
    return short[i:] == long[i + 1:]


def _swapped(a: str, b: str) -> bool:
    """Whether ``a`` is ``b`` with two neighbouring letters swapped ("rnus" / "runs")."""
    if len(a) != len(b):
        return False
    diffs = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    return len(diffs) == 2 and diffs[1] == diffs[0] + 1 and a[diffs[0]] == b[diffs[1]] and a[diffs[1]] == b[diffs[0]]


def _written_forms(word: str) -> tuple[str, ...]:
    """``word`` and the inflections a text writes it in: dance, dances, danced, dancing; a
    short verb ending in one consonant after one vowel doubles it: running, hugged."""
    stem = word[:-1] if word.endswith("e") else word
    forms = [word, word + "s", word + "es", word + "d", word + "ed", stem + "ing"]
    if len(word) <= 4 and re.fullmatch(r"[^aeiou]*[aeiou][b-df-hj-np-tvz]", word):
        forms += [word + word[-1] + "ing", word + word[-1] + "ed"]
    return tuple(forms)


_TYPO_TARGETS: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (word, _written_forms(word)) for word in _MOTION_WORDS
    if len(word) >= MIN_SWAP_CHARS and word not in _NOUN_MOTION_TARGETS)


def _misspelt(word: str, motion_word: str, forms: tuple[str, ...]) -> bool:
    """Whether ``word`` (as written, lower case) is ``motion_word`` in one of its ``forms``,
    misspelt: by one letter when both are long enough (:data:`MIN_TYPO_CHARS`), else only by
    two neighbouring letters swapped ("rnus", "walkign"), or by a letter more or less in one of
    its longer forms ("jumpd", "jumped")."""
    if word[0] != motion_word[0] or word in _REAL_SWAPS or word in E_VERB_FORMS:
        return False
    if len(word) >= MIN_TYPO_CHARS and len(motion_word) >= MIN_TYPO_CHARS:
        return any(_one_edit_apart(word, form) for form in forms)
    return any(_swapped(word, form) for form in forms) or (len(word) >= MIN_TYPO_CHARS and any(
        len(form) > MIN_TYPO_CHARS and _letter_added_or_dropped(word, form) for form in forms)) or any(
        _last_letter_doubled(word, motion_word, form) for form in forms)


def _last_letter_doubled(word: str, verb: str, form: str) -> bool:
    """Whether ``word`` is ``form`` of ``verb`` with the verb's last letter written twice
    ("jumpp", "runn", "walkk", "jumpps"): a slip of the finger on a key, which no English word
    of a motion verb's form makes."""
    end = len(verb)
    return form.startswith(verb) and word == form[:end] + verb[-1] + form[end:]


def _letter_added_or_dropped(a: str, b: str) -> bool:
    """Whether ``a`` is ``b`` with one letter more or one letter less ("jumpd" / "jumped", "nightt")."""
    return abs(len(a) - len(b)) == 1 and _one_edit_apart(a, b)


def _typo_of(word: str, choices: Iterable[str]) -> str:
    """The one of ``choices`` (words of four letters or more) that ``word``, as free text writes
    it, misspells: the same first letter, and two neighbouring letters swapped ("prak", "nihgt")
    or one letter more or less ("parkk", "nigt"); '' when none is. A letter changed is not read
    so in free text, where it is most often another word ("hall" is no hill, "mouth" no mount)."""
    if len(word) <= MIN_SWAP_CHARS:
        return ""
    for choice in choices:
        if len(choice) > MIN_SWAP_CHARS and choice[0] == word[0] and (
                _swapped(word, choice) or _letter_added_or_dropped(word, choice)):
            return choice
    return ""


def _an_ing_form(token: str) -> bool:
    """Whether ``token`` is written as an "-ing" form, maybe misspelt: "dancin", "walkign"."""
    low = token.lower()
    return low.endswith(("in", "ing")) or (len(low) > 4 and sorted(low[-3:]) == ["g", "i", "n"])


def _verb_slot(spans: Sequence[tuple[str, int, int]], i: int, capitals: bool) -> bool:
    """Whether word ``i`` stands where a verb goes: first, or after a name ("Qiqi danses"), a
    pronoun, "to", a modal or an adverb ("slowly danses"), or an "-ing" form after "is" ("is
    dancin", "is walkign"); not an object or an adjective ("makes curry", "feels great", "is
    short", "the white dress"). ``capitals``: the text writes names with a capital (it is not
    all capitals); otherwise only its first word is taken for a name."""
    token = spans[i][0]
    if capitals and i and token[0].isupper():
        return False  # a name
    if not i:
        return True
    before = spans[i - 1][0].lower()
    if before in _DETERMINERS:
        return False
    if before in _BE_FORMS:
        return _an_ing_form(token)
    named = i == 1 or (capitals and spans[i - 1][0][0].isupper())  # "qiqi slepps", as "Qiqi slepps"
    return named or before in _BEFORE_A_VERB or before in ADVERB_LEVELS


def misspelt_motion(text: str) -> tuple[str, MotionSpec] | None:
    """The first word of free ``text`` (as written) that is a motion verb misspelt ("danses",
    "dancin", "dnace", "rnus", "walkign"), with the motion; None when there is none. Only a
    word where a verb goes counts (:func:`_verb_slot`): one letter away, many other words are
    motions ("feels great" is no greeting). A short verb is read misspelt only with two letters
    swapped (:func:`_misspelt`: "likes" is no "lies")."""
    text = unicodedata.normalize("NFKC", first_read(text))
    spans = word_spans(text)
    capitals = any(ch.islower() for ch in text)
    for i, (token, _, _) in enumerate(spans[:MAX_TYPO_WORDS]):
        word = token.lower()
        if (len(word) < MIN_SWAP_CHARS or lemmatise(word, KNOWN_WORDS) in KNOWN_WORDS or word in STOPWORDS
                or not _verb_slot(spans, i, capitals)):
            continue
        for motion_word, forms in _TYPO_TARGETS:
            if _misspelt(word, motion_word, forms):
                return token, MOTION_BY_NAME[_MOTION_WORDS[motion_word]]
    return None


def _nearest_location(words: list[str]) -> str:
    """The place shown for words that name none of ours: a stand-in (:data:`UNKNOWN_LOCATION_HINTS`:
    "sofa" is a room), else a place word they misspell (:func:`_look_alike`: "parkk"), else
    the default place."""
    for w in words:
        if w in UNKNOWN_LOCATION_HINTS:
            return UNKNOWN_LOCATION_HINTS[w]
    for w in words[:8]:
        close = _look_alike(w, _LOCATION_WORDS) or _look_alike(w, UNKNOWN_LOCATION_HINTS)
        if close:
            return _LOCATION_WORDS.get(close) or UNKNOWN_LOCATION_HINTS[close]
    return DEFAULT_LOCATION


def _stronger(level: int) -> int:
    """An adverb's ``level`` with "very" or "really" before it: a step further from the middle."""
    return min(5, level + 1) if level >= 3 else max(1, level - 1)


def _find_adverb(tokens: list[str]) -> tuple[str, int]:
    for i, tok in enumerate(tokens):
        if tok in ADVERB_LEVELS:
            level = ADVERB_LEVELS[tok]
            if i > 0 and tokens[i - 1] in INTENSIFIERS:
                level = _stronger(level)
            return tok, level
    return "", 0


def _intensified(adverb: str) -> tuple[str, bool]:
    """An Adverb field's adverb without the intensifiers before it, and whether there were any:
    "very slowly" -> ("slowly", True), read as free text reads "runs very slowly"."""
    words = tokenise(adverb)
    lead = 0
    while lead < len(words) - 1 and words[lead] in INTENSIFIERS:
        lead += 1
    if not lead:
        return adverb, False
    return " ".join(words[lead:]), True


def _is_negator(token: str) -> bool:
    return token in NEGATORS or token.endswith("n't")


def _apostrophes(text: str) -> str:
    return text.replace("\u2019", "'").replace("\u02bc", "'")


def settle_stops(text: str) -> str:
    """``text`` with the stops before an "-ing" form read out. A negated one goes, so that
    the motion goes on: "never stop running" -> "running", "doesn't stop dancing" ->
    "dancing" (read as a plain negation, the "stop", idle, won over the motion). A stop
    that is not negated keeps only itself: "stops running" -> "stops", idle, and not a
    second motion named ("left out 'run'").

    Only a stop followed by an "-ing" form counts: "don't stop to rest" (stop in order to
    rest) and "runs without stopping" keep their words.

    A stop that ends a motion and goes on with "and" to another gives way to it: "stopped crying
    and smiles" -> "smiles", "stops running and catches her breath" -> "catches her breath" (a
    stop alone stays one: "stops and waves" is a stop)."""
    unstopped = _NEGATED_STOP_RE.sub("", _apostrophes(text))
    return _STOPPED_MOTION_RE.sub(r"\1", _STOPPED_THEN_RE.sub("", unstopped))


_GOING_TO_RE = re.compile(r"\bgoing\s+to\s+(?P<next>[^\W\d_]+)")
""""Going to" and the word after it: a future ("is going to dance") when that word is a verb."""
_MOUNTED_BROOM_RE = re.compile(
    r"\b(?:hop|hops|hopped|hopping|jump|jumps|jumped|jumping|get|gets|got|getting|climb|climbs|climbed|climbing"
    r"|leap|leaps|leapt|leaped|leaping)\s+(?:on|onto|on\s+to|astride)\s+(?:(?:the|a|her|his|their|my|your|its|our)"
    r"\s+)?(?:old\s+|trusty\s+|magic\s+)?(?P<broom>broomstick|broom)\b")
"""Getting on a broom, which a witch does to fly: "hops on her broom" is no jump."""
_BREATH_RE = re.compile(
    r"\b(?:catch|catches|caught|catching)\s+(?:(?:her|his|their|my|your|its|our|a)\s+)?breath\b")
"""Catching one's breath: a rest standing, not a catch."""


_SAT_AND_RE = re.compile(
    r"\b(?:sit|sits|sat|sitting)\s+(?P<where>(?:down\s+)?(?:on|in|at|upon)\s+(?:(?:the|a|an|her|his|their|my|your|our|its)"
    r"\s+)?(?:[^\W\d_]+\s+)?(?:" + "|".join(sorted(SEAT_WORDS)) + r"))\s+and\s+(?P<next>[^\W\d_]+)")
"""Sitting on a seat named, "and" and the next verb: "sits on a bench and reads"."""


def _seated_motion(match: re.Match[str]) -> str:
    """"sits on a bench and reads" -> "reads on a bench" when the verb after "and" names a
    motion done seated (:data:`~studio.engines.sketch.seats.SEATED_ANIMS`, not standing);
    the words as they were otherwise ("sits on a bench and sleeps" sits)."""
    motion = MOTION_BY_NAME.get(_MOTION_WORDS.get(lemmatise(match.group("next"), KNOWN_WORDS), ""))
    if motion is None or motion.name == IDLE.name or motion.anim not in SEATED_ANIMS:
        return match.group(0)
    return f"{match.group('next')} {match.group('where')}"


_GO_DOING_RE = re.compile(r"\b(?:go|goes|went|gone|going)\s+(?P<doing>[^\W\d_]+ing)\b")
"""Going and what is done: "went jogging", "goes swimming"."""


def _gone_doing(match: re.Match[str]) -> str:
    """"went jogging" -> "jogging": the going is the motion after it (a jog, not a walk), when that
    is a motion of ours; the words as they were otherwise ("goes shopping" walks)."""
    doing = match.group("doing")
    if doing == "going" or lemmatise(doing, KNOWN_WORDS) not in _MOTION_WORDS:
        return match.group(0)
    return doing


_SEAT_CLAUSE_RE = re.compile(r"[^,.;:!?…。、，；：！？]+")


def _sat_then_seated(text: str) -> str:
    """``text`` (normalised) without a "sit" followed in its clause by a motion done seated, a
    seat named there too: the motion is done on the seat. This is how Japanese, Chinese and
    Korean say "sits on a bench and reads", read in English words ("bench に sit book を read",
    "sit 在 bench 上 read", "bench sit book read": ベンチに座って本を読む, 坐在长椅上看书,
    벤치에 앉아서 책을 읽는다), and how English says it with an "-ing" ("sits on a bench reading")."""
    out = text
    for clause in _SEAT_CLAUSE_RE.finditer(text):
        spans = word_spans(clause.group())
        lemmas_ = [lemmatise(token, KNOWN_WORDS) for token, _, _ in spans]
        if not any(token in SEAT_WORDS for token, _, _ in spans) or re.search(r"\b(?:and|then)\b", clause.group()):
            continue
        sit = next((i for i, lemma in enumerate(lemmas_) if lemma == "sit"), None)
        if sit is None:
            continue
        seated = [MOTION_BY_NAME.get(_MOTION_WORDS.get(lemma, "")) for lemma in lemmas_[sit + 1:]]
        if any(m is not None and m.name not in (IDLE.name, "sit") and m.anim in SEATED_ANIMS for m in seated):
            start, end = clause.start() + spans[sit][1], clause.start() + spans[sit][2]
            out = out[:start] + " " * (end - start) + out[end:]
    return out


def _future_verb(match: re.Match[str]) -> str:
    """"going to" left out before a motion verb ("is going to fly": a flight), kept before a
    place or a thing ("is going to the park", "is going to bed": a walk, a sleep)."""
    following = match.group("next")
    lemma = lemmatise(following, KNOWN_WORDS)
    if following in _PLACE_LEADS or lemma not in _ANY_MOTION_WORD or \
            (lemma in _LOCATION_WORDS and lemma not in _MOTION_WORDS):
        return match.group(0)
    return following


_RIDDEN_RE = re.compile(
    r"\b(?:take|takes|took|taken|taking|ride|rides|rode|ridden|riding|board|boards|boarded|boarding)\s+"
    r"(?=(?:(?:the|a|an|her|his|their|my|our|your|its)\s+)?(?:train|subway|tram|bus|metro)\b)")
"""Taking a train or a bus ("takes the train", "rides the bus"): the rider sits, drawn where the
train is named (the station); the world has no vehicles. (A train caught is a catch, at the
station.)"""


def ridden_as_sitting(text: str) -> str:
    """``text`` (normalised) with a train or bus taken written as sat on ("takes the train" ->
    "sits on the train"): read before the place names are taken out, the train among them."""
    return _RIDDEN_RE.sub("sits on ", text)


def as_meant(text: str) -> str:
    """``text`` (normalised) with the turns of phrase whose words would read as another motion
    put as meant: weather as the subject of a verb is not the character's motion ("snow falls"
    is no fall, "a storm hits" no punch: :func:`~studio.engines.sketch.weather.without_weather_verbs`),
    "going to" before a verb is a future, not a walk ("is going to dance" dances), nor is going to
    do something ("went jogging" jogs), getting on a
    broom is riding it ("hops on her broom": a flight), catching one's breath is a rest
    standing ("catches her breath": idle), sitting on a seat and doing what is done seated is
    that motion, on the seat ("sits on a bench and reads a letter": a read on the bench, as
    "reads a letter on a bench" is), and an idiom is what it means ("hits the books" studies:
    :func:`~studio.engines.sketch.idioms.plainly`)."""
    text = without_weather_verbs(plainly(text), lambda word: lemmatise(word, KNOWN_WORDS) in _ANY_MOTION_WORD)
    text = _GOING_TO_RE.sub(_future_verb, text)
    text = _GO_DOING_RE.sub(_gone_doing, text)
    text = _MOUNTED_BROOM_RE.sub(lambda m: f"rides {m.group('broom')}", text)
    text = _sat_then_seated(_SAT_AND_RE.sub(_seated_motion, text))
    return _BREATH_RE.sub("stands still", text)


def split_negated(text: str) -> tuple[str, str]:
    """(text with negated words left out, the negated words): "doesn't run, she sits" ->
    ("she sits", "doesn't run"). A negation runs to the end of its clause."""
    kept: list[str] = []
    negated: list[str] = []
    for clause in _CLAUSE_RE.split(_apostrophes(text)):
        tokens = tokenise(clause)
        for i, tok in enumerate(tokens):
            if _is_negator(tok):
                negated += tokens[i:]
                break
            kept.append(tok)
        kept.append(".")
    return " ".join(kept), " ".join(negated)


_NOUN_MOTION_WORDS = frozenset({"head"})
"""Motion words that are a thing when written behind a determiner: "heads home" is a walk,
"shakes her head" and "scratches his head" are not."""


def motion_phrases(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """The motion phrases to read ``text`` (normalised) with: all of them, but a one-word phrase
    in :data:`_NOUN_MOTION_WORDS` only where ``text`` writes it as a verb ("her head" is no
    walk). Longer phrases keep the word ("bows her head" is a bow, "turns her head" a turn)."""
    spans = word_spans(text)
    nouns = {word for i, (token, _, _) in enumerate(spans)
             if (word := lemmatise(token, KNOWN_WORDS)) in _NOUN_MOTION_WORDS
             and i > 0 and spans[i - 1][0] in _DETERMINERS}
    verbs = {lemmatise(token, KNOWN_WORDS) for i, (token, _, _) in enumerate(spans)
             if not (i > 0 and spans[i - 1][0] in _DETERMINERS)}
    left_out = {(word,) for word in nouns - verbs}
    return [p for p in _MOTION_PHRASES if p[1] not in left_out] if left_out else _MOTION_PHRASES


def named_matches(words: Sequence[str], phrases: Sequence[tuple[str, tuple[str, ...]]] = ()) -> list[Match]:
    """The motions ``words`` name, in the order they are named: take the best phrase (most
    words: "sit on railing" is one motion, not sit and railing), drop its words, look again.
    Each match's ``position`` is that of its first word among ``words``."""
    phrases = phrases or _MOTION_PHRASES
    first: dict[str, int] = {}
    for i, w in enumerate(words):
        first.setdefault(w, i)
    remaining = list(words)
    found: list[Match] = []
    while (match := best_match(remaining, phrases)) is not None:
        found.append(replace(match, position=min(first[w] for w in match.phrase)))
        used = set(match.phrase)
        remaining = [w for w in remaining if w not in used]
    return sorted(found, key=lambda m: m.position)


def drawn_match(words: Sequence[str], phrases: Sequence[tuple[str, tuple[str, ...]]] = ()) -> Match | None:
    """The motion ``words`` name that a clip draws: the first one named (:func:`named_matches`:
    "runs to the station, then waves" runs, as "駅まで走って、手を振る" does), but a motion wins
    over standing, waiting or staying named with it ("stands on a chair and waves" waves,
    "waits at the station and reads" reads). A stop stays what is drawn: "stops and waves" is a stop."""
    named = named_matches(words, phrases)
    if not named:
        return None
    for match in named:
        if match.name != IDLE.name or "stop" in match.phrase:
            return match
    return named[0]


_MADE_BY: dict[str, frozenset[str]] = {
    "cook": frozenset({"breakfast", "lunch", "dinner", "meal", "food", "snack", "bread", "supper", "dessert"})}
"""What a motion makes, which is no second motion beside it: "cooks dinner" names no meal eaten."""


def other_motions(words: Sequence[str], drawn: str,
                  phrases: Sequence[tuple[str, tuple[str, ...]]] = ()) -> list[str]:
    """Motions ``words`` name besides ``drawn``, in the order they are named ("wave jump sit",
    drawn wave -> jump, sit). Words of a longer phrase are not read twice ("sit on railing"
    names one motion, not sit and railing). Standing, waiting or staying beside another motion
    drawn is part of it, not left out."""
    found = [m for m in named_matches(words, phrases)
             if (m.name != IDLE.name or "stop" in m.phrase or drawn == IDLE.name)
             and not (drawn in _MADE_BY and set(m.phrase) <= _MADE_BY[drawn])]
    return [name for name in dict.fromkeys(m.name for m in found) if name != drawn]


_SUBORDINATE_FIRST_RE = re.compile(r"^\s*(?P<lead>after|before|once)\b(?P<sub>[^,.;:!?]+),(?P<main>.+)$", re.S)
"""A sentence that opens with a clause of time before its main one: "After running to the
station, Qiqi waves"."""


_AFTER_CLAUSE_RE = re.compile(
    r"^(?P<sub>[^.;:!?。！？]*[^\s.;:!?。！？])\s*"
    r"(?:後で|後に|あとで|あとに|之后|之後|以后|以後|(?<![然最背前])后(?=\s|[,，、])|후에|뒤에)"
    r"\s*[,，、]?\s*(?P<main>[^\s,，、].*)$", re.S)
"""A sentence (its Japanese, Chinese or Korean words put in English around the mark of time)
whose clause of time, before its main one, ends in "after": "Qiqiは eat 後で run", "eat 完饭后,
Qiqi run", "eat 후에 Qiqi run". (Chinese "然后", "最后", "背后" are "then", "at last",
"behind"; Korean "다음" is read as "then", as the project reads "달린 다음".)"""


_BEFORE_CLAUSE_RE = re.compile(
    r"^(?P<sub>[^.;:!?。！？]*[^\s.;:!?。！？])\s*"
    r"(?:(?<![名午目])(?:前に|前で|前は)|まえに|之前|以前|(?<![面门門眼向往上提以之])前(?=\s|[,，、])|(?<=\s)전에)"
    r"\s*[,，、]?\s*(?P<main>[^\s,，、].*)$", re.S)
"""A sentence (its Japanese, Chinese or Korean words put in English around the mark of time)
whose clause of time, before its main one, ends in "before": "run 前に、 stretch する" (走る前に、
ストレッチする), "run 之前,她 stretch" (跑步之前，她伸展), "run 전에 stretch" (달리기 전에
스트레칭한다). The main clause is done first, as in English "Before she runs, Qiqi stretches".
(名前 is a name, 午前 the morning, 面前, 门前, 眼前 "in front of", 向前 "forward".)"""


def main_clause_first(text: str) -> str:
    """``text`` (normalised) with its main clause put before a clause of time it opens with,
    so that the main clause's motion is the first named, and drawn: "after running to the
    station, qiqi waves" -> "qiqi waves , after running to the station", "before she runs,
    qiqi stretches" -> "qiqi stretches , before she runs"; a Japanese, Chinese or Korean one
    too (:data:`_AFTER_CLAUSE_RE`, :data:`_BEFORE_CLAUSE_RE`): "eat 후에 qiqi run" -> "qiqi run ,
    after eat", "run 전에 stretch" -> "stretch , before run". The main clause is what the
    sentence is about, whether it comes after the other ("After X, Y") or before it ("Before
    X, Y"), in all four languages."""
    match = _SUBORDINATE_FIRST_RE.match(text)
    if match is not None and match.group("main").strip():
        return f"{match.group('main').strip()} , {match.group('lead')}{match.group('sub')}"
    for pattern, lead in ((_AFTER_CLAUSE_RE, "after"), (_BEFORE_CLAUSE_RE, "before")):
        match = pattern.match(text)
        if match is not None:
            return f"{match.group('main').strip()} , {lead} {match.group('sub')}"
    return text


_TOLD_THEN_RE = re.compile(
    r"^(?P<told>.*\b(?:" + "|".join(sorted(_SAYING)) + r")\b[^.;!?]*?(?:\bto|\bthat|:)\s+\.)\s*,?\s*"
    r"(?:and\s+)?then\b(?P<shown>.+)$", re.S)
"""Words said or asked for after a verb of speech (taken out: :func:`without_said` leaves " . "
in their place) and a "then" that turns to what the character does next: "qiqi tells yuzu to  . ,
then sits on a bench"."""


def shown_after_telling(text: str) -> str:
    """``text`` (normalised, what is said taken out) with what the character does after telling
    or asking someone something put first, so that it is drawn: "Qiqi tells Yuzu to hurry, then
    sits on a bench" sits (the telling is said to be left out). With nothing after it, the
    telling is a talk ("Qiqi tells Yuzu to run")."""
    match = _TOLD_THEN_RE.match(text)
    if match is None or not match.group("shown").strip():
        return text
    return f"{match.group('shown').strip()} , {match.group('told')}"


def _note_left_out(words: Sequence[str], reading: Reading,
                   phrases: Sequence[tuple[str, tuple[str, ...]]] = ()) -> None:
    """A clip shows one motion: when the text names more, say which one is drawn and which are not."""
    others = other_motions(words, reading.motion.name, phrases)
    if others:
        left_out = ", ".join(f"'{name}'" for name in others)
        reading.warnings.append(
            f"several motions named, shown as '{reading.motion.name}'; left out {left_out} (a clip shows one motion)")


def _read_negated(text: str, reading: Reading) -> bool:
    """Read a text that negates a motion ("doesn't run, she sits" -> sit; "never runs" -> idle,
    with a warning); False (nothing read) when no motion is negated."""
    kept, negated = split_negated(text)
    phrases = motion_phrases(text)
    if not negated or best_match(_content(negated), phrases) is None:
        return False
    kept_words = _content(kept)
    match = drawn_match(kept_words, phrases)
    if match is not None:
        reading.motion = MOTION_BY_NAME[match.name]
        _note_left_out(kept_words, reading, phrases)
        return True
    words = negated.split()
    shown = next((" ".join(words[:n]) for n in range(1, len(words) + 1)
                  if best_match(_content(" ".join(words[:n])), phrases) is not None), negated)
    reading.motion = IDLE
    reading.warnings.append(f"'{_quote(shown)}' is a motion not done, shown as 'idle'")
    return True


def _has_symbols(text: str) -> bool:
    """Whether ``text`` holds something a reader would take for a word (a letter, a digit, an
    emoji), though no word of ours: "💃" is a request we can't read, "-" is no request."""
    return any(unicodedata.category(ch)[0] in "LNS" for ch in text)


def _note_other_motion(free_text: str, written: str, shown: str, reading: Reading) -> None:
    """Warn when the free text names another motion than the Motion field, which wins: "Qiqi
    waves at Yuzu" beside "Motion: slowly walk" was left out without a word."""
    if not free_text.strip() or _read_negated(free_text, Reading()):
        return
    other = drawn_match(_content(free_text), motion_phrases(free_text))
    if other is not None and other.name != shown:
        reading.warnings.append(f"'{_quote(written)}' names another motion ('{other.name}'); the Motion field's "
                                f"'{shown}' is shown")


def read_motion(instr: Instruction, reading: Reading, user_locations: Sequence[str] = (), *,
                spoken: bool = False, said: str = "") -> None:
    """The motion (``reading.motion``) of ``instr``: its Motion field, else its free text, read
    without the place names in them (``user_locations``: the project's) and the stops that end
    a motion. ``spoken``: the free text (``said``, as written) had words in quotes, taken out
    (:func:`without_speech`); with no motion named besides them, the character says them
    (``talk``), unless the quotes only set off a motion word."""
    motion_given = ridden_as_sitting(normalise(instr.motion)[0])
    placeless = without_place_names(motion_given, user_locations)
    motion_text = main_clause_first(settle_stops(as_meant(placeless)))  # "Motion: before running, stretch" stretches
    free_text = main_clause_first(settle_stops(as_meant(shown_after_telling(
        without_place_names(ridden_as_sitting(normalise(instr.free_text)[0]), user_locations)))))
    if motion_given.strip():
        if _read_negated(motion_text, reading):
            return
        words = _content(motion_text)
        phrases = motion_phrases(motion_text)
        match = drawn_match(words, phrases)
        if match is not None:
            reading.motion = MOTION_BY_NAME[match.name]
            _note_left_out(words, reading, phrases)
            _note_other_motion(free_text, instr.free_text, match.name, reading)
            _instrument_played(words, reading)
            _phone_looked_at(words, reading)
            return
        leftovers = [w for w in words if w not in ADVERB_LEVELS]
        if not leftovers or all(w in NO_MOTION_WORDS or _is_negator(w) for w in leftovers):
            reading.motion = IDLE
            if not words and placeless != motion_given:  # "Motion: bus stop"
                reading.warnings.append(f"'{_quote(instr.motion)}' names a place, not a motion, shown as 'idle'")
            elif not words and _has_symbols(instr.motion):
                reading.warnings.append(f"'{_quote(instr.motion)}' unknown, shown as 'idle'")
            elif words and not leftovers:  # "Motion: quickly": how, but not what (a "none" says so)
                written = " ".join(part for part in (instr.adverb, instr.motion) if part.strip())
                reading.warnings.append(f"'{_quote(written)}' says how but names no motion, shown as 'idle'")
            return
        shown = " ".join(w for w in tokenise(motion_text) if w not in ADVERB_LEVELS) or motion_text
        guesses = [w for w in leftovers if not _names_no_motion(w)]
        if not guesses:  # "Motion: the harbour at night": where and when, but no motion
            reading.motion = IDLE
            reading.warnings.append(f"'{_quote(shown)}' names {_what_is_named(leftovers)}, not a motion, "
                                    "shown as 'idle'")
            return
        reading.motion, _ = _nearest_motion(guesses)
        reading.warnings.append(f"'{_quote(shown)}' unknown, shown as '{reading.motion.name}'")
        return
    if free_text.strip():
        if _read_negated(free_text, reading):
            return
        words = _content(free_text)
        phrases = motion_phrases(free_text)
        match = drawn_match(words, phrases)
        if match is not None:
            reading.motion = MOTION_BY_NAME[match.name]
            _note_left_out(words, reading, phrases)
            _instrument_played(words, reading)
            _phone_looked_at(words, reading)
            return
        if _instrument_alone(words, reading):
            return
        hinted = _hint_words(free_text)
        if hinted and hinted[0] == "phone" and (_PHONE_LOOKS & set(lemmas(free_text, KNOWN_WORDS))
                                                 or _ON_OWN_PHONE_RE.search(free_text)):
            reading.motion = MOTION_BY_NAME[PHONE_LOOKED_AT]  # "scrolls her phone": looked at, not talked on
            reading.warnings.append(f"'phone' unknown, shown as '{reading.motion.name}'")
            return
        if hinted:
            reading.motion = MOTION_BY_NAME[UNKNOWN_MOTION_HINTS[hinted[0]]]
            reading.warnings.append(f"'{hinted[0]}' unknown, shown as '{reading.motion.name}'")
            return
        misspelt = misspelt_motion(instr.free_text)
        if misspelt is not None:
            reading.motion = misspelt[1]
            reading.warnings.append(f"'{misspelt[0]}' unknown, shown as '{reading.motion.name}'")
            return
        shown = motion_of_emoji(outside_quotes(instr.free_text))
        if shown:  # "Qiqi 😴 in her room": no word of a motion, but an emoji of one
            reading.motion = MOTION_BY_NAME[shown]
            return
        if spoken:  # '"I'm home!" Qiqi' says it; 'Qiqi does a "dance"' dances
            reading.motion = _quoted_motion(said) or MOTION_BY_NAME["talk"]
            return
        reading.motion = IDLE
        reading.warnings.append(f"no motion found in '{_quote(instr.free_text)}', shown as 'idle'")
        return
    if spoken:  # a script line alone: 'Aoi: "I'm home!"'
        reading.motion = MOTION_BY_NAME["talk"]
        return
    reading.motion = IDLE
    if instr.is_empty or not visible(instr.raw).strip():  # zero-width spaces are nothing written
        reading.warnings.append("empty instruction, shown as 'idle'")
    else:
        reading.warnings.append("no motion given, shown as 'idle'")


_PHONE_LOOKS = frozenset({"scroll", "scrolling", "swipe", "swiping", "check", "checking", "tap", "tapping", "use",
                          "using", "stare", "staring", "play", "playing", "game", "glued"})
"""Words that say a phone is looked at, not talked on ("scrolls her phone", "checks her phone",
"is glued to her phone"); "calls Yuzu on the phone" is a talk."""
_ON_OWN_PHONE_RE = re.compile(r"\bon\s+(?:her|his|their|my|your|its)\s+(?:own\s+|new\s+|old\s+)?"
                              r"(?:phone|smartphone|cellphone|mobile)\b(?!\s+with\b)")
"""Someone "on her phone" uses it, looks at it ("Qiqi is on her phone"); "on the phone", or on
it with someone ("on her phone with Yuzu"), is a call."""
PHONE_LOOKED_AT = "read"
"""A phone looked at is drawn as reading: head bent over something held in the hands."""


_STRUCK = frozenset({"hit", "strike", "bang", "beat", "tap", "drum"})
"""Words of a punch that play an instrument struck ("hits the drum", "bangs the drums")."""


def _instrument_alone(words: Sequence[str], reading: Reading) -> bool:
    """An instrument named with no motion of ours ("strums her guitar", "기타를 친다", "拉小提琴",
    "フルートを吹く"): it is played, shown as :data:`INSTRUMENT_STAND_IN`, said. Whether it was."""
    played = next((w for w in words if w in INSTRUMENTS), "")
    if not played:
        return False
    reading.motion = MOTION_BY_NAME[INSTRUMENT_STAND_IN]
    reading.warnings.append(f"'{played}' is not drawn: shown as '{INSTRUMENT_STAND_IN}'")
    return True


_LOOKS_OR_PLAYS = frozenset({"look around", "play"})


def _phone_looked_at(words: Sequence[str], reading: Reading) -> None:
    """A phone looked at or played on ("looks at her phone", スマホを見る, 玩手机, 휴대폰을 본다)
    is read (:data:`PHONE_LOOKED_AT`), said, as a phone scrolled is: a look around or ball play
    shows another thing."""
    if reading.motion.name in _LOOKS_OR_PLAYS and "phone" in words:
        reading.motion = MOTION_BY_NAME[PHONE_LOOKED_AT]
        reading.warnings.append(f"'phone' unknown, shown as '{PHONE_LOOKED_AT}'")


def _instrument_played(words: Sequence[str], reading: Reading) -> None:
    """A musical instrument played ("plays guitar", "plays the piano") is shown as
    :data:`INSTRUMENT_STAND_IN`, said: the world draws no instruments, and ball play is no music.
    Sung to ("sings and plays the piano"), it is said too."""
    played, played_as = next((w for w in words if w in INSTRUMENTS), ""), INSTRUMENT_STAND_IN
    struck = reading.motion.name == "punch" and bool(_STRUCK & set(words))  # "hits the drum", ドラムを叩く
    if not played or (reading.motion.name not in ("play", played_as) and not struck):
        return
    several, now = "several motions named, shown as 'play'", f"several motions named, shown as '{played_as}'"
    # "plays the guitar and sings", "sings and plays the piano": one music, the song, not two motions
    reading.warnings[:] = [w.replace(several, now) for w in reading.warnings
                           if not w.startswith((f"{several}; left out '{played_as}' (", f"{now}; left out 'play' ("))]
    reading.motion = MOTION_BY_NAME[played_as]
    reading.warnings.append(f"'{played}' is not drawn: shown as '{played_as}'")


def read_level(instr: Instruction, reading: Reading) -> None:
    reading.level = reading.motion.level
    adverb = instr.adverb.strip().lower()
    # "doesn't run quickly, she walks slowly": the walk is slow; "walks, not quickly" is a walk.
    kept, _ = split_negated(settle_stops(normalise(f"{instr.motion} . {instr.free_text}")[0]))
    found, level = _find_adverb(tokenise(kept))
    core, intensified = _intensified(adverb)
    if core and core in ADVERB_LEVELS:
        reading.adverb = core
        reading.level = _stronger(ADVERB_LEVELS[core]) if intensified else \
            level if found == core and level else ADVERB_LEVELS[core]
        return
    if core:
        close = difflib.get_close_matches(core, list(ADVERB_LEVELS), n=1, cutoff=0.75)
        if close:
            reading.adverb = close[0]
            reading.level = _stronger(ADVERB_LEVELS[close[0]]) if intensified else ADVERB_LEVELS[close[0]]
            reading.warnings.append(f"'{_quote(core)}' unknown, shown as '{close[0]}'")
        else:
            reading.warnings.append(
                f"'{_quote(adverb)}' unknown, shown at the natural level of '{reading.motion.name}' ({reading.level})")
        return
    if found:
        reading.adverb, reading.level = found, level


def _user_location(text: str, names: Sequence[str]) -> str:
    low = " ".join(tokenise(text))
    for name in names:
        if low and low == " ".join(tokenise(name)):
            return name
    for name in sorted(names, key=len, reverse=True):
        key = " ".join(tokenise(name))
        if key and f" {key} " in f" {low} ":
            return name
    return ""


def read_location(instr: Instruction, reading: Reading, user_locations: Sequence[str]) -> None:
    bg, _ = normalise(instr.background)
    if bg.strip():
        user = _user_location(instr.background, user_locations)
        if user:
            reading.location, reading.location_given = user, True
            return
        words = _content(bg)
        room = school_room(bg)
        if room:  # "Background: music room": a room of a school, not the bedroom
            reading.location, reading.location_given = SCHOOL_ROOM_STAND_IN, True
            reading.warnings.append(f"'{room}' unknown, shown as '{SCHOOL_ROOM_STAND_IN}'")
            return
        match = best_match(words, _LOCATION_PHRASES)
        if match is not None:
            reading.location, reading.location_given = match.name, True
            return
        if not words:  # "Background: 🏖️", "???": nothing to read a place from, and that is said
            if shows_something(instr.background):
                reading.unknown_places += (_quote(instr.background),)
            return
        reading.location, reading.location_given = _nearest_location(words), True
        reading.warnings.append(f"'{_quote(instr.background)}' unknown, shown as '{reading.location}'")
        return
    # The clause of the motion shown first: "After eating at the cafe, Qiqi runs to the park" is in the park.
    free = plainly(main_clause_first(shown_after_telling(normalise(instr.free_text)[0])))  # "on cloud nine": no sky
    # "runs from the art room to the park" is where it goes; where it comes from when that is no place
    toward = without_the_way_from(free)
    if toward != free and _read_free_place(toward, instr, reading, user_locations):
        return
    reading.from_where_it_starts = _read_free_place(free, instr, reading, user_locations) and toward != free


_FROM_TO_RE = re.compile(r"\bfrom\s+[^,.;:!?()\[\]]+?\s+(?=(?:to|into|onto|towards?|toward)\b)")
"""A way from one place to another ("from the art room to the park"): the "from" part."""


_FROM_HOME_RE = re.compile(r"\bfrom\s+[^,.;:!?()\[\]]+?(?=\s+home\b)|(?<=\bhome)\s+from\s+[^,.;:!?()\[\]]+")
"""A way home from a place ("goes home from the park", "walks from school home"): the "from" part."""
_FROM_TO_JAPANESE_RE = re.compile(r"[^\s、。，,]+\s*から(?=[^。.!?！？]*(?:まで|へ|\bhome\b))")
"""The place a Japanese way starts from, read in English words: "station から school まで run",
"park から home に go" (公園から家に帰る)."""
_FROM_TO_CHINESE_RE = re.compile(r"从\s*[^\s，。,]+(?=[^。.!?！？]*(?:到|去|往|向|\bhome\b))")
"""The place a Chinese way starts from, read in English words: "从 school run 到 park", "从 park
go home" (从公园回家)."""


def without_the_way_from(text: str) -> str:
    """``text`` (normalised) without where a way it names starts: "runs from the art room to the
    park" -> "runs to the park", and so in the English words of a Japanese or Chinese turn
    (駅から学校まで走る, 从学校跑到公园; a Korean one writes "from" and "to" itself:
    :func:`~studio.engines.sketch.korean.in_english_words`). The turn is drawn where the
    character goes, home too ("goes home from the park" is drawn at home, as 从公园回家 is)."""
    english = _FROM_HOME_RE.sub(" ", _FROM_TO_RE.sub(" ", text))
    return _FROM_TO_CHINESE_RE.sub(" ", _FROM_TO_JAPANESE_RE.sub(" ", english))


def _read_free_place(free: str, instr: Instruction, reading: Reading, user_locations: Sequence[str]) -> bool:
    """Read the place of the free text ``free`` (normalised) and the Motion field of ``instr``
    into ``reading``; whether one was found."""
    rest = normalise(f"{free} . {instr.motion}")[0]
    kept, negated = split_negated(rest)
    room = school_room(kept)
    if room and not _place_in_text(kept.replace(room, " "), user_locations, reading.motion):
        reading.location, reading.location_given = SCHOOL_ROOM_STAND_IN, True
        reading.warnings.append(f"'{room}' unknown, shown as '{SCHOOL_ROOM_STAND_IN}'")
        return True
    # "Qiqi doesn't go to the shop, she runs in the park": the place not negated, if any.
    place = (negated and _place_in_text(kept, user_locations, reading.motion)) or \
        _place_in_text(rest, user_locations, reading.motion)
    if place:
        reading.location, reading.location_given = place, True
        shop = _other_shop(kept) if place == _SHOP_STAND_IN else ""
        if shop:  # "eats at the noodle shop": the bakery stands in for it, said
            reading.warnings.append(f"'{shop}' unknown, shown as '{place}'")
        return True
    phrases = _unknown_place_phrases(kept)
    for phrase in phrases:
        hint = _place_hint(phrase)
        if hint:  # "waits at the airport": the station, said
            reading.location, reading.location_given = hint, True
            reading.warnings.append(f"'{_quote(phrase)}' unknown, shown as '{hint}'")
            return True
    for word in _place_typo_words(kept):
        shown = _misspelt_place(word)
        if shown:  # "jumps in the prak": the park, said as a Background field's "prak" is
            reading.location, reading.location_given = shown, True
            reading.warnings.append(f"'{word}' unknown, shown as '{shown}'")
            return True
    return False


_SCHOOL_ROOM_RE = re.compile(r"\b(?:" + "|".join(re.escape(k) for k in sorted(SCHOOL_ROOM_KINDS, key=len, reverse=True))
                             + r")\s+room\b")


def school_room(text: str) -> str:
    """The room of a school normalised ``text`` names ("the music room", "the art room"), as
    written; '' when none. Such a room is no bedroom: it is shown as :data:`SCHOOL_ROOM_STAND_IN`."""
    found = _SCHOOL_ROOM_RE.search(text)
    return found.group() if found else ""


def _misspelt_place(word: str) -> str:
    """The place a free text's ``word`` (lower case) is shown as when it misspells a place word
    of ours or one with a stand-in (:func:`_typo_of`: "prak" -> park, "airprot" -> station); ''."""
    close = _typo_of(word, _LOCATION_WORDS) or _typo_of(word, UNKNOWN_LOCATION_HINTS)
    return _LOCATION_WORDS.get(close) or UNKNOWN_LOCATION_HINTS.get(close, "")


def _place_typo_words(text: str) -> list[str]:
    """The words free ``text`` (as written) writes in lower case as a place, after a preposition
    and maybe a determiner ("in the prak", "to scohol"), that are no word we know: each may be a
    place word misspelt (:func:`_misspelt_place`). Someone talked or looked at is not a place."""
    text = visible(unicodedata.normalize("NFKC", first_read(text)))
    words = word_spans(text)
    found: list[str] = []
    for i, (token, _, end) in enumerate(words[:-1]):
        if token.lower() not in _PLACE_LOOK_PREPOSITIONS or _CLAUSE_BREAK_RE.search(text[end:words[i + 1][1]]):
            continue
        j = i + 1
        if words[j][0].lower() in _DETERMINERS and j + 1 < len(words) and \
                not _CLAUSE_BREAK_RE.search(text[words[j][2]:words[j + 1][1]]):
            j += 1
        word = words[j][0]
        low = word.lower()
        if not word.islower() or low in STOPWORDS or lemmatise(low, KNOWN_WORDS) in KNOWN_WORDS \
                or low in KNOWN_WORDS or not _names_unknown_place([low]) or _said_to_someone(text, words, i):
            continue
        found.append(low)
    return list(dict.fromkeys(found))


_SHOP_STAND_IN = "bakery"
"""The place drawn for any shop: a shop of another kind ("noodle shop") is said to be shown as it."""
_SHOP_RE = re.compile(r"\b(?:at|in|to|into|inside|near|outside)\s+(?:the|a|an|my|his|her|their|our|your|this|that)"
                      r"\s+([^\W\d_]+)\s+(?:shop|store)s?\b")
_PLAIN_SHOP_WORDS = frozenset({
    "old", "new", "little", "small", "big", "large", "local", "nearby", "corner", "busy", "tiny", "favourite",
    "favorite", "same", "other", "only", "first", "last", "next", "nice", "cute", "quiet", "cosy", "cozy", "usual",
    "bread", "pastry", "bakery", "cake", "sweet", "sweets"})
"""Words before "shop" that keep it a shop the bakery is: an adjective, or what a bakery sells."""


def _other_shop(text: str) -> str:
    """The shop of another kind than a bakery ``text`` (normalised) is at ("at the noodle shop"
    -> 'noodle shop'), drawn as the bakery; '' when none is."""
    for match in _SHOP_RE.finditer(text):
        word = match.group(1)
        if word not in _PLAIN_SHOP_WORDS and word not in STOPWORDS and word not in _LOCATION_WORDS:
            return " ".join(match.group(0).split()[2:])
    return ""


def _place_in_text(text: str, user_locations: Sequence[str], motion: MotionSpec) -> str:
    """The place free ``text`` (normalised) names: a project location first, then a built-in
    one, a place after a preposition over a place-like word elsewhere ('' when none)."""
    # A project location named like a motion ("Jump") is where only when written as a place:
    # "Qiqi will jump" is a jump, "Qiqi sits at the Jump" is there.
    named = [name for name in user_locations if not _names_a_motion(name) or _named_as_place(text, name)]
    user = _user_location(text, named)
    nouns = _place_nouns(text)
    match = best_match(_content(text), [p for p in _LOCATION_PHRASES
                                        if p[1] and (not _motion_word(p[1]) or p[1][0] in nouns)])
    placed = _places_apart_from_motion(placed_names(text), motion)
    if placed and (match is None or not set(match.phrase) <= set().union(*(m.phrase for m in placed))):
        match = min(placed, key=lambda m: (-m.words, m.position))  # best_match's rule: most words, then earliest
    if user:
        # Of several places, the one written as where ("at the cafe") wins over a word that
        # is only part of the sentence ("after school", "watching the sky"), as for built-in ones.
        own = _MOTION_PHRASE_WORDS[motion.name]  # "lies on the grass in the garden": the garden
        led = [(position, -len(name), name) for name, position in _user_places(text, named)
               if _led_by_preposition(text, position)]
        led = [place for place in led if not set(tokenise(place[2])) <= own] or led
        if led:
            return min(led)[2]
        if placed and match is not None and match.name in {m.name for m in placed}:
            return next((name for name in user_locations if " ".join(tokenise(name)) == match.name), match.name)
        return user
    return match.name if match is not None else ""


def _user_places(text: str, names: Sequence[str]) -> list[tuple[str, int]]:
    """The project locations ``names`` that ``text`` (normalised) names as whole words, each with
    the index of its first word among the text's words, where it is first named."""
    tokens = [token for token, _, _ in word_spans(text)]
    found: list[tuple[str, int]] = []
    for name in names:
        key = tokenise(name)
        at = next((i for i in range(len(tokens) - len(key) + 1) if key and tokens[i:i + len(key)] == key), None)
        if at is not None:
            found.append((name, at))
    return found


def _led_by_preposition(text: str, i: int) -> bool:
    """Whether word ``i`` of ``text`` (normalised) is written as where something is: after a
    locative preposition in its clause, with determiners and a few adjectives between ("at the
    busy cafe"), not after a verb, a time word or another place ("on the roof watching the sky":
    the sky is no place of the turn)."""
    spans = word_spans(text)
    gap = 0
    for j in range(i - 1, -1, -1):
        if _CLAUSE_BREAK_RE.search(text[spans[j][2]:spans[j + 1][1]]):
            return False
        token = spans[j][0]
        if token in LOCATIVE_PREPOSITIONS:
            return True
        lemma = lemmatise(token, KNOWN_WORDS)
        if token not in _PLACE_LEADS:
            gap += 1
            if gap > MAX_PLACE_GAP or _ends_place_search(token, lemma) or lemma in _LOCATION_WORDS:
                return False
    return False


def _places_apart_from_motion(placed: list[Match], motion: MotionSpec) -> list[Match]:
    """The places after a preposition that are not part of the drawn ``motion`` ("on the grass"
    in "lies on the grass in the garden"), or all of them when each is. A place word no
    preposition governs ("shops" in "Qiqi shops in town", "tree" in "climbs a tree in the
    park") gives way to these."""
    own = _MOTION_PHRASE_WORDS[motion.name]
    return [m for m in placed if not set(m.phrase) <= own] or placed


def _place_nouns(text: str) -> frozenset[str]:
    """The motion words ``text`` (normalised) writes as a built-in place's name (:func:`_place_noun`)."""
    spans = word_spans(text)
    words = [lemmatise(word, KNOWN_WORDS) for word, _, _ in spans]
    return frozenset(words[i] for i in range(len(spans)) if _place_noun(text, spans, words, i))


def _place_noun(text: str, spans: Sequence[tuple[str, int, int]], words: Sequence[str], i: int) -> bool:
    """Whether word ``i``, a motion word that is also a built-in place's name ("train",
    "wave"), is written as that place: behind a determiner, with at most one word between
    ("catches the train", "the last train", "the big waves"), or after a locative preposition
    ("travels by train"); "wave" only in the plural ("waves at Yuzu" and "gives a little wave"
    are greetings)."""
    word = words[i]
    if word not in _LOCATION_WORDS or not _motion_word((word,)):
        return False
    if word in _PLURAL_PLACE_NOUNS and spans[i][0] == word:
        return False
    if _written_as_place(text, spans, i):
        return True
    for back in (1, 2):
        j = i - back
        if j < 0 or _CLAUSE_BREAK_RE.search(text[spans[j][2]:spans[j + 1][1]]):
            return False
        if spans[j][0] in _DETERMINERS:
            return True
        if _ends_place_search(spans[j][0], words[j]):
            return False
    return False


def builtin_location(text: str) -> str | None:
    """The built-in location a text names, if any (used for a user location's 'scene' param)."""
    match = best_match(_content(normalise(text)[0]), _LOCATION_PHRASES)
    return match.name if match else None


def _motion_word(words: tuple[str, ...]) -> bool:
    """Location phrases that are also motion words ("broom"...) are not evidence of a place."""
    return len(words) == 1 and words[0] in _MOTION_WORDS


MORE_TIME_WORDS = {"tonight": "night", "overnight": "night"}
"""Time words read in free text besides the ones every engine knows (``TIME_WORDS``)."""
_CLOCK_RE = re.compile(
    r"(?<![\w:])(?:(1[0-2]|0?[1-9])(?::([0-5]\d))?\s*([ap])\.?\s?m\b\.?|([01]\d|2[0-3]):([0-5]\d)(?![\w:]))", re.I)
"""A time on the clock: "11pm", "7 a.m.", "6:30 PM", or 24-hour "19:00", "07:15" (two digits:
"5:30" alone could be morning or evening)."""


def light_at(hour: int) -> str:
    """The light drawn at ``hour`` (0-23): the sunset light at dawn and dusk (5-6 and 17-19),
    night from 20 to 4, day between."""
    if 7 <= hour <= 16:
        return "day"
    if hour in (5, 6) or 17 <= hour <= 19:
        return "sunset"
    return "night"


def clock_time(text: str) -> str:
    """The light of the first clock time ``text`` names ("at 11pm" -> night); '' when none."""
    match = _CLOCK_RE.search(text)
    if match is None:
        return ""
    if match.group(1):
        hour = int(match.group(1)) % 12 + (12 if match.group(3).lower() == "p" else 0)
    else:
        hour = int(match.group(4))
    return light_at(hour)


def read_time(instr: Instruction, reading: Reading) -> None:
    value = instr.time_of_day.strip().lower()
    if value in TIMES_OF_DAY:
        reading.time = value
        return
    if value:
        mapped = TIME_WORDS.get(value) or MORE_TIME_WORDS.get(value) or clock_time(value)
        if mapped:
            reading.time = mapped
            return
        close, _ = nearest(value, list(TIME_WORDS))
        reading.time = TIME_WORDS.get(close, "day")
        reading.warnings.append(f"'{_quote(value)}' unknown, shown as '{reading.time}'")
        return
    text = normalise(f"{instr.free_text} {instr.background} {instr.motion}")[0]
    for tok in tokenise(text):
        if tok in TIME_WORDS or tok in MORE_TIME_WORDS:
            reading.time = TIME_WORDS.get(tok) or MORE_TIME_WORDS[tok]
            return
    reading.time = clock_time(text)
    if not reading.time:
        misspelt = misspelt_time(instr.free_text)
        if misspelt:  # "runs at nihgt": night, said as a Time field's "nihgt" is
            reading.time = TIME_WORDS[misspelt[1]]
            reading.warnings.append(f"'{misspelt[0]}' unknown, shown as '{reading.time}'")


_TIME_LEADS = frozenset({"at", "in", "by", "during", "the", "this", "that", "every", "each", "all", "until", "till",
                         "before", "after", "from", "late", "early", "one", "tonight", "through"})
"""Words a time of day is written after in free text ("at night", "in the evening", "all night")."""


def misspelt_time(text: str) -> tuple[str, str] | None:
    """The first word of free ``text`` written after a word a time follows (:data:`_TIME_LEADS`)
    that misspells a time word (:func:`_typo_of`: "at nihgt", "in the evenign"), as written in
    lower case, and the time word; None when there is none."""
    for before, word in itertools.pairwise(tokenise(normalise(text)[0])):
        if before in _TIME_LEADS and word not in KNOWN_WORDS and word not in STOPWORDS \
                and lemmatise(word, KNOWN_WORDS) not in KNOWN_WORDS:
            close = _typo_of(word, TIME_WORDS)
            if close:
                return word, close
    return None


_CLOSE_UP_RE = re.compile(r"\bclose[-\u2010\u2011]up\b")


def read_camera(instr: Instruction, reading: Reading) -> None:
    cam_text, _ = normalise(instr.camera)
    if cam_text.strip():
        match = best_match(_camera_field_words(cam_text), _CAMERA_FIELD_PHRASES)
        reading.zoom_out = "out" in tokenise(cam_text)
        if match is not None:
            reading.camera = CameraMode(match.name)
            return
        close, score = nearest(cam_text.strip(), [m.value for m in CameraMode])
        reading.camera = CameraMode(close) if score >= 0.4 else CameraMode.STATIC
        reading.warnings.append(f"'{_quote(cam_text)}' unknown, shown as '{reading.camera.value}'")
        return
    # "close-up of Qiqi" is a shot; "close" alone is not ("walks close to Yuzu")
    free = tokenise(_CLOSE_UP_RE.sub("closeup", normalise(instr.free_text)[0]))
    if not free:
        return
    words = [w for w in lemmas(" ".join(free), KNOWN_WORDS) if w not in STOPWORDS]
    if CAMERA_CUE_WORDS & set(free):
        match = best_match(words, _CAMERA_PHRASES)
    else:
        match = best_match(words, [p for p in _CAMERA_PHRASES if p[1] and p[1][0] in UNAMBIGUOUS_CAMERA])
    if match is not None:
        reading.camera = CameraMode(match.name)
        reading.zoom_out = reading.camera == CameraMode.ZOOM and "out" in free


_MONTHS = frozenset({"january", "february", "march", "april", "may", "june", "july", "august", "september",
                     "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
                     "sept", "oct", "nov", "dec"})
_WEEKDAYS = frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon", "tue",
                       "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun", "weekend"})
_HOLIDAYS = frozenset({"christmas", "xmas", "easter", "halloween", "year", "week", "eve", "spring", "summer",
                       "autumn", "fall", "winter", "valentine", "thanksgiving", "hanukkah", "ramadan", "diwali",
                       "obon", "tanabata", "today", "tomorrow", "yesterday", "tonight"})
_LANGUAGES = frozenset({"english", "french", "german", "spanish", "italian", "japanese", "chinese", "korean",
                        "russian", "portuguese", "dutch", "greek", "latin", "arabic", "hindi", "thai", "polish",
                        "swedish", "turkish", "hebrew", "vietnamese", "mandarin", "cantonese", "esperanto",
                        "braille", "morse"})
_TITLES = frozenset({"mr", "mrs", "ms", "miss", "dr", "prof", "professor", "sir", "lady", "lord", "madam", "mister",
                     "aunt", "uncle", "grandma", "grandpa", "granny", "mom", "mum", "dad", "mama", "papa", "sensei",
                     "san", "chan", "kun", "sama"})
"""Words before a name ("Mr Tanaka"): alone, someone we can't tell from a word ("Grandma")."""
_LEAD_WORDS = frozenset({"everyone", "everybody", "someone", "somebody", "nobody", "anyone", "anybody", "people",
                         "all", "both", "each", "now", "later", "next", "first", "finally", "meanwhile", "afterwards",
                         "suddenly", "once", "soon", "yes", "no", "please", "hello", "hi", "hey", "oh", "when",
                         "where", "why", "how", "what", "who", "while", "after", "before", "if", "because", "god",
                         "ok", "okay", "tv", "internet", "web", "wifi", "bluetooth"})
_ORDINARY_CAPITALS = _MONTHS | _WEEKDAYS | _HOLIDAYS | _LANGUAGES | _LEAD_WORDS
"""Words written with a capital that name no one and nowhere: "in May", "on Monday", "in
French", "at Christmas", the first word of a sentence ("Everyone", "Suddenly")."""
_PLACE_LEAD_PREPOSITIONS = frozenset({"in", "into", "inside", "within", "throughout", "through", "across", "to",
                                      "toward", "towards", "at", "near", "outside", "around"})
"""Prepositions after which a name is taken for a place ("runs in Mordor", "flies to Hogwarts")."""
_TO_SOMEONE = frozenset({
    "talk", "speak", "say", "tell", "whisper", "shout", "yell", "scream", "call", "wave", "smile", "point", "listen",
    "write", "sing", "read", "reply", "answer", "nod", "bow", "belong", "next", "close", "up", "over", "give",
    "hand", "pass", "send", "show", "bring", "offer", "lend", "introduce", "present", "marry", "married", "wink"})
"""Words before "to" (or "toward", "near") that make who follows someone, not somewhere
("talks to Gandalf", "gives a flower to Gandalf", "next to Gandalf")."""
_AT_SOMEONE = frozenset({
    "look", "stare", "glance", "smile", "grin", "laugh", "wave", "shout", "yell", "scream", "point", "frown",
    "wink", "throw", "kick", "bark", "glare", "nod", "bow", "giggle", "snap", "aim", "peek", "gaze"})
"""Words before "at" that make who follows someone ("smiles at Gandalf", "throws a ball at Gandalf")."""
_AROUND_SOMEONE = frozenset({
    "dance", "twirl", "spin", "circle", "skip", "hop", "jump", "orbit", "chase", "prance", "whirl", "hover",
    "frolic", "arm", "arms", "cling", "wrap", "fuss", "tiptoe", "pirouette"})
"""Words before "around" that make who follows someone the character moves round or holds, not
somewhere ("dances around Gandalf", "puts her arms around Gandalf"); "walks around London" is a place."""
_TOWARD_SOMEONE = frozenset({"to", "toward", "towards", "near"})
"""Prepositions that a word of :data:`_TO_SOMEONE` before them makes lead to someone."""
MAX_NAME_WORDS = 3
"""Most capitalised words read as one name: "Saint Petersburg", "Mr Tanaka"."""


def _capitalised(token: str) -> bool:
    """A word written with a capital first letter and small ones after ("Mordor"; not "OK" or "I")."""
    return len(token) > 1 and token[0].isupper() and any(ch.islower() for ch in token[1:])


def _ordinary(token: str) -> bool:
    """Whether a capitalised word is an ordinary word of ours or of English dates, languages,
    titles and sentence starts (:data:`_ORDINARY_CAPITALS`), not an unknown name."""
    low = _apostrophes(token.lower())
    lemma = lemmatise(low, KNOWN_WORDS)
    return (low in _ORDINARY_CAPITALS or low in STOPWORDS or lemma in KNOWN_WORDS or low in KNOWN_WORDS
            or low in TIME_WORDS or low in MORE_TIME_WORDS or low in ADVERB_LEVELS or _is_negator(low)
            or low.endswith("ly") or low in _DETERMINERS or low in NO_MOTION_WORDS)


def _name_at(text: str, words: Sequence[tuple[str, int, int]], start: int) -> str:
    """The name of up to a few capitalised words written at ``words[start]`` ("New York", "Mr
    Tanaka"), as written; '' when none is, when any of its words is an ordinary one ("Central
    Park", "May"), or when it is a title alone ("Grandma")."""
    end = start
    while end < len(words) and end - start < MAX_NAME_WORDS and _capitalised(words[end][0]) and (
            end == start or _NAME_GAP_RE.fullmatch(text[words[end - 1][2]:words[end][1]])):
        end += 1
    named = [token for token, _, _ in words[start:end] if token.lower() not in _TITLES]
    if not named or any(_ordinary(token) for token in named):
        return ""
    return re.sub(r"['’]s$", "", text[words[start][1]:words[end - 1][2]])


def _title_case(text: str, words: Sequence[tuple[str, int, int]]) -> bool:
    """Whether ``text`` writes its words with capitals whatever they are ("Qiqi Runs In The
    Park", "Gandalf Waves"): its capitals then tell no name from any other word. A small word
    ("In", "The") with a capital inside a sentence, or every word with one, says so."""
    if len(words) >= 2 and all(token[0].isupper() for token, _, _ in words):
        return True
    return any(token[0].isupper() and token.lower() in STOPWORDS and token != "I"
               and not re.search(r"[.!?:;\n\"“”]\s*$", text[:start])
               for token, start, _ in words[1:])


def unknown_place_names(text: str, user_locations: Sequence[str] = ()) -> list[str]:
    """The names free ``text`` (as written, speech taken out) gives as places that no word of
    ours is ("runs in Mordor", "flies to Hogwarts", "walks through the Shire"), in order. A name
    after "to" or "at" that follows a word of talking, looking or giving is someone, not a place
    ("talks to Gandalf", "smiles at Gandalf"); a word of one of the project's ``user_locations``
    is a place of ours ("to Hogwarts" with "Hogwarts Castle"). A text written in capitals or
    title case gives none."""
    ours = {word for name in user_locations for word in tokenise(name)}
    text = visible(unicodedata.normalize("NFKC", first_read(text)))
    words = word_spans(text)
    if not any(ch.islower() for ch in text) or _title_case(text, words):
        return []
    found: list[str] = []
    for i, (token, _, end) in enumerate(words[:-1]):
        preposition = token.lower()
        if preposition not in _PLACE_LEAD_PREPOSITIONS or _CLAUSE_BREAK_RE.search(text[end:words[i + 1][1]]):
            continue
        j = i + 1
        if words[j][0].lower() == "the" and j + 1 < len(words) and \
                not _CLAUSE_BREAK_RE.search(text[words[j][2]:words[j + 1][1]]):
            j += 1
        name = _name_at(text, words, j)
        if name and not _said_to_someone(text, words, i) and not ours & set(tokenise(name)):
            found.append(name)
    return list(dict.fromkeys(found))


def _said_to_someone(text: str, words: Sequence[tuple[str, int, int]], i: int) -> bool:
    """Whether a word of the few before the preposition ``words[i]``, in its clause, makes who
    it governs someone (:data:`_TO_SOMEONE`, :data:`_AT_SOMEONE`, :data:`_AROUND_SOMEONE`): "talks
    to", "smiles at", "dances around"."""
    preposition = words[i][0].lower()
    someone = _AT_SOMEONE if preposition == "at" else _TO_SOMEONE if preposition in _TOWARD_SOMEONE \
        else _AROUND_SOMEONE if preposition == "around" else None
    if someone is None:
        return False
    for j in range(i - 1, max(-1, i - 5), -1):
        if _CLAUSE_BREAK_RE.search(text[words[j][2]:words[j + 1][1]]):
            return False
        if lemmatise(words[j][0], KNOWN_WORDS) in someone or words[j][0].lower() in _SAYING:
            return True
    return False


_NOT_PLACES = frozenset({
    "rain", "snow", "wind", "storm", "sun", "sunshine", "sunlight", "moonlight", "starlight", "dark", "darkness",
    "fog", "mist", "heat", "shade", "shadow", "shadows", "light", "spotlight", "hurry", "rush", "mood", "way",
    "middle", "center", "centre", "corner", "end", "beginning", "start", "meantime", "meanwhile", "moment",
    "time", "distance", "background", "foreground", "front", "back", "top", "bottom", "left", "right", "side",
    "edge", "hand", "hands", "arm", "arms", "lap", "head", "mirror", "picture", "photo", "photograph", "screen",
    "dress", "clothes", "uniform", "coat", "hat", "jacket", "costume", "line", "queue", "circle", "crowd", "door",
    "doorway", "window", "love", "fact", "case", "mind", "dream", "dreams", "silence", "secret", "tears", "air",
    "open", "world", "same", "first", "last", "next", "other", "rest", "whole", "team", "group", "class",
    "company", "meeting", "party", "wedding", "concert", "festival", "show", "game", "match", "race", "trip",
    "morning", "afternoon", "evening", "night", "weekend", "day", "week", "summer", "winter", "spring", "autumn",
    "table", "desk", "floor", "ground", "wall", "ceiling", "stairs", "steps", "box", "bag", "basket", "cup", "bowl",
    "plate", "pot", "pan", "car", "bus", "phone", "computer", "letter", "note", "paper", "page", "list", "book",
    "story", "song", "tune", "music", "beat", "rhythm", "shape", "role", "style", "turn", "news", "speed", "pace",
    "choir", "chorus", "band", "orchestra", "audience", "contest", "competition", "play", "musical", "fire",
    # the body, and things worn or held: "puts candy in her mouth", "with a spoon in her hand"
    "mouth", "lips", "teeth", "tongue", "face", "cheek", "cheeks", "nose", "eye", "eyes", "ear", "ears", "hair",
    "neck", "chest", "heart", "belly", "stomach", "tummy", "shoulder", "shoulders", "finger", "fingers", "fist",
    "fists", "palm", "palms", "thumb", "knee", "knees", "leg", "legs", "foot", "feet", "toes", "body", "pocket",
    "pockets", "purse", "wallet", "backpack", "hood", "sleeve", "sleeves", "glove", "gloves", "scarf",
    "shoe", "shoes", "boots", "spoon", "fork", "chopsticks", "mug", "glass", "bottle", "jar", "umbrella",
    "notebook", "diary", "sketchbook", "grip", "grasp",
})
"""Words written after "in the", "at the", "on the"... that are not a place: weather, a
manner, a part or side, a thing held or sat on, an event, a group ("in the rain", "in a
hurry", "on the left", "at the table", "at the party", "in the choir",
"at the speed of light"). A phrase with one of them is not said to be a
place we do not know."""
_PLACE_LOOK_PREPOSITIONS = frozenset({"in", "at", "to", "on", "into", "inside", "through", "across", "near",
                                      "toward", "towards", "around"})
"""Prepositions whose "the ..." is where the character is ("runs in the theatre")."""
MAX_PLACE_WORDS = 3
"""Most words read as the name of a place after "in the": "the old opera house"."""


def _unknown_place_phrases(text: str) -> list[str]:
    """The phrases free ``text`` (as written, speech taken out) writes in lower case as a place,
    after a preposition and a determiner ("runs in the theatre", "at the disco", "to a
    supermarket"), that name no place of ours, in order, as written: a stand-in
    (:data:`UNKNOWN_LOCATION_HINTS`: "airport") or none ("theatre"). Left out: a phrase of a
    place of ours, of a motion or a seat ("on the phone", "on the sofa"), of a thing or a time
    (:data:`_NOT_PLACES`: "in the rain", "at the table"), a name (capitals: see
    :func:`unknown_place_names`), and someone or something looked at or talked to ("smiles at
    the baker", "talks to the teacher")."""
    text = visible(unicodedata.normalize("NFKC", first_read(text)))
    words = word_spans(text)
    found: list[str] = []
    for i, (token, _, end) in enumerate(words[:-2]):
        if token.lower() not in _PLACE_LOOK_PREPOSITIONS or words[i + 1][0].lower() not in _DETERMINERS \
                or _CLAUSE_BREAK_RE.search(text[end:words[i + 2][1]]):
            continue
        phrase = _place_words_at(text, words, i + 2)
        if phrase and not _said_to_someone(text, words, i) and _names_unknown_place(phrase) \
                and not _part_of_something(text, words, i + 2 + len(phrase)):
            found.append(" ".join(phrase))
    return list(dict.fromkeys(found))


def _part_of_something(text: str, words: Sequence[tuple[str, int, int]], k: int) -> bool:
    """Whether ``words[k]``, right after a phrase, is "of" in its clause: a noun followed by "of"
    ("the speed of light", "the middle of", "the end of") is not a place by itself."""
    return k < len(words) and words[k][0].lower() == "of" and not _CLAUSE_BREAK_RE.search(
        text[words[k - 1][2]:words[k][1]])


def _place_words_at(text: str, words: Sequence[tuple[str, int, int]], start: int) -> list[str]:
    """The lower-case words (at most :data:`MAX_PLACE_WORDS`) a place may be named with from
    ``words[start]``: up to punctuation, a stopword, a preposition, a time word, an adverb."""
    phrase: list[str] = []
    for k in range(start, min(len(words), start + MAX_PLACE_WORDS)):
        token = words[k][0]
        low = _apostrophes(token.lower())
        if k > start and _CLAUSE_BREAK_RE.search(text[words[k - 1][2]:words[k][1]]):
            break
        if (not token.islower() or low in STOPWORDS or low in LOCATIVE_PREPOSITIONS or low in TIME_WORDS
                or low in MORE_TIME_WORDS or low in ADVERB_LEVELS or _is_negator(low) or low in _BE_FORMS
                or low in _DETERMINERS or low.endswith("ly")):
            break
        phrase.append(low)
    return phrase


_PLACE_PHRASE_WORDS = frozenset(w for _, words in _LOCATION_PHRASES for w in words)


def _names_unknown_place(phrase: Sequence[str]) -> bool:
    """Whether the lower-case words ``phrase`` of a place name no place we know nor anything
    that is not a place (:func:`_unknown_place_phrases`), nor a time of day misspelt ("in the
    evenign"). A stand-in's kind written before it is part of its name, though a motion word:
    "the karaoke bar" is a bar (:func:`_stand_in_head`)."""
    lemmas_ = [lemmatise(w, KNOWN_WORDS) for w in phrase]
    kinds = len(phrase) - 1 if _stand_in_head(phrase) else 0
    return not any(w in _PLACE_PHRASE_WORDS or w in _NOT_PLACES or p in _NOT_PLACES or p in SEAT_WORDS
                   or (k >= kinds and (w in _ANY_MOTION_WORD or w in UNKNOWN_MOTION_HINTS)) or _typo_of(p, TIME_WORDS)
                   for k, (w, p) in enumerate(zip(lemmas_, phrase, strict=True)))


def _stand_in_head(phrase: Sequence[str]) -> bool:
    """Whether the last of the lower-case words ``phrase`` is a place with a stand-in and no
    motion ("karaoke bar", "sports bar"; not "bath")."""
    head = lemmatise(phrase[-1], KNOWN_WORDS) if phrase else ""
    return head in UNKNOWN_LOCATION_HINTS and head not in _ANY_MOTION_WORD and head not in UNKNOWN_MOTION_HINTS


def _place_hint(phrase: str) -> str:
    """The place shown for an unknown place ``phrase`` with a stand-in ("airport" -> station); ''."""
    for word in reversed(tokenise(phrase)):
        hint = UNKNOWN_LOCATION_HINTS.get(lemmatise(word, KNOWN_WORDS)) or UNKNOWN_LOCATION_HINTS.get(word)
        if hint:
            return hint
    return ""


def read_turn(instr: Instruction, user_locations: Sequence[str] = (), names: Sequence[str] = (), *,
              stand_ins: bool = False) -> Reading:
    """:func:`read_instruction`, for a turn that may be written in Japanese, Chinese or Korean: it
    is read in the English words of its own (:func:`turn_in_english`;
    ``names``, the cast's, and the project's ``user_locations`` are kept as written), and its
    warnings quote it as it was written. An English turn is read as :func:`read_instruction`
    reads it.

    ``stand_ins``: a place we do not draw that such a turn's free text names is shown as its
    stand-in, said (:func:`_read_stand_in`: 火山, the mountain), as the English "on the volcano"
    is. Both engines read a turn so: the sketch engine draws the stand-in; the mini engine reads
    the turn as written with it too, tells its model the place it stands in for, in English, and
    carries this warning (:func:`studio.engines.mini.rephrase.rephrase_translated`), and reads it
    so for its warnings of places that are no place of the world and of the world's rules
    (:mod:`studio.engines.mini.engine`).

    Each field is held to its limit as written, whatever language the others are in
    (:func:`as_read`), before its Japanese is put into longer English words: a field is too long
    only as written, and a field that is cut is said, by its name."""
    limited, cuts = as_read(instr)
    english = turn_in_english(limited, (*names, *user_locations))
    with reading_translation(english is not limited):  # read as far as the text as written is
        reading = _read(english, user_locations)
    if english is not limited:
        written = written_as(limited, english)
        for said, as_written in korean.negations_as_written(limited, (*names, *user_locations)).items():
            written.setdefault(said, as_written)  # "달리지 않는다" in free text, quoted as written
        reading.warnings = [_hint_as_written(_as_written(warning, written), limited)
                            for warning in reading.warnings]
    known = (*names, *user_locations)
    if stand_ins and english is not limited and not reading.location and not limited.background.strip():
        _read_stand_in(limited.free_text, english.free_text, reading)
    if not reading.location and not limited.background.strip() and korean.is_korean(limited, known):
        # Hangul has no capitals to tell a name by: a word before 에서 is where ("한강에서 달린다")
        reading.unknown_places += tuple(korean.unknown_places(limited.free_text, known))
    reading.warnings[:0] = [cut.warning for cut in cuts]
    return reading


def _read_stand_in(written: str, english: str, reading: Reading) -> None:
    """Where a Japanese, Chinese or Korean free text (``written``; ``english``, its English
    words) that names no place of ours is shown: the stand-in of a place it names that we do
    not draw (火山, 화산, a volcano: the mountain), said with the word as written, as the
    English "volcano" is. Those languages mark a place with particles, not with the preposition
    and article English finds one by ("on the volcano")."""
    for word in tokenise(english):
        if word in UNKNOWN_LOCATION_HINTS and _names_unknown_place([word]):
            reading.location, reading.location_given = UNKNOWN_LOCATION_HINTS[word], True
            reading.warnings.append(f"'{_written_place(written, word)}' unknown, shown as '{reading.location}'")
            return


_HINTED_RE = re.compile(r"^'(?P<word>[a-z]+)' unknown, shown as '")


def _hint_as_written(warning: str, written: Instruction) -> str:
    """``warning`` quoting the word a Japanese, Chinese or Korean turn ``written`` wrote for an
    activity we have no motion for (:data:`UNKNOWN_MOTION_HINTS`), not the English word it was read
    in: "'電話' unknown, shown as 'talk'" for 電話する, as "'phone' unknown" is for "phones"."""
    match = _HINTED_RE.match(warning)
    if match is None or UNKNOWN_MOTION_HINTS.get(match.group("word")) != warning[match.end():-1]:
        return warning  # (a phone looked at, shown as reading, is said as 'phone' in every language)
    english = match.group("word")
    text = " ".join(value for value in (written.motion, written.free_text) if value.strip())
    words = [_with_ending(text, word.written) if word.verb else word.written for group in japanese.TEXT_TABLE.values()
             for word in group if word.english == english and word.written in text]
    words += [word.written for group in chinese.TEXT_TABLE.values() for word in group
              if word.english == english and word.written in text]
    words += [word.written for group in korean.TEXT_TABLE.values() for word, _ in group
              if word.english == english and word.written in text]
    if not words:
        return warning
    return f"'{max(words, key=len)}'{warning[match.end('word') + 1:]}"


def _with_ending(text: str, stem: str) -> str:
    """A Japanese verb's ``stem`` as ``text`` writes it, with the kana of its ending (隠れ: 隠れる)."""
    match = re.search(re.escape(stem) + "[ぁ-ゖ]*", text)
    return match.group() if match else stem


def _written_place(text: str, english: str) -> str:
    """The Japanese, Chinese or Korean word ``text`` writes for the place ``english`` (the longest),
    or ``english`` when it writes none of them."""
    written = [word.written for words in (japanese.PLACE_WORDS, chinese.PLACE_WORDS, korean.PLACE_WORDS)
               for word in words if word.english == english and word.written in text]
    return max(written, key=len) if written else english


_KANA_WORDS = frozenset(word.written for words in japanese.TEXT_TABLE.values() for word in words)
"""The Japanese words the reader reads (their stems too): a cast name's kana spelling that is one
of them is read as the word, not the name."""
_WRITTEN_WORDS = _KANA_WORDS | {word.written for words in chinese.TEXT_TABLE.values() for word in words} \
    | set(korean.TEXT_TABLE)
"""The Japanese, Chinese and Korean words the readers read: a cast name written in Han
characters or Hangul that is one of them is read as the word."""


def turn_in_english(instr: Instruction, names: Sequence[str] = ()) -> Instruction:
    """``instr`` (as read: :func:`as_read`) in the English words of its Korean, Chinese or
    Japanese ones, ``names`` kept as written; the same instruction when it has none. Hangul in
    a field the engine reads, besides names, makes a turn without kana Korean
    (:func:`~studio.engines.sketch.korean.is_korean`; one that also holds Han characters stays
    with them where its Korean reading understands nothing). Kana make a turn Japanese; a
    Chinese field name, character or particle makes it Chinese
    (:func:`~studio.core.sentence.marked_chinese`); Han characters that say neither are read
    in Chinese only where that reading understands more of them than the Japanese one does
    (:func:`~studio.engines.sketch.chinese.han_read`), else in Japanese, as before. A name of the
    cast written in kana ("タロウ", "たろう" for Taro) is read as the cast writes it
    (:func:`~studio.engines.sketch.kana_names.cast_names_in_kana`), and so is one written in Han
    characters or Hangul ("柚子", "유즈" for Yuzu) where it reads as that one name only
    (:func:`~studio.engines.sketch.han_hangul_names.cast_names_in_han_and_hangul`)."""
    instr = cast_names_in_han_and_hangul(cast_names_in_kana(instr, names, _KANA_WORDS), names, _WRITTEN_WORDS)
    if korean.is_korean(instr, names):
        english = korean.in_english(instr, names)
        if english is not instr or not chinese.has_han(instr.raw):
            return english
    if marked_chinese(instr):
        return chinese.in_english(instr, names)
    if chinese.is_chinese(instr) and \
            chinese.han_read(instr, chinese.in_english(instr)) > chinese.han_read(instr, in_english(instr)):
        return chinese.in_english(instr, names)
    return in_english(instr, names)


def as_read(instr: Instruction) -> tuple[Instruction, tuple[FieldCut, ...]]:
    """``instr`` as the sketch engine reads it, each field held to :data:`MAX_ANALYSED_CHARS`
    characters as written (:func:`~studio.core.instruction.read_within`), and the fields cut.
    An instruction none of whose fields is cut is read as given."""
    limited, cuts = read_within(instr, MAX_ANALYSED_CHARS)
    return (limited if cuts else instr), cuts


def _as_written(warning: str, written: Mapping[str, str]) -> str:
    """``warning`` quoting a field as the user wrote it, not in the English it was read in
    (``written``: English text -> as written): "'夜の謎' unknown", not "'night の謎' unknown"."""
    for english, original in written.items():
        shown = f"'{_quote(original)}'"
        for form in (english, " ".join(tokenise(english)),
                     " ".join(w for w in tokenise(english) if w not in ADVERB_LEVELS)):
            quoted = f"'{_quote(form)}'"
            if form.strip() and quoted in warning:
                return warning.replace(quoted, shown)
    return warning


def read_instruction(instr: Instruction, user_locations: Sequence[str] = ()) -> Reading:
    """Resolve an instruction; never raises. ``user_locations`` are the project's location names.
    Each field is read as far as its limit (:func:`as_read`); the warnings start with one for
    each field that was cut, naming it."""
    limited, cuts = as_read(instr)
    reading = _read(limited, user_locations)
    reading.warnings[:0] = [cut.warning for cut in cuts]
    return reading


def _read(instr: Instruction, user_locations: Sequence[str]) -> Reading:
    """:func:`read_instruction` of an instruction whose fields are already held to their limit."""
    reading = Reading()
    heard, spoken = _heard(instr)
    read_motion(heard, reading, user_locations, spoken=spoken, said=instr.free_text)
    read_level(heard, reading)
    read_location(heard, reading, user_locations)
    read_time(heard, reading)
    read_camera(heard, reading)
    reading.character = first_read(" ".join(instr.character.split()), MAX_ANALYSED_CHARS)  # a name: never translated
    reading.warnings += [WEATHER_NOT_DRAWN.format(weather) for weather in weather_in(heard)]
    reading.together = done_together(heard.free_text)
    if (not reading.location or reading.from_where_it_starts) and not instr.background.strip():
        reading.unknown_places = tuple(unknown_place_names(heard.free_text, user_locations))
        if not reading.unknown_places:  # "runs in the theatre": said as a name is ("runs in Mordor")
            reading.unknown_places = tuple(_unknown_place_phrases(split_negated(heard.free_text)[0]))
    return reading


def weather_in(instr: Instruction) -> list[str]:
    """The weather ``instr`` names (speech taken out) where it is not negated ("it doesn't rain"
    names none), in its free text, Motion, Background or Time field: the sketch world draws no
    weather (:mod:`~studio.engines.sketch.weather`), so a turn that names it says so."""
    texts = [split_negated(normalise(text)[0])[0]
             for text in (instr.free_text, instr.motion, instr.background, instr.time_of_day) if text.strip()]
    return list(dict.fromkeys(weather for text in texts for weather in weather_named(text)))


_TOGETHER_RE = re.compile(
    r"\btogether\b|\bwith\s+(?:(?:a|an|the|her|his|their|my|our|your|some|two|three|all|other|new|best|old)\s+)*"
    r"(?:friends?|someone|somebody|everyone|everybody|classmates?|family|people|kids|children|neighbou?rs?|mum|mom|"
    r"dad|mother|father|sister|brother|grandma|grandpa|teammates?|others|buddy|pal|cat|dog)\b")
"""Words that say a motion is done with someone the cast does not name: "with a friend", "together"."""


def done_together(text: str) -> bool:
    """Whether free ``text`` (speech taken out) says its motion is done with someone (not
    negated: "walks without her friends" is alone)."""
    kept, _ = split_negated(normalise(text)[0])
    return _TOGETHER_RE.search(kept) is not None


def default_location_for(motion: MotionSpec) -> str:
    return "sky" if motion.family == MotionFamily.FLIGHT else DEFAULT_LOCATION


def default_camera(motion: MotionSpec, setting: Setting) -> CameraMode:
    """Moving motions outdoors get a following camera, the rest a still one."""
    if motion.travel > 0 and setting != Setting.INDOOR:
        return CameraMode.FOLLOW
    return CameraMode.STATIC


def location_setting(name: str) -> Setting:
    spec = LOCATION_BY_NAME.get(name)
    return spec.setting if spec else Setting.OUTDOOR
