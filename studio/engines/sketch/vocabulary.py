"""What the sketch world knows: motions, locations, adverbs, times of day and camera moves.

Each entry lists the phrases that name it, in base form (the lemmatiser in
:mod:`studio.engines.sketch.text` maps inflections onto them). Phrases are matched as sets
of content words, so "fly on broomstick", "flying on her broomstick" and "flew broomstick"
all match ``fly broomstick``; the entry whose matching phrase has the most words wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class MotionFamily(StrEnum):
    LOCOMOTION = "locomotion"
    FLIGHT = "flight"
    ATHLETIC = "athletic"
    REST = "rest"
    SLEEP = "sleep"
    NOURISH = "nourish"
    SOCIAL = "social"
    PLAY = "play"
    QUIET = "quiet"
    CHORE = "chore"
    GESTURE = "gesture"
    SAD = "sad"
    MISHAP = "mishap"


class Prop(StrEnum):
    NONE = "none"
    BROOM_RIDE = "broom_ride"
    BROOM_HOLD = "broom_hold"
    BROOM_SWEEP = "broom_sweep"
    BOOK = "book"
    CUP = "cup"
    FOOD = "food"
    PEN = "pen"
    BALL = "ball"
    PAN = "pan"
    BOX = "box"
    RAILING = "railing"
    LADDER = "ladder"
    BLANKET = "blanket"


class Effect(StrEnum):
    NONE = "none"
    ZZZ = "zzz"
    NOTES = "notes"
    HEARTS = "hearts"
    TEARS = "tears"
    SWEAT = "sweat"
    SPARKLES = "sparkles"
    SPLASH = "splash"
    SPEECH = "speech"
    SHIVER = "shiver"
    STEAM = "steam"
    DUST = "dust"
    STARS = "stars"
    THOUGHT = "thought"
    WIND = "wind"


class Expression(StrEnum):
    NEUTRAL = "neutral"
    HAPPY = "happy"
    JOY = "joy"
    CLOSED = "closed"
    SAD = "sad"
    SURPRISED = "surprised"
    OPEN = "open"
    DETERMINED = "determined"


class Setting(StrEnum):
    OUTDOOR = "outdoor"
    INDOOR = "indoor"
    SKY = "sky"


class CameraMode(StrEnum):
    STATIC = "static"
    PAN = "pan"
    FOLLOW = "follow"
    ZOOM = "zoom"
    ORBIT = "orbit"


TIMES_OF_DAY: tuple[str, ...] = ("day", "sunset", "night")


@dataclass(frozen=True, slots=True)
class MotionSpec:
    """One motion the world can show.

    ``travel`` is how far the character moves across the world, in frame widths per
    second at motion level 3 (0 for motions done on the spot).
    """

    name: str
    family: MotionFamily
    level: int
    phrases: tuple[str, ...]
    anim: str
    prop: Prop = Prop.NONE
    effect: Effect = Effect.NONE
    expression: Expression = Expression.NEUTRAL
    travel: float = 0.0
    companion: bool = False


def _m(name: str, family: MotionFamily, level: int, phrases: str, anim: str = "", **kw: Any) -> MotionSpec:
    words = tuple(p.strip() for p in phrases.split(",") if p.strip())
    return MotionSpec(name, family, level, (name, *words), anim or name.replace(" ", "_"), **kw)


F = MotionFamily
MOTIONS: tuple[MotionSpec, ...] = (
    _m("idle", F.REST, 1, "stand, stand still, wait, stay, pose, stand up, stop, do nothing, relax", "idle"),
    _m("walk", F.LOCOMOTION, 2, "stroll, wander, stride, step, go, head, pace, march, amble, travel, move, "
       "walk around, take walk, wander around", "walk", travel=0.35, expression=Expression.HAPPY),
    _m("run", F.LOCOMOTION, 4, "jog, sprint, dash, race, rush, hurry, run around", "run", effect=Effect.DUST,
       travel=0.8, expression=Expression.DETERMINED),
    _m("sneak", F.LOCOMOTION, 2, "tiptoe, creep, sneak around, crawl", "sneak", travel=0.2),
    _m("jump", F.ATHLETIC, 4, "hop, leap, bounce, skip, jump around, jump up", "jump", expression=Expression.HAPPY),
    _m("fly on broomstick", F.FLIGHT, 3, "fly, broomstick, broom, fly broom, ride broom, ride broomstick, soar, "
       "glide, hover, fly around, take off, fly sky", "fly_broom", prop=Prop.BROOM_RIDE, effect=Effect.WIND,
       travel=0.9, expression=Expression.HAPPY),
    _m("hold broom", F.REST, 2, "hold broomstick, carry broom, carry broomstick, grab broom, hold broom hand, "
       "lean broom", "hold_broom", prop=Prop.BROOM_HOLD),
    _m("sweep", F.CHORE, 2, "sweep floor, clean, tidy, mop, dust, clean room, sweep broom", "sweep",
       prop=Prop.BROOM_SWEEP),
    _m("sit", F.REST, 1, "sit down, seat, kneel, sit ground, sit floor, sit bench, sit chair, take seat", "sit"),
    _m("sit on railing", F.REST, 1, "sit railing, sit rail, sit fence, perch, sit ledge, sit wall, railing",
       "sit_railing", prop=Prop.RAILING),
    _m("lie down", F.REST, 1, "lie, lay down, recline, lie grass, lie back, lie bed, rest", "lie_down",
       expression=Expression.HAPPY),
    _m("sleep", F.SLEEP, 1, "nap, doze, snooze, slumber, asleep, fall asleep, go bed, take nap", "sleep",
       prop=Prop.BLANKET, effect=Effect.ZZZ, expression=Expression.CLOSED),
    _m("turn head", F.GESTURE, 1, "glance, look back, look over shoulder, turn face, glance back, turn head look",
       "turn_head"),
    _m("look around", F.GESTURE, 2, "look, gaze, watch, search, observe, stare, peek, explore, sightsee, "
       "look up, look down, view", "look_around", expression=Expression.SURPRISED),
    _m("wave", F.SOCIAL, 2, "wave hand, greet, hello, beckon, say hello, say goodbye, farewell, wave goodbye",
       "wave", expression=Expression.HAPPY),
    _m("talk", F.SOCIAL, 2, "chat, speak, say, tell, converse, discuss, whisper, call, gossip, ask", "talk",
       effect=Effect.SPEECH, expression=Expression.OPEN, companion=True),
    _m("meet people", F.SOCIAL, 2, "meet, meet friend, visit, socialize, make friend, meet someone, see friend, "
       "hang out", "meet", effect=Effect.HEARTS, expression=Expression.HAPPY, companion=True),
    _m("hug", F.SOCIAL, 2, "embrace, cuddle, hold hand", "hug", effect=Effect.HEARTS,
       expression=Expression.JOY, companion=True),
    _m("laugh", F.SOCIAL, 3, "giggle, smile, chuckle, grin, be happy, cheer up", "laugh", effect=Effect.SPARKLES,
       expression=Expression.JOY),
    _m("cry", F.SAD, 2, "weep, sob, tear, be sad, mourn, sniffle", "cry", effect=Effect.TEARS,
       expression=Expression.SAD),
    _m("dance", F.PLAY, 4, "groove, boogie, dance around, ballet, sway", "dance", effect=Effect.NOTES,
       expression=Expression.HAPPY),
    _m("spin", F.PLAY, 4, "twirl, turn around, rotate, pirouette, whirl, spin around", "spin",
       effect=Effect.SPARKLES, expression=Expression.HAPPY),
    _m("sing", F.PLAY, 2, "hum, chant, song, sing song, karaoke", "sing", effect=Effect.NOTES,
       expression=Expression.OPEN),
    _m("play", F.PLAY, 3, "play ball, game, have fun, frolic, romp, play game, kick ball, bounce ball", "play",
       prop=Prop.BALL, expression=Expression.HAPPY),
    _m("eat", F.NOURISH, 1, "snack, munch, bite, have lunch, dine, breakfast, dinner, lunch, taste, chew, "
       "bread, food, eat bread, eat lunch, eat food", "eat", prop=Prop.FOOD, expression=Expression.HAPPY),
    _m("drink", F.NOURISH, 1, "sip, tea, coffee, milk, juice, gulp, drink tea, drink coffee, cocoa", "drink",
       prop=Prop.CUP, effect=Effect.STEAM),
    _m("cook", F.CHORE, 2, "bake, fry, stir, prepare food, make dinner, make breakfast, bake bread, cook meal",
       "cook", prop=Prop.PAN, effect=Effect.STEAM),
    _m("read", F.QUIET, 1, "study, book, browse, read book, read letter, read map", "read", prop=Prop.BOOK),
    _m("write", F.QUIET, 1, "draw, sketch, paint, note, doodle, homework, write letter, take note", "write",
       prop=Prop.PEN, effect=Effect.THOUGHT),
    _m("swim", F.ATHLETIC, 3, "dive, paddle, float, splash, bathe, swim sea, go swim", "swim", effect=Effect.SPLASH,
       travel=0.25, expression=Expression.HAPPY),
    _m("fall", F.MISHAP, 3, "trip, stumble, slip, tumble, collapse, faint, fall down, fall over", "fall",
       effect=Effect.STARS, expression=Expression.SURPRISED),
    _m("climb", F.ATHLETIC, 4, "scale, clamber, ladder, climb ladder, climb tree, climb up", "climb",
       prop=Prop.LADDER, expression=Expression.DETERMINED),
    _m("stretch", F.REST, 2, "yawn, warm up, exercise, stretch arm, limber", "stretch", effect=Effect.SWEAT,
       expression=Expression.CLOSED),
    _m("kick", F.ATHLETIC, 4, "stomp, kick air, high kick", "kick", effect=Effect.DUST,
       expression=Expression.DETERMINED),
    _m("punch", F.ATHLETIC, 4, "hit, strike, box, fight, spar, train, karate", "punch", effect=Effect.DUST,
       expression=Expression.DETERMINED),
    _m("bow", F.SOCIAL, 1, "curtsy, bend, bow head, thank", "bow", expression=Expression.CLOSED),
    _m("nod", F.SOCIAL, 1, "agree, nod head, say yes", "nod", expression=Expression.HAPPY),
    _m("throw", F.PLAY, 3, "toss, pitch, hurl, throw ball", "throw", prop=Prop.BALL),
    _m("catch", F.PLAY, 3, "receive, catch ball", "catch", prop=Prop.BALL, expression=Expression.SURPRISED),
    _m("shiver", F.SAD, 2, "shake, tremble, freeze, cold, shudder, be cold", "shiver", effect=Effect.SHIVER,
       expression=Expression.SAD),
    _m("clap", F.SOCIAL, 2, "applaud, cheer, clap hand, celebrate", "clap", effect=Effect.SPARKLES,
       expression=Expression.JOY),
    _m("think", F.QUIET, 1, "ponder, wonder, daydream, consider, imagine, remember, dream", "think",
       effect=Effect.THOUGHT),
    _m("pray", F.QUIET, 1, "wish, meditate, make wish, clasp hand", "pray", expression=Expression.CLOSED),
    _m("shout", F.SOCIAL, 3, "yell, scream, call out, cry out", "shout", effect=Effect.SPEECH,
       expression=Expression.OPEN),
    _m("point", F.GESTURE, 2, "show, indicate, point finger, point sky", "point", expression=Expression.SURPRISED),
    _m("carry", F.CHORE, 2, "lift, deliver, bring, carry box, carry package, deliver package, hold box, "
       "deliver parcel", "carry", prop=Prop.BOX, travel=0.3),
    _m("sulk", F.SAD, 3, "pout, be angry, get angry, grumble, fume", "sulk",
       expression=Expression.DETERMINED),
)
"""Every motion, in the order the contact sheet shows them."""

MORE_MOTION_PHRASES: dict[str, tuple[str, ...]] = {
    "idle": ("laze", "unwind"),
    "eat": ("picnic", "have picnic"),
    "throw": ("yeet",),
    "hug": ("snuggle", "snuggle up", "nestle"),
    "walk": ("hike", "trek", "ramble", "saunter", "come home", "come back", "return home"),
}
"""More words for a motion, read as it with no warning ("hikes up the mountain" walks, "lazes on
the beach" is idle). They are kept apart from each motion's ``phrases``, which the contact sheet
and the mini model's training drafts (:mod:`studio.engines.mini.data`) choose their words from:
a word added here changes what an instruction reads as, not how training turns are written."""

MOTION_BY_NAME: dict[str, MotionSpec] = {m.name: m for m in MOTIONS}
IDLE = MOTION_BY_NAME["idle"]


@dataclass(frozen=True, slots=True)
class LocationSpec:
    """One built-in location. ``busy`` places have people around (a social bonus)."""

    name: str
    setting: Setting
    phrases: tuple[str, ...]
    busy: bool = False
    leisure: bool = False


def _loc(name: str, setting: Setting, phrases: str, busy: bool = False, leisure: bool = False) -> LocationSpec:
    words = tuple(p.strip() for p in phrases.split(",") if p.strip())
    return LocationSpec(name, setting, (name, *words), busy, leisure)


S = Setting
LOCATIONS: tuple[LocationSpec, ...] = (
    _loc("sky", S.SKY, "air, cloud, heaven, above town, high sky, midair"),
    _loc("countryside", S.OUTDOOR, "country, farm, field, farmland, rural, hill, village outskirt, wheat field",
         leisure=True),
    _loc("town", S.OUTDOOR, "city, village, downtown, plaza, square, market, koriko, harbour town", busy=True),
    _loc("grass", S.OUTDOOR, "grassland, meadow, lawn, green, prairie", leisure=True),
    _loc("street", S.OUTDOOR, "road, alley, lane, avenue, sidewalk, crossing, crosswalk", busy=True),
    _loc("bedroom", S.INDOOR, "room, bed, home, house, attic, indoors, my room, bed room"),
    _loc("forest", S.OUTDOOR, "wood, tree, jungle, grove, woodland"),
    _loc("beach", S.OUTDOOR, "shore, coast, seaside, sand, bay", leisure=True),
    _loc("sea", S.OUTDOOR, "ocean, water, wave, harbor, harbour, port, pier, boat"),
    _loc("bakery", S.INDOOR, "bread shop, shop, store, bakeshop, pastry shop, bakery shop", busy=True),
    _loc("station", S.OUTDOOR, "train station, train, railway, platform, subway, bus stop, railway station",
         busy=True),
    _loc("park", S.OUTDOOR, "playground, swing, public park, fountain", busy=True, leisure=True),
    _loc("river", S.OUTDOOR, "stream, creek, bridge, riverbank, canal, riverside, lake, pond"),
    _loc("mountain", S.OUTDOOR, "mountains, peak, cliff, summit, mountainside, mount"),
    _loc("school", S.OUTDOOR, "schoolyard, school yard, campus, school gate", busy=True),
    _loc("classroom", S.INDOOR, "class, lesson, blackboard, school room", busy=True),
    _loc("cafe", S.INDOOR, "café, coffee shop, restaurant, tea house, diner, tea room", busy=True, leisure=True),
    _loc("kitchen", S.INDOOR, "stove, pantry"),
    _loc("library", S.INDOOR, "bookstore, bookshop, study room, bookshelf, archive"),
    _loc("rooftop", S.OUTDOOR, "roof, balcony, terrace, roof top"),
    _loc("shrine", S.OUTDOOR, "temple, torii, pagoda, sanctuary"),
    _loc("garden", S.OUTDOOR, "flower garden, flower, greenhouse, yard, backyard", leisure=True),
)
LOCATION_BY_NAME: dict[str, LocationSpec] = {loc.name: loc for loc in LOCATIONS}
DEFAULT_LOCATION = "town"

ADVERB_LEVELS: dict[str, int] = {
    "gently": 1, "slowly": 1, "softly": 1, "lazily": 1, "sleepily": 1, "tiredly": 1, "leisurely": 2,
    "calmly": 2, "carefully": 2, "quietly": 2, "shyly": 2, "sadly": 2, "nervously": 2, "lightly": 2,
    "smoothly": 3, "steadily": 3, "normally": 3, "happily": 3, "playfully": 3, "proudly": 3,
    "cheerfully": 3, "joyfully": 3, "gracefully": 3, "casually": 2, "clumsily": 3, "curiously": 2,
    "quickly": 4, "fast": 4, "rapidly": 4, "briskly": 4, "excitedly": 4, "hastily": 4, "hurriedly": 4,
    "swiftly": 4, "eagerly": 4, "angrily": 4, "boldly": 4,
    "wildly": 5, "energetically": 5, "furiously": 5, "vigorously": 5, "frantically": 5, "madly": 5,
    "fiercely": 5, "powerfully": 5,
}
"""Adverb -> motion level (1 = barely moving, 5 = flat out)."""

CAMERA_PHRASES: dict[CameraMode, tuple[str, ...]] = {
    CameraMode.STATIC: ("static", "still", "fixed", "locked", "steady", "static camera", "wide", "wide shot",
                        "tripod"),
    CameraMode.PAN: ("pan", "pan left", "pan right", "panning", "sweep", "tilt", "truck", "slide"),
    CameraMode.FOLLOW: ("follow", "track", "tracking", "chase", "dolly", "follow cam", "tracking shot"),
    CameraMode.ZOOM: ("zoom", "zoom in", "close", "close up", "closeup", "push in", "dolly in", "zoom out"),
    CameraMode.ORBIT: ("orbit", "circle", "around", "rotate", "arc", "orbit around", "turntable", "revolve"),
}

UNKNOWN_MOTION_HINTS: dict[str, str] = {
    "juggle": "wave", "skate": "run", "ski": "run", "surf": "swim", "bike": "walk", "cycle": "walk",
    "drive": "walk", "fish": "sit", "shop": "walk", "knit": "write", "smell": "look around", "kiss": "hug",
    "marry": "hug", "pet": "hug", "feed": "eat", "type": "write", "phone": "talk", "text": "write",
    "shower": "swim", "bath": "swim", "yoga": "stretch", "sneeze": "shiver", "cough": "shiver", "panic": "cry",
    "whistle": "sing", "rap": "sing", "guitar": "sing", "drum": "play", "wrestle": "punch", "crouch": "sit",
    "squat": "sit", "roll": "spin", "cartwheel": "spin", "somersault": "spin", "attack": "punch",
    "smash": "punch", "teleport": "spin", "cast": "point", "magic": "point", "wake": "stretch",
    "chill": "idle", "lounge": "sit", "colour": "write", "color": "write", "hope": "think", "mope": "sulk",
    "hide": "sneak",
}
"""Words that are not motions but have an obvious stand-in (still reported as unknown)."""

UNKNOWN_LOCATION_HINTS: dict[str, str] = {
    "volcano": "mountain", "desert": "beach", "island": "beach", "castle": "town", "palace": "town",
    "hospital": "classroom", "office": "classroom", "museum": "library", "church": "shrine", "space": "sky",
    "moon": "sky", "cave": "mountain", "snow": "mountain", "airport": "station", "bathroom": "bedroom",
    "bar": "cafe", "stadium": "park", "zoo": "park", "supermarket": "bakery", "mall": "street",
    "sofa": "bedroom", "couch": "bedroom", "living": "bedroom", "neighbourhood": "town", "neighborhood": "town",
    "gym": "classroom", "gymnasium": "classroom",
}
"""Places we do not draw, with the built-in location shown instead (still reported as unknown)."""

SCHOOL_ROOM_KINDS: frozenset[str] = frozenset({
    "music", "art", "science", "computer", "chemistry", "biology", "physics", "staff", "club", "band", "drama",
    "teacher", "teachers", "nurse", "nurse's", "teachers'"})
"""Words that make a "room" one of a school ("the music room", "the art room"): no bedroom,
but a room we do not draw, shown as :data:`SCHOOL_ROOM_STAND_IN`, said."""
SCHOOL_ROOM_STAND_IN = "classroom"

INSTRUMENTS: frozenset[str] = frozenset({
    "guitar", "piano", "violin", "drum", "drums", "flute", "trumpet", "cello", "ukulele", "harp", "saxophone",
    "sax", "clarinet", "harmonica", "accordion", "trombone", "banjo", "xylophone", "tuba", "oboe", "instrument",
    "keytar", "shamisen", "koto", "taiko"})
"""Musical instruments, which the world does not draw. Playing one is shown as
:data:`INSTRUMENT_STAND_IN`, said: singing is drawn with music notes around the character, the
nearest to making music; a ball game ("plays") would show another thing altogether."""
INSTRUMENT_STAND_IN = "sing"

LOCATIVE_PREPOSITIONS: frozenset[str] = frozenset({
    "in", "at", "to", "into", "onto", "inside", "near", "nearby", "by", "on", "toward", "towards", "through",
    "throughout", "around", "across", "along", "from", "outside", "within", "beside", "behind", "past", "under",
    "underneath", "beneath", "below", "over", "among", "amid", "between", "beyond", "upon",
})
"""Words after which a place is where the character is ("shops in town"): a place named after
one is the place meant, over a place-like word elsewhere ("shops" names a shop). "above" is
not one: "above town" is itself a name of the sky."""


def vocabulary_words() -> frozenset[str]:
    """Every word any phrase uses (the lemmatiser's set of known base forms)."""
    words: set[str] = set()
    for motion in MOTIONS:
        for phrase in motion.phrases:
            words.update(phrase.split())
    for phrases in MORE_MOTION_PHRASES.values():
        for phrase in phrases:
            words.update(phrase.split())
    for loc in LOCATIONS:
        for phrase in loc.phrases:
            words.update(phrase.split())
    for phrases in CAMERA_PHRASES.values():
        for phrase in phrases:
            words.update(phrase.split())
    words.update(ADVERB_LEVELS)
    words.update(UNKNOWN_MOTION_HINTS)
    words.update(UNKNOWN_LOCATION_HINTS)
    words.update(TIMES_OF_DAY)
    return frozenset(words)


KNOWN_WORDS: frozenset[str] = vocabulary_words()
