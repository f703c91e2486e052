"""A name a free-text turn opens with that is nobody in the cast ("Hana waves at Aoi").

A turn's character is its Character field (the first of the cast it joins, "Qiqi and Yuzu"),
else the first cast member its text names unless a pronoun is its subject, else the character
of the turn before (:meth:`StoryTree.acting_character`), else the cast's
first member, as the engines draw it (:func:`drawn_character`). A name the cast doesn't hold
is none of these, so "Hana waves" (or "美咲が歩く", "민수가 달린다", "小明在跑步") silently goes on
with someone else; this finds such a name so that the turn can say so, naming who is drawn.
"""

from __future__ import annotations

import re

from studio.core.graphemes import scripts_in
from studio.core.instruction import Instruction
from studio.core.sentence import VERBS_AFTER_TO, third_person
from studio.core.speech import is_script_line, outside_quotes
from studio.core.state import written_key
from studio.core.tree import StoryTree, field_pronoun, subject_pronoun

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


def drawn_character(tree: StoryTree, node_id: str) -> str:
    """Who a turn is drawn as: its acting character (:meth:`StoryTree.acting_character`), else,
    at the story's start with no one named yet, the first member of the cast, as the engines
    draw them; "" for a story without a cast."""
    actor = tree.acting_character(node_id)
    if actor:
        return actor
    return next((member.name for member in tree.cast.values() if member.name.strip()), "")


_JA_SUBJECT = re.compile(r"([\u3400-\u9fff\uf900-\ufaff\u30a1-\u30fa\u30fcー]{1,8})(?:さん|ちゃん|くん|君|様)?[がはも]")
"""A name in kanji or katakana opening a Japanese sentence, with its subject particle: "美咲が",
"ミサキは", "美咲さんが". (A word in hiragana before "が" can't be told from any other word.)"""
_KO_SUBJECT = re.compile(r"([\uac00-\ud7a3]{2,4}?)(이|가|은|는|도)(?=\s)")
"""A Korean name of two to four syllables opening a sentence, with its subject or topic particle
("민수가 ", "민준은 "); the particle must fit the name's last sound (:func:`_korean_particle_fits`)."""
_ZH_SUBJECT = re.compile(r"([\u4e00-\u9fff]{2,3}?)(?:正在|在|慢慢|轻轻|快快|悄悄|独自|一边|和|跟|去|走|跑|坐|站)")
"""A Chinese name of two or three characters opening a sentence, before the words that follow a
subject ("小明在公园", "小明慢慢走"): Chinese has no particle after its subject."""
_CJK_NOT_NAME_WORDS = """
私 僕 俺 彼 彼女 彼ら 皆 全員 誰 誰か 二人 人 子供 少女 少年 男 女
先生 友達 母 父 姉 兄 妹 弟 家族 主人公 今日 明日 昨日 今 今夜 夜 朝
昼 夕方 午後 雨 雪 風 空 月 太陽 猫 犬 鳥 カメラ シーン 場面 時間 公園
港 海 町 街 駅 学校 教室 部屋 森 山 川 家 庭 店 神社 図書館
그녀 그들 우리 모두 누군가 오늘 내일 어제 지금 아침 저녁 바람 하늘 고양이
강아지 친구 엄마 아빠 선생님 소녀 소년 아이 사람 카메라
我们 你们 他们 她们 大家 有人 今天 明天 昨天 现在 晚上 早上 上午 下午
中午 傍晚 夜里 半夜 小猫 小狗 女孩 男孩 朋友 妈妈 爸爸 老师 镜头
"""
"""Subjects a Japanese, Korean or Chinese sentence opens with that are no one's name: pronouns,
people by role, times, weather, animals and places."""
_CJK_NOT_NAMES = frozenset(_CJK_NOT_NAME_WORDS.split())


_LATIN_NAME = r"([A-Z][A-Za-z\u00c0-\u024f'’-]+)"
_LATIN_SUBJECT = re.compile(_LATIN_NAME + r"\s?(?:(?:さん|ちゃん|くん|君|様)?[がはも](?=\S)|(?:이|가|은|는|도)(?=\s)"
                            r"|(?:正在|在|慢慢|轻轻|快快|悄悄|独自|一边|和|跟|去|走|跑|坐|站|跳))")
"""A Latin name opening a Japanese, Korean or Chinese sentence, with its particle or the word
after it ("Haruは走る", "Hana가 달린다", "Hana在公园跑步")."""


def _korean_particle_fits(name: str, particle: str) -> bool:
    """Whether ``particle`` is the one ``name``'s last sound takes (민준이, 민수가; 민준은, 민수는)."""
    final = (ord(name[-1]) - 0xAC00) % 28 != 0
    return particle == "도" or (particle in "이은") == final


def opening_cjk_name(text: str) -> str:
    """The name a Japanese, Korean or Chinese sentence opens with as its subject ("美咲が夜の港で
    ゆっくり歩く" -> 美咲, "민수가 공원에서 달린다" -> 민수, "小明在公园跑步" -> 小明, "Hanaは走る" ->
    Hana); "" for anything
    else (a pronoun, a time word, a subject written in hiragana)."""
    text = text[:_SCANNED].lstrip()
    match = _LATIN_SUBJECT.match(text)
    if match:
        return "" if match.group(1).lower() in _NOT_NAMES else match.group(1)
    match = _JA_SUBJECT.match(text)
    if match and len(text) > match.end():
        name = match.group(1)
        return "" if name in _CJK_NOT_NAMES else name
    match = _KO_SUBJECT.match(text)
    if match and _korean_particle_fits(match.group(1), match.group(2)):
        return "" if match.group(1) in _CJK_NOT_NAMES else match.group(1)
    if "kana" not in scripts_in(text):
        match = _ZH_SUBJECT.match(text)
        if match and match.group(1) not in _CJK_NOT_NAMES:
            return match.group(1)
    return ""


def _members_named_in_part(tree: StoryTree, name: str) -> list[str]:
    """The cast members one of whose names ``name`` is, a given or a family name ("Ren" of
    "Ōtsuki Ren")."""
    key = written_key(name)
    return [member.name for member in tree.cast.values()
            if len(member.name.split()) > 1 and key in {written_key(part) for part in member.name.split()}]


def first_turn_pronoun(tree: StoryTree, node_id: str) -> str:
    """A warning for the story's first turn when its subject is a pronoun ("She walks in the
    park", "Character: she", "彼女は歩く", "她在散步", "그녀는 걷는다", "They laugh"): a pronoun
    goes on with the character of the turn before, and there is none, so the turn acts as the
    cast's first member, whom it names; "" for any other turn."""
    node = tree.node(node_id)
    if node.parent_id is None or node.parent_id != tree.root_id:
        return ""
    names = [member.name for member in tree.cast.values() if member.name.strip()]
    instruction = node.instruction
    if instruction.character.strip():
        pronoun = field_pronoun(instruction.character, names)
    else:
        text = outside_quotes(instruction.free_text)
        named = opening_name(text) or opening_cjk_name(text) or joined_subject(text)
        pronoun = "" if named else subject_pronoun(text, names)  # "Hana says she is tired" is Hana's
    if not pronoun:
        return ""
    shown = drawn_character(tree, node_id)
    who = f"{shown}, the cast's first member" if shown else "the first character of the engine's own cast"
    name = shown or "a name"
    return (f"The turn's subject is a pronoun, and no turn comes before it to say whom it stands for: the turn "
            f"shows {who}; write 'Character: {name};' in the instruction (or a name in the text) to say who acts.")


def unlisted_subject(tree: StoryTree, node_id: str) -> str:
    """A warning for a turn whose free text opens with a name that is not in the cast (nor a
    place, nor a character with a start state, nor the character the turns before went on
    with): it names who the turn shows instead. A name that is part of a cast member's
    ("Ren" of "Ōtsuki Ren") is not read as that member (the engines and the story tree match
    whole names): the warning says to write their full name. "" when there is no such name or
    the turn has a Character field (the engine speaks of an unknown name there). The story's
    first turn whose subject is a pronoun is warned about too (:func:`first_turn_pronoun`)."""
    pronoun = first_turn_pronoun(tree, node_id)
    if pronoun:
        return pronoun
    instruction = tree.node(node_id).instruction
    if instruction.character.strip():
        return ""
    known = [member.name for member in tree.cast.values()]
    known += [location.name for location in tree.locations.values()]
    known += list(tree.root.start_states)
    known_keys = {written_key(other) for other in known if other.strip()}
    joined = joined_subject(instruction.free_text)
    if joined:
        return _unlisted_among(tree, node_id, joined, known_keys)
    name = opening_name(instruction.free_text) or opening_cjk_name(instruction.free_text) \
        or script_speaker(instruction)
    if not name:
        return ""
    if written_key(name) in known_keys:
        return ""
    actor = tree.acting_character(node_id)
    if written_key(actor) == written_key(name):  # named in a Character field of a turn before
        return ""
    shown = drawn_character(tree, node_id) or "another character"
    members = _members_named_in_part(tree, name)
    if members:
        fields = " or ".join(f"'Character: {member};'" for member in members)
        whose = "the cast's " + " and ".join(members)
        return (f"{name!r} is not a name in the cast but part of {whose}: the turn shows {shown}; write {fields} "
                f"in the instruction (or the full name in the text) to make the turn theirs.")
    return (f"{name!r} is not in the cast: the turn shows {shown}; add {name} to the cast, or write "
            f"'Character: {name};' in the instruction, to draw them.")


_EN_JOINED = re.compile(r"((?:[^\W\d_][\w'’-]*)(?:\s*,\s*[^\W\d_][\w'’-]*)*)(?:\s*,)?\s+(?:and|&)\s+"
                        r"([^\W\d_][\w'’-]*)\s+(?=[^\W\d_])")
"""Capitalised names joined by "and" opening an English sentence ("Qiqi and Mei dance")."""
_NAME_RUN = r"[\u3041-\u309f\u30a1-\u30fa\u30fc\u3400-\u9fff\uf900-\ufaff]{1,8}?"
_JA_JOINED = re.compile(rf"({_NAME_RUN})(?:さん|ちゃん|くん|君)?と({_NAME_RUN})(?:さん|ちゃん|くん|君)?[がはも]")
"""Two names joined by と as a Japanese sentence's subject ("美咲とゆずが公園で踊る")."""
_KO_JOINED = re.compile(r"([\uac00-\ud7a3]{2,4}?)(?:와|과|하고|이랑|랑)\s+([\uac00-\ud7a3]{2,4}?)(?:이|가|은|는|도)\s")
"""Two Korean names joined by 와/과/하고/랑 as a sentence's subject ("민수와 지수가 ")."""
_ZH_JOINED = re.compile(r"([\u4e00-\u9fff]{2,3}?)(?:和|跟|与|與)([\u4e00-\u9fff]{2,3}?)"
                        r"(?=一起|正在|在|都|慢慢|轻轻|悄悄|去|走|跑|跳|坐|站|聊|说|笑|吃|看|玩)")
"""Two Chinese names joined by 和/跟/与 as a sentence's subject ("小明和小红在公园跳舞")."""

_LATIN_JOINED = re.compile(_LATIN_NAME + r"\s?(?:와|과|하고|이랑|랑|と|和|跟|与|與)\s?" + _LATIN_NAME
                           + r"\s?(?:[がはも]|이|가|은|는|도|一起|正在|在|都)")
"""Two Latin names joined by a Korean, Japanese or Chinese "and" as a sentence's subject
("Hana와 Qiqi가 춤춘다", "HanaとQiqiが踊る", "Hana和Qiqi在跳舞")."""


def joined_subject(text: str) -> list[str]:
    """The names a sentence opens with as its subject when there are several ("Qiqi and Mei
    dance" -> [Qiqi, Mei], "Qiqi, Yuzu and Mei", "美咲とゆずが…", "민수와 지수가 …",
    "小明和小红在…"), in order; [] for one subject or none. Pronouns and other words that are
    no one's name are left out ("She and Mei" -> [Mei])."""
    text = text[:_SCANNED].lstrip()
    match = _EN_JOINED.match(text)
    if match:
        words = [*re.split(r"\s*,\s*", match.group(1)), match.group(2)]
        if all(word[0].isupper() for word in words):
            return [word for word in words if word.lower() not in _NOT_NAMES]
        return []
    match = _LATIN_JOINED.match(text)
    if match:
        return [name for name in match.groups() if name.lower() not in _NOT_NAMES]
    for pattern in (_JA_JOINED, _KO_JOINED):
        match = pattern.match(text)
        if match:
            return [name for name in match.groups() if name not in _CJK_NOT_NAMES]
    match = _ZH_JOINED.match(text)
    if match and "kana" not in scripts_in(text):
        return [name for name in match.groups() if name not in _CJK_NOT_NAMES]
    return []


def _unlisted_among(tree: StoryTree, node_id: str, names: list[str], known: set[str]) -> str:
    """A warning naming those of ``names`` (a turn's subject of several) that are no one the
    story knows (``known``, by :func:`written_key`), and who the turn shows instead; "" when
    all are known."""
    missing = [name for name in names if written_key(name) not in known]
    if not missing:
        return ""
    shown = drawn_character(tree, node_id) or "another character"
    listed = " and ".join(repr(name) for name in missing)
    verb = "is" if len(missing) == 1 else "are"
    if len(missing) < len(names):
        return (f"{listed} {verb} not in the cast: the turn draws only {shown}; add "
                f"{' and '.join(missing)} to the cast to draw them too.")
    return (f"{listed} {verb} not in the cast: the turn shows {shown}; add them to the cast, or write "
            f"'Character: {missing[0]};' in the instruction, to draw them.")
