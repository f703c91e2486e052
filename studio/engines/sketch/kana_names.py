"""Cast names written in kana: "タロウが走る" and "たろうが走る" name Taro, a cast member's name
written in the Latin alphabet; "たろうは笑う" names タロウ, a name of the cast written in katakana.

A Japanese author writes the names of a story's characters in kana as often as not, whatever
the cast list says. A romanized name (Hepburn: "Taro", "Yuki", "Shota", "Ryo") is spelt in kana
the ways Japanese spells it, its long vowels written or not (タロ, タロウ, タロー), and each
spelling is read as the name where it stands as a name: set apart from other katakana, or a
hiragana one before a particle. A spelling two cast names share, or one that is a word the
sketch reads (そら, the sky), is left alone: it names no one for certain.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import replace

from studio.core.instruction import Instruction

_SYLLABLES: dict[str, str] = {
    "a": "ア", "i": "イ", "u": "ウ", "e": "エ", "o": "オ",
    "ka": "カ", "ki": "キ", "ku": "ク", "ke": "ケ", "ko": "コ", "ga": "ガ", "gi": "ギ", "gu": "グ", "ge": "ゲ",
    "go": "ゴ", "sa": "サ", "shi": "シ", "si": "シ", "su": "ス", "se": "セ", "so": "ソ", "za": "ザ", "ji": "ジ",
    "zi": "ジ", "zu": "ズ", "ze": "ゼ", "zo": "ゾ", "ta": "タ", "chi": "チ", "ti": "チ", "tsu": "ツ", "tu": "ツ",
    "te": "テ", "to": "ト", "da": "ダ", "de": "デ", "do": "ド", "na": "ナ", "ni": "ニ", "nu": "ヌ", "ne": "ネ",
    "no": "ノ", "ha": "ハ", "hi": "ヒ", "fu": "フ", "hu": "フ", "he": "ヘ", "ho": "ホ", "ba": "バ", "bi": "ビ",
    "bu": "ブ", "be": "ベ", "bo": "ボ", "pa": "パ", "pi": "ピ", "pu": "プ", "pe": "ペ", "po": "ポ", "ma": "マ",
    "mi": "ミ", "mu": "ム", "me": "メ", "mo": "モ", "ya": "ヤ", "yu": "ユ", "yo": "ヨ", "ra": "ラ", "ri": "リ",
    "ru": "ル", "re": "レ", "ro": "ロ", "wa": "ワ", "wo": "ヲ",
    "kya": "キャ", "kyu": "キュ", "kyo": "キョ", "gya": "ギャ", "gyu": "ギュ", "gyo": "ギョ", "sha": "シャ",
    "shu": "シュ", "sho": "ショ", "ja": "ジャ", "ju": "ジュ", "jo": "ジョ", "cha": "チャ", "chu": "チュ",
    "cho": "チョ", "nya": "ニャ", "nyu": "ニュ", "nyo": "ニョ", "hya": "ヒャ", "hyu": "ヒュ", "hyo": "ヒョ",
    "bya": "ビャ", "byu": "ビュ", "byo": "ビョ", "pya": "ピャ", "pyu": "ピュ", "pyo": "ピョ", "mya": "ミャ",
    "myu": "ミュ", "myo": "ミョ", "rya": "リャ", "ryu": "リュ", "ryo": "リョ",
}
"""Hepburn syllables (and the Kunrei spellings names are also written in) and their katakana."""
_LONG_VOWELS = {"ō": "ou", "ô": "ou", "ū": "uu", "û": "uu", "ā": "aa", "ē": "ei", "ī": "ii"}
"""Vowels written long with a mark ("Tarō"), as a name writes them without it ("Tarou")."""
_U_AND_O_ROWS = "ウクグスズツヅヌフブプムユュルオコゴソゾトドノホボポモヨョロヲ"
"""Katakana ending in "u" or "o": a ウ after one may be written ー (タロウ, タロー)."""
MAX_NAME_CHARS = 24
"""Longest romanized name spelt in kana: a longer one is no single Japanese name."""

_KATAKANA = re.compile(r"[\u30a1-\u30fa\u30fc]")
_HIRAGANA = re.compile(r"[\u3041-\u3096\u309d\u309e]")
_AFTER_A_HIRAGANA_NAME = ("さん", "くん", "君", "ちゃん", "様", "さま", "は", "が", "も", "と", "の", "に", "を", "へ",
                          "や", "で")
"""What a name written in hiragana is followed by, inside hiragana: a particle or an honorific."""
_BEFORE_A_HIRAGANA_NAME = frozenset("はがもとのにをへやで")
"""Particles a name written in hiragana may follow, inside hiragana ("ゆずとたろうが")."""


def _katakana_syllables(name: str) -> list[tuple[str, bool]] | None:
    """``name`` (one romanized word, lower case, no marks) as katakana syllables, each with
    whether it may be written long though written short: an "o" ("Taro": タロウ), or a first
    syllable's "u" ("Yuki": ユウキ); None when ``name`` is no Hepburn romanization."""
    out: list[tuple[str, bool]] = []
    i = 0
    while i < len(name):
        ch = name[i]
        if ch == "'":
            i += 1
            continue
        if ch == "n" and (i + 1 == len(name) or name[i + 1] not in "aiueoy"):
            out.append(("ン", False))  # "Kenta", "Shin"; "Jun'ichi", "Junnosuke"
            i += 2 if name[i + 1:i + 2] == "n" and name[i + 2:i + 3] not in tuple("aiueo") else 1
            continue
        if ch not in "aiueon" and (name[i + 1:i + 2] == ch or (ch == "t" and name[i + 1:i + 3] == "ch")):
            out.append(("ッ", False))  # a doubled consonant: "Hattori", "Kotchi"
            i += 1
            continue
        for size in (3, 2, 1):
            syllable = name[i:i + size]
            if syllable in _SYLLABLES and (size > 1 or syllable in "aiueo"):
                following = name[i + size:i + size + 1]
                vowel = syllable[-1]
                long = following != "u" and (vowel == "o" or (vowel == "u" and not out and size > 1))
                out.append((_SYLLABLES[syllable], long))
                i += size
                break
        else:
            return None
    return out


def katakana_spellings(name: str) -> frozenset[str]:
    """The katakana a romanized ``name`` is written in ("Taro" -> タロ, タロウ, タロー; "Yuuki" ->
    ユウキ, ユーキ); none for a name that is no Hepburn romanization ("Qiqi") or of several words."""
    word = unicodedata.normalize("NFC", name.strip().lower())
    word = "".join(_LONG_VOWELS.get(ch, ch) for ch in word)
    if not word or len(word) > MAX_NAME_CHARS or not all((ch.isascii() and ch.isalpha()) or ch == "'"
                                                         for ch in word):
        return frozenset()
    syllables = _katakana_syllables(word)
    if not syllables:
        return frozenset()
    options = [(kana,) if not long else (kana, kana + "ウ", kana + "ー") for kana, long in syllables]
    spellings = {"".join(parts) for parts in itertools.islice(itertools.product(*options), 64)}
    spellings |= {re.sub(f"(?<=[{_U_AND_O_ROWS}])ウ", "ー", spelling) for spelling in spellings}
    return frozenset(spellings)


def to_hiragana(text: str) -> str:
    """``text`` with its katakana written in hiragana (the long-vowel mark kept)."""
    return "".join(chr(ord(ch) - 0x60) if "\u30a1" <= ch <= "\u30f6" else ch for ch in text)


def to_katakana(text: str) -> str:
    """``text`` with its hiragana written in katakana."""
    return "".join(chr(ord(ch) + 0x60) if "\u3041" <= ch <= "\u3096" else ch for ch in text)


def _kana_only(text: str) -> bool:
    return bool(text) and all(_KATAKANA.fullmatch(ch) or _HIRAGANA.fullmatch(ch) for ch in text)


def kana_spellings(names: Iterable[str], words: Iterable[str] = ()) -> dict[str, str]:
    """Each kana spelling of the cast's ``names`` (katakana and hiragana) -> the name as the cast
    writes it: a kana name's in the other kana, and a romanized name's (:func:`katakana_spellings`),
    a kana name's first (with タロウ and Taro in the cast, たろう is タロウ). A spelling two names
    share alike, one a name is already written as, and one of ``words`` (the kana words a reader
    reads as something else) are left out."""
    found: dict[str, dict[int, set[str]]] = {}
    written = {name for name in names if name}
    for name in written:
        kana = _kana_only(name)
        katakana = {to_katakana(name)} if kana else set(katakana_spellings(name))
        for spelling in katakana | {to_hiragana(each) for each in katakana}:
            if spelling != name:
                found.setdefault(spelling, {}).setdefault(0 if kana else 1, set()).add(name)
    taken = set(words) | written
    out: dict[str, str] = {}
    for spelling, by_rank in found.items():
        owners = by_rank[min(by_rank)]
        if len(owners) == 1 and spelling not in taken and len(spelling) > 1:
            out[spelling] = next(iter(owners))
    return out


def _stands_as_a_name(text: str, start: int, end: int, name_before: int) -> bool:
    """Whether the kana ``text[start:end]`` stands as a word: katakana not joined to more
    katakana; hiragana not inside other hiragana, save a particle around it that ends or starts
    another word ("公園でたろうが", "Yuzuとたろう", or a name just read: "ゆずとたろう";
    ``name_before``: where the name read last ends)."""
    before, after = text[start - 1:start], text[end:end + 1]
    if _KATAKANA.fullmatch(text[start]):
        return not _KATAKANA.fullmatch(before or " ") and not _KATAKANA.fullmatch(after or " ")
    if before and _HIRAGANA.fullmatch(before):
        word_before = text[start - 2:start - 1]
        if before not in _BEFORE_A_HIRAGANA_NAME or not word_before or (
                _HIRAGANA.fullmatch(word_before) and name_before != start - 1):
            return False
    return not after or not _HIRAGANA.fullmatch(after) or text.startswith(_AFTER_A_HIRAGANA_NAME, end)


def with_names_as_cast_writes_them(text: str, spellings: dict[str, str]) -> str:
    """``text`` with each kana spelling of :func:`kana_spellings` that stands as a name written
    as the cast writes the name, set apart ("タロウが走る" -> " Taro が走る"); ``text`` itself when
    none does."""
    if not spellings or not (_KATAKANA.search(text) or _HIRAGANA.search(text)):
        return text
    pattern = re.compile("|".join(re.escape(s) for s in sorted(spellings, key=len, reverse=True)))
    out: list[str] = []
    last = -1
    for match in pattern.finditer(text):
        if _stands_as_a_name(text, match.start(), match.end(), last):
            out += [text[max(last, 0):match.start()], f" {spellings[match.group()]} "]
            last = match.end()
    if not out:
        return text
    return "".join(out) + text[last:]


def cast_names_in_kana(instr: Instruction, names: Sequence[str], words: Iterable[str] = ()) -> Instruction:
    """``instr`` with the cast's ``names`` written in kana written as the cast writes them
    (:func:`with_names_as_cast_writes_them`), in every field it names a field by; ``instr``
    itself when none is. ``words``: the kana words read as something else, never a name."""
    spellings = kana_spellings(names, words)
    if not spellings:
        return instr

    def named(value: str) -> str:
        return with_names_as_cast_writes_them(value, spellings)

    out = replace(instr, character=named(instr.character), motion=named(instr.motion), adverb=named(instr.adverb),
                  background=named(instr.background), time_of_day=named(instr.time_of_day),
                  camera=named(instr.camera), free_text=named(instr.free_text))
    return instr if out == instr else out
