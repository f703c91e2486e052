"""What is done meanwhile in Japanese, Chinese and Korean (泣きながら帰った, 哭着跑回家, 울면서 집에
갔다) is how the sentence's motion is done, as "walks home crying" is in English: the going home
is drawn and the crying left out, said. It was the other way round. A verb with 着 and no verb
after it ("她一直哭着。") is the motion itself."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import chinese, japanese, korean
from studio.engines.sketch.understanding import read_turn

NAMES = ["Qiqi", "Yuzu"]


@pytest.mark.parametrize(("text", "motion", "left_out"), [
    ("Qiqiは泣きながら家に帰った", "walk", "cry"), ("Qiqiは歌いながら歩く", "walk", "sing"),
    ("琪琪哭着跑回家", "run", "cry"), ("Qiqi는 울면서 집에 갔다", "walk", "cry"),
    ("Qiqi는 노래하면서 걷는다", "walk", "sing"), ("Qiqi walks home crying", "walk", "cry"),
])
def test_the_sentences_motion_is_drawn(text: str, motion: str, left_out: str) -> None:
    reading = read_turn(parse_instruction(text), [], NAMES)
    assert reading.motion.name == motion
    assert any(w.startswith(f"several motions named, shown as '{motion}'") and f"'{left_out}'" in w
               for w in reading.warnings), reading.warnings


@pytest.mark.parametrize("text", ["她一直哭着。", "Qiqiは泣きながら", "Qiqi는 운다"])
def test_a_motion_alone_is_drawn(text: str) -> None:
    assert read_turn(parse_instruction(text), [], NAMES).motion.name == "cry"


@pytest.mark.parametrize(("read", "text", "english"), [
    (japanese.in_english_words, "泣きながら走った。笑った。", "while cry"),
    (chinese.in_english_words, "哭着跑。笑了。", "while cry"),
    (korean.in_english_words, "울면서 달린다", "while cry"),
])
def test_what_is_done_meanwhile_is_read_after_the_motion(read: Callable[[str], str], text: str, english: str) -> None:
    words = read(text)
    assert english in words and words.index(english) > words.index("run")
