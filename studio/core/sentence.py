"""A readable sentence from an instruction's fields, for captions, subtitles and sheets.

``Character: Qiqi; Motion: gently sit on railing; Background: day town.`` reads as
"Qiqi gently sits on the railing in the town, by day." The raw field syntax is for the
engine; an audience (or a storyboard reader) should never see it.
"""

from __future__ import annotations

from studio.core.instruction import Instruction, only_blank_fields


def plural(count: int, word: str) -> str:
    """``1 turn``, ``3 turns``: a count and a regular noun."""
    return f"{count} {word}{'' if count == 1 else 's'}"


_IRREGULAR = {"be": "is", "have": "has", "do": "does", "go": "goes"}
_PREPOSITIONS = frozenset({"on", "in", "at", "to", "into", "onto", "under", "over", "by", "with", "from", "through",
                           "across", "along", "around", "near", "behind", "beside", "toward", "towards", "off",
                           "inside", "outside", "past", "up", "down"})
_DETERMINERS = frozenset({"the", "a", "an", "his", "her", "their", "its", "my", "your", "our", "this", "that",
                          "these", "those", "some", "every", "each", "one", "two", "three", "all", "another",
                          "home", "bed", "foot", "time", "air", "fire", "top", "it", "him", "them", "me", "us",
                          "you", "herself", "himself", "themselves", "away", "there", "here", "down", "up",
                          "off", "out", "around", "back"})
_ON_PLACES = frozenset({"beach", "roof", "rooftop", "rooftops", "bridge", "grass", "hill", "hilltop", "shore", "deck",
                        "stage", "platform", "pier", "lawn", "railing", "balcony", "island", "boat", "train"})
"""Places one is *on*, not *in* ("on the beach", "in the bakery")."""
_TIME_PHRASES = {"day": "by day", "sunset": "at sunset", "night": "at night", "dawn": "at dawn",
                 "sunrise": "at sunrise", "morning": "in the morning", "evening": "in the evening",
                 "afternoon": "in the afternoon", "noon": "at noon", "midnight": "at midnight", "dusk": "at dusk"}


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
    """``sit`` -> ``sits``, ``fly`` -> ``flies``, ``watch`` -> ``watches``, ``go`` -> ``goes``; a
    verb not in Latin letters (``手を振る``) is left as it is."""
    if not verb.isascii() or not verb[-1:].isalpha():
        return verb
    lower = verb.lower()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    if lower.endswith("y") and len(lower) > 1 and lower[-2] not in "aeiou":
        return verb[:-1] + "ies"
    if lower.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    return verb + "s"


VERBS_AFTER_TO = _ACTION_VERBS | frozenset((
    "say", "tell", "ask", "be", "have", "do", "go", "get", "make", "see", "find", "help", "meet", "buy", "bring",
    "take", "give", "show", "try", "leave", "catch", "deliver", "fly", "fix", "call", "visit", "open", "close",
    "pick", "play", "keep", "learn", "think", "decide", "remember", "forget",
))
"""Words that after "to" are a verb ("try to jump", "what to say"), not a place that wants "the"."""


def _with_articles(words: list[str]) -> list[str]:
    """``on railing`` -> ``on the railing``: a bare noun after a preposition gets "the"."""
    out: list[str] = []
    for index, word in enumerate(words):
        out.append(word)
        following = words[index + 1] if index + 1 < len(words) else ""
        infinitive = word.lower() == "to" and following.lower() in VERBS_AFTER_TO  # "try to jump"
        if (word.lower() in _PREPOSITIONS and following and following.lower() not in _DETERMINERS
                and following.lower() not in _PREPOSITIONS and not following[0].isupper()
                and not following[0].isdigit() and not infinitive):
            out.append("the")
    return out


def _conjugated(words: list[str]) -> list[str]:
    """The motion's verbs in the third person: its first word, and an action verb right after
    "and", "or", "then" or "while" ("sit and read a book" -> "sits and reads a book")."""
    out = list(words)
    first = 1 if len(out) > 1 and out[0].lower().endswith("ly") and out[1].lower().rstrip(",;") in _ACTION_VERBS else 0
    verb = out[first].rstrip(",;")  # "slowly walk, ..." (an adverb the reading left in): "slowly walks,"
    out[first] = third_person(verb) + out[first][len(verb):]
    for index in range(1, len(out)):
        before = out[index - 1].lower().strip(",")
        word = out[index]
        if before in _COORDINATORS and word.lower() in _ACTION_VERBS:
            out[index] = third_person(word)
    return out


def _place(background: str) -> str:
    words = background.split()
    if not words:
        return ""
    if words[0].lower() in _PREPOSITIONS:
        return " ".join(_with_articles(words))
    preposition = "on" if words[-1].lower() in _ON_PLACES else "in"
    if words[0].lower() in _DETERMINERS or words[0][0].isupper():
        return f"{preposition} " + " ".join(words)
    return f"{preposition} the " + " ".join(words)


def _sentence(text: str) -> str:
    text = " ".join(text.split()).strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?…。！？" else text + "."


def describe_action(instruction: Instruction, character: str = "") -> str:
    """What happens in the turn, as one plain sentence ("" for an empty instruction).

    ``character`` names who acts when the instruction doesn't (a free-text turn of the
    branch's character); free text without fields is shown as written."""
    who = instruction.character.strip() or character.strip()
    motion = instruction.motion.split()
    if not motion and not instruction.background:
        # Field names left blank ("Motion:", "動作") are no sentence: never quote the field syntax.
        said_nothing = instruction.fields() or only_blank_fields(instruction.raw)
        return _sentence(instruction.free_text or ("" if said_nothing else instruction.raw))
    parts: list[str] = []
    if motion:
        words = _with_articles(motion)
        if who:
            words = _conjugated(words)
            parts.append(who)
        if instruction.adverb:
            parts.append(instruction.adverb)
        parts.append(" ".join(words))
    else:
        parts.append(f"{who} is" if who else "We are")
    place = _place(instruction.background)
    if place:
        parts.append(place)
    text = " ".join(parts)
    when = _TIME_PHRASES.get(instruction.time_of_day.lower(), f"at {instruction.time_of_day}"
                             if instruction.time_of_day else "")
    if when:
        text += f", {when}"
    sentence = _sentence(text)
    if instruction.free_text and motion:
        sentence += " " + _sentence(instruction.free_text)
    return sentence
