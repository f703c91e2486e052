"""The mini engine reads a turn written in Korean in the English words the sketch engine reads
it in, as it reads a Japanese or a Chinese one. Before, "캐릭터: 민수; 동작: 달린다" reached its
language model as written (it learnt English words only) and its motion was unknown to it. A
turn with no Korean in it reads exactly as before."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import numpy as np
import pytest

from studio.core.instruction import parse_instruction
from studio.core.model import CastMember
from studio.engines.base import EngineConfig, GenerationContext
from studio.engines.catalog.mini import MiniSettings
from studio.engines.continuity import Setting
from studio.engines.mini.completion import complete, english_turn

FIELDS = "캐릭터: 민수; 동작: 달린다; 배경: 밤의 공원"


@pytest.mark.parametrize(("text", "read"), [
    (FIELDS, "Character: 민수; Motion: run; Background: night park."),
    ("민수가 밤에 공원에서 천천히 달린다", "민수 night park slowly run."),
    ("Character: Qiqi; Motion: 달리다; Background: park", "Character: Qiqi; Motion: run; Background: park."),
    ("캐릭터: 민수; 동작: 뛰어오르다; 카메라: 줌인", "Character: 민수; Motion: leap; Camera: zoom in."),
    ("민수가 달리지 않는다", "민수 not run."),
])
def test_a_korean_turn_is_read_in_english_words(text: str, read: str) -> None:
    assert english_turn(parse_instruction(text), ["민수"]).raw == read


def test_its_fields_are_those_of_the_english_turn() -> None:
    read = english_turn(parse_instruction(FIELDS), ["민수"])
    assert (read.character, read.motion, read.background, read.time_of_day) == ("민수", "run", "park", "night")


def test_korean_left_unread_is_left_out_and_a_turn_with_nothing_read_is_kept() -> None:
    # 알수없는 is no word of the sketch world: the LM would read it as unknown tokens
    read = english_turn(parse_instruction("민수가 알수없는 곳에서 달린다"), ["민수"])
    assert read.raw == "민수 run." and "알수없는" not in read.raw
    written = parse_instruction("알수없는사람")
    assert english_turn(written, ()) is written
    named = parse_instruction("Character: 민수; Motion: run")
    assert english_turn(named, ["민수"]) is named


def test_korean_typed_as_separate_letters_is_read_as_the_composed_turn() -> None:
    composed = english_turn(parse_instruction("민수가 공원에서 달린다"), ["민수"])
    apart = english_turn(parse_instruction(unicodedata.normalize("NFD", "민수가 공원에서 달린다")), ["민수"])
    assert apart.raw == composed.raw == "민수 park run."


@pytest.mark.parametrize("text", [
    "Character: Qiqi; Motion: jump; Background: day town.",
    "Qiqi waves in the park at night, camera pans left.",
    "Café scene — Qiqi dances naïvely 🎉; Camera: zoom in",
])
def test_an_english_turn_is_read_as_it_is(text: str) -> None:
    written = parse_instruction(text)
    assert english_turn(written, ["민수", "Qiqi"]) is written
    assert complete(english_turn(written, ["Qiqi"]), Setting("Qiqi", "park", "day"), ["Qiqi"]).text == \
        complete(written, Setting("Qiqi", "park", "day"), ["Qiqi"]).text


@pytest.fixture(scope="module")
def engine(tiny: Path):  # type: ignore[no-untyped-def]
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    pytest.importorskip("diffusers")
    from studio.engines.mini.engine import MiniEngine

    made = MiniEngine(EngineConfig(checkpoints=tiny.parent, threads=1))
    made.load()
    return made


def _predict(engine, text: str):  # type: ignore[no-untyped-def]
    settings = MiniSettings.from_values({"steps": 1, "height": 32, "width": 48, "frames": 5})
    return engine.predict(GenerationContext(cast=(CastMember(id="c1", name="민수"),)), parse_instruction(text),
                          settings, 2)


def test_a_korean_turn_is_predicted_as_its_english(engine) -> None:  # type: ignore[no-untyped-def]
    read = _predict(engine, FIELDS)
    typed = _predict(engine, "Character: 민수; Motion: run; Background: night park.")
    np.testing.assert_array_equal(read.representation, typed.representation)
    keys = ("motion", "location", "character", "time_of_day")
    assert {k: read.conditioning.get(k) for k in keys} == {k: typed.conditioning.get(k) for k in keys}
    assert not any("not a motion" in w or "not a place" in w for w in read.warnings), read.warnings


def test_what_it_did_not_learn_is_quoted_as_written(engine) -> None:  # type: ignore[no-untyped-def]
    odd = _predict(engine, "캐릭터: 민수; 동작: 멍때리다; 배경: 밤의 공원").warnings
    assert "'멍때리다' unknown, shown as 'idle'" in odd, odd  # drawn as the sketch draws it, as an English motion is
    place = _predict(engine, "캐릭터: 민수; 동작: 달린다; 배경: 알수없는곳").warnings
    assert any(w.startswith("'알수없는곳' is not a place the mini model learnt") for w in place), place
