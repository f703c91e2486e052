"""The sketch engine reads instructions: demo lines, synonyms, inflections, adverbs, free text, unknown words."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.text import lemmatise
from studio.engines.sketch.understanding import read_instruction
from studio.engines.sketch.vocabulary import ADVERB_LEVELS, KNOWN_WORDS, LOCATIONS, MOTIONS, CameraMode

from .sketch_helpers import DEMO_FILE, predict


def read(text: str):  # type: ignore[no-untyped-def]
    return read_instruction(parse_instruction(text))


def test_vocabulary_is_large_enough() -> None:
    names = {m.name for m in MOTIONS}
    assert len(MOTIONS) >= 40
    assert len(LOCATIONS) >= 20
    required = {"fly on broomstick", "sit on railing", "turn head", "lie down", "hold broom", "walk", "run", "jump",
                "wave", "dance", "eat", "drink", "read", "sleep", "swim", "talk", "laugh", "cry", "fall", "climb",
                "idle", "sit", "stretch", "spin", "kick", "punch", "bow", "nod", "cook", "write", "sing", "play",
                "throw", "catch", "hug", "meet people", "look around", "shiver"}
    assert required <= names
    places = {loc.name for loc in LOCATIONS}
    assert {"sky", "countryside", "town", "grass", "street", "bedroom", "forest", "beach", "sea", "bakery",
            "station", "park", "river", "mountain", "school", "classroom", "cafe", "kitchen", "library", "rooftop",
            "shrine"} <= places


def test_every_demo_line_is_understood_without_warnings(engine) -> None:  # type: ignore[no-untyped-def]
    if not DEMO_FILE.is_file():
        pytest.skip(f"AnimeGamer demo file not found at {DEMO_FILE}")
    expected = [("fly on broomstick", "sky", "day", 4), ("fly on broomstick", "countryside", "day", 3),
                ("sit on railing", "town", "day", 1), ("turn head", "town", "day", 1), ("lie down", "grass", "day", 1),
                ("fly on broomstick", "sky", "night", 1), ("hold broom", "street", "night", 1),
                ("lie down", "bedroom", "night", 1)]
    lines = [line for line in DEMO_FILE.read_text().splitlines() if line.strip()]
    assert len(lines) == len(expected)
    for line, (motion, place, time, level) in zip(lines, expected, strict=True):
        pred = predict(engine, line)
        assert pred.warnings == (), (line, pred.warnings)
        cond = pred.conditioning
        assert (cond["motion"], cond["location"], cond["time_of_day"], pred.motion_level) == (motion, place, time,
                                                                                              level), line


@pytest.mark.parametrize(("word", "lemma"), [
    ("flies", "fly"), ("flying", "fly"), ("flew", "fly"), ("ran", "run"), ("running", "run"), ("runs", "run"),
    ("danced", "dance"), ("dancing", "dance"), ("cries", "cry"), ("cried", "cry"), ("crying", "cry"),
    ("swam", "swim"), ("swimming", "swim"), ("lying", "lie"), ("sat", "sit"), ("sitting", "sit"),
    ("waves", "wave"), ("waving", "wave"), ("watches", "watch"), ("stopped", "stop"), ("ate", "eat"),
])
def test_lemmatiser(word: str, lemma: str) -> None:
    assert lemmatise(word, KNOWN_WORDS) == lemma


@pytest.mark.parametrize("motion", [
    "fly on broomstick", "flies on her broomstick", "flying on a broom", "flew on the broomstick", "ride a broom",
    "flying",
])
def test_broom_flight_synonyms(motion: str) -> None:
    reading = read(f"Character: Qiqi; Motion: {motion}; Background: day sky.")
    assert reading.motion.name == "fly on broomstick"
    assert reading.warnings == []


@pytest.mark.parametrize(("motion", "expected"), [
    ("ran", "run"), ("running", "run"), ("jogging", "run"), ("sprints", "run"), ("strolls", "walk"),
    ("hold the broom", "hold broom"), ("sits on the railing", "sit on railing"), ("sitting", "sit"),
    ("lay down", "lie down"), ("turns her head", "turn head"), ("takes a nap", "sleep"), ("chatting", "talk"),
    ("greets", "wave"), ("giggles", "laugh"), ("weeps", "cry"), ("twirls", "spin"), ("munches", "eat"),
    ("sips tea", "drink"), ("meets a friend", "meet people"), ("looking around", "look around"), ("bakes", "cook"),
])
def test_synonyms_and_inflections(motion: str, expected: str) -> None:
    reading = read(f"Character: Qiqi; Motion: {motion}; Background: day town.")
    assert reading.motion.name == expected
    assert reading.warnings == []


@pytest.mark.parametrize(("adverb", "level"), [("gently", 1), ("slowly", 1), ("calmly", 2), ("smoothly", 3),
                                               ("quickly", 4), ("wildly", 5), ("energetically", 5)])
def test_adverbs_set_motion_level(adverb: str, level: int) -> None:
    reading = read(f"Character: Qiqi; Motion: {adverb} walk; Background: day town.")
    assert reading.motion.name == "walk"
    assert reading.level == level


def test_adverb_table_covers_the_scale() -> None:
    assert set(ADVERB_LEVELS.values()) == {1, 2, 3, 4, 5}
    assert ADVERB_LEVELS["gently"] <= 2 and ADVERB_LEVELS["slowly"] <= 2


def test_no_adverb_uses_the_natural_level() -> None:
    assert read("Character: Qiqi; Motion: run; Background: day town.").level == 4
    assert read("Character: Qiqi; Motion: sleep; Background: night bedroom.").level == 1
    assert read("Character: Qiqi; Motion: very quickly run").level == 5


@pytest.mark.parametrize(("background", "time", "place"), [
    ("day town", "day", "town"), ("sunset beach", "sunset", "beach"), ("night sky", "night", "sky"),
    ("dusk park", "sunset", "park"), ("morning forest", "day", "forest"), ("midnight kitchen", "night", "kitchen"),
])
def test_time_of_day_and_location(background: str, time: str, place: str) -> None:
    reading = read(f"Character: Qiqi; Motion: walk; Background: {background}.")
    assert (reading.time, reading.location) == (time, place)


def test_free_text_instruction(engine) -> None:  # type: ignore[no-untyped-def]
    pred = predict(engine, "Qiqi runs through the town at night")
    cond = pred.conditioning
    assert (cond["motion"], cond["location"], cond["time_of_day"], cond["character"]) == ("run", "town", "night",
                                                                                           "Qiqi")
    assert pred.warnings == ()


@pytest.mark.parametrize(("text", "motion", "place"), [
    ("Sosuke swam in the sea", "swim", "sea"), ("Qiqi reads a book in the library", "read", "library"),
    ("Qiqi is crying in her bedroom", "cry", "bedroom"), ("Qiqi climbs a tree", "climb", "forest"),
    ("Qiqi danced wildly at the beach", "dance", "beach"),
])
def test_more_free_text(text: str, motion: str, place: str) -> None:
    reading = read(text)
    assert (reading.motion.name, reading.location) == (motion, place)
    assert reading.warnings == []


def test_unknown_motion_maps_to_nearest_with_warning(engine) -> None:  # type: ignore[no-untyped-def]
    pred = predict(engine, "Character: Qiqi; Motion: juggle; Background: day town.")
    assert pred.conditioning["motion"] == "wave"
    assert "'juggle' unknown, shown as 'wave'" in pred.warnings


def test_misspelled_motion_maps_by_similarity() -> None:
    reading = read("Character: Qiqi; Motion: dnace; Background: day town.")
    assert reading.motion.name == "dance"
    assert reading.warnings == ["'dnace' unknown, shown as 'dance'"]


def test_unknown_location_maps_to_nearest_with_warning(engine) -> None:  # type: ignore[no-untyped-def]
    pred = predict(engine, "Character: Qiqi; Motion: walk; Background: day volcano.")
    assert pred.conditioning["scene"] == "mountain"
    assert "'volcano' unknown, shown as 'mountain'" in pred.warnings


def test_unknown_word_never_crashes() -> None:
    for text in ("Motion: xqzt", "Motion: 12345", "Background: !!!", "Motion: ???; Background: ???",
                 "Camera: wobble", "Time: teatime"):
        reading = read(text)
        assert reading.motion is not None


@pytest.mark.parametrize(("camera", "mode"), [("static", CameraMode.STATIC), ("pan left", CameraMode.PAN),
                                             ("follow", CameraMode.FOLLOW), ("zoom in", CameraMode.ZOOM),
                                             ("orbit", CameraMode.ORBIT), ("tracking shot", CameraMode.FOLLOW)])
def test_camera_field(camera: str, mode: CameraMode) -> None:
    assert read(f"Character: Qiqi; Motion: wave; Background: day town; Camera: {camera}").camera == mode


def test_camera_in_free_text_and_defaults(engine) -> None:  # type: ignore[no-untyped-def]
    assert read("the camera orbits around Qiqi as she waves").camera == CameraMode.ORBIT
    assert predict(engine, "Character: Qiqi; Motion: run; Background: day town.").conditioning["camera"] == "follow"
    assert predict(engine, "Character: Qiqi; Motion: wave; Background: day town.").conditioning["camera"] == "static"
    pred = predict(engine, "Character: Qiqi; Motion: run; Background: day town.",
                   settings={"height": 64, "width": 96, "frames": 4, "fps": 8, "camera": "orbit"})
    assert pred.conditioning["camera"] == "orbit"
