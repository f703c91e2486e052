"""A turn written in Japanese fields reads as a Japanese sentence wherever its sentence is shown
(captions, subtitles, sheets, markers): time、character は place で motion。, no spaces, no
English glue ("美咲 手を振る in the 公園, at 夜." before). The language is the values', not the
keys': a Japanese key with an English value stays English, and Chinese and Korean turns keep
the sentence they had."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.core.instruction import parse_instruction
from studio.core.sentence import describe_action, written_in_japanese


def sentence(text: str, character: str = "") -> str:
    return describe_action(parse_instruction(text), character)


@pytest.mark.parametrize(("text", "expected"), [
    ("キャラクター：美咲；動作：手を振る；背景：公園；時間帯：夜", "夜、美咲は公園で手を振る。"),
    ("キャラクター: 美咲; 動作: 手を振る; 背景: 公園; 時間帯: 夜", "夜、美咲は公園で手を振る。"),
    ("キャラクター：美咲　動作：走る　背景：駅前", "美咲は駅前で走る。"),
    # fields left out take their particle with them
    ("キャラクター：美咲；動作：手を振る；時間帯：夜", "夜、美咲は手を振る。"),
    ("動作：手を振る；背景：公園；時間帯：夜", "夜、公園で手を振る。"),
    ("キャラクター：美咲；動作：手を振る", "美咲は手を振る。"),
    ("動作：手を振る", "手を振る。"),
    # no motion: the character is there, or the place is named
    ("キャラクター：美咲；背景：公園", "美咲は公園にいる。"),
    ("背景：公園；時間帯：夜", "夜、ここは公園。"),
    # a time picked from the window's English list is said in Japanese
    ("キャラクター：美咲；動作：手を振る；背景：公園；時間帯：night", "夜、美咲は公園で手を振る。"),
    ("キャラクター：美咲；動作：手を振る；背景：公園；時間帯：dawn", "明け方、美咲は公園で手を振る。"),
    # the author's own particle is not doubled; a name in Latin letters is kept
    ("キャラクター：美咲；動作：走る；背景：公園で", "美咲は公園で走る。"),
    ("Character: Qiqi; Motion: 手を振る; Background: 公園", "Qiqiは公園で手を振る。"),
    # no spaces beside Japanese words, and an ending of the author's own is kept
    ("キャラクター：美咲；動作：東京 タワー を 見上げる；背景：丘 の 上", "美咲は丘の上で東京タワーを見上げる。"),
    ("キャラクター：美咲；動作：跳ぶ！；背景：公園", "美咲は公園で跳ぶ！"),
    # camera is left out, as in English; free text follows as a sentence of its own
    ("キャラクター：美咲；動作：手を振る；背景：公園；カメラ：ズーム", "美咲は公園で手を振る。"),
    ("キャラクター：美咲；動作：走る；背景：公園；嬉しそうに", "美咲は公園で走る。嬉しそうに。"),
    ("キャラクター：美咲；背景：公園；嬉しそう", "美咲は公園にいる。"),  # as "Mei is in the park."
    # kanji only, written with the Japanese field names: Japanese
    ("動作：散歩；背景：公園", "公園で散歩。"),
])
def test_japanese_fields_read_as_a_japanese_sentence(text: str, expected: str) -> None:
    result = sentence(text)
    assert result == expected
    assert " " not in result and not any(word in result for word in (" in ", " at ", " the "))
    assert not result.startswith(("、", "は", "で")) and "、は" not in result and "はで" not in result


def test_the_branch_character_acts_in_a_japanese_turn_that_names_none() -> None:
    assert sentence("動作：手を振る；背景：公園", "さくら") == "さくらは公園で手を振る。"


@pytest.mark.parametrize(("text", "expected"), [
    # a Japanese key with an English value is English
    ("キャラクター：美咲；動作：wave；背景：park", "美咲 waves in the park."),
    ("動作：jump；背景：beach", "Jump on the beach."),
    ("Character: Mei; Motion: 手を振る slowly; Background: 公園", "Meiは公園でゆっくり手を振る。"),  # one language
    ("Character: Qiqi; Motion: gently sit on railing; Background: day town.",
     "Qiqi gently sits on the railing in the town, by day."),
    ("Character: Mei; Motion: wave to Qiqi; Background: day street; she smiles",
     "Mei waves to Qiqi in the street, by day. She smiles."),
    # Chinese (kanji only, English keys) keeps its sentence; Korean has a Korean one
    ("Character: 小明; Motion: 跑步; Background: 公园; Time: 晚上", "晚上，小明在公园跑步。"),
    ("Character: 민수; Motion: 달리다; Background: 공원", "민수는 공원에서 달린다."),
])
def test_other_turns_keep_their_sentence(text: str, expected: str) -> None:
    assert sentence(text) == expected


def test_the_language_is_decided_by_the_values() -> None:
    assert written_in_japanese(parse_instruction("動作：手を振る"))
    assert not written_in_japanese(parse_instruction("動作：wave"))
    assert not written_in_japanese(parse_instruction("Motion: 散歩; Background: 公園"))
    assert written_in_japanese(parse_instruction("Motion: 散歩; Background: 公園"), "さくら")


def test_japanese_free_text_ends_with_a_japanese_full_stop() -> None:
    assert sentence("美咲は走る") == "美咲は走る。"
    assert sentence("Qiqi runs") == "Qiqi runs."


def test_the_subtitle_file_holds_the_japanese_sentence(tmp_path: Path) -> None:
    from studio.export import export_branch
    from studio.storage import Project
    from tests.export.helpers import COLOURS, add_turn, parse_srt

    project = Project.create(tmp_path / "ja", name="Japanese")
    try:
        leaf = add_turn(project, project.tree.root_id, "キャラクター：美咲；動作：手を振る；背景：公園；時間帯：夜",
                        COLOURS[0])
        out = tmp_path / "episode.srt"
        export_branch(project, leaf, out)
        cues = [cue for _start, _end, cue in parse_srt(out.read_text(encoding="utf-8"))]
    finally:
        project.close()
    assert cues == ["夜、美咲は公園で手を振る。"], cues
