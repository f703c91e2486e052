"""Cast names written in Han characters or in Hangul: "柚子が走る", "琪琪在跑步" and "유즈가 달린다"
name Yuzu and Qiqi, cast members whose names are written in the Latin alphabet.

An author writing in Japanese, Chinese or Korean writes a character's name in their own script
(:mod:`~studio.engines.sketch.kana_names` reads the kana). A run of Hangul, or of Han characters,
is read as a cast name where it is said as that name: each Hangul syllable romanized the ways
names are written from it (유즈: "yuzu", 키키: "kiki" or "qiqi"), and each Han character the ways
its readings are written (柚子: "yuzu", 琪琪: "qiqi", :data:`HAN_READINGS`). The name is read only
where that is unambiguous: where one cast member's name, and no word the reader reads, is
written so; a name written that matches no one is left as it is.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from studio.core.instruction import Instruction

MAX_NAME_SYLLABLES = 4
"""Longest run of Hangul syllables or Han characters read as one name."""
MAX_SPELLINGS = 512
"""How many romanizations of one run are tried at most (a long run has very many)."""

_LEADS = ("g|k", "kk|k|g", "n", "d|t", "tt|t", "r|l", "m", "b|p", "pp|p", "s", "ss|s", "", "j|z", "jj|j|z",
          "ch|c|q|ts", "k|q|c", "t", "p|f", "h")
"""How each of Hangul's 19 leading consonants is written in a romanized name (ㅈ is "z" in 유즈)."""
_VOWELS = ("a", "ae|e", "ya", "yae|ye", "eo|o|u", "e", "yeo|yo", "ye", "o", "wa", "wae|we", "oe|we", "yo",
           "u|oo", "wo", "we", "wi", "yu", "eu|u", "ui|i", "i")
"""How each of Hangul's 21 vowels is written (ㅡ is "u" in 유즈, "eu" in 그레이스)."""
_FINALS = ("", "k|g", "kk|k", "k", "n", "n", "n", "t|d", "l|r", "k", "m", "l", "l", "l", "p", "l", "m", "p|b", "p",
           "t|s", "t|ss", "ng", "t|j", "t|ch", "k", "t", "p", "t")
"""How each of Hangul's 28 finals (the first: none) is written."""

HAN_READINGS: dict[str, str] = {
    # Chinese names (pinyin, without tones)
    "琪": "qi", "奇": "qi", "淇": "qi", "萍": "ping", "丽": "li", "麗": "li", "莉": "li", "玲": "ling", "明": "ming",
    "华": "hua", "華": "hua", "伟": "wei", "偉": "wei", "芳": "fang", "娜": "na", "静": "jing", "靜": "jing",
    "婷": "ting", "强": "qiang", "強": "qiang", "军": "jun", "軍": "jun", "杰": "jie", "傑": "jie", "涛": "tao",
    "濤": "tao", "浩": "hao", "宇": "yu", "晨": "chen", "欣": "xin", "怡": "yi", "佳": "jia", "琳": "lin",
    "梅": "mei|ume", "兰": "lan", "蘭": "lan|ran", "燕": "yan", "雪": "xue|yuki", "晓": "xiao", "曉": "xiao",
    "小": "xiao", "龙": "long", "龍": "long|ryu", "凤": "feng", "鳳": "feng",
    # Japanese names (the readings names are written in, their voiced forms too: 柚子, "yuzu")
    "柚": "yu|you|yuzu", "子": "ko|shi|su|zu", "葵": "aoi", "太": "ta|tai", "郎": "ro|rou|lang", "宗": "so|sou|zong",
    "介": "suke|kai|jie", "蒼": "sou|so|aoi", "翔": "sho|shou|xiang", "太郎": "taro|tarou", "宗介": "sosuke|sousuke",
    "桜": "sakura", "櫻": "sakura", "陽": "haru|hi|yo|you", "結": "yu|yui", "衣": "i|e", "愛": "ai", "美": "mi|mei",
    "咲": "saki", "花": "hana|ka|hua", "菜": "na|cai", "奈": "na", "真": "ma|shin|zhen", "由": "yu|you",
    "希": "ki|xi", "紀": "ki|ji", "樹": "ki|ju|shu|shu", "健": "ken|jian", "大": "dai|hiro|da", "輝": "teru|ki|hui",
    "蓮": "ren|lian", "凛": "rin", "凜": "rin", "悠": "yu|yuu|you", "颯": "hayate|sa", "湊": "minato",
    "海": "umi|kai|hai", "空": "sora|ku|kong", "光": "hikari|hikaru|guang", "拓": "taku|tuo", "也": "ya",
    "哉": "ya", "人": "to|hito|ren", "斗": "to|dou", "翼": "tsubasa|yi", "亮": "ryo|ryou|liang", "涼": "ryo|ryou",
    "良": "ryo|ryou|liang", "雄": "yu|yuu|xiong", "一": "ichi|kazu|yi", "恵": "megumi|kei|e", "優": "yu|yuu|you",
    "里": "ri|sato|li", "理": "ri|li", "奈々": "nana",
}
"""Readings of Han characters (and a few names of two, read as one) as names write them:
Chinese names in pinyin without tones, Japanese names in Hepburn. A character missing here is
read as no name."""

_HAN_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々]+")
_HANGUL_RE = re.compile(r"[\uac00-\ud7a3]+")


def _syllable_spellings(char: str) -> tuple[str, ...]:
    code = ord(char) - 0xAC00
    lead, vowel, final = code // 588, (code % 588) // 28, code % 28
    return tuple(a + b + c for a in _LEADS[lead].split("|") for b in _VOWELS[vowel].split("|")
                 for c in _FINALS[final].split("|"))


def _spellings(parts: Sequence[tuple[str, ...]]) -> set[str]:
    return {"".join(each) for each in itertools.islice(itertools.product(*parts), MAX_SPELLINGS)}


def hangul_spellings(word: str) -> set[str]:
    """The romanizations a name written in Hangul ``word`` may have ("키키": "kiki", "qiqi", ...)."""
    return _spellings([_syllable_spellings(ch) for ch in word])


def han_spellings(word: str) -> set[str]:
    """The romanizations a name written in Han characters ``word`` may have (:data:`HAN_READINGS`;
    none when a character has no reading there): "柚子": "yuzu", "yuko", ...; "太郎": "taro"."""
    parts: list[tuple[str, ...]] = []
    i = 0
    while i < len(word):
        pair = word[i:i + 2]
        if len(pair) == 2 and pair in HAN_READINGS:
            parts.append(tuple(HAN_READINGS[pair].split("|")))
            i += 2
            continue
        reading = HAN_READINGS.get(word[i])
        if reading is None:
            return set()
        parts.append(tuple(reading.split("|")))
        i += 1
    return _spellings(parts)


def _romanized(name: str) -> str:
    return "".join(ch for ch in name.casefold() if ch.isalpha() and ch.isascii())


class _Reader:
    """Finds the cast's romanized ``names`` written in Han characters or Hangul in a text."""

    def __init__(self, names: Iterable[str], words: Iterable[str]) -> None:
        self.by_spelling: dict[str, set[str]] = {}
        for name in names:
            if name and name.isascii() and " " not in name.strip() and len(_romanized(name)) >= 2:
                self.by_spelling.setdefault(_romanized(name), set()).add(name.strip())
        self.words = frozenset(words)

    def name_of(self, written: str, spellings: set[str]) -> str:
        """The one cast name ``written`` is read as; '' for none, or for several."""
        if written in self.words:
            return ""
        owners = {owner for spelling in spellings for owner in self.by_spelling.get(spelling, ())}
        return next(iter(owners)) if len(owners) == 1 else ""

    def in_hangul(self, text: str) -> str:
        from studio.engines.sketch.korean import only_particles

        def named(match: re.Match[str]) -> str:
            run = match.group()
            for end in range(min(len(run), MAX_NAME_SYLLABLES), 1, -1):
                rest = run[end:]
                if not only_particles(rest):
                    continue
                name = self.name_of(run[:end], hangul_spellings(run[:end]))
                if name:  # the particle stays written onto the name, as on "Qiqi가"
                    return f" {name}{rest}"
            return run
        return _HANGUL_RE.sub(named, text)

    def in_han(self, text: str) -> str:
        def named(match: re.Match[str]) -> str:
            run, out, i = match.group(), [], 0
            while i < len(run):
                for end in range(min(len(run), i + MAX_NAME_SYLLABLES), i + 1, -1):
                    name = self.name_of(run[i:end], han_spellings(run[i:end]))
                    if name:
                        out.append(f" {name} ")
                        i = end
                        break
                else:
                    out.append(run[i])
                    i += 1
            return "".join(out)
        return _HAN_RE.sub(named, text)


def cast_names_in_han_and_hangul(instr: Instruction, names: Sequence[str], words: Iterable[str] = ()) -> Instruction:
    """``instr`` with the cast's romanized ``names`` written in Hangul or Han characters written as
    the cast writes them ("유즈가 달린다" -> " Yuzu가 달린다", "琪琪在跑步" -> " Qiqi 在跑步"), in its
    free text and Motion field; ``instr`` itself when none is. A run of two characters or more is
    read as a name where exactly one cast name is written so and it is none of ``words`` (the
    words a reader reads as something else)."""
    reader = _Reader(names, words)
    if not reader.by_spelling or not (_HAN_RE.search(instr.raw) or _HANGUL_RE.search(instr.raw)):
        return instr

    def named(value: str) -> str:
        return reader.in_han(reader.in_hangul(value)) if value else value

    out = replace(instr, motion=named(instr.motion), free_text=named(instr.free_text))
    return instr if out == instr else out
