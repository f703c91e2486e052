"""Caption sentences put a motion's verb in the third person as English writes it.

A motion written as a gerund ("flying on broomstick") read "Qiqi quickly flyings on the
broomstick", "is running" read "ises running", "flies" read "flieses" and "ran" "rans", in
every SRT, burned caption, OTIO marker and sheet. Every motion word the sketch engine knows is
checked here in its base, -ing and third-person forms, and AnimeGamer's own demo file is
imported and exported as a real SRT."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from studio.core.instruction import parse_instruction
from studio.core.sentence import describe_action, gerund_base, third_person
from studio.engines.sketch.vocabulary import MOTIONS

NOT_VERBS = frozenset((
    "asleep", "ballet", "book", "bread", "breakfast", "broom", "broomstick", "cocoa", "coffee", "cold", "dinner",
    "farewell", "food", "game", "hello", "high", "homework", "juice", "karaoke", "karate", "ladder", "lunch",
    "milk", "note", "railing", "song", "tea",
))
"""First words of the vocabulary's phrases that are nouns or adjectives ("tea", "railing")."""

GERUNDS = {"lie": "lying", "be": "being", "see": "seeing", "sightsee": "sightseeing", "tiptoe": "tiptoeing",
           "agree": "agreeing", "frolic": "frolicking", "travel": "travelling", "boogie": "boogieing",
           "curtsy": "curtsying"}
"""-ing forms the spelling rules below do not make."""
THIRD_PERSONS = {"be": "is", "have": "has", "do": "does", "go": "goes"}
VOWELS = "aeiou"


def _one_syllable_cvc(base: str) -> bool:
    groups = re.findall(r"[aeiou]+", base)
    return (len(groups) == 1 and len(base) >= 3 and base[-1] not in VOWELS + "wxy" and base[-2] in VOWELS
            and base[-3] not in VOWELS)


def ing_form(base: str) -> str:
    """The -ing form of a base verb, written out by the spelling rules (a test's own, built the
    other way round from the code under test: base to gerund)."""
    if base in GERUNDS:
        return GERUNDS[base]
    if base.endswith("ie"):
        return base[:-2] + "ying"
    if base.endswith("e") and not base.endswith("ee"):
        return base[:-1] + "ing"
    if _one_syllable_cvc(base) or base in {"spar", "pirouette"}:
        return (base[:-1] if base.endswith("e") else base) + base.rstrip("e")[-1] + "ing"
    return base + "ing"


def s_form(base: str) -> str:
    if base in THIRD_PERSONS:
        return THIRD_PERSONS[base]
    if base.endswith("y") and base[-2] not in VOWELS:
        return base[:-1] + "ies"
    if base.endswith(("s", "sh", "ch", "x", "z", "o")):
        return base + "es"
    return base + "s"


def vocabulary_verbs() -> list[str]:
    return sorted({phrase.split()[0] for motion in MOTIONS for phrase in motion.phrases} - NOT_VERBS)


def test_the_vocabulary_is_broad() -> None:
    verbs = vocabulary_verbs()
    assert len(verbs) > 200
    assert {"run", "fly", "sit", "eat", "dance", "lie", "be", "go", "watch", "toss"} <= set(verbs)


@pytest.mark.parametrize("base", vocabulary_verbs())
def test_every_motion_word_in_each_form_reads_in_the_third_person(base: str) -> None:
    expected = s_form(base)
    gerund = ing_form(base)
    assert third_person(base) == expected
    assert third_person(gerund) == expected, gerund
    assert third_person(expected) == expected  # already the third person: kept
    assert gerund_base(gerund) == base


@pytest.mark.parametrize("motion", sorted({phrase for motion in MOTIONS for phrase in motion.phrases
                                           if phrase.split()[0] not in NOT_VERBS}))
def test_every_motion_phrase_as_a_gerund_reads_as_a_sentence(motion: str) -> None:
    first, *rest = motion.split()
    gerund_phrase = " ".join([ing_form(first), *rest])
    said = describe_action(parse_instruction(f"Character: Qiqi; Motion: {gerund_phrase}; Background: park"))
    as_base = describe_action(parse_instruction(f"Character: Qiqi; Motion: {motion}; Background: park"))
    assert said == as_base
    assert said.startswith(f"Qiqi {s_form(first)}")
    assert not re.search(r"\b\w+ings\b", said.removeprefix(f"Qiqi {s_form(first)}")), said


@pytest.mark.parametrize(("motion", "expected"), [
    ("quickly flying on broomstick", "Qiqi quickly flies on the broomstick in the park."),
    ("running", "Qiqi runs in the park."),
    ("happily dancing", "Qiqi happily dances in the park."),
    ("eating lunch", "Qiqi eats lunch in the park."),
    ("sitting on the bench", "Qiqi sits on the bench in the park."),
    ("is running", "Qiqi is running in the park."),
    ("flies", "Qiqi flies in the park."),
    ("runs", "Qiqi runs in the park."),
    ("ran", "Qiqi runs in the park."),
    ("walked home", "Qiqi walked home in the park."),
    ("lying on the grass", "Qiqi lies on the grass in the park."),
    ("being happy", "Qiqi is happy in the park."),
    ("sitting and reading a book", "Qiqi sits and reads a book in the park."),
    ("go home", "Qiqi goes home in the park."),
    ("do homework", "Qiqi does homework in the park."),
    ("watch the sky", "Qiqi watches the sky in the park."),
    ("kiss", "Qiqi kisses in the park."),
    ("sing", "Qiqi sings in the park."),
    ("bring a cake", "Qiqi brings a cake in the park."),
    ("falling down", "Qiqi falls down in the park."),
    ("riding a bike", "Qiqi rides a bike in the park."),
    ("need a rest", "Qiqi needs a rest in the park."),
])
def test_the_reported_motions(motion: str, expected: str) -> None:
    assert describe_action(parse_instruction(f"Character: Qiqi; Motion: {motion}; Background: park")) == expected


def test_a_capital_is_kept() -> None:
    assert third_person("Flying") == "Flies"
    assert third_person("RUN") == "RUNS"
    assert third_person("手を振る") == "手を振る"


def kamishibai(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd)


def test_animegamer_demo_captions_read_as_english(demo_file: Path, tmp_path: Path) -> None:
    imported = kamishibai("import-demo", str(demo_file), "--project", "agdemo", "--generate", "-q", cwd=tmp_path)
    assert imported.returncode == 0, imported.stderr
    srt = tmp_path / "out" / "agdemo.srt"
    srt.parent.mkdir()
    exported = kamishibai("export", "agdemo", "--out", str(srt), cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    text = " ".join(srt.read_text(encoding="utf-8").split())  # a cue wraps its text over two lines
    assert "Qiqi quickly flies on the broomstick in the sky, by day." in text
    assert "Qiqi smoothly flies on the broomstick in the countryside, by day." in text
    assert not re.search(r"\b\w+ings\b|flieses|flyings", text), text
