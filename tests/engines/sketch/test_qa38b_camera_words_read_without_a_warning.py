"""Every camera word the sketch engine lists reads as its camera move, without a warning, in
every language that has a word for it. Before, a Camera field "still" (one of the static
camera's words, and the English of the Japanese 静止) warned "'still' unknown", as "still" is
a word the reader otherwise leaves out ("still running"); and "dolly in", listed as a zoom, was
read as "dolly", a follow."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import chinese, japanese, korean
from studio.engines.sketch.understanding import read_turn
from studio.engines.sketch.vocabulary import CAMERA_PHRASES, CameraMode

MODE_OF: dict[str, CameraMode] = {phrase: mode for mode, phrases in CAMERA_PHRASES.items() for phrase in phrases}
"""Each listed English camera phrase and the camera move it is listed under."""


def _korean_form(word: korean.KoreanWord) -> str:
    """A Korean word as an author writes it: a verb in its dictionary form (쫓 -> 쫓다)."""
    return word.written + "다" if word.kind == "verb" else word.written


CASES: list[tuple[str, str, str, CameraMode]] = [
    *(("en", "walk", phrase, mode) for phrase, mode in MODE_OF.items()),
    *(("ja", "歩く", word.dictionary_form, MODE_OF[word.english])
      for word in japanese.CAMERA_WORDS if word.english in MODE_OF),
    *(("zh", "走路", word.written, MODE_OF[word.english])
      for word in chinese.CAMERA_WORDS if word.english in MODE_OF),
    *(("ko", "걷다", _korean_form(word), MODE_OF[word.english])
      for word in korean.CAMERA_WORDS if word.english in MODE_OF),
]


def test_every_language_has_its_camera_words_checked() -> None:
    counts = {language: sum(case[0] == language for case in CASES) for language in ("en", "ja", "zh", "ko")}
    assert all(count >= 20 for count in counts.values()), counts
    assert ("ja", "歩く", "静止", CameraMode.STATIC) in CASES


@pytest.mark.parametrize(("language", "motion", "camera", "mode"), CASES,
                         ids=[f"{case[0]}-{case[2]}" for case in CASES])
def test_a_listed_camera_word_reads_as_its_move_without_a_warning(language: str, motion: str, camera: str,
                                                                  mode: CameraMode) -> None:
    reading = read_turn(parse_instruction(f"Motion: {motion}; Camera: {camera}"))
    assert reading.warnings == []
    assert reading.camera == mode


@pytest.mark.parametrize(("camera", "mode"), [
    ("still", CameraMode.STATIC), ("Still", CameraMode.STATIC), ("still camera", CameraMode.STATIC),
    ("dolly in", CameraMode.ZOOM), ("dolly", CameraMode.FOLLOW), ("zoom in on her", CameraMode.ZOOM),
    ("follow her in the park", CameraMode.FOLLOW),
])
def test_camera_fields_with_the_words_of_a_camera_phrase(camera: str, mode: CameraMode) -> None:
    reading = read_turn(parse_instruction(f"Motion: walk; Camera: {camera}"))
    assert (reading.camera, reading.warnings) == (mode, [])


def test_still_in_free_text_is_not_a_camera() -> None:
    reading = read_turn(parse_instruction("Character: Qiqi; Motion: walk; she is still walking"))
    assert reading.camera is None
