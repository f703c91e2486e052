"""A readable sentence from an instruction's fields, for captions, subtitles and sheets.

``Character: Qiqi; Motion: gently sit on railing; Background: day town.`` reads as
"Qiqi gently sits on the railing in the town, by day." The raw field syntax is for the
engine; an audience (or a storyboard reader) should never see it. Fields written in Japanese
read as a Japanese sentence: ``キャラクター：美咲；動作：手を振る；背景：公園；時間帯：夜`` is
"夜、美咲は公園で手を振る。"; fields written in Chinese as a Chinese one:
``角色：小明；动作：跑步；背景：公园；时间：晚上`` is "晚上，小明在公园跑步。"; fields written in Korean
as a Korean one: ``캐릭터: 민수; 동작: 달린다; 배경: 공원; 시간: 밤`` is "민수는 밤에 공원에서 달린다."
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import replace

from studio.core.caption_words import (
    ADVERBS,
    PLACES,
    TIMES_IN_ENGLISH,
    adverb_in,
    english_adverb,
    english_place,
    place_in,
)
from studio.core.graphemes import is_wide, script_of, scripts_in
from studio.core.instruction import CHINESE_KEYS, KEY_ALIASES, KOREAN_KEYS, Instruction, only_blank_fields
from studio.core.joined_names import character_names
from studio.core.speech import is_script_line
from studio.core.state import written_key


def plural(count: int, word: str) -> str:
    """``1 turn``, ``3 turns``: a count and a regular noun."""
    return f"{count} {word}{'' if count == 1 else 's'}"


_IRREGULAR = {"be": "is", "have": "has", "do": "does", "go": "goes"}
_THIRD_PERSON_IRREGULAR = frozenset({"is", "has", "does", "goes", "was", "were", "am", "are"})
"""Forms kept as written: already the third person, or a form of "be" that agrees with its own subject."""
_CERTAIN_PASTS = {
    "ran": "run", "flew": "fly", "sat": "sit", "ate": "eat", "drank": "drink", "swam": "swim", "sang": "sing",
    "went": "go", "came": "come", "fell": "fall", "rode": "ride", "wrote": "write", "slept": "sleep",
    "stood": "stand", "wept": "weep", "woke": "wake", "threw": "throw", "caught": "catch", "held": "hold",
    "took": "take", "gave": "give", "saw": "see", "spoke": "speak", "knelt": "kneel", "leapt": "leap",
    "crept": "creep", "swept": "sweep", "began": "begin", "drew": "draw", "froze": "freeze", "shook": "shake",
    "fought": "fight", "brought": "bring", "thought": "think", "sought": "seek", "hid": "hide", "dove": "dive",
    "did": "do",
}
"""Past tenses that are no other word: made present. Others ("walked", "lay", "read") are kept as written."""
_ED_VERBS = frozenset({"shed", "wed", "sled", "bed", "embed", "shred", "sped"})
_GERUND_BASES = {"lying": "lie", "dying": "die", "tying": "tie", "vying": "vie", "being": "be", "seeing": "see",
                 "fleeing": "flee", "skiing": "ski", "breathing": "breathe", "bathing": "bathe", "soothing": "soothe",
                 "changing": "change", "arranging": "arrange", "adding": "add", "having": "have", "doing": "do",
                 "tasting": "taste", "wasting": "waste", "pasting": "paste", "exploring": "explore",
                 "ignoring": "ignore", "adoring": "adore", "restoring": "restore", "imploring": "implore",
                 "inviting": "invite", "exciting": "excite", "reciting": "recite", "uniting": "unite",
                 "escaping": "escape", "pirouetting": "pirouette", "morning": "", "evening": "", "railing": "",
                 "ceiling": "", "building": "", "wedding": "", "pudding": "", "nothing": "", "something": "",
                 "anything": "", "everything": "", "during": "", "clothing": ""}
"""Gerunds whose base form the rules below would get wrong."""
_L_DOUBLERS = frozenset({"travel", "cancel", "label", "level", "model", "pedal", "quarrel", "marvel", "signal",
                         "shovel", "tunnel", "channel", "fuel", "dial", "duel", "total", "panel", "parcel",
                         "yodel", "snorkel", "grovel", "revel", "swivel"})
"""Verbs British spelling writes with "ll" before "-ing" ("travelling")."""
_VOWELS = "aeiou"
_GERUND_E_ENDINGS = ("dg", "rg")
"""Stems that take back an "e" whatever their length ("judg"ing, "charg"ing)."""
_LONG_E_ENDINGS = frozenset({"ad", "at", "id", "ib", "in", "is", "iz", "ys", "yz", "ir", "ur", "ar", "ud", "ut", "um",
                             "os"})
"""The ends of a stem of two syllables or more that had an "e" (``celebrat``, ``decid``,
``imagin``, ``realiz``, ``prepar``): their verbs end so in "e", while "visit", "open", "wander"
keep their stems (those endings are not here)."""
_PREPOSITIONS = frozenset({"on", "in", "at", "to", "into", "onto", "under", "over", "by", "with", "from", "through",
                           "across", "along", "around", "near", "behind", "beside", "toward", "towards", "off",
                           "inside", "outside", "past", "up", "down"})
_DETERMINERS = frozenset({"the", "a", "an", "his", "her", "their", "its", "my", "your", "our", "this", "that",
                          "these", "those", "some", "every", "each", "one", "two", "three", "all", "another",
                          "home", "bed", "foot", "time", "air", "fire", "top", "it", "him", "them", "me", "us",
                          "you", "herself", "himself", "themselves", "away", "there", "here", "down", "up",
                          "off", "out", "around", "back"})
_ON_PLACES = frozenset({"beach", "roof", "rooftop", "rooftops", "bridge", "grass", "hill", "hilltop", "shore", "deck",
                        "stage", "platform", "pier", "lawn", "railing", "balcony", "island", "boat", "train",
                        "bench", "sofa", "couch", "chair", "floor", "ground", "ledge", "fence", "swing", "seesaw",
                        "steps", "stairs", "staircase", "sidewalk", "pavement", "trail", "path", "terrace"})
"""Places one is *on*, not *in* ("on the beach", "in the bakery")."""
_AT_PLACES = frozenset({"station", "stop", "airport", "gate", "entrance", "crossing", "crosswalk", "counter", "door",
                        "doorway", "harbor", "harbour", "port", "shrine", "temple", "bus", "checkout", "reception"})
"""Places one is *at* ("at the station", "at the bus stop", "at the shrine")."""
_BARE_PLACES = {"downtown": "downtown", "uptown": "uptown", "home": "at home", "school": "at school",
                "outside": "outside", "outdoors": "outdoors", "indoors": "indoors", "inside": "inside",
                "upstairs": "upstairs", "downstairs": "downstairs", "abroad": "abroad", "work": "at work"}
"""A Background field of one word that English says without "the" ("skateboards downtown",
"sleeps at home", "studies at school")."""
_TIME_PHRASES = {"day": "by day", "sunset": "at sunset", "night": "at night", "dawn": "at dawn",
                 "sunrise": "at sunrise", "morning": "in the morning", "evening": "in the evening",
                 "afternoon": "in the afternoon", "noon": "at noon", "midnight": "at midnight", "dusk": "at dusk",
                 "daytime": "in the daytime", "sunny": "on a sunny day", "rainy": "on a rainy day",
                 "cloudy": "on a cloudy day", "snowy": "on a snowy day", "windy": "on a windy day",
                 "stormy": "on a stormy day", "foggy": "on a foggy day", "misty": "on a misty day"}
_BARE_TIMES = frozenset({"tonight", "today", "tomorrow", "yesterday", "now", "later", "soon", "earlier", "then",
                         "meanwhile", "afterwards", "overnight", "nowadays"})
"""Times said with no preposition before them ("Qiqi runs, tonight"; never "at tonight")."""
_TIME_LEADS = frozenset({"this", "that", "next", "last", "every", "each", "one", "some", "tomorrow", "yesterday",
                         "at", "in", "on", "by", "during", "before", "after", "until", "till", "around", "about",
                         "since", "from", "through", "throughout", "past", "toward", "towards", "all"})
"""First words of a time that carries its own preposition or needs none ("this morning", "after
school", "all day"): the time is said as written."""


_COORDINATORS = frozenset({"and", "or", "then", "while"})
_ACTION_VERBS = frozenset((
    "sit", "stand", "walk", "run", "jump", "hop", "skip", "dance", "sing", "hum", "read", "write", "draw", "eat",
    "sip", "cook", "bake", "wave", "smile", "laugh", "giggle", "cry", "weep", "sob", "look", "glance", "stare",
    "watch", "listen", "hear", "turn", "spin", "twirl", "nod", "shake", "bow", "kneel", "lie", "rest", "sleep",
    "nap", "wake", "yawn", "stretch", "talk", "speak", "chat", "whisper", "shout", "yell", "answer", "hug", "kiss",
    "hold", "carry", "lift", "throw", "catch", "kick", "punch", "push", "pull", "grab", "pick", "take", "give",
    "put", "open", "close", "fly", "float", "fall", "slip", "climb", "ride", "swim", "dive", "sneak", "hide", "seek",
    "chase", "follow", "lead", "wait", "stop", "start", "leave", "come", "go", "return", "enter", "arrive", "play",
    "practice", "pray", "think", "wonder", "sigh", "shiver", "tremble", "sulk", "pout", "blush", "clap", "cheer",
    "celebrate", "sweep", "clean", "wash", "wear", "search", "find", "meet", "greet", "thank", "apologize",
    "apologise", "smell", "taste", "touch", "feed", "pour", "lean", "sneeze", "breathe", "blink", "wink", "frown",
    "grin", "scream", "gasp",
))
"""Verbs a motion often joins with "and" ("sit and read a book"): the word after a
coordinator is conjugated only when it is one of these, so that "eat bread and butter" keeps
its noun (words as often bare nouns, "water", "paint", "drink", are left out)."""


def third_person(verb: str) -> str:
    """The third person of a verb as a motion writes it: ``sit`` -> ``sits``, ``fly`` -> ``flies``,
    ``watch`` -> ``watches``, ``go`` -> ``goes``; a gerund too (``running`` -> ``runs``, ``flying``
    -> ``flies``). A verb already in the third person (``runs``, ``is``) is kept, and so is a past
    tense (``walked``) unless it can be nothing else (``ran`` -> ``runs``). A verb not in Latin
    letters (``手を振る``) is left as it is."""
    if not verb.isascii() or not verb.isalpha():
        return verb
    lower = verb.lower()
    if lower in _THIRD_PERSON_IRREGULAR or _is_third_person(lower) or _is_regular_past(lower):
        return verb
    base = _CERTAIN_PASTS.get(lower) or gerund_base(lower) or lower
    conjugated = _with_s(base)
    if verb.isupper() and len(verb) > 1:  # the case as written: "RUN" -> "RUNS", "Fly" -> "Flies"
        return conjugated.upper()
    return conjugated[0].upper() + conjugated[1:] if verb[0].isupper() else conjugated


def _with_s(base: str) -> str:
    """A base form with its third-person ending (``fly`` -> ``flies``, ``kiss`` -> ``kisses``)."""
    if base in _IRREGULAR:
        return _IRREGULAR[base]
    if base.endswith("y") and len(base) > 1 and base[-2] not in _VOWELS:
        return base[:-1] + "ies"
    if base.endswith(("s", "sh", "ch", "x", "z")) or (base.endswith("o") and not base.endswith("oo")):
        return base + "es"
    return base + "s"


def _is_third_person(word: str) -> bool:
    """Whether ``word`` (lower case) already ends as a third person does: ``runs``, ``flies``,
    ``watches``; not a base form ending in "s" (``kiss``, ``focus``)."""
    return len(word) > 2 and word.endswith("s") and not word.endswith(("ss", "us", "is"))


def _is_regular_past(word: str) -> bool:
    """Whether ``word`` is a past tense in "-ed" (``walked``), kept as written; a verb whose base
    ends so (``need``, ``feed``, ``shed``) is not."""
    return len(word) > 3 and word.endswith("ed") and not word.endswith("eed") and word not in _ED_VERBS


def gerund_base(word: str) -> str:
    """The base form of a gerund (``running`` -> ``run``, ``dancing`` -> ``dance``, ``flying`` ->
    ``fly``, ``lying`` -> ``lie``); "" for a word that is none (``sing``, ``bring``, ``walk``)."""
    word = word.lower()
    if word in _GERUND_BASES:
        return _GERUND_BASES[word]
    stem = word[:-3]
    if not word.endswith("ing") or len(stem) < 2 or not any(char in _VOWELS + "y" for char in stem):
        return ""  # "sing", "bring", "string": no vowel before -ing, so no gerund
    if stem.endswith("ick") and _syllables(stem) > 1:  # "frolicking", "picnicking": the "k" only keeps the "c" hard
        return stem[:-1]
    if stem[-1] == stem[-2] and stem[-1] not in _VOWELS:  # a doubled consonant: "running", "falling"
        if stem[-1] not in "lsfz":
            return stem[:-1]
        return stem[:-1] if stem[:-1] in _L_DOUBLERS else stem
    return stem + "e" if _takes_back_e(stem) else stem


def _syllables(word: str) -> int:
    return len(re.findall(r"[aeiou]+|(?<=[^aeiou])y", word))


def _takes_back_e(stem: str) -> bool:
    """Whether the "e" a gerund dropped goes back on ``stem``: no English verb ends in "v", "c"
    or "u" (``wav``, ``danc``, ``argu``), nor in a consonant and "l" (``giggl``) or "s"
    (``brows``); a stem of one
    syllable that ends in one vowel and one consonant had one, else the consonant would have
    been doubled (``rid`` of "riding" is "ride"; "ridding" is "rid")."""
    last, before = stem[-1], stem[-2]
    if last in "vcu" or (stem.endswith(_GERUND_E_ENDINGS) and len(stem) > 3):
        return True
    if last == "l" and before not in _VOWELS + "rwl":
        return True
    if last in "sz" and len(stem) > 2 and before in _VOWELS and stem[-3] in _VOWELS:  # "rais", "sneez"
        return True
    if last == "s" and before not in _VOWELS:  # "brows", "collaps", "rins" ("kiss" kept its "ss")
        return True
    single_vowel = before in _VOWELS + "y" and (len(stem) == 2 or stem[-3] not in _VOWELS)
    if not single_vowel or last in _VOWELS + "wxy":
        return False
    return _syllables(stem) == 1 or stem[-2:] in _LONG_E_ENDINGS


VERBS_AFTER_TO = _ACTION_VERBS | frozenset((
    "say", "tell", "ask", "be", "have", "do", "go", "get", "make", "see", "find", "help", "meet", "buy", "bring",
    "take", "give", "show", "try", "leave", "catch", "deliver", "fly", "fix", "call", "visit", "open", "close",
    "pick", "play", "keep", "learn", "think", "decide", "remember", "forget",
))
"""Words that after "to" are a verb ("try to jump", "what to say"), not a place that wants "the"."""


_NO_ARTICLE_NOUNS = frozenset({"school", "work", "class", "church", "college", "university", "breakfast", "lunch",
                               "dinner"})
"""Nouns English says without "the" after a preposition ("goes to school", "at work", "for
lunch"), as it says "in front of" ("in the front of" is inside it)."""


def _with_articles(words: list[str]) -> list[str]:
    """``on railing`` -> ``on the railing``: a bare noun after a preposition gets "the"."""
    out: list[str] = []
    for index, word in enumerate(words):
        out.append(word)
        following = _wrapped(words[index + 1])[1] if index + 1 < len(words) else ""  # 'to "Yuzu"': a name
        infinitive = word.lower() == "to" and following.lower() in VERBS_AFTER_TO  # "try to jump"
        idiom = following.lower() in _NO_ARTICLE_NOUNS or (
            following.lower() == "front" and index + 2 < len(words) and words[index + 2].lower() == "of")
        if (word.lower() in _PREPOSITIONS and following and following.lower() not in _DETERMINERS and not idiom
                and following.lower() not in _PREPOSITIONS and not following[0].isupper()
                and not following[0].isdigit() and not infinitive):
            out.append("the")
    return out


_QUOTE_MARKS = "\"'\u201c\u201d\u2018\u2019\u00ab\u00bb"


def _wrapped(word: str) -> tuple[str, str, str]:
    """A word of a motion as (opening marks, the word, closing marks and punctuation): a word set
    off in quotes (``"happily"``) is conjugated or read inside them; ``waves,`` is ("", "waves",
    ","). A word with a quote on one side only ("don't", "'cause") has no marks taken off."""
    core = word.rstrip(",;")
    tail = word[len(core):]
    inner = core.strip(_QUOTE_MARKS)
    opened = len(core) - len(core.lstrip(_QUOTE_MARKS))
    closed = len(core) - len(core.rstrip(_QUOTE_MARKS))
    if not inner or not opened or not closed:
        return "", core, tail
    return core[:opened], inner, core[len(core) - closed:] + tail


def _verb_base(word: str) -> str:
    """The base form of a motion word as written (``reading`` -> ``read``, ``ran`` -> ``run``,
    ``reads`` -> ``read``), to look it up among the action verbs."""
    lower = _wrapped(word)[1].lower()
    return _CERTAIN_PASTS.get(lower) or gerund_base(lower) or (_without_s(lower) if _is_third_person(lower) else lower)


def _conjugated(words: list[str], plural: bool = False) -> list[str]:
    """The motion's verbs in the third person: its first word, and an action verb right after
    "and", "or", "then" or "while" ("sit and read a book" -> "sits and reads a book";
    "sitting and reading" -> "sits and reads"); for several characters (``plural``) the plain
    form ("Qiqi and Yuzu dance")."""
    third_person = _person(plural)
    out = list(words)
    adverb = _wrapped(out[0])[1].lower().endswith("ly")
    first = 1 if len(out) > 1 and adverb and _verb_base(out[1]) in _ACTION_VERBS else 0
    # "slowly walk, ..." (an adverb the reading left in): "slowly walks,"; '"happily" wave': '"happily" waves'
    opening, verb, closing = _wrapped(out[first])
    out[first] = opening + third_person(_verb_case(verb)) + closing
    for index in range(1, len(out)):
        before = out[index - 1].lower().strip(",")
        word = out[index]
        if before in _COORDINATORS and _verb_base(word) in _ACTION_VERBS and word.isalpha():
            out[index] = third_person(_verb_case(word))
    return out


def _verb_case(verb: str) -> str:
    """A verb the sentence conjugates, in lower case when it was written with capitals ("RUNS",
    "Runs"): a verb is no name nor acronym, and a caption should not shout it."""
    return verb.lower() if verb.isascii() and verb.isalpha() and verb != verb.lower() else verb


_NOUN_OPENERS = frozenset({"a", "an", "the"})
_NUMBER_WORDS = frozenset({"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                           "twelve", "twenty", "fifty", "hundred"})
_LIGHT_VERBS = {
    "walk": "take", "stroll": "take", "nap": "take", "rest": "take", "break": "take", "bath": "take",
    "shower": "take", "look": "take", "peek": "take", "breath": "take", "step": "take", "seat": "take",
    "photo": "take", "picture": "take", "selfie": "take", "swim": "take", "ride": "take", "bow": "take",
    "drink": "have", "snack": "have", "meal": "have", "bite": "have", "chat": "have", "talk": "have",
    "picnic": "have", "cup": "have", "party": "have", "laugh": "have", "cry": "have", "fight": "have",
    "hug": "give", "wave": "give", "smile": "give", "nod": "give", "kiss": "give", "speech": "give",
    "shrug": "give", "song": "sing", "jog": "go for", "hike": "go for", "drive": "go for", "spin": "go for",
    "apple": "eat", "banana": "eat", "orange": "eat", "pear": "eat", "peach": "eat", "sandwich": "eat",
    "cake": "eat", "cookie": "eat", "biscuit": "eat", "pie": "eat", "bun": "eat", "donut": "eat",
    "doughnut": "eat", "onigiri": "eat", "burger": "eat", "pizza": "eat", "candy": "eat", "sweet": "eat",
    "tea": "have", "coffee": "have", "juice": "have", "milk": "have", "soda": "have", "lemonade": "have",
    "book": "have", "umbrella": "have", "balloon": "have", "flower": "have", "bag": "have", "ball": "have",
    "letter": "have", "phone": "have", "camera": "have", "gift": "have", "present": "have", "toy": "have",
    "kite": "have", "lantern": "have", "hat": "have",
}
"""The verb English says a motion's noun with ("takes a walk", "has a drink", "gives a hug",
"sings a song", "goes for a jog", "eats an apple": a thing, not an action, is eaten or had);
any other noun phrase is done ("does a dance", "does the splits"). A counted noun is looked up
singular too ("2 songs" -> "sings 2 songs")."""


def _noun_phrase_motion(words: list[str], plural: bool = False) -> list[str] | None:
    """A motion written as a noun phrase (it opens with an article or a number: "a dance", "the
    splits", "3 laps of running") as the words of a sentence's predicate; None for any other
    motion (its first word is the verb: :func:`_conjugated`).

    "<count> <noun> of <gerund>" is the gerund's verb ("3 laps of running" -> "runs 3 laps");
    a noun with a verb of its own in :data:`_LIGHT_VERBS` takes it ("takes a walk"); "a" or "an"
    and a bare action verb's noun is the verb ("a dance" -> "dances"); any other is done
    ("does an elegant dance", "does the splits"); for several characters the plain form ("do a
    dance")."""
    third_person = _person(plural)
    opener = words[0].lower()
    counted = opener.isdigit() or opener in _NUMBER_WORDS
    if opener not in _NOUN_OPENERS and not counted:
        return None
    if counted and len(words) > 3 and words[2].lower() == "of" and gerund_base(_wrapped(words[3])[1]):
        verb = third_person(gerund_base(_wrapped(words[3])[1]))
        return [verb, words[0], words[1] + _wrapped(words[3])[2], *words[4:]]
    end = next((index for index, word in enumerate(words[1:], 1)
                if word.lower() in _PREPOSITIONS | _COORDINATORS | {"of"}), len(words))
    nouns = [_wrapped(word)[1].lower() for word in words[1:end]]
    light = next((verb for verb in map(_light_verb, nouns) if verb), "")
    if light:  # "a long walk", "a cup of tea", "one step forward", "a jog" -> "goes for a jog"
        verb, *particles = light.split()
        return [third_person(verb), *particles, *words]
    bare = end == 2 and opener in ("a", "an") and (end == len(words) or words[end].lower() in _PREPOSITIONS)
    if bare and nouns[0] in _ACTION_VERBS:  # "a dance in the rain" -> "dances in the rain"
        return [third_person(nouns[0]) + _wrapped(words[1])[2], *words[2:]]
    return [third_person("do"), *words]


def _light_verb(noun: str) -> str:
    """The verb :data:`_LIGHT_VERBS` says ``noun`` with, as written or singular ("songs")."""
    if noun in _LIGHT_VERBS:
        return _LIGHT_VERBS[noun]
    return _LIGHT_VERBS.get(noun[:-1], "") if noun.endswith("s") else ""


def _person(plural: bool) -> Callable[[str], str]:
    """How a verb agrees with the sentence's subject: :func:`third_person` for one character,
    the plain form for several (:func:`plain_form`)."""
    return plain_form if plural else third_person


_PLAIN_IRREGULAR = {"is": "are", "am": "are", "was": "were", "has": "have", "does": "do", "goes": "go",
                    "tiptoes": "tiptoe"}
"""Forms whose plain (plural) form no rule below gives."""
_ES_STEMS = ("ss", "sh", "ch", "x", "zz", "o")
"""Ends of a base form that take "-es" in the third person ("kisses", "watches", "goes")."""


def plain_form(verb: str) -> str:
    """The plain form of a verb as several characters say it: ``runs`` -> ``run``, ``is`` ->
    ``are``, ``has`` -> ``have``, ``watches`` -> ``watch``, ``flies`` -> ``fly``; a gerund or a
    certain past too (``running``, ``ran`` -> ``run``). A regular past (``walked``), ``were`` and
    a verb not in Latin letters are kept."""
    if not verb.isascii() or not verb.isalpha():
        return verb
    lower = verb.lower()
    if _is_regular_past(lower):
        return verb
    plain = (_PLAIN_IRREGULAR.get(lower) or _CERTAIN_PASTS.get(lower) or gerund_base(lower)
             or (_without_s(lower) if _is_third_person(lower) else lower))
    if verb.isupper() and len(verb) > 1:
        return plain.upper()
    return plain[0].upper() + plain[1:] if verb[0].isupper() else plain


def _without_s(word: str) -> str:
    """A third person's base form: ``flies`` -> ``fly``, ``watches`` -> ``watch``, ``dances`` ->
    ``dance``, ``runs`` -> ``run``."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("es") and word[:-2].endswith(_ES_STEMS):
        return word[:-2]
    return word[:-1]


def several_characters(who: str) -> bool:
    """Whether a Character field names several characters joined ("Qiqi and Yuzu", "Qiqi, Yuzu
    & Aoi", "美咲とゆず", "小明和小红", "민수와 지수", as :func:`studio.core.joined_names.character_names`
    splits them): the sentence's verb then agrees with them."""
    return len(character_names(who)) > 1


_COMMON_PLACES = frozenset({"park", "town", "street", "school", "forest", "city", "room", "house", "station",
                            "garden", "cafe", "kitchen", "library", "classroom", "shop", "market", "river", "lake",
                            "sea", "mountain", "field", "road", "village", "bakery", "temple", "shrine", "harbor",
                            "harbour", "port", "sky", "bedroom", "office", "hospital", "castle", "woods",
                            "playground", "alley", "square", "cave", "desert", "meadow", "valley", "church"})
"""Common nouns of places: "Park" or "PARK" written alone is the park, not a place's name."""


_COMMON_WORDS = _COMMON_PLACES | _ON_PLACES | _PREPOSITIONS | _ACTION_VERBS | _COORDINATORS | {"the", "a", "an"}


def _common_case(words: list[str]) -> list[str]:
    """The words of a motion or a place as a sentence writes them. Written in capitals throughout
    (caps lock: "PARK", "SIT ON THE RAILING"), a word is in lower case where it is a common word
    (a place's noun, a preposition, an article, an action verb) or has five letters or more; an
    acronym of two to four letters ("NYC", "UFO", "US") is kept. A field with any lower-case
    letter is as written ("fly to NYC", "wave to YUZU")."""
    text = " ".join(words)
    if not words or text != text.upper() or not any(char.isalpha() for char in text):
        return words
    return [_lowered(word) for word in words]


def _cast_spelled(words: list[str], names: Sequence[str]) -> list[str]:
    """The words of a motion with a cast member's one-word name written in another case ("wave
    to QIQI", "hug yuzu") as the cast spells it ("Qiqi", "Yuzu"); not after an article or
    another determiner, where the word is a thing ("smell the rose" beside a Rose)."""
    spelled = {written_key(name): name.strip() for name in names if name.strip() and len(name.split()) == 1}
    out = list(words)
    for index, word in enumerate(words):
        opening, core, closing = _wrapped(word)
        name = spelled.get(written_key(core))
        after_determiner = index > 0 and words[index - 1].lower() in _DETERMINERS
        if name and core != name and not after_determiner:
            out[index] = opening + name + closing
    return out


_NAME_WORD = re.compile(r"(?<![\w'])[^\W\d_]+(?!\w)")


def _names_spelled(text: str, names: Sequence[str]) -> str:
    """Free text with a cast member's one-word name written in another case ("qiqi waves at
    yuzu") as the cast spells it ("Qiqi waves at Yuzu"), as :func:`_cast_spelled` does a
    motion's words; a text in capitals throughout (shouted) is kept as it is."""
    spelled = {written_key(name): name.strip() for name in names if name.strip() and len(name.split()) == 1}
    if not spelled or text == text.upper():
        return text

    def spell(match: re.Match[str]) -> str:
        word = match.group()
        name = spelled.get(written_key(word), word)
        before = text[:match.start()].split()[-1:]
        return word if before and before[0].lower() in _DETERMINERS else name

    return _NAME_WORD.sub(spell, text)


def _lowered(word: str) -> str:
    core = _wrapped(word)[1]
    if not (core.isascii() and core.isalpha() and len(core) > 1):
        return word
    lower = core.lower()
    return word.replace(core, lower, 1) if lower in _COMMON_WORDS or len(core) >= 5 else word


def _place(background: str) -> str:
    words = _common_case(background.strip().rstrip(",;").split())
    if len(words) > 1 and words[0] in ("The", "A", "An"):  # "The Park", "The Louvre": an article mid-sentence
        words = [words[0].lower(), *words[1:]]
        if len(words) == 2 and words[1].istitle() and words[1].lower() in _COMMON_PLACES | _ON_PLACES | _AT_PLACES:
            words[1] = words[1].lower()
    if len(words) == 1 and words[0].istitle() and words[0].lower() in _COMMON_PLACES | _ON_PLACES | _AT_PLACES | {
            *_BARE_PLACES}:
        words = [words[0].lower()]  # "Park": the park (a place's own name has more words: "Central Park")
    if not words:
        return ""
    if words[0].lower() in _PREPOSITIONS:
        return " ".join(_with_articles(words))
    if len(words) == 1 and words[0].lower() in _BARE_PLACES and not words[0][0].isupper():
        return _BARE_PLACES[words[0].lower()]
    last = words[-1].lower()
    preposition = "on" if last in _ON_PLACES else "at" if last in _AT_PLACES else "in"
    definite = words[0].startswith("\u0627\u0644")  # Arabic's own article, al-: "الحديقة" is "the garden"
    if words[0].lower() in _DETERMINERS or words[0][0].isupper() or is_wide(words[0][0]) or definite:
        # "in Central Park", "in 한강": a name takes no "the", nor a noun with an article of its own
        return f"{preposition} " + " ".join(words)
    return f"{preposition} the " + " ".join(words)


_CLOSING_MARKS = "\"'\u201d\u2019\u00bb\u300d\u300f)\uff09"
"""Marks that close a quotation or an aside: a sentence that ends inside them ('says "hi!"',
"「ただいま！」") needs no stop after them."""


def _ended(text: str, ends: str = ".!?…。！？") -> bool:
    """Whether ``text`` ends a sentence: with one of ``ends``, or with one inside closing quotes."""
    core = text.rstrip(_CLOSING_MARKS)
    return bool(core) and core[-1] in ends


def _sentence(text: str) -> str:
    text = " ".join(text.split()).strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if _ended(text) else text + "."


_KO_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")
"""Where one sentence of a free text ends and the next starts."""


def _free_sentence(text: str) -> str:
    """Free text as a sentence: one written in Japanese or Chinese (its last character kana or a
    kanji) ends with "。", any other with a full stop as :func:`_sentence` gives it; one written
    in Korean that ends in a motion's noun has it in the plain present (:func:`korean_free_text`)."""
    text = " ".join(korean_free_text(part) for part in _KO_SENTENCE_END.split(" ".join(text.split()).strip()))
    text = _CJK_GAP.sub("", text)
    last = text.rstrip(_CLOSING_MARKS)[-1:]
    if last and (script_of(last) in ("kana", "han") or (last in _JA_ENDS and not last.isascii())):
        return text if _ended(text, _JA_ENDS) else text + "。"
    return _sentence(text)


_CJK_TEXT = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff01-\uff0f\uff1a-\uff1f"
_CJK_GAP = re.compile(f"(?<=[{_CJK_TEXT}]) (?=[{_CJK_TEXT}])")
"""A space between two Japanese or Chinese characters (kana, kanji, their punctuation), which
those languages do not write: "公園で ランニング" is "公園でランニング". Hangul is not among them."""


def describe_action(instruction: Instruction, character: str = "", cast: Sequence[str] = ()) -> str:
    """What happens in the turn, as one plain sentence ("" for an empty instruction), with the
    lines of a script it holds after it, as their speakers say them ('Character: Qiqi; Motion:
    wave; Yuzu: "Wait!"' is 'Qiqi waves. Yuzu: "Wait!"': the line was left out) (see
    :func:`_sentence_of`)."""
    said = _sentence_of(instruction, character, cast)
    lines = [line for line in script_lines(instruction) if line not in said]
    return " ".join(part for part in (said, *lines) if part) if said else said


def _sentence_of(instruction: Instruction, character: str = "", cast: Sequence[str] = ()) -> str:
    """What happens in the turn, as one plain sentence ("" for an empty instruction).

    ``character`` names who acts when the instruction doesn't (a free-text turn of the
    branch's character); free text without fields is shown as written. A name of the Character
    field that is ``character`` or one of ``cast`` (the cast's names) written in another case
    is said as they spell it ("QIQI" -> "Qiqi": :func:`cast_spelling`). The sentence is in one
    language (:func:`sentence_language`): a turn whose fields are written in Japanese gets a
    Japanese sentence (:func:`_japanese_sentence`), one whose fields are written in Chinese a
    Chinese sentence (:func:`_chinese_sentence`), one whose fields are written in Korean a
    Korean sentence (:func:`_korean_sentence`); where the fields mix languages, the motion's
    decides, and a place or time it knows is named in it (:func:`_in_language`)."""
    who = cast_spelling(instruction.character.strip(), [character, *cast]) or character.strip()
    written = instruction
    instruction = motion_with_verb(instruction, [character, *cast, *character_names(who)])
    if instruction.free_text:
        instruction = replace(instruction, free_text=_names_spelled(instruction.free_text, [character, *cast]))
    motion = instruction.motion.split()
    if not motion and not instruction.background:
        # Field names left blank ("Motion:", "動作") are no sentence: never quote the field syntax.
        said_nothing = written.fields() or only_blank_fields(instruction.raw)
        if script_lines(instruction):
            return _spoken_turn(instruction)
        return _free_sentence(instruction.free_text or ("" if said_nothing else instruction.raw))
    language = sentence_language(instruction, who)
    instruction = _in_language(instruction, language)
    if language == "ko":
        return _korean_sentence(instruction, who)
    if language == "zh":
        return _chinese_sentence(instruction, who)
    if language == "ja":
        return _japanese_sentence(instruction, who)
    lead, motion = _clause_of_time(motion)
    who = _listed_in_english(who)
    parts: list[str] = []
    if motion:
        if who:
            motion = _without_own_subject(motion)
        words = _with_articles(_cast_spelled(_common_case(motion), [character, *cast]))
        if who:
            plural = several_characters(who)
            if words[0].lower() in _STILL_PREPOSITIONS:  # "with Yuzu": where one is, "Qiqi is with Yuzu"
                words = ["are" if plural else "is", *words]
            else:
                words = _negated(words, plural) or _noun_phrase_motion(words, plural) or _conjugated(words, plural)
            parts.append(who)
        after = _adverb_after_verb(instruction.adverb)
        if instruction.adverb and not after and words[0].lower() in _AUXILIARIES and len(words) > 1:
            words = [words[0], instruction.adverb, *words[1:]]  # "is happily waving", not "happily is waving"
        elif instruction.adverb and not after:
            parts.append(instruction.adverb)
        parts.append(" ".join(words))
        if after:
            parts.append(instruction.adverb)
    else:
        parts.append((f"{who} are" if several_characters(who) else f"{who} is") if who else "We are")
    place = _place(instruction.background)
    if place:
        parts.append(place)
    text = " ".join(parts)
    when = _time_phrase(instruction.time_of_day)
    if when:
        text += f", {when}"
    sentence = _sentence(f"{lead}, {text}" if lead else text)
    if instruction.free_text and motion:
        sentence += " " + _free_sentence(instruction.free_text)
    return sentence


_STILL_PREPOSITIONS = frozenset({"with", "at", "in", "on", "under", "near", "behind", "beside", "inside",
                                 "outside", "by", "beneath", "below", "above", "among", "between"})
"""Prepositions of where one is, not where one goes: a Motion field that opens with one and
names no place ("with Yuzu", "under the tree") says where the character is ("Qiqi is with
Yuzu"); one of those that goes ("to Yuzu", "towards the light") is no motion the caption says."""
_MORE_VERBS = frozenset({
    "moonwalk", "cartwheel", "somersault", "skate", "ski", "skateboard", "surf", "juggle", "meditate",
    "stumble", "trip", "crawl", "roll", "tumble", "flip", "bounce", "stroll", "wander", "jog", "sprint", "dash",
    "hurry", "rush", "march", "tiptoe", "glide", "soar", "hover", "perch", "nap", "doze", "snooze", "relax",
    "sweep", "mop", "tidy", "study", "paint", "sketch", "doodle", "type", "drink", "munch", "snack", "picnic",
    "fish", "garden", "shop", "explore", "hike", "climb", "box", "fight", "spar", "train", "exercise", "pose",
    "salute", "shrug", "point", "peek", "peer", "gaze", "scroll", "text", "call", "phone", "idle", "stay",
    "cheer", "applaud", "wiggle", "wobble", "sway", "rock", "swing", "kneel", "crouch", "squat", "duck", "dodge",
})
"""Verbs of motions besides :data:`_ACTION_VERBS`: a Motion field of one of them written with a
capital ("Moonwalk") is the verb, not a name."""
_VERB_SUFFIXES = ("ate", "ize", "ise", "ify")
_LY_VERBS = frozenset({"fly", "apply", "reply", "rely", "supply", "imply", "comply", "multiply", "rally", "tally",
                       "bully", "dally", "sully", "ally"})
"""Verbs in "-ly", which are no manner ("slowly")."""
_PLACE_NOUNS = _COMMON_PLACES | _ON_PLACES | _AT_PLACES | frozenset(_BARE_PLACES) | {
    words.english for words in PLACES}


def _verb_word(word: str) -> bool:
    """Whether ``word`` reads as a verb a caption may conjugate: an action verb or one of
    :data:`_MORE_VERBS` in any form ("Run", "dancing", "waved"), or one with a verb's ending
    ("Meditate", "Tidy up" aside)."""
    lower = _wrapped(word)[1].lower()
    base = _verb_base(lower)
    known = _ACTION_VERBS | VERBS_AFTER_TO | _MORE_VERBS
    past = _is_regular_past(lower) and (lower[:-2] in known or lower[:-1] in known)  # "walked", "waved"
    return (base in known or lower in known or past or bool(gerund_base(lower)) or lower.endswith(_VERB_SUFFIXES))


def _a_name(part: str, names: Sequence[str]) -> bool:
    """Whether ``part`` of a Motion field is a name: one of ``names`` (the cast, in any case),
    or words each written with a capital ("Tokyo", "Mr Tanaka") the first of which is no verb."""
    keys = {written_key(name) for name in names if name.strip()}
    if written_key(part) in keys:
        return True
    words = part.split()
    return (bool(words) and all(word[:1].isupper() for word in words) and not _verb_word(words[0])
            and all(char.isalpha() or char in "'-." for char in part.replace(" ", "")))


_INTENSIFIERS = frozenset({"very", "really", "so", "super", "too", "quite"})


def _an_adverb(words: list[str]) -> bool:
    """Whether ``words`` say only how ("slowly", "very happily"; "very" alone, the reading
    having taken "happily" for the manner), no motion."""
    lowered = [word for word in (_wrapped(word)[1].lower() for word in words) if word not in _INTENSIFIERS]
    return all((word in ADVERBS or (word.endswith("ly") and len(word) > 4)) and word not in _LY_VERBS
               for word in lowered)


def _place_of(words: list[str]) -> str:
    """The place a Motion field names, without the preposition it may open with ("at the beach"
    -> "the beach", "to school" -> "school", "the old library" -> "the old library"); "" where
    it names none: its last word is no place's noun, or another word is a verb."""
    rest = list(words)
    while rest and rest[0].lower() in _PREPOSITIONS:  # "at", "off to"
        rest = rest[1:]
    if not rest or _wrapped(rest[-1])[1].lower() not in _PLACE_NOUNS:
        return ""
    if rest == words and len(words) == 1 and _verb_word(words[0]):
        return ""  # "stop", "shop": the verb, as written alone
    if any(_verb_word(word) and _wrapped(word)[1].lower() not in _PLACE_NOUNS for word in rest):
        return ""
    return " ".join(rest)


def motion_with_verb(instruction: Instruction, names: Sequence[str] = ()) -> Instruction:
    """``instruction`` with a Motion field that names no motion moved out of the motion, so that
    no caption makes a verb of it ("Qiqi yuzus", "Qiqi does the beach", "Qiqi slowlies"):

    - one with no letter nor emoji ("123", "???"), or only names (``names``, the cast, in
      any case; a word or words with capitals that are no verb: "Yuzu", "Tokyo", "Yuzu and
      Taro"), is left out: the caption says who is where, as for a turn without a motion (the
      engines draw no motion of it either);
    - one that names a place ("the beach", "at the station", "to school", "Central Park") is
      the turn's place where the Background field says none;
    - one that only says how ("slowly") is the turn's manner where the Adverb field says none.

    A Motion field that opens with a preposition of where one is ("with Yuzu") is kept: the
    English sentence says it with "is" (:func:`describe_action`); so is one of emoji ("🙂"),
    said as written after the name ("Qiqi 🙂."), as free text says it. Motions in other scripts are
    as written (but for the ones with no letter, and those that only name the cast)."""
    motion = " ".join(instruction.motion.split())
    if not motion:
        return instruction
    if not any(char.isalpha() for char in motion):
        # an emoji is said as written, as in free text ("Qiqi 😴."), with no verb made of it; digits and marks are not
        return instruction if any(unicodedata.category(char) == "So" for char in motion) else \
            replace(instruction, motion="")
    keys = {written_key(name) for name in names if name.strip()}
    named = character_names(motion, list(names))
    if named and all(written_key(name) in keys for name in named):  # "ゆず", "小明和小红": only the cast, in any script
        return replace(instruction, motion="")
    if scripts_in(motion) != {"letter"}:
        return instruction
    words = motion.rstrip(".!?;,").split()
    if not words:
        return replace(instruction, motion="")
    place = _place_of(words)
    parts = character_names(" ".join(words), list(names))
    if not place and parts and all(_a_name(part, names) for part in parts):
        last = _wrapped(words[-1])[1].lower()
        place = " ".join(words) if len(words) > 1 and last in _PLACE_NOUNS else ""  # "Central Park"
        if not place:
            return replace(instruction, motion="")
    if place:
        background = instruction.background or place
        return replace(instruction, motion="", background=background)
    if _an_adverb(words):
        return replace(instruction, motion="", adverb=instruction.adverb or motion)
    first = words[0].lower()
    if first in _PREPOSITIONS and first not in _STILL_PREPOSITIONS and not _verb_word(first):
        return replace(instruction, motion="")  # "to Yuzu", "towards the light": a way, with no verb
    return instruction


_SUBJECT_PRONOUNS = frozenset({"she", "he", "they", "i", "we", "you", "it"})
_AUXILIARIES = frozenset({"is", "are", "was", "were", "doesn't", "don't"})
"""Verbs a manner goes after ("is happily waving", "doesn't quite run")."""
_NEGATIONS = {"don't": ("doesn't", "don't"), "dont": ("doesn't", "don't"), "not": ("does not", "do not")}
"""A motion that opens by saying it is not done ("don't move", "not run"), as one character
and several say it ("Qiqi doesn't move", "Qiqi does not run")."""


def _negated(words: list[str], plural: bool) -> list[str] | None:
    """A motion that opens with a negation (:data:`_NEGATIONS`, "do not", "never") as the words
    of the sentence's predicate ("doesn't move", "does not run", "never runs"); None for any other."""
    first = words[0].lower()
    if first == "do" and len(words) > 2 and words[1].lower() == "not":
        return [*(["do"] if plural else ["does"]), *words[1:]]
    if first in _NEGATIONS and len(words) > 1:
        single, several = _NEGATIONS[first]
        return [*(several if plural else single).split(), *words[1:]]
    if first == "never" and len(words) > 1:
        return [words[0], *_conjugated(words[1:], plural)]
    return None


def _without_own_subject(motion: list[str]) -> list[str]:
    """A Motion field written as a whole clause, subject and all, without its subject: the
    caption says who acts from the Character field ("Character: Qiqi; Motion: she waves" and
    "Motion: Qiqi waves at the sea": "Qiqi waves", not "Qiqi shes waves"). A subject is a
    pronoun before a verb, or a name (a capitalised word that is no verb) before a verb in the
    third person ("Hana waves"); "Wave to Yuzu" and "Run fast" keep every word."""
    if len(motion) < 2:
        return motion
    first, verb = _wrapped(motion[0])[1], _wrapped(motion[1])[1]
    base = _verb_base(verb)
    if base not in _ACTION_VERBS:
        return motion
    if first.lower() in _SUBJECT_PRONOUNS:
        return motion[1:]
    named = first[:1].isupper() and first.isalpha() and _verb_base(first) not in _ACTION_VERBS
    return motion[1:] if named and _is_third_person(verb.lower()) else motion


def _adverb_after_verb(adverb: str) -> bool:
    """Whether an adverb goes after the verb in English: one that does not end in "-ly" ("runs
    fast", "jumps high", "walks a little"); "-ly" adverbs lead ("Qiqi gently waves")."""
    words = adverb.lower().split()
    return bool(words) and not words[-1].endswith("ly") and words[-1].isascii()


def _listed_in_english(who: str) -> str:
    """Names a Character field lists with commas alone said as English lists them: "Qiqi, Yuzu"
    -> "Qiqi and Yuzu", "Qiqi, Yuzu, Taro" -> "Qiqi, Yuzu and Taro"; any other field as it is."""
    parts = [" ".join(part.split()) for part in who.split(",")]
    if len(parts) < 2 or not all(parts) or len(character_names(who)) != len(parts):
        return who
    if any(" and " in f" {part.lower()} " or "&" in part for part in parts):
        return who
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def cast_spelling(field: str, names: Sequence[str]) -> str:
    """A Character field with each name it joins (:func:`character_names`) that is one of
    ``names`` (the cast) written in another case or form said as the cast spells it ("QIQI" ->
    "Qiqi", "qiqi and YUZU" -> "Qiqi and Yuzu"); a name outside the cast is kept as typed."""
    field = " ".join(field.split())
    spelled = {written_key(name): " ".join(name.split()) for name in names if name.strip()}
    if not field or not spelled:
        return field
    out, at = "", 0
    for name in character_names(field, list(spelled.values())):
        start = field.find(name, at)
        if start < 0:
            continue
        out += field[at:start] + spelled.get(written_key(name), name)
        at = start + len(name)
    return out + field[at:]


_LANGUAGE_OF_SCRIPT = {"hangul": "ko", "kana": "ja"}


def sentence_language(instruction: Instruction, who: str = "") -> str:
    """The language of a turn's sentence: "ko", "zh", "ja" or "en". Fields written in one
    language give it (:func:`written_in_korean`, :func:`written_in_chinese`,
    :func:`written_in_japanese`); where they mix, the motion's language decides, as a reader
    reads the verb first: a motion in Hangul is Korean, one with kana Japanese, one in Han
    characters alone Chinese unless the turn says it is Japanese (:func:`_japanese_han`); a
    motion in Latin letters, or in several scripts, is English."""
    if written_in_korean(instruction):
        return "ko"
    if written_in_chinese(instruction, who):
        return "zh"
    if written_in_japanese(instruction, who):
        return "ja"
    scripts = scripts_in(instruction.motion)
    if len(scripts) == 1 and scripts <= _LANGUAGE_OF_SCRIPT.keys():
        return _LANGUAGE_OF_SCRIPT[next(iter(scripts))]
    if scripts == {"kana", "han"}:  # 手を振る
        return "ja"
    if scripts == {"han"}:
        return "ja" if _japanese_han(instruction, who) else "zh"
    return "en"


def _japanese_han(instruction: Instruction, who: str) -> bool:
    """Whether a motion of Han characters alone beside fields in another language is Japanese:
    the turn is written with Japanese field names, the character's name holds kana, or the
    motion a kanji only Japanese writes (散歩, 読書); else it is Chinese (跑步, 散步)."""
    if marked_chinese(instruction) and not any(char in JAPANESE_ONLY_CHARS for char in instruction.motion):
        return False
    return (bool(_JAPANESE_KEY_RE.search(instruction.raw)) or "kana" in scripts_in(who)
            or any(char in JAPANESE_ONLY_CHARS for char in instruction.motion))


def _in_language(instruction: Instruction, language: str) -> Instruction:
    """``instruction`` with a place, a time of day or a manner written in another language than
    the sentence's named in the sentence's where it is known (:mod:`studio.core.caption_words`):
    "Motion: 산책; Background: park" is said "공원에서 산책한다", "Motion: run; Background: 公園"
    "runs in the park", "Motion: run; Time: 夜" "runs at night", "Motion: 手を振る; Adverb:
    slowly" "ゆっくり手を振る". A word not known there (a place's own name) is kept as written; a
    Japanese, Chinese or Korean sentence says the English time words itself."""
    place = " ".join(instruction.background.split())
    time = " ".join(instruction.time_of_day.split())
    adverb = " ".join(instruction.adverb.split())
    if language == "en":
        place = _english_place(place) or place
        time = TIMES_IN_ENGLISH.get(time.rstrip(_TIME_ENDS), time)
        adverb = english_adverb(adverb) or adverb
    else:
        traditional = any(char in TRADITIONAL_ONLY_CHARS for char in instruction.raw)
        if scripts_in(place) == {"letter"}:
            place = place_in(language, place, traditional=traditional) or place
        if scripts_in(adverb) == {"letter"}:
            adverb = adverb_in(language, adverb, traditional=traditional) or adverb
    written = tuple(" ".join(value.split()) for value in
                    (instruction.background, instruction.time_of_day, instruction.adverb))
    if (place, time, adverb) == written:
        return instruction
    return replace(instruction, background=place, time_of_day=time, adverb=adverb)


_TIME_ENDS = "に에、,，"
"""Particles and commas an author may write after a time ("夜に", "밤에")."""


def _english_place(place: str) -> str:
    """A place written in Japanese, Chinese or Korean as English names it, with a particle its
    author wrote after it left out ("公園で", "공원에서"); "" for a place not known."""
    if not place or "letter" in scripts_in(place):
        return ""
    return english_place(place) or english_place(_bare_place(place)) or english_place(_bare_korean_place(place)) \
        or english_place(place.removeprefix(_ZH_AT))


_LEADS = frozenset({"before", "after", "once"})


def _clause_of_time(words: list[str]) -> tuple[str, list[str]]:
    """A motion that opens with a clause of time ("before running, stretch") as that clause
    and the motion of its main clause: ("before running", ["stretch"]), which the sentence
    says so, its subject before the main clause's verb ("Before running, Qiqi stretches.");
    ("", ``words``) for any other motion."""
    if len(words) < 3 or words[0].lower() not in _LEADS:
        return "", words
    end = next((index for index, word in enumerate(words) if word.endswith(",")), -1)
    if end < 1 or end == len(words) - 1:
        return "", words
    return " ".join([*words[:end], words[end].rstrip(",")]), words[end + 1:]


def _time_phrase(time: str) -> str:
    """The time of day as the English sentence says it: "at night", "in the evening", "tonight",
    "this morning", "at teatime" ('' for none)."""
    time = " ".join(time.split())
    words = time.lower().split()
    if not words:
        return ""
    if time.lower() in _TIME_PHRASES:
        return _TIME_PHRASES[time.lower()]
    if time.lower() in _BARE_TIMES or words[0] in _TIME_LEADS:
        return time
    return f"at {time}"


def script_lines(instruction: Instruction) -> list[str]:
    """The lines of a script the instruction holds, each as its speaker says it
    ('Qiqi: "Let's go to the beach!"'), the speaker's name as typed; [] for none. (The parser
    keeps such a line as an extra field whose value is one quotation; the engines read it as
    the speaker talking.)"""
    return [line for _, line in _placed_script_lines(instruction)]


def _placed_script_lines(instruction: Instruction) -> list[tuple[int, str]]:
    """:func:`script_lines`, each with where its speaker's name stands in the raw text."""
    lines: list[tuple[int, str]] = []
    for key, value in instruction.extra:
        if not is_script_line(value):
            continue
        written = re.search(rf"(?<![^\W_]){re.escape(key)}(?=\s*[:：])", instruction.raw, re.IGNORECASE)
        at = written.start() if written else len(instruction.raw)
        lines.append((at, f"{written.group(0) if written else key}: {value.strip()}"))
    return lines


def _spoken_turn(instruction: Instruction) -> str:
    """The caption of a turn that shows no motion nor place and holds lines of a script: each line
    as its speaker says it, and the free text as a sentence, in the order the author wrote them
    ('Qiqi: "Hi!"; she waves' -> 'Qiqi: "Hi!" She waves.')."""
    parts = _placed_script_lines(instruction)
    free = instruction.free_text
    if free:
        at = instruction.raw.find(free.split(";")[0].strip())
        parts.append((at if at >= 0 else len(instruction.raw), _free_sentence(free)))
    return " ".join(text for _, text in sorted(parts, key=lambda part: part[0]))


# Japanese sentences ------------------------------------------------------------------------

_JA_TIMES = {"day": "昼", "daytime": "昼", "morning": "朝", "noon": "正午", "midday": "正午", "afternoon": "午後",
             "sunny": "晴れた日", "sunset": "夕暮れ", "dusk": "夕暮れ", "evening": "夕方", "twilight": "黄昏",
             "dawn": "明け方", "sunrise": "日の出", "night": "夜", "nighttime": "夜", "midnight": "真夜中"}
"""The English time words an author may pick in the window (or write) beside Japanese fields,
as a Japanese sentence says them."""
_JA_ENDS = "。！？!?…"
_JA_PLACE_PARTICLES = ("にて", "で", "に", "へ")
"""Particles an author may have written after a place ("公園で"): the sentence puts its own."""
_JA_TOPIC_PARTICLES = ("は", "が", "も")
_JAPANESE_KEYS = sorted((k for k in KEY_ALIASES if not k.isascii() and k not in CHINESE_KEYS | KOREAN_KEYS),
                        key=len, reverse=True)
_JAPANESE_KEY_RE = re.compile("(?:" + "|".join(re.escape(key) for key in _JAPANESE_KEYS) + r")\s*[:：]")


def written_in_japanese(instruction: Instruction, who: str = "") -> bool:
    """Whether the turn's sentence should be Japanese: decided by what its fields say, not by
    their keys alone (``動作：wave`` is English).

    The motion, manner, place and time (an English time word left out: it is said in Japanese
    too) decide. A letter of another script (Latin, Hangul, Cyrillic...) in any of them keeps
    the English sentence; kana in any makes it Japanese. Kanji alone are Japanese or Chinese:
    Japanese where the turn is written with the Japanese field names (``背景：公園``) or the
    character's name holds kana, else the sentence stays as it was (a Chinese turn)."""
    time = instruction.time_of_day
    said = [instruction.motion, instruction.adverb, instruction.background,
            "" if time.lower() in _JA_TIMES else time]
    scripts = set().union(*(scripts_in(value) for value in said))
    if not scripts or scripts & {"letter", "hangul"}:
        return False
    if "kana" in scripts:
        return True
    return bool(_JAPANESE_KEY_RE.search(instruction.raw)) or "kana" in scripts_in(who)


def _tight(text: str) -> str:
    """``text`` with single spaces, and none beside a wide character (Japanese is written
    without spaces: "東京 タワー" -> "東京タワー"; "Mary Ann" keeps its space)."""
    words = text.split()
    out = words[0] if words else ""
    for word in words[1:]:
        out += word if is_wide(out[-1]) or is_wide(word[0]) else " " + word
    return out


def _bare_place(place: str) -> str:
    """A place without a particle its author wrote after it ("公園で" -> "公園"): only after a
    kanji or katakana, so that a word ending in that kana ("かに") keeps it."""
    for particle in _JA_PLACE_PARTICLES:
        stem = place.removesuffix(particle)
        if stem != place and stem and (script_of(stem[-1]) == "han" or "\u30a0" <= stem[-1] <= "\u30ff"):
            return stem
    return place


def _japanese_sentence(instruction: Instruction, who: str) -> str:
    """The turn as a Japanese sentence: time、character は place で motion。 ("夜、美咲は公園で
    手を振る。"); a field not given leaves out its words and its particle. Without a motion the
    character is at the place ("美咲は公園にいる。"), or the place is named ("ここは公園。").
    Camera and extra fields are left out, as in the English sentence; free text follows."""
    time = instruction.time_of_day
    when = _tight(_JA_TIMES.get(time.lower(), time)).rstrip("、,，")
    who = _tight(who)
    place = _bare_place(_tight(instruction.background))
    motion = _tight(" ".join(p for p in (instruction.adverb, instruction.motion) if p))
    text = f"{when}、" if when else ""
    if who:
        text += who if who.endswith(_JA_TOPIC_PARTICLES) else who + "は"
    if motion:
        text += (place + "で" if place else "") + motion
    elif who:
        text += place + "にいる"
    else:
        text += "ここは" + place
    sentence = text if text.endswith(tuple(_JA_ENDS)) else text + "。"
    if instruction.free_text and motion:  # as in English: a turn without a motion says where it is, only
        free = _free_sentence(instruction.free_text)
        # Japanese runs its sentences on without a space; a space only after "!" or "?" before a Latin word
        sentence += free if is_wide(free[0]) or not sentence[-1].isascii() else " " + free
    return sentence


# Chinese sentences -------------------------------------------------------------------------

CHINESE_ONLY_CHARS = frozenset(
    "们这说个时间镜头动边车书飞读园场过让还对开关门见长东乐热师发云电饭馆鱼鸟马钟钱铁银进远运连选阳队陆险难"
    "页顶须顾领题颜驾骑鸡龄乡镇广农丛树滩码钢图阁卧层楼庙后岛滨宫办术厅饮红搅练习绘笔记涂鸦戏摔绊"
    "懒锻炼跺击战谢掷抛丢颤冻庆欢梦忆祷许愿气闹愤闲赶赛冲蹑踮窥跃扫帚悬拿凳栏篱围墙觉盹转瞥环张凝视寻"
    "观挥问话讲聊谈语唤询讨论遇访拥牵泪伤蕾吃喝晚咬尝奶吗呢吧么啊呀她它們說讀寫樂點邊裡嗎麼"
)
"""Characters Chinese writes and Japanese does not (Simplified forms, and the Traditional forms
Japanese replaced: 們, 說, 讀...), with the particles 吗, 呢, 吧. (Simplified forms Japanese
writes too, 椅 of 椅子, 没 of 日没, 寝 of 寝る, are left out.)"""
JAPANESE_ONLY_CHARS = frozenset(
    "歩駅円気帰図読売広楽辺戦浜県桜沢実処変発絵働込畑峠栄済薬隣険験剣検黒関闘単巻団価様続経転伝遅渋亜悪圧"
    "囲衛駆鉄髪歳拝払仏乗従縦覚観権恵営鶏姫滝麺"
)
"""Kanji only Japanese writes (its own simpler forms: 歩, 駅, 気): a turn with one is no Chinese."""
_CHINESE_PARTICLES = {"的": ("目", ""), "了": ("完終修満魅", ""), "在": ("現存滞駐所実健自潜", ""),
                      "着": ("到定執決沈愛密接土漂癒粘装", "席陸用物地手信衣")}
"""Particles Chinese writes between its words, each with the kanji that, before or after it,
make a Japanese word instead (目的, 終了, 現在, 到着, 着席). 着 counts only after a Han character
(跑着): Japanese starts words with it."""
_CHINESE_KEY_RE = re.compile(
    "(?:" + "|".join(re.escape(key) for key in sorted(CHINESE_KEYS, key=len, reverse=True)) + r")\s*[:：]")
TRADITIONAL_ONLY_CHARS = frozenset("們這說讀寫樂點邊裡嗎麼個過還時間動園場車書飛開關門見長東熱師發雲電飯館魚鳥馬"
                                   "鐘黃樹燈")
"""Traditional forms that tell a Traditional turn from a Simplified one (for the words the
sentence adds itself, such as a time of day chosen in the window)."""


def marked_chinese(instruction: Instruction) -> bool:
    """Whether ``instruction`` says it is written in Chinese: Han characters and no kana, and a
    Chinese field name (角色, 动作, 地点... see :data:`~studio.core.instruction.CHINESE_KEYS`), or,
    with no kanji only Japanese writes (歩, 駅), a character only Chinese writes
    (:data:`CHINESE_ONLY_CHARS`) or the particles 的, 了, 在, 着 where they are no part of a
    Japanese word. A turn of Han characters that says neither is taken to be Japanese."""
    raw = instruction.raw
    scripts = scripts_in(raw)
    if "kana" in scripts or "han" not in scripts:
        return False
    if _CHINESE_KEY_RE.search(raw):
        return True
    if any(char in JAPANESE_ONLY_CHARS for char in raw):
        return False
    if any(char in CHINESE_ONLY_CHARS for char in raw):
        return True
    return any(_chinese_particle(raw, index) for index, char in enumerate(raw) if char in _CHINESE_PARTICLES)


def _chinese_particle(raw: str, index: int) -> bool:
    """Whether the particle at ``raw[index]`` is one (see :data:`_CHINESE_PARTICLES`)."""
    not_after, not_before = _CHINESE_PARTICLES[raw[index]]
    before = raw[index - 1] if index else ""
    after = raw[index + 1] if index + 1 < len(raw) else ""
    if raw[index] == "着" and not (before and script_of(before) == "han"):
        return False
    return not (before and before in not_after) and not (after and after in not_before)


def written_in_chinese(instruction: Instruction, who: str = "") -> bool:
    """Whether the turn's sentence should be Chinese: its motion, manner, place and time (an
    English time word left out: it is said in Chinese too) are Han characters only, with no
    letter of another script nor kana (in them or in the character's name), and the turn is
    marked Chinese (:func:`marked_chinese`)."""
    time = instruction.time_of_day
    said = [instruction.motion, instruction.adverb, instruction.background,
            "" if time.lower() in _ZH_TIMES else time]
    scripts = set().union(*(scripts_in(value) for value in said))
    if scripts != {"han"} or "kana" in scripts_in(who):
        return False
    return marked_chinese(instruction)


_ZH_TIMES = {"day": "白天", "daytime": "白天", "morning": "早上", "noon": "中午", "midday": "中午",
             "afternoon": "下午", "sunny": "晴天", "sunset": "日落", "dusk": "黄昏", "evening": "傍晚",
             "twilight": "黄昏", "dawn": "黎明", "sunrise": "日出", "night": "晚上", "nighttime": "夜里",
             "midnight": "半夜"}
"""The English time words an author may pick in the window beside Chinese fields, as a Chinese
sentence says them (in Simplified characters; :func:`_in_script` writes them in Traditional)."""
_ZH_ENDS = "。！？!?…"
_ZH_AT = "在"


def _inscript_of(word: str, traditional: bool) -> str:
    """A word the sentence adds, in Traditional characters for a Traditional turn."""
    return word.replace("黄", "黃").replace("里", "裡") if traditional else word


def _chinese_sentence(instruction: Instruction, who: str) -> str:
    """The turn as a Chinese sentence: time，character 在 place motion。 ("晚上，小明在公园跑步。");
    a field not given leaves out its words (and 在 with the place). Without a motion the character
    is at the place ("小明在公园。"), or the place is named ("这里是公园。"). Camera and extra
    fields are left out, as in the English sentence; free text follows."""
    traditional = any(char in TRADITIONAL_ONLY_CHARS for char in instruction.raw)
    time = instruction.time_of_day
    when = _tight(_inscript_of(_ZH_TIMES.get(time.lower(), time), traditional)).rstrip("、,，")
    who = _tight(who)
    place = _tight(instruction.background).removeprefix(_ZH_AT)  # "在公园" written: the sentence puts its own
    motion = _tight(instruction.motion)
    if place and motion.startswith("正在"):  # 正在跑步 in the park: 正在公园跑步
        at, motion = "正在", motion.removeprefix("正在")
    else:
        at, motion = _ZH_AT, motion.removeprefix(_ZH_AT) if place else motion
    motion = _tight(instruction.adverb) + motion
    text = f"{when}，" if when else ""
    if motion:
        text += who + (at + place if place else "") + motion
    elif who:
        text += who + _ZH_AT + place
    else:
        text += ("這裡是" if traditional else "这里是") + place
    sentence = text if text.endswith(tuple(_ZH_ENDS)) else text + "。"
    if instruction.free_text and motion:  # as in English: a turn without a motion says where it is, only
        free = _free_sentence(instruction.free_text)
        sentence += free if is_wide(free[0]) or not sentence[-1].isascii() else " " + free
    return sentence


# Korean sentences --------------------------------------------------------------------------

_KO_TIMES = {"day": "낮", "daytime": "낮", "morning": "아침", "noon": "정오", "midday": "한낮", "afternoon": "오후",
             "sunny": "맑은 날", "sunset": "해 질 녘", "dusk": "해 질 녘", "evening": "저녁", "twilight": "황혼",
             "dawn": "새벽", "sunrise": "해돋이", "night": "밤", "nighttime": "밤", "midnight": "한밤중"}
"""The English time words an author may pick in the window beside Korean fields, as a Korean
sentence says them."""
_KO_NO_AT = ("오늘", "내일", "어제", "지금", "매일", "요즘", "방금", "아까", "이제", "그때", "언제나", "항상")
"""Times said without 에 after them ("오늘 공원에서", not "오늘에")."""
_KO_PLACE_PARTICLES = ("에서", "으로", "에", "로")
"""Particles an author may have written after a place ("공원에서"): the sentence puts its own."""
_KO_ENDS = ".!?…。"


def written_in_korean(instruction: Instruction) -> bool:
    """Whether the turn's sentence should be Korean: its motion, manner, place and time (an English
    time word left out: it is said in Korean too) are written in Hangul, with no letter of another
    script (Latin, kana, Han...) in them. The character's name may be written in any."""
    time = instruction.time_of_day
    said = [instruction.motion, instruction.adverb, instruction.background,
            "" if time.lower() in _KO_TIMES else time]
    return scripts_in(*said) == {"hangul"}


def _has_final(word: str) -> bool | None:
    """Whether ``word`` ends in a Hangul syllable with a final consonant (공원, 민준: True; 민수,
    바다: False); None when it ends in anything else (a Latin letter, a digit): its sound is unknown."""
    last = word[-1:]
    if not last or not "\uac00" <= last <= "\ud7a3":
        return None
    return (ord(last) - 0xAC00) % 28 != 0


_LATIN_VOWEL_ENDS = ("a", "i", "o", "u", "y", "s", "x", "z", "sh", "ch", "f", "v")
"""How a Latin-script name ends when Korean says it with a vowel last: Qiqi (치치), Yuzu, Amy;
Chris (크리스), Max (맥스), Josh (조시): Korean adds a vowel after those consonants."""
_LATIN_FINAL_ENDS = ("n", "m", "l", "ng")
"""How a Latin-script name ends when Korean says it with a final consonant: Ken (켄), Tom (톰), Paul (폴)."""


def _sounded_final(word: str) -> bool | None:
    """Whether ``word`` ends, as Korean says it, in a final consonant (:func:`_has_final`); for a
    name in Latin letters or in kana, by how its last letters sound (:data:`_LATIN_VOWEL_ENDS`,
    :data:`_LATIN_FINAL_ENDS`; a kana other than ん ends in a vowel); None where they do not tell
    (Mike, Jane; Jack, Bob, Peter; a kanji, a digit)."""
    final = _has_final(word)
    if final is not None:
        return final
    last = word.rstrip("ーｰ")[-1:]
    if last and script_of(last) == "kana":
        return last in "んンﾝ"
    lower = word.lower()
    if not lower[-1:].isascii() or not lower[-1:].isalpha():
        return None
    if lower.endswith(_LATIN_FINAL_ENDS):
        return True
    if lower.endswith(_LATIN_VOWEL_ENDS) or (lower.endswith("e") and lower[-2:-1] in "aeiou" and len(lower) > 1):
        return False
    return None


def korean_particle(word: str, after_consonant: str, after_vowel: str) -> str:
    """``word`` with the particle its last sound takes: ``korean_particle("민준", "은", "는")`` is
    "민준은", of "민수" "민수는", of "Ken" "Ken은", of "Qiqi" "Qiqi는" (:func:`_sounded_final`);
    after a word whose last sound is not told, both ("Jack은(는)")."""
    final = _sounded_final(word)
    if final is None:
        return f"{word}{after_consonant}({after_vowel})"
    return word + (after_consonant if final else after_vowel)


def _bare_korean_place(place: str) -> str:
    """A place without a particle its author wrote after it ("공원에서" -> "공원")."""
    for particle in _KO_PLACE_PARTICLES:
        stem = place.removesuffix(particle)
        if stem != place and stem and "\uac00" <= stem[-1] <= "\ud7a3":
            return stem
    return place


def _korean_when(time: str) -> str:
    """The time of day as the sentence says it: "밤에", "해 질 녘에", "오늘" ('' for none)."""
    when = " ".join(_KO_TIMES.get(time.lower(), time).split()).rstrip(",，、")
    if not when or when.endswith("에") or when.endswith(_KO_NO_AT):
        return when
    return when + "에"


_KO_N, _KO_L, _KO_B, _KO_SS = 4, 8, 17, 20
"""Final consonants by their index in a Hangul syllable: ㄴ, ㄹ, ㅂ, ㅆ."""
_KO_AS_IT_IS = ("없다", "춥다", "덥다", "아프다", "고프다", "슬프다", "기쁘다", "졸리다", "좋다", "싫다", "같다",
                "뾰로통하다", "행복하다", "피곤하다", "심심하다")
"""Words in 다 that are already the plain present: 없다 and descriptive verbs ("춥다", is cold),
which take no ㄴ다 (있다, 달렸다 and 달리겠다 are told by their ㅆ)."""
_KO_N_STEMS = ("안다",)
"""Dictionary forms of verbs whose stem ends in ㄴ (안다, hug; 껴안다), which look like a vowel
stem's present (달린다): they take 는다 (안는다)."""
_KO_GI_NOUNS = ("이야기", "얘기", "줄넘기", "발차기", "술래잡기", "제기차기", "널뛰기", "경기", "내기")
"""Nouns in 기 that are no -기 form of a verb (달리기, 걷기): they are done (줄넘기를 한다)."""
_KO_NOUN_MOTIONS: dict[str, str] = {
    "춤": "춤을 추다", "막춤": "막춤을 추다", "노래": "노래를 부르다", "콧노래": "콧노래를 부르다",
    "잠": "잠을 자다", "낮잠": "낮잠을 자다", "그림": "그림을 그리다", "박수": "박수를 치다", "손뼉": "손뼉을 치다",
    "수다": "수다를 떨다", "미소": "미소를 짓다", "소원": "소원을 빌다", "소리": "소리를 지르다",
    "비명": "비명을 지르다", "고함": "고함을 치다", "기지개": "기지개를 켜다", "빗자루": "빗자루를 타다",
    "소풍": "소풍을 가다", "나들이": "나들이를 가다", "펀치": "펀치를 날리다", "물장구": "물장구를 치다",
    "울음": "울다", "웃음": "웃다", "걸음": "걷다", "까치발": "까치발로 걷다", "뾰로통": "뾰로통하다",
    "깡충깡충": "깡충깡충 뛰다", "빙글빙글": "빙글빙글 돌다", "빙빙": "빙빙 돌다", "흘끗": "흘끗 보다",
    "힐끗": "힐끗 보다", "덜덜": "덜덜 떨다", "가만히": "가만히 서 있다", "노래방": "노래방에서 노래하다",
}
"""Korean nouns (and a few adverbs) of a motion, as a sentence says the motion in the dictionary
form of its verb: "춤" is danced (춤을 추다), "울음" cried (울다)."""
_KO_DONE_NOUNS = frozenset({
    "게임", "놀이", "축구", "야구", "농구", "배구", "피구", "테니스", "요가", "발레", "태권도", "가라테", "무술",
    "준비운동", "숨바꼭질", "씨름", "줄다리기", "공차기", "딱지치기",
})
"""Nouns of a motion said with 하다 after their object particle (게임을 한다, 요가를 한다)."""
_KO_HA_NOUNS = frozenset({
    "산책", "산보", "운동", "수영", "청소", "요리", "독서", "공부", "기도", "명상", "등산", "등반", "조깅", "점프",
    "스트레칭", "체조", "낚시", "식사", "인사", "휴식", "비행", "여행", "구경", "관광", "전화", "통화", "대화",
    "질문", "토론", "의논", "외출", "행진", "이동", "귀가", "대기", "질주", "경주", "도약", "잠입", "포복", "이륙",
    "활공", "정리", "비질", "빗자루질", "걸레질", "착석", "취침", "곁눈질", "응시", "관찰", "탐험", "손짓",
    "작별", "배웅", "방문", "포옹", "회전", "공놀이", "스케치", "필기", "낙서", "색칠", "잠수", "권투", "주먹질",
    "투구", "축하", "응원", "환호", "생각", "상상", "고민", "기억", "공상", "합장", "배달", "운반", "훈련", "감사",
    "손인사", "쇼핑", "노크", "하이킹", "샤워", "목욕", "빨래", "설거지", "연습", "뜀박질", "달음박질", "말다툼",
    "싸움", "슬퍼", "추워", "공연", "연주", "촬영", "사냥", "청소기질", "휘파람", "노래연습", "악수", "묵념",
    "경례", "윙크", "사색", "몽상", "손가락질", "하품",
})
"""Nouns of a motion said with 하다 written onto them (산책한다, 수영한다); also the 아/어 forms
that take 하다 so (슬퍼한다, is sad)."""


def _final(char: str) -> int | None:
    """The final consonant of a Hangul syllable (0: it ends in a vowel); None for any other character."""
    return (ord(char) - 0xAC00) % 28 if "\uac00" <= char <= "\ud7a3" else None


def _with_korean_final(char: str, final: int) -> str:
    return chr(ord(char) - (ord(char) - 0xAC00) % 28 + final)


def korean_present(stem: str) -> str:
    """The plain present of a verb ``stem``: 달리 -> 달린다, 하 -> 한다 (a vowel takes ㄴ다); 놀 ->
    논다 (ㄹ drops before it); 먹 -> 먹는다, 걷 -> 걷는다 (any other final takes 는다: the
    irregular stems, 걷, 눕, 짓, change before a vowel only)."""
    last = stem[-1]
    final = _final(last)
    if final is None:
        return stem + "다"
    if final in (0, _KO_L):
        return stem[:-1] + _with_korean_final(last, _KO_N) + "다"
    return stem + "는다"


def _is_finite(word: str) -> bool:
    """Whether ``word``, ending in 다, is already a sentence's verb: 달린다, 먹는다 (ㄴ before 다),
    달렸다, 있다 (ㅆ), 갑니다 (ㅂ니다), a descriptive verb (춥다)."""
    if word.endswith(_KO_AS_IT_IS) or word.endswith("는다"):
        return True
    if word.endswith("니다") and len(word) > 2 and _final(word[-3]) == _KO_B:
        return True
    return _final(word[-2]) in (_KO_N, _KO_SS) and not word.endswith(_KO_N_STEMS)


def _korean_noun_motion(word: str) -> str | None:
    """The motion a Korean noun names (:data:`_KO_NOUN_MOTIONS`, :data:`_KO_DONE_NOUNS`,
    :data:`_KO_HA_NOUNS`) in the plain present: 춤 -> 춤을 춘다, 게임 -> 게임을 한다, 산책 -> 산책한다;
    None for any other word."""
    phrase = _KO_NOUN_MOTIONS.get(word)
    if phrase is None and word in _KO_DONE_NOUNS:
        phrase = korean_particle(word, "을", "를") + " 하다"
    elif phrase is None and word in _KO_HA_NOUNS:
        phrase = word + "하다"
    if phrase is None:
        return None
    head, _, verb = phrase.rpartition(" ")
    said = verb if _is_finite(verb) else korean_present(verb[:-1])
    return f"{head} {said}" if head else said


def _korean_verb(word: str) -> str:
    """One word of a motion as the end of a sentence: a noun of a motion (춤, 산책:
    :func:`_korean_noun_motion`), a -기 form (달리기) or a dictionary form (달리다) in the plain
    present (춤을 춘다, 산책한다, 달린다); any other word as it is."""
    noun = _korean_noun_motion(word)
    if noun is not None:
        return noun
    if len(word) < 2 or _final(word[-2]) is None:
        return word
    if word.endswith(_KO_GI_NOUNS):
        return korean_particle(word, "을", "를") + " 한다"
    if word.endswith("기") or (word.endswith("다") and not _is_finite(word)):
        return korean_present(word[:-1])
    return word


_KO_BEFORE_MOTION = ("에서는", "에서", "에는", "에", "께서", "가", "이", "게", "히", "이랑", "랑", "와", "과", "하고")
"""What the word before a motion's noun ends in where the noun is the verb of a free text: a
subject (민수가), a place or a time (공원에서, 밤에), a manner (신나게, 조용히), someone with
(친구와): "민수가 공원에서 춤" dances. After any other word the noun is a thing ("좋아하는 노래")."""


def korean_free_text(text: str) -> str:
    """Korean free text whose last word is a motion's noun or -기 form (:func:`_korean_verb`) with
    that word in the plain present, where the word before it says who, where, when or how
    (:data:`_KO_BEFORE_MOTION`): "민수가 공원에서 춤" -> "민수가 공원에서 춤을 춘다". Any other
    text as it is: after a topic (은/는) the noun may be a thing ("부르는 노래", a song one
    sings), and a dictionary form (크다) may be a sentence of its own."""
    head, _, last = text.rpartition(" ")
    word = last.rstrip(_KO_ENDS)
    before = head.rsplit(" ", 1)[-1]
    if not word or scripts_in(before, word) != {"hangul"} or not before.endswith(_KO_BEFORE_MOTION):
        return text
    said = _korean_noun_motion(word)
    if said is None and word.endswith("기") and word not in _KO_NOT_GI:
        said = _korean_verb(word)
    return f"{head} {said}{last[len(word):]}" if said else text


_KO_NOT_GI = frozenset({"여기", "거기", "저기", "아기", "공기", "일기", "고기", "용기", "향기", "인기", "감기", "무기",
                        "사기", "기"})
"""Nouns in 기 that may end a free text without being a motion's -기 form (여기, here; 아기, a
baby; 감기, a cold)."""


def korean_motion(motion: str) -> str:
    """A Korean motion with its last word the plain present ("천천히 걷기" -> "천천히 걷는다",
    "산책하다" -> "산책한다"); one already finite (달린다, 달려요, 달리고 있다) as written."""
    head, _, last = motion.rpartition(" ")
    word = last.rstrip(_KO_ENDS)
    said = _korean_verb(word) + last[len(word):]
    return f"{head} {said}" if head else said


def _korean_sentence(instruction: Instruction, who: str) -> str:
    """The turn as a Korean sentence: character 은/는 time 에 place 에서 manner motion. ("민수는 밤에
    공원에서 천천히 달린다."; a motion in its -기 or dictionary form in the plain present:
    :func:`korean_motion`); a field not given leaves out its words and its
    particle. Without a motion the character is at the place ("민수가 공원에 있다."), or the place is
    named ("여기는 공원이다.", "밤의 공원."). Camera and extra fields are left out, as in the English
    sentence; free text follows."""
    who = " ".join(who.split())
    when = _korean_when(instruction.time_of_day)
    place = _bare_korean_place(" ".join(instruction.background.split()))
    said = korean_motion(" ".join(instruction.motion.split()))
    motion = " ".join(p for p in (" ".join(instruction.adverb.split()), said) if p)
    if motion:
        words = [korean_particle(who, "은", "는") if who else "", when, place + "에서" if place else "", motion]
    elif who:
        words = [korean_particle(who, "이", "가"), when, place + "에 있다"]
    elif when:
        words = [when.removesuffix("에") + "의", place]
    else:
        words = ["여기는", korean_particle(place, "이다", "다")]
    text = " ".join(word for word in words if word)
    sentence = text if text.endswith(tuple(_KO_ENDS)) else text + "."
    if instruction.free_text and motion:  # as in English: a turn without a motion says where it is, only
        sentence += " " + _free_sentence(instruction.free_text)
    return sentence
