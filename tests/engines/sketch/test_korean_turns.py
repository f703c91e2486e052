"""A turn written in Korean plays as it says: "캐릭터: 민수; 동작: 달리기; 배경: 공원; 시간: 밤" and
"민수가 밤에 공원에서 달린다" run in the park at night. Before, neither was understood: the
fields were free text and the sketch engine said "no motion found", standing idle in the town.
Every Korean word of the engine's tables plays as the motion, place, time, camera move or level
it is listed under, in the forms a verb is written in; a motion said not to be done is not done
and said so as written; names of the cast stay names, without their particles; Japanese and
Chinese turns read as before."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.model import CastMember
from studio.engines.base import Prediction
from studio.engines.sketch import SketchEngine, chinese, korean
from studio.engines.sketch.japanese import in_english as japanese_in_english
from studio.engines.sketch.korean import (
    ADVERB_GROUPS,
    CAMERA_GROUPS,
    MOTION_GROUPS,
    PART_GROUPS,
    PLACE_GROUPS,
    THING_GROUPS,
    TIME_GROUPS,
    UNDRAWN_PLACES,
    infinitive,
)
from studio.engines.sketch.understanding import read_instruction, read_turn, turn_in_english
from studio.engines.sketch.vocabulary import ADVERB_LEVELS, LOCATIONS, MOTIONS, TIMES_OF_DAY, CameraMode

from ..sketch_helpers import SMALL, predict

CAST = (CastMember(id="minsu", name="민수"), CastMember(id="jiwoo", name="지우"),
        CastMember(id="bada", name="바다"))
NAMES = [member.name for member in CAST]


def _play(text: str) -> Prediction:
    return predict(SketchEngine(), text, settings=SMALL, cast=CAST)


def _listed(groups: dict) -> list[tuple[object, str]]:
    """Each word of ``groups`` as written in a turn (a verb in its dictionary form), with its group."""
    return [(group, written.split("/")[0]) for group, pairs in groups.items() for written, _ in korean._pairs(pairs)]


def _ids(cases: list[tuple[object, str]]) -> list[str]:
    return [f"{group}-{word}" for group, word in cases]


def _forms(word: str) -> list[str]:
    """A verb as a turn writes it: 달리다, 달리고 있다, 달려요, 달렸다; a noun as it is."""
    if not word.endswith("다") or word in korean.NOUNS_IN_DA:
        return [word]
    stem = word[:-1]
    a_form = korean._IRREGULAR.get(stem) or infinitive(stem)
    past = a_form[:-1] + chr(ord(a_form[-1]) + 20)  # the final ㅆ: 달려 -> 달렸
    return [word, f"{stem}고 있다", f"{a_form}요", f"{past}다"]


MOTIONS_LISTED = _listed(MOTION_GROUPS)
PLACES_LISTED = _listed(PLACE_GROUPS)
TIMES_LISTED = _listed(TIME_GROUPS)
CAMERAS_LISTED = _listed(CAMERA_GROUPS)
LEVELS_LISTED = _listed(ADVERB_GROUPS)


@pytest.mark.parametrize(("motion", "word"), MOTIONS_LISTED, ids=_ids(MOTIONS_LISTED))
def test_each_korean_motion_word_plays_as_its_motion_in_each_form(motion: str, word: str) -> None:
    for form in _forms(word):
        reading = read_turn(parse_instruction(f"캐릭터: 민수; 동작: {form}; 배경: 공원"), [], NAMES)
        assert (reading.motion.name, reading.location, reading.warnings) == (motion, "park", []), form


THING_PHRASES = {
    "sit": "{}에 앉는다", "sit on railing": "{}에 앉아 있다", "talk": "{}로 이야기한다",
    "meet people": "{}를 만난다",
    "cry": "{}을 흘리며 운다", "play": "{}으로 논다", "eat": "{}을 먹는다", "drink": "{}를 마신다",
    "read": "{}을 읽는다", "write": "{}를 쓴다", "climb": "{}를 오른다", "stretch": "{}를 한다",
    "punch": "{}을 훈련한다",
    "shiver": "{} 때문에 떤다", "think": "{}을 꾼다", "carry": "{}를 나른다",
}
PART_PHRASES = {"fly on broomstick": "빗자루를 {}", "hold broom": "빗자루를 {}", "turn head": "고개를 돌린다 {}"}


@pytest.mark.parametrize(("motion", "word"), _listed(THING_GROUPS), ids=_ids(_listed(THING_GROUPS)))
def test_each_thing_named_in_korean_is_read_with_its_motion(motion: str, word: str) -> None:
    phrase = THING_PHRASES[motion].format(word)
    reading = read_turn(parse_instruction(f"캐릭터: 민수; 동작: {phrase}; 배경: 공원"), [], NAMES)
    assert (reading.motion.name, reading.warnings) == (motion, [])


@pytest.mark.parametrize(("motion", "word"), _listed(PART_GROUPS), ids=_ids(_listed(PART_GROUPS)))
def test_a_word_that_says_a_motion_with_another_plays_it(motion: str, word: str) -> None:
    phrase = PART_PHRASES[motion].format(word)
    reading = read_turn(parse_instruction(f"캐릭터: 민수; 동작: {phrase}; 배경: 공원"), [], NAMES)
    assert (reading.motion.name, reading.warnings) == (motion, [])


@pytest.mark.parametrize(("place", "word"), PLACES_LISTED, ids=_ids(PLACES_LISTED))
def test_each_korean_place_word_is_drawn_as_its_place(place: str, word: str) -> None:
    for written in (word, f"{word}에서"):
        reading = read_turn(parse_instruction(f"캐릭터: 민수; 동작: 걷다; 배경: {written}"), [], NAMES)
        assert (reading.location, reading.motion.name, reading.warnings) == (place, "walk", []), written
    free = read_turn(parse_instruction(f"민수가 {word}에서 걷는다"), [], NAMES)
    assert (free.location, free.motion.name) == (place, "walk")


@pytest.mark.parametrize("word", [w for _, w in korean._pairs(UNDRAWN_PLACES)])
def test_a_place_not_drawn_is_said_as_written(word: str) -> None:
    reading = read_turn(parse_instruction(f"캐릭터: 민수; 동작: 걷다; 배경: {word}"), [], NAMES)
    assert any(w.startswith(f"'{word}' unknown, shown as") for w in reading.warnings), reading.warnings


@pytest.mark.parametrize(("time", "word"), TIMES_LISTED, ids=_ids(TIMES_LISTED))
def test_each_korean_time_word_is_drawn_in_its_light(time: str, word: str) -> None:
    for text in (f"캐릭터: 민수; 동작: 걷다; 배경: 공원; 시간: {word}",
                 f"캐릭터: 민수; 동작: 걷다; 배경: {word}의 공원", f"민수가 {word}에 공원에서 걷는다"):
        reading = read_turn(parse_instruction(text), [], NAMES)
        assert (reading.time, reading.location, reading.warnings) == (time, "park", []), text


@pytest.mark.parametrize(("camera", "word"), CAMERAS_LISTED, ids=_ids(CAMERAS_LISTED))
def test_each_korean_camera_word_is_that_camera(camera: str, word: str) -> None:
    reading = read_turn(parse_instruction(f"캐릭터: 민수; 동작: 손을 흔든다; 배경: 공원; 카메라: {word}"), [], NAMES)
    assert (reading.camera.value if reading.camera else None, reading.warnings) == (camera, [])


@pytest.mark.parametrize(("level", "word"), LEVELS_LISTED, ids=_ids(LEVELS_LISTED))
def test_each_korean_adverb_sets_its_level(level: int, word: str) -> None:
    reading = read_turn(parse_instruction(f"캐릭터: 민수; 동작: {word} 걷는다; 배경: 공원"), [], NAMES)
    assert reading.adverb and ADVERB_LEVELS[reading.adverb] == level
    assert (reading.motion.name, reading.warnings) == ("walk", [])


def test_every_motion_place_time_camera_and_level_has_a_korean_word() -> None:
    assert set(MOTION_GROUPS) | set(THING_GROUPS) | set(PART_GROUPS) == {m.name for m in MOTIONS}
    assert set(PLACE_GROUPS) == {loc.name for loc in LOCATIONS}
    assert set(TIME_GROUPS) == set(TIMES_OF_DAY)
    assert set(CAMERA_GROUPS) == {mode.value for mode in CameraMode}
    assert set(ADVERB_GROUPS) == set(ADVERB_LEVELS.values())


@pytest.mark.parametrize("text", [
    "캐릭터: 민수; 동작: 달리기; 배경: 공원; 시간: 밤",
    "인물: 민수; 행동: 달린다; 장소: 공원에서; 시간대: 밤",
    "민수가 밤에 공원에서 달린다",
    "민수는 밤에 공원에서 달려요.",
    "Character: 민수; Motion: 달리다; Background: 공원; Time: 밤",
])
def test_the_turn_of_the_report_runs_in_the_park_at_night(text: str) -> None:
    prediction = _play(text)
    c = prediction.conditioning
    assert (c["character"], c["motion"], c["location"], c["time_of_day"]) == ("민수", "run", "park", "night")
    assert prediction.warnings == ()


@pytest.mark.parametrize("motion", ["달린다", "달려요", "달리고 있다", "달리는", "달리기", "달렸다", "달립니다",
                                    "달리고 있어요", "뛰어간다", "달리기를 한다"])
def test_each_verb_ending_plays_the_motion(motion: str) -> None:
    prediction = _play(f"캐릭터: 민수; 동작: {motion}; 배경: 공원")
    assert (prediction.conditioning["motion"], prediction.warnings) == ("run", ())


@pytest.mark.parametrize(("stem", "a_form"), [("달리", "달려"), ("보", "봐"), ("먹", "먹어"), ("앉", "앉아"),
                                              ("하", "해"), ("산책하", "산책해"), ("쓰", "써"), ("아프", "아파"),
                                              ("부르", "불러"), ("오르", "올라"), ("마시", "마셔"), ("춤추", "춤춰"),
                                              ("되", "돼"), ("뛰", "뛰어"), ("가", "가")])
def test_the_a_form_of_a_verb_is_made_by_syllable_arithmetic(stem: str, a_form: str) -> None:
    assert infinitive(stem) == a_form


@pytest.mark.parametrize("motion", ["안 달린다", "달리지 않는다", "못 달린다", "달리지 마", "달리지않아요",
                                    "산책을 안 한다", "산책하지 않는다", "춤을 추지 않는다", "달리고 있지 않다"])
def test_a_motion_said_not_to_be_done_is_not_done_and_said_as_written(motion: str) -> None:
    prediction = _play(f"캐릭터: 민수; 동작: {motion}; 배경: 공원")
    assert prediction.conditioning["motion"] == "idle"
    assert f"'{motion}' is a motion not done, shown as 'idle'" in prediction.warnings


def test_a_motion_not_done_in_free_text_is_said_as_written() -> None:
    prediction = _play("지우는 공원에서 달리지 않는다")
    assert (prediction.conditioning["character"], prediction.conditioning["motion"]) == ("지우", "idle")
    assert "'달리지 않는다' is a motion not done, shown as 'idle'" in prediction.warnings


def test_what_is_not_understood_is_said_as_written() -> None:
    warnings = _play("캐릭터: 민수; 동작: 물구나무서기; 배경: 한강").warnings
    assert "'물구나무서기' unknown, shown as 'idle'" in warnings
    assert "'한강' unknown, shown as 'town'" in warnings


@pytest.mark.parametrize(("text", "character", "location"), [
    ("바다가 해변에서 춤춘다", "바다", "beach"),      # 바다 is the one dancing, not the sea
    ("바다는 공원에서 노래한다", "바다", "park"),
    ("캐릭터: 바다; 동작: 춤춘다; 배경: 공원", "바다", "park"),
    ("민수가 공원에서 달린다", "민수", "park"),       # the particle 가 is no part of the name
])
def test_a_korean_name_of_the_cast_is_kept_without_its_particle(text: str, character: str, location: str) -> None:
    prediction = _play(text)
    assert (prediction.conditioning["character"], prediction.conditioning["location"]) == (character, location)
    assert [w for w in prediction.warnings if "unknown" in w or "not in the cast" in w] == []


@pytest.mark.parametrize(("text", "location"), [
    ("민수가 바다에서 수영한다", "sea"),                      # written as a place: the sea, with a 바다 in the cast
    ("캐릭터: 민수; 동작: 수영한다; 배경: 바다", "sea"),    # the Background field says where
])
def test_a_name_written_as_a_place_is_that_place(text: str, location: str) -> None:
    reading = read_turn(parse_instruction(text), [], NAMES)
    assert (reading.location, reading.motion.name) == (location, "swim")


def test_a_friend_named_in_a_korean_turn_is_drawn_beside_the_character() -> None:
    conditioning = _play("민수가 공원에서 지우와 이야기한다").conditioning
    assert (conditioning["character"], conditioning["motion"], conditioning["companion"]) == ("민수", "talk", "지우")


def test_a_bench_in_korean_is_sat_on() -> None:
    conditioning = _play("캐릭터: 민수; 동작: 벤치에 앉는다; 배경: 공원").conditioning
    assert (conditioning["motion"], conditioning["seat"]) == ("sit", "bench")


@pytest.mark.parametrize(("text", "motion", "location"), [
    ("민수는 가게에 간다", "walk", "bakery"),      # 가게 (a shop), not 가다 (go) + 게
    ("나는 공원에서 논다", "play", "park"),         # 나는 (I), not 날다 (fly)
    ("민수가 공원에서 공을 던진다", "throw", "park"),  # 공원 is the park, 공 the ball
    ("민수가 숙제를 쓴다", "write", ""),            # 쓴다 writes (쓰다) before it sweeps (쓸다)
    ("민수가 서둘러 간다", "walk", ""),             # 서둘러 is "hurriedly", the motion 간다
])
def test_the_longest_word_that_fits_is_read(text: str, motion: str, location: str) -> None:
    reading = read_turn(parse_instruction(text), [], NAMES)
    assert (reading.motion.name, reading.location) == (motion, location)


@pytest.mark.parametrize("text", [
    "キャラクター：美咲；動作：走る；背景：夜の港",
    "美咲が夜の港でゆっくり歩く",
    "キャラクター：민수；動作：走る；背景：公園",     # a Korean name in a Japanese turn: Japanese
    "動作：散歩；背景：公園",
])
def test_a_japanese_turn_reads_exactly_as_before(text: str) -> None:
    instruction = parse_instruction(text)
    assert turn_in_english(instruction, ["美咲", "민수"]) == japanese_in_english(instruction, ["美咲", "민수"])


@pytest.mark.parametrize("text", [
    "角色：小明；动作：跑步；背景：公园；时间：晚上",
    "小明晚上在公園跑步",
    "角色：민수；动作：跑步；背景：公园",            # a Korean name in a Chinese turn: Chinese
    "민수在公园跑步",
])
def test_a_chinese_turn_reads_exactly_as_before(text: str) -> None:
    instruction = parse_instruction(text)
    assert turn_in_english(instruction, ["小明", "민수"]) == chinese.in_english(instruction, ["小明", "민수"])


@pytest.mark.parametrize("text", [
    "Character: Qiqi; Motion: gently sit on railing; Background: day town.",
    "Qiqi runs through the town at night",
])
def test_an_english_turn_reads_as_before(text: str) -> None:
    instruction = parse_instruction(text)
    assert turn_in_english(instruction, NAMES) is instruction
    assert read_turn(instruction, [], NAMES) == read_instruction(instruction, [])


@pytest.mark.parametrize(("text", "said"), [
    ("민수가 한강에서 달린다", ["'한강' is no place of this world, shown as 'town'"]),  # where, before 에서
    ("민수가 여기에서 달린다", []),                                                 # here names no place
    ("민수가 지우에서 달린다", []),                                                 # a name of the cast is someone
    ("민수가 공원에서 달린다", []),
])
def test_a_place_of_free_text_that_is_none_of_ours_is_said(text: str, said: list[str]) -> None:
    assert [w for w in _play(text).warnings if "no place" in w] == said


def test_a_project_place_named_in_korean_is_no_unknown_place() -> None:
    reading = read_turn(parse_instruction("민수가 한강공원에서 달린다"), ["한강공원"], NAMES)
    assert (reading.location, reading.unknown_places) == ("한강공원", ())
