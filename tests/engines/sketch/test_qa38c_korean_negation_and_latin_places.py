"""A Korean Motion field that says its motion is not done is not done, as free text is: "동작: 안
달리기" drew a run (the 안 before a motion's noun was left unread). A place written in Latin
letters with a Korean particle on it ("park에서") is read as that place, or said to be unknown;
before, the particle stuck to it and the place was dropped without a word."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.model import CastMember
from studio.engines.base import Prediction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.korean import in_english_words, unknown_places
from studio.engines.sketch.understanding import read_turn

from ..sketch_helpers import SMALL, as_turn, predict

CAST = (CastMember(id="minsu", name="민수"),)


def _play(text: str) -> Prediction:
    return predict(SketchEngine(), text, settings=SMALL, cast=CAST)


@pytest.mark.parametrize("motion", ["안 달리기", "못 달리기", "안 산책", "달리지 않기", "달리지 않다", "달리지 않는다",
                                    "달리지 마", "안 달린다", "못 달린다"])
def test_a_motion_field_said_not_to_be_done_is_not_done(motion: str) -> None:
    prediction = _play(f"캐릭터: 민수; 동작: {motion}; 배경: 공원")
    assert (prediction.conditioning["motion"], prediction.conditioning["location"]) == ("idle", "park")
    assert f"'{motion}' is a motion not done, shown as 'idle'" in prediction.warnings


def test_a_motion_noun_not_done_in_free_text_is_not_done() -> None:
    prediction = _play("민수는 공원에서 안 달리기")
    assert prediction.conditioning["motion"] == "idle"
    assert "'안 달리기' is a motion not done, shown as 'idle'" in prediction.warnings


def test_inside_a_place_is_no_negation() -> None:
    # 집 안 청소: the cleaning in the house, done
    assert read_turn(parse_instruction("민수가 집 안 청소를 한다"), (), ["민수"]).motion.name == "sweep"


@pytest.mark.parametrize("text", ["민수가 park에서 달린다", "민수가 Central Park에서 달린다", "민수가 park에 간다"])
def test_a_place_in_latin_letters_with_a_particle_is_that_place(text: str) -> None:
    reading = read_turn(parse_instruction(text), (), ["민수"])
    assert (reading.location, reading.character or "민수") == ("park", "민수")
    assert not reading.unknown_places


def test_a_latin_place_is_read_after_a_turn_elsewhere() -> None:
    engine = SketchEngine()
    first = predict(engine, "민수가 해변에서 걷는다", settings=SMALL, cast=CAST)
    assert first.conditioning["location"] == "beach"
    second = predict(engine, "민수가 park에서 달린다", settings=SMALL, cast=CAST,
                     history=(as_turn(first, "민수가 해변에서 걷는다"),))
    assert second.conditioning["location"] == "park"


def test_an_unknown_latin_place_is_said() -> None:
    assert unknown_places("민수가 Mordor에서 달린다", ["민수"]) == ["Mordor"]
    assert unknown_places("민수가 here에서 달린다", ["민수"]) == []
    warnings = _play("민수가 Mordor에서 달린다").warnings
    assert any("'Mordor'" in w for w in warnings), warnings


def test_the_particle_is_left_out_of_the_english() -> None:
    assert in_english_words("민수가 park에서 달린다", names=["민수"]) == "민수 park run"
