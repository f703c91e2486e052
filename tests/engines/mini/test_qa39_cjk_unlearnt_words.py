"""A Japanese, Chinese or Korean turn is given to the mini model in the English words the sketch
reads it in; where those still hold words the LM never learnt (a stand-in such as 火山, "volcano")
or the sketch reads the turn as written otherwise (speech in 「」, “” or quotes: a talk), they are
rephrased as an English turn's are, with the sketch's warning quoting the word as written. Before,
"美咲が火山で走る" ("volcano run.") was drawn in the kitchen with no warning, "キャラクター：美咲；
背景：火山" in the kitchen ("'火山' is not a place the mini model learnt"), and "美咲が「走ろう！」と
言う" as a run. A turn in words the model learnt is read exactly as before (its predictions were
recorded from the code before the change)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from studio.core.instruction import parse_instruction
from studio.engines.mini.completion import english_turn
from studio.engines.mini.rephrase import Rephrased, rephrase_translated, unlearnt
from tests.engines.mini.qa40b_shipped import shipped_engine

CAST = ("美咲", "小明", "민수")


@pytest.mark.parametrize(("text", "read", "warnings"), [
    ("美咲が火山で走る", "美咲 runs in the mountain.", ("'火山' unknown, shown as 'mountain'",)),
    ("小明在火山跑步", "小明 runs in the mountain.", ("'火山' unknown, shown as 'mountain'",)),
    ("민수가 화산에서 달린다", "민수 runs in the mountain.", ("'화산' unknown, shown as 'mountain'",)),
    ("美咲が空港で歩く", "美咲 walks in the station.", ("'空港' unknown, shown as 'station'",)),
    ("小明在机场走路", "小明 walks in the station.", ("'机场' unknown, shown as 'station'",)),
    ("민수가 공항에서 걷는다", "민수 walks in the station.", ("'공항' unknown, shown as 'station'",)),
    ("小明在沙发上跑", "小明 runs.", ()),  # a sofa is a seat to the sketch, no place: it draws no bedroom
    ("美咲が夕方に火山で踊る", "美咲 dances in the mountain at sunset.", ("'火山' unknown, shown as 'mountain'",)),
    ("美咲が「走ろう！」と言う", "美咲 talks.", ()),
    ("小明说：“我们跑吧！”", "小明 talks.", ()),
    ('민수가 "달리자!"라고 말한다', "민수 talks.", ()),
    ("キャラクター：美咲；動作：ダッシュ；背景：ソファ", "Character: 美咲; Motion: dash; Background: bedroom.",
     ("'ソファ' unknown, shown as 'bedroom'",)),
    ("キャラクター：美咲；動作：走る；背景：火山", "Character: 美咲; Motion: run; Background: mountain.",
     ("'火山' unknown, shown as 'mountain'",)),
    ("角色：小明；动作：跑；背景：火山", "Character: 小明; Motion: run; Background: mountain.",
     ("'火山' unknown, shown as 'mountain'",)),
])
def test_the_english_of_a_turn_is_given_in_learnt_words(text: str, read: str, warnings: tuple[str, ...]) -> None:
    written = parse_instruction(text)
    english = english_turn(written, CAST)
    rephrased = rephrase_translated(written, english, CAST)
    assert rephrased.instruction.raw == read
    assert rephrased.warnings == warnings
    assert rephrased.replaced
    assert not unlearnt(read, CAST)


@pytest.mark.parametrize("text", [
    "美咲がダッシュする", "小明冲刺", "민수가 질주한다", "美咲は「こんにちは」と言った",  # in learnt words already
])
def test_a_turn_whose_english_the_model_reads_as_the_sketch_is_left(text: str) -> None:
    written = parse_instruction(text)
    english = english_turn(written, CAST)
    assert rephrase_translated(written, english, CAST) == Rephrased(english)


# through the shipped checkpoint -------------------------------------------------------------------------------------

ORDINARY = [  # recorded from the code before the change: (turn, motion, place, time, deltas, level, warnings)
    ("キャラクター：美咲；動作：走る；背景：夜の港", "run", "sea", "night", (-4, 0, 1), 4,
     ("'美咲' is not a character the mini model knows; it draws one of its cast instead: 'Sosuke'",)),
    ("美咲が夜の港で歩く", "walk", "sea", "night", (-3, 0, 1), 2, ()),
    ("美咲が公園でゆっくりジャンプする、カメラ：パン", "jump", "park", "day", (-1, 0, 3), 1,
     ("the mini model does not move the camera; 'pan' is not drawn",)),
    ("角色：小明；动作：跑步；背景：公园；时间：晚上", "run", "park", "night", (-4, 0, 1), 4,
     ("'小明' is not a character the mini model knows; it draws one of its cast instead: 'Sosuke'",)),
    ("角色：小明；动作：坐在长椅上", "sit", "river", "day", (2, 0, 0), 1,
     ("'小明' is not a character the mini model knows; it draws one of its cast instead: 'Sosuke'",)),
    ("小明在公园跑步", "run", "park", "day", (-3, 0, 1), 4, ()),
    ("캐릭터: 민수; 동작: 달린다; 배경: 밤의 공원", "run", "park", "night", (-4, 0, 1), 4,
     ("'민수' is not a character the mini model knows; it draws one of its cast instead: 'Sosuke'",)),
    ("민수가 밤에 공원에서 천천히 달린다", "run", "park", "night", (-2, 0, 1), 1, ()),
    ("캐릭터: 민수; 동작: 뛰어오르다; 카메라: 줌인", "jump", "sky", "day", (-4, 0, 2), 4,
     ("'민수' is not a character the mini model knows; it draws one of its cast instead: 'Sosuke'",
      "the mini model does not move the camera; 'zoom' is not drawn")),
    ("美咲が走らない", "idle", "garden", "day", (2, 0, -1), 1, ("'not run' is a motion not done, shown as 'idle'",)),
]


@pytest.fixture(scope="module")
def engine():  # type: ignore[no-untyped-def]
    return shipped_engine()


def _predict(engine, text: str, cast: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    from studio.core.model import CastMember
    from studio.engines.catalog.mini import MiniSettings
    from studio.engines.context import GenerationContext

    context = GenerationContext(cast=tuple(CastMember(f"c{k}", name) for k, name in enumerate(cast)))
    return engine.predict(context, parse_instruction(text), MiniSettings.from_values({"steps": 1}), 7)


@pytest.mark.parametrize(("text", "motion", "place", "time", "deltas", "level", "warnings"), ORDINARY)
def test_a_turn_in_learnt_words_predicts_as_it_did(engine, text: str, motion: str, place: str, time: str,  # type: ignore[no-untyped-def]
                                                   deltas: tuple[int, int, int], level: int,
                                                   warnings: tuple[str, ...]) -> None:
    prediction = _predict(engine, text)
    reading = prediction.conditioning
    assert (reading["motion"], reading["location"], reading["time_of_day"]) == (motion, place, time)
    assert (prediction.deltas.stamina, prediction.deltas.social, prediction.deltas.entertainment) == deltas
    assert prediction.motion_level == level
    assert prediction.warnings == warnings


def test_ordinary_turns_predict_as_without_the_rephrasing(engine, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from studio.engines.mini import engine as module

    turns = [text for text, *_ in ORDINARY]
    now = [_predict(engine, text, cast) for cast in ((), CAST) for text in turns]
    monkeypatch.setattr(module, "rephrase_translated", lambda _written, english, _names=(): Rephrased(english))
    before = [_predict(engine, text, cast) for cast in ((), CAST) for text in turns]
    for a, b in zip(now, before, strict=True):
        assert (a.deltas, a.motion_level, a.conditioning, a.warnings) == (b.deltas, b.motion_level, b.conditioning,
                                                                          b.warnings)
        np.testing.assert_array_equal(a.representation, b.representation)


@pytest.mark.parametrize(("text", "motion", "place", "warning", "read"), [
    ("美咲が火山で走る", "run", "mountain", "'火山' unknown, shown as 'mountain'", "run in the mountain."),
    ("小明在火山跑步", "run", "mountain", "'火山' unknown, shown as 'mountain'", "run in the mountain."),
    ("민수가 화산에서 달린다", "run", "mountain", "'화산' unknown, shown as 'mountain'", "run in the mountain."),
    ("美咲が空港で歩く", "walk", "station", "'空港' unknown, shown as 'station'", "walk in the station."),
    ("キャラクター：美咲；動作：ダッシュ；背景：ソファ", "run", "bedroom", "'ソファ' unknown, shown as 'bedroom'",
     "Character: 美咲; Motion: dash; Background: bedroom."),
    ("角色：小明；动作：跑；背景：火山", "run", "mountain", "'火山' unknown, shown as 'mountain'",
     "Character: 小明; Motion: run; Background: mountain."),
    ("美咲が「走ろう！」と言う", "talk", None, None, "talk."),
    ("小明说：“我们跑吧！”", "talk", None, None, "talk."),
    ('민수가 "달리자!"라고 말한다', "talk", None, None, "talk."),
])
def test_the_model_draws_what_the_sketch_reads(engine, text: str, motion: str, place: str | None,  # type: ignore[no-untyped-def]
                                               warning: str | None, read: str) -> None:
    prediction = _predict(engine, text)
    assert prediction.conditioning["motion"] == motion
    if place is not None:
        assert prediction.conditioning["location"] == place
    if warning is not None:
        assert warning in prediction.warnings
    english_quoted = [w for w in prediction.warnings if any(word in w for word in ("volcano", "airport", "sofa"))]
    assert english_quoted == []
    assert not any("is not a place the mini model learnt" in w for w in prediction.warnings), prediction.warnings
    same = _predict(engine, read)  # exactly as the turn written in the words it learnt
    np.testing.assert_array_equal(prediction.representation, same.representation)
    assert (prediction.deltas, prediction.motion_level) == (same.deltas, same.motion_level)


def test_play_warns_about_the_stand_in_as_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    from studio.cli import main

    project = tmp_path / "p.kamishibai"
    assert main(["new", str(project)]) == 0
    capsys.readouterr()
    code = main(["play", str(project), "--engine", "mini", "--json", "--seed", "7", "-i", "美咲が火山で走る",
                 "--setting", "steps=1", "--setting", "height=64", "--setting", "width=96"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert "'火山' unknown, shown as 'mountain'" in result["warnings"], result["warnings"]
    assert result["understood"]["place"] == "mountain"
    assert result["understood"]["motion"] == "run"
