"""A turn written in Japanese plays as it says: "動作：走る；背景：夜の港" runs in the harbour at
night. Before, the sketch engine knew English words only and showed it as "'走る' unknown,
shown as 'idle'" in the town. Names of the cast stay names (a character called 海 is not the
sea), unknown Japanese words are named as written, and English turns read as before."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.model import CastMember
from studio.engines.base import Prediction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.japanese import (
    ADVERB_WORDS,
    CAMERA_WORDS,
    MOTION_WORDS,
    PLACE_WORDS,
    TIME_WORDS,
    JapaneseWord,
    in_english,
)
from studio.engines.sketch.understanding import read_instruction, read_turn
from studio.engines.sketch.vocabulary import ADVERB_LEVELS, LOCATIONS, MOTIONS, TIMES_OF_DAY, CameraMode

from ..sketch_helpers import SMALL, predict

CAST = (CastMember(id="misaki", name="美咲"), CastMember(id="umi", name="海"), CastMember(id="sora", name="空"))


def _play(text: str) -> Prediction:
    return predict(SketchEngine(), text, settings=SMALL, cast=CAST)


def _unknown(prediction: Prediction) -> list[str]:
    return [w for w in prediction.warnings if "unknown" in w or "no motion" in w or "not in the cast" in w]


def _as_written(word: JapaneseWord) -> str:
    """A word as a text writes it: a verb's stem with the ending of its dictionary form."""
    if not word.verb:
        return word.written
    if word.follow.startswith("る"):  # ichidan: 食べ + る
        return word.written + "る"
    return word.written + word.follow[2]  # godan: the u-column of its row (走 + る, 歩 + く)


@pytest.mark.parametrize(("motion", "shown"), [
    ("走る", "run"), ("走っている", "run"), ("走ります", "run"), ("走った", "run"), ("歩く", "walk"),
    ("歩いている", "walk"), ("座る", "sit"), ("ベンチに座る", "sit"), ("手を振る", "wave"), ("手を振っている", "wave"),
    ("踊る", "dance"), ("跳ぶ", "jump"), ("ジャンプ", "jump"), ("ジャンプする", "jump"), ("泳ぐ", "swim"),
    ("食べる", "eat"), ("食べています", "eat"), ("読む", "read"), ("本を読む", "read"), ("寝る", "sleep"),
    ("ほうきで空を飛ぶ", "fly on broomstick"), ("手すりに座る", "sit on railing"), ("泣く", "cry"), ("歌う", "sing"),
])
def test_a_japanese_motion_plays_as_that_motion(motion: str, shown: str) -> None:
    prediction = _play(f"キャラクター：美咲；動作：{motion}；背景：町")
    assert prediction.conditioning["motion"] == shown
    assert prediction.conditioning["character"] == "美咲"
    assert _unknown(prediction) == []


def test_a_bench_named_in_japanese_is_sat_on() -> None:
    assert _play("キャラクター：美咲；動作：ベンチに座る；背景：公園").conditioning["seat"] == "bench"


@pytest.mark.parametrize(("place", "shown"), [
    ("港", "sea"), ("公園", "park"), ("町", "town"), ("街", "town"), ("学校", "school"), ("図書館", "library"),
    ("海", "sea"), ("浜辺", "beach"), ("森", "forest"), ("空", "sky"), ("パン屋", "bakery"), ("部屋", "bedroom"),
    ("中央公園", "park"), ("森の奥", "forest"), ("富士山", "mountain"),
])
def test_a_japanese_place_is_drawn(place: str, shown: str) -> None:
    prediction = _play(f"キャラクター：美咲；動作：歩く；背景：{place}")
    assert prediction.conditioning["location"] == shown
    assert _unknown(prediction) == []


@pytest.mark.parametrize(("time", "shown"), [
    ("昼", "day"), ("朝", "day"), ("夕方", "sunset"), ("夕暮れ", "sunset"), ("夜", "night"), ("夜明け", "sunset"),
])
def test_a_japanese_time_of_day_is_drawn_in_its_light(time: str, shown: str) -> None:
    in_the_field = _play(f"キャラクター：美咲；動作：歩く；背景：公園；時間帯：{time}")
    with_the_place = _play(f"キャラクター：美咲；動作：歩く；背景：{time}の公園")
    for prediction in (in_the_field, with_the_place):
        assert prediction.conditioning["time_of_day"] == shown
        assert prediction.conditioning["location"] == "park"
        assert _unknown(prediction) == []


def test_the_turn_of_the_report_runs_in_the_harbour_at_night() -> None:
    prediction = _play("キャラクター：美咲；動作：走る；背景：夜の港")
    assert (prediction.conditioning["motion"], prediction.conditioning["location"],
            prediction.conditioning["time_of_day"]) == ("run", "sea", "night")
    assert prediction.warnings == ()


def test_a_free_text_turn_in_japanese_is_read_whole() -> None:
    prediction = _play("美咲が夜の港でゆっくり歩く")
    c = prediction.conditioning
    assert (c["character"], c["motion"], c["location"], c["time_of_day"], c["adverb"], c["level"]) == \
        ("美咲", "walk", "sea", "night", "slowly", 1)
    assert prediction.warnings == ()


@pytest.mark.parametrize(("text", "adverb", "level"), [
    ("ゆっくり歩く", "slowly", 1), ("元気に踊る", "energetically", 5), ("速く走る", "quickly", 4),
    ("楽しそうに踊る", "happily", 3), ("慎重に歩く", "carefully", 2),
])
def test_how_strongly_is_read_from_a_japanese_adverb(text: str, adverb: str, level: int) -> None:
    c = _play(f"キャラクター：美咲；動作：{text}；背景：公園").conditioning
    assert (c["adverb"], c["level"]) == (adverb, level)


@pytest.mark.parametrize(("camera", "shown"), [
    ("固定", "static"), ("パン", "pan"), ("追いかける", "follow"), ("ズームイン", "zoom"), ("回り込む", "orbit"),
])
def test_a_japanese_camera_field_is_that_camera(camera: str, shown: str) -> None:
    prediction = _play(f"キャラクター：美咲；動作：手を振る；背景：公園；カメラ：{camera}")
    assert prediction.conditioning["camera"] == shown
    assert _unknown(prediction) == []


def test_pan_is_bread_in_a_turn_and_a_camera_move_in_the_camera_field() -> None:
    assert _play("美咲がパンを食べる").conditioning["motion"] == "eat"
    assert _play("キャラクター：美咲；動作：パンを食べる；背景：台所；カメラ：パン").conditioning["camera"] == "pan"


@pytest.mark.parametrize(("place", "not_shown"), [
    ("空港", "sky"),    # an airport is no sky: shown as the station, said to be unknown
    ("海老の店", "sea"),  # a prawn shop is no sea (店 is a shop: the bakery)
    ("夜明けの港", "night"),  # dawn, not night
])
def test_a_word_inside_a_longer_word_is_not_read(place: str, not_shown: str) -> None:
    c = _play(f"キャラクター：美咲；動作：歩く；背景：{place}").conditioning
    assert not_shown not in (c["location"], c["time_of_day"])


def test_an_airport_is_shown_as_the_station_and_said_as_written() -> None:
    prediction = _play("キャラクター：美咲；動作：歩く；背景：空港")
    assert prediction.conditioning["location"] == "station"
    assert "'空港' unknown, shown as 'station'" in prediction.warnings


def test_the_evening_is_not_read_for_a_direction() -> None:
    # 夕方 is the evening: the longest word is read, not a shorter one inside it
    assert _play("美咲が夕方に公園を歩く").conditioning["time_of_day"] == "sunset"


@pytest.mark.parametrize(("text", "character", "location", "companion"), [
    ("海が浜辺で踊る", "海", "beach", ""),       # 海 is the one dancing, on the beach, not the sea
    ("美咲と海が公園で話す", "美咲", "park", "海"),  # 海 is who Misaki talks with
    ("空が森で歌う", "空", "forest", ""),         # 空 sings in the forest, not in the sky
    ("美咲が海で泳ぐ", "美咲", "sea", ""),        # written as a place (海で): the sea
])
def test_a_japanese_name_of_the_cast_is_not_read_as_a_word(text: str, character: str, location: str,
                                                          companion: str) -> None:
    prediction = _play(text)
    c = prediction.conditioning
    assert (c["character"], c["location"], c["companion"]) == (character, location, companion)
    assert _unknown(prediction) == []


def test_a_background_field_naming_only_the_sea_is_the_sea_even_with_a_umi_in_the_cast() -> None:
    c = _play("キャラクター：美咲；動作：泳ぐ；背景：海").conditioning
    assert (c["character"], c["location"]) == ("美咲", "sea")


@pytest.mark.parametrize(("text", "warning"), [
    ("キャラクター：美咲；動作：逆立ち；背景：公園", "'逆立ち' unknown, shown as 'idle'"),
    ("キャラクター：美咲；動作：歩く；背景：夜の謎", "'夜の謎' unknown, shown as 'town'"),
    ("キャラクター：美咲；動作：走らない；背景：公園", "'走らない' is a motion not done, shown as 'idle'"),
])
def test_what_is_not_understood_is_said_as_written(text: str, warning: str) -> None:
    assert warning in _play(text).warnings


@pytest.mark.parametrize("text", [
    "Character: Qiqi; Motion: gently sit on railing; Background: day town.",
    "Qiqi runs through the town at night",
    "Qiqi doesn't run, she sits on a bench in the park",
    "Character: Qiqi; Motion: juggle; Background: Mordor; Camera: orbit",
    "Qiqi says \"let's go home\" and waves at Yuzu",
])
def test_an_english_turn_reads_as_before(text: str) -> None:
    instruction = parse_instruction(text)
    assert in_english(instruction, ["美咲", "海"]) is instruction
    assert read_turn(instruction, [], ["美咲", "海"]) == read_instruction(instruction, [])


def test_every_motion_has_a_japanese_word() -> None:
    shown = {read_turn(parse_instruction(f"キャラクター：美咲；動作：{_as_written(word)}；背景：町")).motion.name
             for word in MOTION_WORDS}
    assert shown == {m.name for m in MOTIONS}


def test_every_place_has_a_japanese_word() -> None:
    shown = {read_turn(parse_instruction(f"キャラクター：美咲；動作：歩く；背景：{word.written}")).location
             for word in PLACE_WORDS}
    assert {loc.name for loc in LOCATIONS} <= shown


def test_every_time_of_day_camera_and_level_has_a_japanese_word() -> None:
    times = {read_turn(parse_instruction(f"動作：歩く；時間帯：{word.written}")).time for word in TIME_WORDS}
    assert times == set(TIMES_OF_DAY)
    cameras = {read_turn(parse_instruction(f"動作：歩く；カメラ：{_as_written(word)}")).camera for word in CAMERA_WORDS}
    assert set(CameraMode) <= cameras
    levels = {read_turn(parse_instruction(f"動作：{word.written}歩く")).adverb for word in ADVERB_WORDS}
    assert "" not in levels and {ADVERB_LEVELS[a] for a in levels} == {1, 2, 3, 4, 5}
