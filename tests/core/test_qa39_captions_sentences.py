"""Captions built from what authors write read as sentences.

A motion written as a noun phrase read "Qiqi as dance in the park." ("a" conjugated as a
verb); a motion set off in quotes kept its verb bare ('Yuzu "happily" wave'); a script line
('Qiqi: "Let's go to the beach!"') was captioned "Qiqi." or nothing; "at tonight", a double
comma before the time, capitals copied as typed ("Qiqi RUNS in PARK."), "Qiqi은(는)" for a
Latin-script name whose last sound is plain, a full stop after a Chinese closing quote and a
space inside Japanese free text. Each is checked on :func:`describe_action` and, for the
turns an export shows, through the command line and the SRT it writes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from studio.core.instruction import InstructionError, parse_instruction, validate_instruction_text
from studio.core.sentence import describe_action, korean_particle, script_lines


def caption(text: str, character: str = "") -> str:
    return describe_action(parse_instruction(text), character)


# 1. A motion written as a noun phrase ---------------------------------------------------------

@pytest.mark.parametrize(("motion", "expected"), [
    ("a dance", "Qiqi dances in the park."),
    ("an elegant dance", "Qiqi does an elegant dance in the park."),
    ("the splits", "Qiqi does the splits in the park."),
    ("a walk", "Qiqi takes a walk in the park."),
    ("a long walk", "Qiqi takes a long walk in the park."),
    ("3 laps of running", "Qiqi runs 3 laps in the park."),
    ("two laps of swimming", "Qiqi swims two laps in the park."),
    ("10 push-ups", "Qiqi does 10 push-ups in the park."),
    ("a cup of tea", "Qiqi has a cup of tea in the park."),
    ("a song", "Qiqi sings a song in the park."),
    ("a hug", "Qiqi gives a hug in the park."),
    ("a dance of joy", "Qiqi does a dance of joy in the park."),
    ("a jump, then a spin", "Qiqi does a jump, then a spin in the park."),
    ("a dance under the trees", "Qiqi dances under the trees in the park."),
])
def test_a_motion_written_as_a_noun_phrase_is_a_sentence(motion: str, expected: str) -> None:
    assert caption(f"Character: Qiqi; Motion: {motion}; Background: park") == expected


def test_a_noun_phrase_motion_keeps_its_manner() -> None:
    assert caption("Character: Qiqi; Motion: happily a dance") == "Qiqi happily dances."


def test_a_verb_that_opens_a_motion_is_conjugated_as_before() -> None:
    assert caption("Character: Qiqi; Motion: take a walk; Background: park") == "Qiqi takes a walk in the park."
    assert caption("Character: Qiqi; Motion: do the splits") == "Qiqi does the splits."


# 2. Quotes around a word of a field ------------------------------------------------------------

def test_a_verb_after_a_quoted_manner_is_conjugated() -> None:
    text = 'Character: Yuzu; Motion: "happily" wave; Background: sunset "old" street'
    assert caption(text) == 'Yuzu "happily" waves in the "old" street, at sunset.'


def test_a_quoted_verb_is_conjugated_inside_its_quotes() -> None:
    assert caption('Character: Yuzu; Motion: \u201cwave\u201d to Qiqi') == "Yuzu \u201cwaves\u201d to Qiqi."
    assert caption("Character: Yuzu; Motion: slowly \"walk\", then sit") == 'Yuzu slowly "walks", then sits.'


# 3. A script line ------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ('Qiqi: "Let\'s go to the beach!"', 'Qiqi: "Let\'s go to the beach!"'),
    ('Yuzu: "I am home!"', 'Yuzu: "I am home!"'),
    ('Qiqi: "Let\'s go!"; Yuzu: "OK!"', 'Qiqi: "Let\'s go!" Yuzu: "OK!"'),
    ('Qiqi: "Hi!"; she waves', 'Qiqi: "Hi!" She waves.'),
    ('she waves; Qiqi: "Hi!"', 'She waves. Qiqi: "Hi!"'),
])
def test_a_script_line_is_captioned_as_the_speaker_saying_it(text: str, expected: str) -> None:
    assert caption(text) == expected
    assert caption(text, "Qiqi") == expected  # the branch's character does not replace the speaker


def test_a_script_line_keeps_the_name_as_typed() -> None:
    instruction = parse_instruction('AOI: "Hello"')
    assert instruction.extra == (("aoi", '"Hello"'),)  # the parser keeps its key in lower case
    assert script_lines(instruction) == ['AOI: "Hello"']


def test_a_value_that_is_no_quotation_is_no_script_line() -> None:
    assert script_lines(parse_instruction("Character: Qiqi; Mood: happy")) == []


# 4. Polish --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("time", "expected"), [
    ("tonight", "Qiqi runs in the park, tonight."),
    ("this morning", "Qiqi runs in the park, this morning."),
    ("after school", "Qiqi runs in the park, after school."),
    ("sunny", "Qiqi runs in the park, on a sunny day."),
    ("teatime", "Qiqi runs in the park, at teatime."),
    ("night", "Qiqi runs in the park, at night."),
])
def test_a_time_is_said_with_the_preposition_it_takes(time: str, expected: str) -> None:
    assert caption(f"Character: Qiqi; Motion: run; Background: park; Time: {time}") == expected


def test_a_comma_before_a_time_in_the_place_is_not_doubled() -> None:
    instruction = parse_instruction("Character: Qiqi; Motion: run; Background: the park, evening")
    assert (instruction.background, instruction.time_of_day) == ("park", "evening")
    assert describe_action(instruction) == "Qiqi runs in the park, in the evening."


@pytest.mark.parametrize(("text", "expected"), [
    ("Character: Qiqi; Motion: RUNS; Background: PARK", "Qiqi runs in the park."),
    ("Character: Qiqi; Motion: quickly Runs; Background: Park", "Qiqi quickly runs in the park."),
    ("Character: Qiqi; Motion: SIT ON THE RAILING", "Qiqi sits on the railing."),
    ("Character: QIQI; Motion: Wave to Yuzu; Background: Central Park", "QIQI waves to Yuzu in Central Park."),
    ("Character: Qiqi; Motion: fly to the UFO; Background: NYC", "Qiqi flies to the UFO in NYC."),
    ("Character: Qiqi; Motion: walk; Background: Tokyo", "Qiqi walks in Tokyo."),
    ("Character: Qiqi; Motion: fly to the US", "Qiqi flies to the US."),
    ("Character: Qiqi; Motion: RUN TO THE US; Background: NYC", "Qiqi runs to the US in NYC."),
    ("Character: Qiqi; Motion: wave to YUZU", "Qiqi waves to YUZU."),
])
def test_capitals_are_kept_for_names_and_acronyms_only(text: str, expected: str) -> None:
    assert caption(text) == expected


@pytest.mark.parametrize(("word", "topic", "subject"), [
    ("Qiqi", "Qiqi는", "Qiqi가"), ("Yuzu", "Yuzu는", "Yuzu가"), ("Amy", "Amy는", "Amy가"),
    ("Chloe", "Chloe는", "Chloe가"),
    ("Chris", "Chris는", "Chris가"), ("Ken", "Ken은", "Ken이"), ("Tom", "Tom은", "Tom이"), ("Paul", "Paul은", "Paul이"),
    ("ミサキ", "ミサキ는", "ミサキ가"), ("ケン", "ケン은", "ケン이"),
    # the last letter does not tell how Korean says it (잭, 마이크, 제인): both, as before
    ("Jack", "Jack은(는)", "Jack이(가)"), ("Mike", "Mike은(는)", "Mike이(가)"), ("美咲", "美咲은(는)", "美咲이(가)"),
    ("민준", "민준은", "민준이"), ("민수", "민수는", "민수가"),
])
def test_a_korean_particle_follows_how_a_name_is_said(word: str, topic: str, subject: str) -> None:
    assert (korean_particle(word, "은", "는"), korean_particle(word, "이", "가")) == (topic, subject)


def test_a_korean_caption_of_a_latin_name_has_one_particle() -> None:
    assert caption("캐릭터: Qiqi; 동작: 달린다; 배경: 공원") == "Qiqi는 공원에서 달린다."
    assert caption("캐릭터: Ken; 동작: 달린다; 배경: 공원") == "Ken은 공원에서 달린다."
    assert caption("캐릭터: Ken; 배경: 공원") == "Ken이 공원에 있다."


@pytest.mark.parametrize(("text", "expected"), [
    ('小明说："我们去跑步吧！"', '小明说："我们去跑步吧！"'),
    ("小明说：\u201c我们去跑步吧！\u201d", "小明说：\u201c我们去跑步吧！\u201d"),
    ('小明说："我们去跑步"', '小明说："我们去跑步"。'),
    ("美咲：「ただいま！」", "美咲：「ただいま！」"),
    ("美咲：「ただいま」", "美咲：「ただいま」。"),
    ('Qiqi says "see you!"', 'Qiqi says "see you!"'),
    ('Qiqi says "see you"', 'Qiqi says "see you".'),
])
def test_a_sentence_ending_inside_quotes_gets_no_second_stop(text: str, expected: str) -> None:
    assert caption(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("美咲は夜の公園で ランニング", "美咲は夜の公園でランニング。"),
    ("小明 在公园 跑步", "小明在公园跑步。"),
    ("민수가 공원에서 달린다", "민수가 공원에서 달린다."),  # Korean writes its spaces
    ("美咲は Tokyo で走る", "美咲は Tokyo で走る。"),  # a space beside a Latin word stays
])
def test_japanese_and_chinese_free_text_has_no_space_between_words(text: str, expected: str) -> None:
    assert caption(text) == expected


# 5. The refusal of a long instruction names the turn's notes -----------------------------------

def test_the_long_instruction_hint_speaks_of_the_turn() -> None:
    with pytest.raises(InstructionError) as refused:
        validate_instruction_text("Character: Qiqi; Motion: run; " + "x" * 2000)
    assert refused.value.hint == "Shorten it, or move the extra text into the turn's notes."
    assert "node" not in str(refused.value)


# Through the command line -----------------------------------------------------------------------

def kamishibai(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd)


def test_the_exported_subtitles_read_as_sentences(tmp_path: Path) -> None:
    assert kamishibai("new", "p", cwd=tmp_path).returncode == 0
    turns = ["Character: Qiqi; Motion: a dance; Background: park",
             'Character: Yuzu; Motion: "happily" wave; Background: sunset "old" street',
             'Qiqi: "Let\'s go to the beach!"',
             "Character: Qiqi; Motion: RUNS; Background: the park, tonight",
             "캐릭터: Qiqi; 동작: 달린다; 배경: 공원"]
    played = kamishibai("play", "p.kamishibai", "--parent", "root", *turns, "--json", cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    made = json.loads(played.stdout)
    assert made[2]["understood"]["motion"] == "talk"  # the engine reads the script line as talk
    srt = tmp_path / "x.srt"
    exported = kamishibai("export", "p.kamishibai", "--leaf", made[-1]["node"], "--out", str(srt), cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    cues = [" ".join(block.splitlines()[2:]) for block in srt.read_text(encoding="utf-8").strip().split("\n\n")]
    assert cues == ["Qiqi dances in the park.",
                    'Yuzu "happily" waves in the "old" street, at sunset.',
                    'Qiqi: "Let\'s go to the beach!"',
                    "Qiqi runs in the park, tonight.",
                    "Qiqi는 공원에서 달린다."]
