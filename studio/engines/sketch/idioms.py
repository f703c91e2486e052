"""Turns of phrase whose words say another thing than they mean, and emoji that say a motion.

"Qiqi hits the books" studies (no punch), "is over the moon" is happy ("flies over the moon" flies),
"is feeling blue" is sad, "puts her arms around Yuzu" hugs her, "hits the hay" goes to sleep,
what is talked or thought about is not done ("argue about who ate the cookie" eats nothing), nor
is what one is too tired to do, and a play on a stage is no ball play ("rehearses for the school
play").
Each idiom is put in the plain words the reader knows (:func:`plainly`) before the turn is read.

An emoji is no word, so the reader never sees one; a turn that names no motion in words but
shows one with an emoji ("Qiqi 😴 in her room") is read as the emoji's motion
(:func:`motion_of_emoji`). An emoji beside a motion written in words is decoration: the words win.
"""

from __future__ import annotations

import re

_IDIOMS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(pattern), plain) for pattern, plain in (
    (r"\b(?:hit|hits|hitting)\s+the\s+books\b", "studies"),
    (r"\b(?:hit|hits|hitting)\s+the\s+(?:hay|sack)\b", "sleeps"),
    (r"\b(?:catch|catches|caught|catching|get|gets|got|getting)\s+some\s+(?:z's|zs|zzz+|shut-?eye)\b", "sleeps"),
    (r"\b(?P<be>is|am|are|was|were|be|been|feel|feels|felt|feeling|seems|seemed)\s+(?:so\s+|just\s+|totally\s+)?"
     r"(?:over\s+the\s+moon|on\s+cloud\s+nine)\b", r"\g<be> happy"),
    (r"\b(?:feel|feels|felt|feeling)\s+(?:so\s+|very\s+|a\s+bit\s+|kind\s+of\s+)?(?:blue|down)\b", "sad"),
    (r"\bdown\s+in\s+the\s+dumps\b", "sad"),
    (r"\b(?:put|puts|putting|wrap|wraps|wrapped|wrapping|throw|throws|threw|throwing)\s+"
     r"(?:(?:her|his|their|my|your|its|our)\s+)?arms?\s+(?:around|round)\b", "hugs"),
    (r"\bwith\s+a\s+(?:big\s+|bright\s+|warm\s+|little\s+|small\s+|shy\s+|huge\s+)?smile\b", "cheerfully"),
    (r"\bwith\s+tears\s+in\s+(?:her|his|their|my|your|our)\s+eyes\b", "sadly"),
    (r"\b(?:water|waters|watered|watering)\s+(?P<what>(?:the|her|his|their|my|our|some|a)\s+"
     r"(?:flowers?|plants?|garden|roses?|trees?|lawn|vegetables))\b", r"tends \g<what>"),
    (r"\b(?:go|goes|went|going|gone)\s+for\s+a\s+(?:quick\s+|short\s+|long\s+|little\s+|nice\s+|morning\s+|"
     r"evening\s+)?(?P<what>jog|run|swim|walk|stroll|hike|dance|dip)\b", r"\g<what>s"),
    (r"\b(?:kick|kicks|kicked|kicking)\s+back\b", "relaxes"),
    (r"\b(?:have|has|had|having)\s+(?:a\s+blast|a\s+ball|the\s+time\s+of\s+(?:her|his|their|my|your|our)\s+life)\b",
     "having fun"),
    (r"\b(?:tear|tears|tore|torn|tearing)\s+up\s+(?=(?:the|a|an|her|his|their|my|your|our|this|that)\b)", "rips up "),
    (r"\b(?:fall|falls|fell|fallen|falling)\s+(?:head\s+over\s+heels\s+)?in\s+love\b", "is happy"),
    (r"\b(?:run|runs|ran|running)\s+(?P<whose>her|his|their|my|your|its|our)\s+(?:fingers|hands?)\s+through\b",
     r"touches"),
    (r"\b(?:storm|storms|stormed|storming)\s+(?:out|off)\b", "walks off angrily"),
    (r"\b(?:grab|grabs|grabbed|grabbing|take|takes|took|taking)\s+(?:her|his|their|my|the|a)\s+"
     r"(?:broom|broomstick)\s+and\s+(?=fl[iy])", ""),
    (r"\b(?:after|before|for|until|till|during)\s+(?:breakfast|lunch|dinner|supper)\b", "later"),
    (r"\bfor\s+a\s+(?:quick\s+|little\s+|late\s+|midnight\s+|small\s+)?snack\b", "later"),
    (r"\b(?:nod|nods|nodded|nodding)\s+off\b", "dozes"),
    (r"\b(?:shake|shakes|shook|shaken|shaking)\s+hands\b", "greets"),
    (r"\b(?P<whose>the|a|school|class|our|her|his|their|my|your)\s+play\b(?!\s+(?:ball|with|together))",
     r"\g<whose> performance"),
    (r"\binstead\s+of\s+(?=[^\W\d_]+ing\b)", "not "),
    (r"\btoo\s+(?:tired|sleepy|scared|shy|sad|busy|weak|exhausted|lazy|nervous|full|sick)\s+to\s+", "and not "),
    (r"\babout\s+(?:who|what|how|why|where|when|whether)\b[^,.;:!?。！？]*", "about it"),
    (r"\b(?:wolf|wolfs|wolfed|wolfing|chow|chows|chowed|chowing|pig|pigs|pigged|pigging)\s+(?:down|out)\b", "eats"),
))
"""Idioms (normalised, lower case) and the plain words they mean."""


def plainly(text: str) -> str:
    """``text`` (normalised) with its idioms put in plain words ("hits the books" -> "studies")."""
    for pattern, plain in _IDIOMS:
        text = pattern.sub(plain, text)
    return text


EMOJI_MOTIONS: dict[str, str] = {
    "😴": "sleep", "💤": "sleep", "🛌": "sleep", "😭": "cry", "😢": "cry", "😿": "cry", "😂": "laugh", "🤣": "laugh",
    "😆": "laugh", "😄": "laugh", "😊": "laugh", "😁": "laugh", "💃": "dance", "🕺": "dance", "🏃": "run",
    "🚶": "walk", "🎤": "sing", "🎶": "sing", "🎵": "sing", "🍜": "eat", "🍙": "eat", "🍕": "eat", "🍔": "eat",
    "🍰": "eat", "🍦": "eat", "☕": "drink", "🍵": "drink", "🥤": "drink", "📖": "read", "📚": "read",
    "✍": "write", "🏊": "swim", "🧹": "sweep", "👋": "wave", "🤗": "hug", "🙏": "pray", "🤔": "think",
    "🥶": "shiver", "😡": "sulk", "😠": "sulk", "🧘": "stretch", "👏": "clap", "🧗": "climb", "🤸": "spin",
    "❤": "hug", "💕": "hug", "💖": "hug", "🫂": "hug",
}
"""Emoji and the motion each shows, by the motion's name."""


def motion_of_emoji(text: str) -> str:
    """The motion the first emoji of ours in ``text`` shows ("Qiqi 😴" -> 'sleep'); '' when none does."""
    for ch in text:
        motion = EMOJI_MOTIONS.get(ch)
        if motion:
            return motion
    return ""
