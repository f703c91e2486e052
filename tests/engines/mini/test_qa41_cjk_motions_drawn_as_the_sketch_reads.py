"""A Japanese, Chinese or Korean motion the sketch engine does not know is drawn by the mini
engine as the sketch draws it (its stand-in, or the idle), with the sketch's warning quoting it
as written, as an English one is: its English had lost the word, and the LM chose any motion
("'スケボーする' is not a motion the mini model learnt; it read it as 'eat'"). A stand-in place
of such a turn is the sketch reader's (``read_turn(..., stand_ins=True)``), which the mini
engine no longer reads again in its own words."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.mini.completion import english_turn
from studio.engines.mini.rephrase import rephrase, rephrase_translated
from studio.engines.sketch.understanding import read_turn
from tests.engines.mini.qa40b_shipped import shipped_engine

CAST = ("美咲", "小明", "민수", "Qiqi")


def _told(text: str):  # type: ignore[no-untyped-def]
    written = parse_instruction(text)
    return rephrase_translated(written, english_turn(written, CAST), CAST)


def _sketch(text: str):  # type: ignore[no-untyped-def]
    return read_turn(parse_instruction(text), (), CAST, stand_ins=True)


@pytest.mark.parametrize("text", [
    "キャラクター：美咲；動作：スケボーする；背景：公園",
    "角色：小明；动作：滑板；背景：公园",
    "캐릭터: 민수; 동작: 스케이트보드; 배경: 공원",
    "キャラクター：Qiqi；動作：ぼんやりする；背景：夜の港",
    "캐릭터: 민수; 동작: 멍때리다",
    "キャラクター：Qiqi；動作：電話する",  # a stand-in: the sketch shows a talk
])
def test_a_motion_field_the_sketch_does_not_know_is_told_as_the_sketch_draws_it(text: str) -> None:
    sketch = _sketch(text)
    told = _told(text)
    assert "motion" in told.replaced
    assert parse_instruction(told.instruction.raw).motion == sketch.motion.name
    unknown = [w for w in sketch.warnings if " unknown, shown as " in w]
    assert unknown and set(unknown) <= set(told.warnings), (told.warnings, sketch.warnings)


@pytest.mark.parametrize(("english", "written"), [
    ("Character: Qiqi; Motion: skateboard; Background: park", "キャラクター：Qiqi；動作：スケボーする；背景：公園"),
    ("Character: Qiqi; Motion: phone", "キャラクター：Qiqi；動作：電話する"),
])
def test_it_is_told_the_motion_an_english_turn_is(english: str, written: str) -> None:
    said = rephrase(parse_instruction(english), CAST)
    assert parse_instruction(said.instruction.raw).motion == parse_instruction(_told(written).instruction.raw).motion


@pytest.mark.parametrize(("text", "read", "warning"), [
    ("美咲が公園で釣りをする", "美咲 idles in the park.",
     "no motion found in '美咲が公園で釣りをする', shown as 'idle'"),
    ("小明在公园钓鱼", "小明 idles in the park.", "no motion found in '小明在公园钓鱼', shown as 'idle'"),
    ("민수가 공원에서 스케이트보드를 탄다", "민수 idles in the park.",
     "no motion found in '민수가 공원에서 스케이트보드를 탄다', shown as 'idle'"),
    ("美咲がシャワーを浴びる", "美咲 idles", "no motion found in '美咲がシャワーを浴びる', shown as 'idle'"),
])
def test_a_text_the_sketch_finds_no_motion_in_is_told_as_the_idle(text: str, read: str, warning: str) -> None:
    told = _told(text)
    assert told.instruction.raw == read
    assert told.warnings == (warning,)


def test_a_motion_field_left_blank_is_the_idle() -> None:
    told = _told("キャラクター：美咲；動作：；背景：公園")
    assert parse_instruction(told.instruction.raw).motion == "idle"
    assert told.warnings == ("no motion given, shown as 'idle'",)


@pytest.mark.parametrize("text", ["美咲が火山で走る", "小明在机场走路", "민수가 화산에서 달린다",
                                  "美咲が夕方に火山で踊る"])
def test_a_stand_in_place_is_the_sketch_readers(text: str) -> None:
    sketch = _sketch(text)
    told = _told(text)
    assert sketch.location and f"in the {sketch.location}" in told.instruction.raw
    assert told.warnings == tuple(w for w in sketch.warnings if f"shown as '{sketch.location}'" in w)


def test_a_stand_in_place_and_an_unknown_motion_are_both_the_sketchs() -> None:
    text = "美咲が火山でスケボーする"
    sketch = _sketch(text)
    told = _told(text)
    assert (sketch.motion.name, sketch.location) == ("idle", "mountain")
    assert told.instruction.raw == "美咲 idles in the mountain."
    assert set(told.warnings) == set(sketch.warnings), (told.warnings, sketch.warnings)


# through the shipped checkpoint -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def engine():  # type: ignore[no-untyped-def]
    return shipped_engine()


@pytest.mark.parametrize("text", ["キャラクター：美咲；動作：スケボーする；背景：公園",
                                  "角色：小明；动作：滑板；背景：公园", "캐릭터: 민수; 동작: 스케이트보드; 배경: 공원"])
def test_the_mini_engine_draws_it_as_the_sketch_does(engine, text: str) -> None:  # type: ignore[no-untyped-def]
    from studio.core.model import CastMember
    from studio.engines.catalog.mini import MiniSettings
    from studio.engines.context import GenerationContext

    context = GenerationContext(cast=tuple(CastMember(f"c{k}", name) for k, name in enumerate(CAST)))
    prediction = engine.predict(context, parse_instruction(text), MiniSettings.from_values({"steps": 1}), 7)
    sketch = _sketch(text)
    assert prediction.conditioning["motion"] == sketch.motion.name == "idle"
    assert next(w for w in sketch.warnings if " unknown, shown as " in w) in prediction.warnings
    assert not any("not a motion the mini model learnt" in w for w in prediction.warnings), prediction.warnings
