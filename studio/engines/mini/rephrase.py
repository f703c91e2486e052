"""What the mini LM reads of a turn with words it never learnt: the sketch world's own words.

The LM learnt from the sketch world's instruction templates only (:mod:`studio.engines.mini.data`),
so a word outside them can pull its reading anywhere: "Qiqi sprints across the park" (it never
saw "across") reads as a talk, "Qiqi rnus" as a drink, and "Background: volcano" as any place.
The sketch engine's own reader understands many such words: synonyms, stand-ins (a volcano is
drawn as the mountain), typos ("rnus" is a run) and speech in quotes (a talk). Where it
understands a turn's motion, place or time and the turn says it in words the LM never learnt,
the LM is given that reading in the words it learnt instead: a Motion, Background or Time field
becomes the canonical name of what the sketch read ("Background: mountain"), and free text
becomes one of the sentences the LM learnt ("Qiqi runs in the park"). A stand-in for a motion
is read so too ("Qiqi chills": the idle), and a place that is no place of the world ("runs in
Mordor") is left out of the sentence, not read as a name. A turn the LM reads word for word is
left exactly as it is.

Words neither engine knows are drawn as the sketch world draws them, not left to the LM (which
learnt no turn without a motion, and read "argue" as a flight on a broomstick): the sketch's
nearest guess for a Motion field ("skateboard": the idle), the idle for a text it finds no motion
in ("Qiqi rides a horse") or for fields that give none ("Character: Qiqi; Motion: ;"), and a motion
said not to be done ("doesn't move": the idle). Where the sketch leaves a motion out of the one it
draws ("runs and jumps", "doesn't run"), the LM is told the one drawn, and the sketch's warning
for it is carried (:func:`~studio.engines.mini.world_rules.motion_notes`). A Japanese, Chinese or
Korean motion the sketch does not know is drawn so too, with the sketch's warning quoting it as
written (:func:`rephrase_translated`), and a stand-in place of such a turn is the sketch
reader's (:func:`~studio.engines.sketch.understanding.read_turn` with ``stand_ins``).

The LM learnt turns of one character. A Character field joining several ("Qiqi and Yuzu") is
given to it as the one who acts, and one that is a pronoun ("Character: she") as the character
the branch goes on with (:func:`one_character`), as the story and the sketch engine read them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache

from studio.core.graphemes import is_wide
from studio.core.instruction import Instruction, field_spans
from studio.engines.mini.world_rules import motion_notes
from studio.engines.sketch.understanding import Reading, other_motions, read_instruction, read_turn, without_speech

_WORD_RE = re.compile(r"[^\W\d_]+")
_UNKNOWN_RE = re.compile(r"^'(?P<said>.*)' unknown, shown as '(?P<shown>[^']*)'$")
_PHRASE_TIMES = {"day": "during the day", "sunset": "at sunset", "night": "at night"}
"""A time of day in the phrase the LM learnt most often for it."""


@dataclass(frozen=True, slots=True)
class Rephrased:
    """A turn as the LM reads it, and what was put into its learnt words."""

    instruction: Instruction
    """The turn to give the LM (``raw``: its text); the turn itself when nothing was replaced."""
    replaced: tuple[str, ...] = ()
    """Which parts were replaced: 'motion', 'background', 'time', 'text' (the free text)."""
    warnings: tuple[str, ...] = field(default=())
    """The sketch engine's warnings for the words replaced ("'volcano' unknown, shown as 'mountain'")."""


@cache
def learnt_words() -> frozenset[str]:
    """Every word (casefolded) of the texts the LM was trained on: the training templates written
    with every motion and place phrase, adverb, time word and camera word of the sketch world,
    and the default cast's names. Deterministic: the same words on every call."""
    from studio.engines.mini import data
    from studio.engines.sketch.vocabulary import ADVERB_LEVELS, CAMERA_PHRASES, LOCATIONS, MOTIONS

    motions = [phrase for spec in MOTIONS for phrase in spec.phrases]
    places = [phrase for spot in LOCATIONS for phrase in spot.phrases]
    adverbs = ["", *sorted(ADVERB_LEVELS), "very quickly", "really slowly", "super happily"]
    times = ["", *(word for words in data._TIME_WORDS_BY_TIME.values() for word in words)]
    cameras = ["", *(phrase for phrases in CAMERA_PHRASES.values() for phrase in phrases)]
    cast = ["", *data.characters()]
    words: set[str] = set()
    rng = random.Random(0)
    for k, motion in enumerate(motions):
        for template in data.TRAIN_TEMPLATES.values():
            for j in range(4):
                parts = data.Parts(cast[(k + j) % len(cast)], motion, adverbs[(3 * k + j) % len(adverbs)],
                                   places[(k * 7 + j) % len(places)], times[(k + 5 * j) % len(times)],
                                   cameras[(k * 3 + j) % len(cameras)])
                words.update(_words(template(parts, rng)))
    for phrase in motions:  # every form a template writes a motion in, whichever the draws above missed
        words.update(_words(f"{phrase} {data._third_person(phrase)} {data._gerund(phrase)}"))
    for phrase in (*places, *adverbs, *times, *cameras, *cast):
        words.update(_words(phrase))
    return frozenset(words)


def _words(text: str) -> list[str]:
    return [word.casefold() for word in _WORD_RE.findall(text)]


def unlearnt(text: str, names: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` the LM never learnt, in order, besides those of ``names`` (the cast's,
    the project's places')."""
    known = learnt_words() | {word for name in names for word in _words(name)}
    return [word for word in _words(text) if word not in known]


def rephrase(instruction: Instruction, names: Sequence[str] = (), *, reading: Reading | None = None,
             retell: bool = False, notes: Sequence[str] | None = None, guess: bool = True) -> Rephrased:
    """``instruction`` with its motion, place and time of day in words the LM learnt, where the
    sketch engine understands them and the turn says them otherwise (see the module's doc); the
    instruction itself when it needs nothing replaced. ``reading``: the sketch's reading of the
    turn (else :func:`read_instruction` of it); ``retell``: its free text is told as that reading
    even in words the LM learnt (it reads the turn otherwise than the sketch does); ``notes``: the
    sketch's warnings of what it leaves out of the motion it draws (:func:`motion_notes` of the
    reading's); ``guess``: a motion the sketch only guesses (its nearest, or the idle for none) is
    told too, else left to the LM."""
    raw = instruction.raw
    spans = field_spans(raw)
    reading = read_instruction(instruction) if reading is None else reading
    sketch_warnings = _unknowns(reading.warnings)
    edits: list[tuple[tuple[int, int], str, str]] = []  # (span, new words, part)
    fielded = {"motion": instruction.motion, "background": instruction.background, "time": instruction.time_of_day}
    if notes is None:  # "several motions named...", "'doesn't run' is a motion not done..."
        notes = motion_notes(reading.warnings)
    for part, value in fielded.items():
        span = spans.get(part)
        if not value.strip() or span is None:
            continue
        if not unlearnt(raw[span[0]:span[1]], names) and not (part == "motion" and notes):
            continue
        words = _field_words(part, reading, raw[span[0]:span[1]], sketch_warnings, "time" in spans, guess)
        if words:
            edits.append((span, words, part))
    text = _free_text_words(instruction, reading, names, spans, retell, notes, guess)
    if text is not None:
        at = raw.find(instruction.free_text)
        if at >= 0:
            edits.append(((at, at + len(instruction.free_text)), text, "text"))
    unsaid = guess and _no_motion_given(instruction, reading, spans)  # "Character: Qiqi; Motion: ;": the idle
    if not edits and not unsaid:
        return Rephrased(instruction)
    edits.sort(key=lambda edit: edit[0][0], reverse=True)
    new = raw
    for (start, end), words, _part in edits:
        new = new[:start] + words + new[end:]
    replaced = tuple(part for _span, _words_, part in sorted(edits, key=lambda edit: edit[0][0]))
    if unsaid:
        new, replaced = f"{new.rstrip().rstrip(';；.。').rstrip()}; Motion: idle", (*replaced, "motion")
    said = [raw[start:end] for (start, end), _w, _p in edits]
    warnings = [warning for warning, quoted in sketch_warnings.items() if any(_says(part, quoted) for part in said)]
    if {"motion", "text"} & set(replaced):  # the motion drawn is the sketch's: so are its words for it
        warnings += [note for note in notes if note not in warnings]
    return Rephrased(replace(instruction, raw=new), replaced, tuple(warnings))


def _no_motion_given(instruction: Instruction, reading: Reading, spans: dict[str, tuple[int, int]]) -> bool:
    """Whether ``instruction`` gives fields but no motion at all, and no text ("Character: Qiqi;
    Motion: ;"), which the sketch world shows as the idle: the LM, which learnt no turn without a
    motion, is then told the idle."""
    return not instruction.motion.strip() and not instruction.free_text.strip() and bool(spans) \
        and "motion" not in spans and any(w.startswith("no motion given") for w in reading.warnings)


def _says(text: str, quoted: str) -> bool:
    """Whether ``text`` says the words a sketch warning quotes, as written or in another form of
    them ("is skating" says the 'skate' quoted)."""
    from studio.engines.sketch.text import lemmatise
    from studio.engines.sketch.vocabulary import KNOWN_WORDS

    if quoted.casefold() in text.casefold():
        return True
    words = _words(quoted)
    lemmas = [lemmatise(word, KNOWN_WORDS) for word in _words(text)]
    return bool(words) and any(lemmas[k:k + len(words)] == words for k in range(len(lemmas)))


def _unknowns(warnings: Sequence[str]) -> dict[str, str]:
    """The sketch's "'X' unknown, shown as 'Y'" warnings, each with its X."""
    found = {}
    for warning in warnings:
        match = _UNKNOWN_RE.match(warning)
        if match is not None:
            found[warning] = match.group("said")
    return found


def _understood(reading: Reading, part: str, said: str, unknowns: dict[str, str]) -> bool:
    """Whether the sketch read ``said`` (a field's words) as something of its world rather than
    falling back to its default: words it names (no warning), or a stand-in or typo it knows."""
    from studio.engines.sketch.vocabulary import DEFAULT_LOCATION, UNKNOWN_LOCATION_HINTS

    guessed = [q for q in unknowns.values() if q.casefold() in said.casefold() or said.casefold() in q.casefold()]
    if not guessed:
        return True
    words = _words(said)
    if part == "motion":
        if _stand_in_motion(words):
            return True
        return reading.motion.name != "idle" and _looks_like(words, reading.motion.name)
    if part == "background":
        return reading.location != DEFAULT_LOCATION or any(word in UNKNOWN_LOCATION_HINTS for word in words)
    return _looks_like(words, reading.time) or bool(reading.time and _time_word_like(words))


def _stand_in_motion(words: Sequence[str]) -> bool:
    """Whether one of ``words`` is a word the sketch world shows as a motion it stands in for, in
    any of its forms ("chills": idle, "skating": a run)."""
    from studio.engines.sketch.text import lemmatise
    from studio.engines.sketch.vocabulary import KNOWN_WORDS, UNKNOWN_MOTION_HINTS

    return any(word in UNKNOWN_MOTION_HINTS or lemmatise(word, KNOWN_WORDS) in UNKNOWN_MOTION_HINTS for word in words)


def _looks_like(words: Sequence[str], name: str) -> bool:
    """Whether one of ``words`` is a misspelling of one of the words the LM learnt for ``name``."""
    import difflib

    from studio.engines.sketch.vocabulary import LOCATION_BY_NAME, MOTION_BY_NAME

    spec = MOTION_BY_NAME.get(name)
    phrases = spec.phrases if spec is not None else LOCATION_BY_NAME[name].phrases if name in LOCATION_BY_NAME \
        else (name,)
    choices = {word for phrase in (name, *phrases) for word in _words(phrase)} | {name}
    return any(difflib.get_close_matches(word, choices, n=1, cutoff=0.6) for word in words)


def _time_word_like(words: Sequence[str]) -> bool:
    import difflib

    from studio.core.instruction import TIME_WORDS

    return any(difflib.get_close_matches(word, list(TIME_WORDS), n=1, cutoff=0.75) for word in words)


def _field_words(part: str, reading: Reading, said: str, unknowns: dict[str, str], time_field: bool,
                 guess: bool = True) -> str:
    """The learnt words for a Motion, Background or Time field the sketch understood ('' when
    it did not: the LM then reads it as written, and chooses itself). A Motion field is told as
    the sketch draws it whatever it read there (a stand-in, its nearest guess, the idle), unless not
    ``guess``. A Background keeps the time of day the turn says when it has no Time field ("day
    park"), as the LM learnt it."""
    if part == "motion" and not guess and (not _understood(reading, part, said, unknowns) or (
            reading.motion.name == "idle" and not _stand_in_motion(_words(said)))):
        return ""  # the sketch's default, not its reading ("chill" stands in for the idle)
    if part == "motion":
        adverb = reading.adverb if reading.adverb and reading.adverb in said.casefold() else ""
        return " ".join(w for w in (adverb, reading.motion.name) if w)
    if not _understood(reading, part, said, unknowns):
        return ""
    if part == "background":
        if not reading.location:
            return ""
        time = reading.time if reading.time and not time_field else ""
        return " ".join(w for w in (time, reading.location) if w)
    return reading.time


def _free_text_words(instruction: Instruction, reading: Reading, names: Sequence[str],
                     spans: dict[str, tuple[int, int]], retell: bool = False, notes: Sequence[str] = (),
                     guess: bool = True) -> str | None:
    """The free text of ``instruction`` as a sentence the LM learnt, telling the motion the sketch
    draws for it (one it names, a stand-in, a typo's, or the idle for none), when it holds words the
    LM never learnt (or speech in quotes, or ``retell``, or ``notes``: the sketch's warnings of what
    it leaves out of the motion); else None. Not ``guess``: a text in which the sketch finds no
    motion, or only guesses one, is left to the LM."""
    free = instruction.free_text
    if not free.strip() or instruction.motion.strip():
        return None
    _rest, spoken = without_speech(free)
    spoken = spoken or retell or bool(notes)  # told as the sketch reads it, whatever its words
    who = _pronoun_subject(free) or _who(free, names)  # "She chats with Yuzu": she, not Yuzu, talks
    nowhere = {word for place in reading.unknown_places for word in _words(place)} \
        - {word for name in names for word in _words(name)}  # "in Mordor": no place, and no one of the story
    capitalised = [word for word in _capitalised(free) if word.casefold() not in nowhere]  # a capital: a name
    if not spoken and not unlearnt(free, (*names, who, *capitalised)):
        return None
    if not guess and not spoken and any(w.startswith("no motion") for w in reading.warnings):
        return None  # the sketch found no motion: the LM chooses one itself
    shown_as_motion = {warning: said for warning, said in _unknowns(reading.warnings).items()
                       if warning.endswith(f" shown as '{reading.motion.name}'")}  # not a place's ("airport")
    if not guess and not spoken and not _understood(reading, "motion", free, shown_as_motion):
        return None
    from studio.engines.mini.data import _third_person

    if not who:  # "They laugh together": the pronoun the turn goes on with, as the LM learnt it
        who = _pronoun_subject(free)
    motion = reading.motion.name
    verb = _third_person(motion) if who and who.casefold() != "they" else motion
    place = reading.location if reading.location and "background" not in spans else ""
    time = reading.time if reading.time and "time" not in spans and not instruction.background.strip() else ""
    words = [who, reading.adverb, verb]
    if place:
        words.append(f"in the {place}")
    if time:
        words.append(_PHRASE_TIMES.get(time, f"at {time}"))
    said = " ".join(w for w in words if w)
    if reading.camera is not None and not instruction.camera.strip():
        said += f", {reading.camera.value} camera"
    return said


def _pronoun_subject(text: str) -> str:
    """The pronoun ``text`` opens with, as its subject ("She", "They"), as written; '' if none."""
    first = _WORD_RE.search(text)
    return first.group(0) if first is not None and first.group(0).casefold() in ("she", "he", "they") else ""


def _capitalised(text: str) -> list[str]:
    """The words of ``text`` written with a capital, but its first: names, as the LM saw them."""
    found = list(_WORD_RE.finditer(text))
    return [word.group(0) for word in found[1:] if word.group(0)[:1].isupper()]


def _who(text: str, names: Sequence[str]) -> str:
    """Who the free text names as its character: the one of ``names`` (the story's) it mentions
    first; else the first of the cast the LM knows, or a capitalised first word the LM never
    learnt before it ("Hana waves at Aoi": Hana); '' when there is none."""
    from studio.engines.mini.data import characters

    named, at = _first_named(text, names)
    if named:
        return named
    first = _WORD_RE.search(text)
    if first is not None and first.group(0)[:1].isupper() and first.group(0).casefold() not in learnt_words():
        named, at = first.group(0), first.start()
    known, known_at = _first_named(text, characters())
    return known if known and known_at < at else named


def _first_named(text: str, names: Iterable[str]) -> tuple[str, int]:
    """The one of ``names`` that ``text`` mentions first, as whole words, and where ('' if none)."""
    best, at = "", len(text) + 1
    for name in names:
        words = name.split()
        if not words:
            continue
        # a name in Japanese or Chinese is followed by its particle with no space ("美咲が"): no word's edge there
        before = "" if is_wide(words[0][0]) else r"(?<!\w)"
        after = "" if is_wide(words[-1][-1]) else r"(?!\w)"
        found = re.search(before + r"\s+".join(re.escape(w) for w in words) + after, text, re.IGNORECASE)
        if found is not None and found.start() < at:
            best, at = " ".join(words), found.start()
    return best, at


def rephrase_translated(written: Instruction, english: Instruction, names: Sequence[str] = ()) -> Rephrased:
    """``english`` (``written``, a Japanese, Chinese or Korean turn, in the English words the sketch
    reads it in: :func:`~studio.engines.mini.completion.english_turn`) rephrased as an English turn
    is (:func:`rephrase`), where its English still holds words the LM never learnt, or where the
    sketch reads the turn as written otherwise than its English words say: speech
    ("美咲が「走ろう！」と言う", "run! say.") is a talk, and a stand-in said before the verb
    ("美咲が火山で走る", "volcano run.") is the place it stands in for (the mountain), as the
    sketch reader shows it (:func:`~studio.engines.sketch.understanding.read_turn` with its
    stand-ins), and as in an English turn ("Qiqi runs on the volcano").

    A motion the sketch does not know is drawn as it draws it, as an English turn's is: a Motion
    field's stand-in or the idle ("動作：スケボーする": the idle), the idle for a text it finds no
    motion in or for a Motion field left blank, with the sketch's warning. It was left to the LM,
    whose English had lost the word, and which chose any motion ("'スケボーする' is not a motion
    the mini model learnt; it read it as 'eat'"). The warnings quote a word as ``written`` ("'火山'
    unknown, shown as 'mountain'"), not its English. ``english`` itself when nothing is replaced."""
    as_written = read_turn(written, (), names, stand_ins=True)
    heard = read_instruction(english)
    reading = _translated_reading(heard, as_written)
    stand_ins = _stand_in_places(as_written, heard)
    guessed = _guessed_motion(as_written)
    retell = _told_otherwise(english, heard, as_written, stand_ins)
    told, fielded = english, False
    if guessed and (written.motion.strip() or not written.free_text.strip()):
        told, fielded = _with_motion(english, as_written.motion.name), True  # "Motion: idle", as the sketch draws it
    elif guessed:
        retell = True  # its free text told as the sketch draws it: "美咲 idles in the park"
    if retell and not told.free_text.strip():
        told = replace(told, free_text=_unfielded(told))  # "say :“ run!”." is read as a field "say"
    # what the sketch leaves out of the motion, as it reads the turn as written
    notes = motion_notes(as_written.warnings, no_motion=False)
    rephrased = rephrase(told, names, reading=reading, retell=retell, notes=notes, guess=False)
    replaced = (*(("motion",) if fielded else ()), *rephrased.replaced)
    if not replaced:
        return Rephrased(english)
    said = (*guessed, *(stand_ins if {"text", "background"} & set(replaced) else ()))
    warnings = [_quoted_as_written(warning, written, as_written) for warning in rephrased.warnings]
    warnings += [warning for warning in said if warning not in warnings]
    return Rephrased(rephrased.instruction, tuple(dict.fromkeys(replaced)), tuple(warnings))


def _translated_reading(heard: Reading, as_written: Reading) -> Reading:
    """What the sketch reads of a translated turn, for :func:`rephrase`: its reading as written
    (``as_written``, a stand-in place of the free text shown as the place it stands in for: 火山,
    the mountain) of the motion, place and time, and the warnings of its English words (``heard``:
    they quote the English, as the LM's text does)."""
    return replace(heard, motion=as_written.motion, level=as_written.level,
                   adverb=as_written.adverb or heard.adverb, location=as_written.location or heard.location,
                   time=as_written.time or heard.time, warnings=list(heard.warnings))


def _stand_in_places(as_written: Reading, heard: Reading) -> tuple[str, ...]:
    """The sketch's warnings, as written, of a place it shows as a stand-in ("'火山' unknown, shown
    as 'mountain'") where the turn's English words name no such place ("volcano run."): the LM is
    told that place, and the warning with it."""
    if not as_written.location or heard.location == as_written.location:
        return ()
    shown = f" shown as '{as_written.location}'"
    return tuple(warning for warning in _unknowns(as_written.warnings) if warning.endswith(shown))


def _guessed_motion(as_written: Reading) -> tuple[str, ...]:
    """The sketch's warnings, as written, of a motion it draws without having read one: a word it
    does not know shown as its nearest motion or the idle ("'スケボーする' unknown, shown as
    'idle'"), a text it finds no motion in, a Motion field left blank or naming a place."""
    shown = f" shown as '{as_written.motion.name}'"
    unknown = [warning for warning in _unknowns(as_written.warnings)
               if warning.endswith(shown) and not warning.endswith(f" shown as '{as_written.location}'")]
    left_out = set(motion_notes(as_written.warnings, no_motion=False))
    return (*unknown, *(note for note in motion_notes(as_written.warnings) if note not in left_out))


def _with_motion(english: Instruction, motion: str) -> Instruction:
    """``english`` with its Motion field ``motion`` (added where it has none), parsed again."""
    from studio.core.instruction import InstructionError, parse_instruction

    raw = english.raw
    span = field_spans(raw).get("motion")
    if span is not None:
        raw = raw[:span[0]] + motion + raw[span[1]:]
    else:
        raw = f"{raw.rstrip().rstrip(';；.。').rstrip()}; Motion: {motion}" if raw.strip() else f"Motion: {motion}"
    try:
        return parse_instruction(raw)
    except InstructionError:
        return replace(english, raw=raw, motion=motion)


def _told_otherwise(english: Instruction, heard: Reading, as_written: Reading, stand_ins: Sequence[str] = ()) -> bool:
    """Whether the sketch reads the turn as written (``as_written``) otherwise than the words of its
    free text in English say (``heard``): another motion, place (a stand-in's: ``stand_ins``, its
    warnings) or time, or a talk where the words the LM reads name another motion too (the words
    said: "run! say."). A motion it did not find, or did not know, is told otherwise
    (:func:`rephrase_translated`)."""
    unknown = [warning for warning in _unknowns(as_written.warnings) if warning not in stand_ins]
    if english.motion.strip() or as_written.motion.name == "idle" or unknown \
            or any(w.startswith("no motion") for w in as_written.warnings):
        return False
    if as_written.motion.name != heard.motion.name or (as_written.location or heard.location) != heard.location \
            or (as_written.time or heard.time) != heard.time:
        return True
    free = english.free_text or _unfielded(english)
    return as_written.motion.name == "talk" and bool(other_motions(_words(free), "talk"))


def _unfielded(english: Instruction) -> str:
    """The text of ``english`` read as a field it is not ("say :“ run!”": a field "say"), as
    written in its raw text; '' when there is none."""
    for key, value in english.extra:
        found = re.search(re.escape(key) + r"\s*[:：]\s*" + re.escape(value), english.raw)
        if found is not None:
            return found.group(0)
    return ""


def _quoted_as_written(warning: str, written: Instruction, as_written: Reading) -> str:
    """``warning`` ("'volcano' unknown, shown as 'mountain'") quoting its word as ``written``: as
    the sketch's own warning for the turn as written quotes what it shows the same way, else as
    the word of the turn's language that is read as it; the warning itself when there is none."""
    match = _UNKNOWN_RE.match(warning)
    if match is None:
        return warning
    english, shown = match.group("said"), match.group("shown")
    for own, said in _unknowns(as_written.warnings).items():
        if own.endswith(f" shown as '{shown}'"):
            return f"'{said}' unknown, shown as '{shown}'"
    said = _written_word(english, written.raw)
    return f"'{said}' unknown, shown as '{shown}'" if said else warning


def _written_word(english: str, raw: str) -> str:
    """The Japanese, Chinese or Korean word of ``raw`` the sketch reads as ``english`` ('' if none)."""
    from studio.engines.sketch import chinese, japanese, korean

    for table in (japanese.TEXT_TABLE, chinese.TEXT_TABLE, korean.TEXT_TABLE):
        for words in table.values():
            for entry in words:  # a Korean table holds (word, form)
                word = entry[0] if isinstance(entry, tuple) else entry
                if word.english.casefold() == english.casefold() and word.written in raw:
                    return str(word.written)
    return ""


@dataclass(frozen=True, slots=True)
class OneCharacter:
    """A turn whose Character field names several characters, or a pronoun, with that field as the
    LM learnt it: one name (it learnt turns of one character, and draws no one beside them)."""

    instruction: Instruction
    """The turn with its Character field naming the one who acts (the turn itself when it named one)."""
    actor: str
    """Who acts: the first of the cast the field names, or for a pronoun the one it goes on with."""
    others: tuple[str, ...] = ()
    """The other names of the field, as written, in order, each once."""
    twice: tuple[str, ...] = ()
    """Names the field gives more than once ("Qiqi and Qiqi")."""

    def warnings(self, cast: Sequence[str]) -> list[str]:
        """What the sketch engine says of these names (a name given twice, one outside ``cast``),
        and for each other one of the cast, that the mini model draws no second character."""
        from studio.core.state import written_key

        keys = {written_key(name) for name in cast}
        out = [f"'{name}' is named more than once in the Character field: drawn once" for name in self.twice]
        for name in self.others:
            if written_key(name) not in keys:
                out.append(f"'{name}' is not in the cast: drawn only {self.actor}; add {name} to the cast to draw "
                           "them too")
            else:
                out.append(f"'{name}' is not drawn: the mini model draws one character, {self.actor} (it has no "
                           f"second character beside them); name '{name}' in a turn of their own")
        return out


def one_character(instruction: Instruction, cast: Sequence[str], going_on: str = "") -> OneCharacter | None:
    """``instruction`` with a Character field that joins several names ("Qiqi and Yuzu", "Qiqi &
    Yuzu", "美咲とゆず": :func:`~studio.core.joined_names.character_names`) naming the one who acts,
    as the story does (:func:`~studio.core.tree.field_actor`: the first of ``cast``); one that is a
    pronoun ("she", "she and Yuzu") naming ``going_on``, the character the branch goes on with, or
    without the field when there is none (the turn is then completed from the branch). None when
    its Character field names one character, or none."""
    from studio.core.joined_names import character_names
    from studio.core.state import written_key
    from studio.core.tree import field_actor, field_pronoun

    field = " ".join(instruction.character.split())
    span = field_spans(instruction.raw).get("character")
    if not field or span is None:
        return None
    pronoun = field_pronoun(field, cast)
    written = [name for name in character_names(field, cast) if not field_pronoun(name, cast)]
    if not pronoun and len(written) < 2:
        return None
    actor = going_on if pronoun else field_actor(field, cast)
    keys = [written_key(name) for name in written]
    twice = tuple(dict.fromkeys(name for k, name in enumerate(written) if keys[k] in keys[:k]))
    others = tuple(name for k, name in enumerate(written)
                   if keys[k] not in keys[:k] and keys[k] != written_key(actor))
    raw = instruction.raw
    new = raw[:span[0]] + actor + raw[span[1]:] if actor else _without_field(raw, span)
    if not new.strip():  # "Character: she" alone, with no one to go on with: read as it is
        return None
    return OneCharacter(replace(instruction, raw=new, character=actor), actor, others, twice)


def _without_field(raw: str, span: tuple[int, int]) -> str:
    """``raw`` without the field whose value lies at ``span``, and the separator after it (or
    before it, the last field)."""
    starts = [raw.rfind(mark, 0, span[0]) for mark in ";；\n"]
    start = max(starts)
    ends = [at for at in (raw.find(mark, span[1]) for mark in ";；\n") if at >= 0]
    if ends:
        return (raw[:start + 1] + raw[min(ends) + 1:].lstrip()).strip()
    return raw[:max(start, 0)].rstrip() + raw[span[1]:].strip() if start >= 0 else raw[span[1]:].strip(" .。")
