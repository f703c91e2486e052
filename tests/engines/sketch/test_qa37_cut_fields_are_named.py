"""The sketch engine holds each field of a turn to its own limit, as written, and names every
field it cuts.

An English Motion of 477 characters beside a Japanese Background ("背景：公園") was read only to
400 characters without a word: every field was cut to 400 code points as soon as any field was
Japanese, so the length check after it found nothing too long. With "Background: park" instead
it warned, but with "instruction is 520 characters long; only the first 400 characters of each
part were read", which named no field. A field of emoji with skin tones was cut at 200 of them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from studio.core.instruction import parse_instruction
from studio.core.model import CastMember
from studio.engines.base import Prediction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.text import MAX_ANALYSED_CHARS, first_read, normalise
from studio.engines.sketch.understanding import read_instruction, read_turn

from ..sketch_helpers import SMALL, predict

CAST = (CastMember(id="misaki", name="美咲"),)
EN_FILLER = "the harbour park at night, " * 40
"""English words of places and times, no motion."""
JA_FILLER = "朝や昼の" * 200
"""Japanese words of times, no motion and no place: 朝 is 'morning', much longer in English."""
THUMB = "\U0001F44D\U0001F3FD"  # a thumbs-up with a skin tone: one character, two code points
FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"  # one character, five code points


def _play(text: str) -> Prediction:
    return predict(SketchEngine(), text, settings=SMALL, cast=CAST)


def _lengths(warnings: tuple[str, ...] | list[str]) -> list[str]:
    return [w for w in warnings if "characters long" in w]


def _english(chars: int) -> str:
    """``chars`` characters of English words of no motion, as a field keeps them (one space
    between words, none at the end)."""
    text = EN_FILLER[:chars]
    return text[:-1] + "s" if text.endswith((" ", ",")) else text


def _motion(chars: int, then: str = " runs") -> str:
    """A Motion of ``chars`` characters whose only motion word ends at character ``chars``."""
    return _english(chars - len(then)) + then


def _long_motion() -> str:
    """477 characters; its only motion word, "runs", ends at the 400th."""
    motion = _motion(MAX_ANALYSED_CHARS) + " " + _english(76)
    assert len(motion) == 477 and parse_instruction(f"Motion: {motion}").motion == motion
    return motion


def test_a_long_english_field_beside_a_japanese_one_is_said_and_named() -> None:
    motion = _long_motion()
    prediction = _play(f"Character: Qiqi; Motion: {motion}; 背景：公園")
    assert _lengths(prediction.warnings) == [
        "the Motion field is 477 characters long; only its first 400 characters were read "
        "(the instruction keeps all of it)"]
    assert (prediction.conditioning["motion"], prediction.conditioning["location"]) == ("run", "park")

    past = _english(MAX_ANALYSED_CHARS + 5) + " runs"  # the motion word after the 400th character
    prediction = _play(f"Character: Qiqi; Motion: {past}; 背景：公園")
    assert prediction.conditioning["motion"] != "run"  # read only as far as the limit
    assert len(_lengths(prediction.warnings)) == 1 and "the Motion field is 410 characters long" in \
        _lengths(prediction.warnings)[0]


def test_the_same_field_beside_an_english_one_says_the_same() -> None:
    motion = _long_motion()
    japanese = _play(f"Character: Qiqi; Motion: {motion}; 背景：公園")
    english = _play(f"Character: Qiqi; Motion: {motion}; Background: park")
    assert _lengths(japanese.warnings) == _lengths(english.warnings) != []
    assert not any(w.startswith("instruction is ") for w in english.warnings)


def test_a_long_japanese_field_beside_english_ones_is_read_to_its_limit_as_written() -> None:
    place = JA_FILLER[:384] + "図書館、"  # the library's last character is the 387th
    background = place + JA_FILLER[:112]  # 500 characters as written, many more in English
    prediction = _play(f"Character: Qiqi; Motion: walks; 背景：{background}")
    assert _lengths(prediction.warnings) == [
        "the 背景 field is 500 characters long; only its first 400 characters were read "
        "(the instruction keeps all of it)"]
    assert (prediction.conditioning["motion"], prediction.conditioning["location"]) == ("walk", "library")

    prediction = _play(f"Character: Qiqi; Motion: walks; 背景：{JA_FILLER[:400]}図書館")  # the place past it
    assert prediction.conditioning["location"] != "library"
    assert [w.split(" characters long")[0] for w in _lengths(prediction.warnings)] == ["the 背景 field is 403"]


def test_two_cut_fields_give_two_warnings_each_naming_its_field() -> None:
    text = f"キャラクター：美咲；動作：{JA_FILLER[:450]}；Background: {_english(430)}"
    for warnings in (_play(text).warnings, tuple(read_turn(parse_instruction(text), [], ["美咲"]).warnings)):
        assert sorted(w.split(";")[0] for w in _lengths(warnings)) == [
            "the Background field is 430 characters long", "the 動作 field is 450 characters long"]


def test_a_turn_within_its_limits_says_nothing_of_length() -> None:
    # each field within the limit, the whole far longer than it (and than four times it)
    fields = [f"Motion: {_motion(390)}", f"背景：{JA_FILLER[:387]}図書館", f"Mood: {_english(390)}",
              f"Camera: {'still ' * 60}", f"Time: {'night ' * 60}", "Character: Qiqi"]
    text = "; ".join(fields)
    assert len(text) > 4 * MAX_ANALYSED_CHARS
    prediction = _play(text)
    assert _lengths(prediction.warnings) == []
    assert (prediction.conditioning["motion"], prediction.conditioning["location"]) == ("run", "library")
    assert _lengths(read_instruction(parse_instruction(text)).warnings) == []


def test_read_instruction_on_its_own_names_the_cut_field() -> None:
    """The mini engine reads a turn with read_instruction: its cut is said the same way."""
    motion = _long_motion()
    reading = read_instruction(parse_instruction(f"Character: Qiqi; Motion: {motion}; 背景：公園"))
    assert _lengths(reading.warnings) == [
        "the Motion field is 477 characters long; only its first 400 characters were read "
        "(the instruction keeps all of it)"]
    assert reading.motion.name == "run"


def test_emoji_with_skin_tones_count_as_one_character_each() -> None:
    motion = THUMB * 390 + " runs"  # 395 characters, 785 code points
    prediction = _play(f"Character: Qiqi; Motion: {motion}; 背景：公園")
    assert _lengths(prediction.warnings) == []
    assert prediction.conditioning["motion"] == "run"  # read past the 200th thumb
    assert normalise(THUMB * MAX_ANALYSED_CHARS) == (THUMB * MAX_ANALYSED_CHARS, False)


def test_joined_emoji_at_the_limit_are_kept_whole() -> None:
    within = _play(f"Character: {FAMILY * MAX_ANALYSED_CHARS}; Motion: waves")
    assert within.conditioning["character"] == FAMILY * MAX_ANALYSED_CHARS  # 2,000 code points, all read
    assert _lengths(within.warnings) == []

    over = _play(f"Character: {FAMILY * (MAX_ANALYSED_CHARS + 1)}; Motion: waves")
    assert over.conditioning["character"] == FAMILY * MAX_ANALYSED_CHARS  # no family split from its joiners
    assert [w.split(";")[0] for w in _lengths(over.warnings)] == ["the Character field is 401 characters long"]

    edge = "a" * (MAX_ANALYSED_CHARS - 1) + FAMILY + "b"
    assert first_read(edge, MAX_ANALYSED_CHARS) == "a" * (MAX_ANALYSED_CHARS - 1) + FAMILY
    assert first_read(THUMB * 300, 200) == THUMB * 200


def test_play_json_names_the_cut_field_of_a_real_project(tmp_path: Path) -> None:
    project = tmp_path / "story"
    motion = _long_motion()
    text = f"Character: Qiqi; Motion: {motion}; 背景：公園"

    def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120)

    assert kamishibai("new", str(project)).returncode == 0
    played = kamishibai("play", str(project), "--json", "--setting", "frames=2", "--setting", "width=48",
                        "--setting", "height=32", "-i", text)
    assert played.returncode == 0, played.stderr
    out = json.loads(played.stdout)
    assert out["warnings"] == ["the Motion field is 477 characters long; only its first 400 characters were read "
                               "(the instruction keeps all of it)"]
    assert (out["understood"]["motion"], out["understood"]["place"]) == ("run", "park")
    assert Path(out["clip"]).stat().st_size > 0
    stored = json.loads(kamishibai("tree", str(project), "--json").stdout)
    assert text in json.dumps(stored, ensure_ascii=False)  # the instruction is kept whole
