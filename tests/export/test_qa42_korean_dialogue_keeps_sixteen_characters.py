"""Korean subtitle lines hold 16 characters (docs/EXPORT.md), and narration kept to it, but a
line of dialogue held 17 to 19 ("Qiqi: 안녕하세요! 오늘 날씨가"): the speaker's name and the
spaces between words took half a character each. Now every character of a Korean line counts
as one of its 16, in the SRT and the lines burned captions draw alike."""

from __future__ import annotations

from pathlib import Path

from studio.core import AddDialogueLine, SetDuration, SetNarration
from studio.export import export_branch
from studio.export.cues import Cue, CueKind
from studio.export.subtitles import subtitle_lines

from .helpers import Fixture, parse_srt

SENTENCE = "안녕하세요! 오늘 날씨가 정말 좋네요. 같이 공원에 갈까요?"


def test_korean_dialogue_lines_hold_sixteen_characters(story: Fixture, tmp_path: Path) -> None:
    story.project.apply(SetNarration(story.nodes[0], "오늘은 날씨가 정말 좋아서 우리는 공원에 가기로 했습니다"))
    story.project.apply(AddDialogueLine(story.nodes[1], "Qiqi", SENTENCE))
    story.project.apply(AddDialogueLine(story.nodes[2], "민수", SENTENCE))
    for node in story.nodes:
        story.project.apply(SetDuration(node, 6.0))
    entries = parse_srt(export_branch(story.project, story.leaf, tmp_path / "ko.srt").path.read_text("utf-8"))
    lines = [line.removeprefix("<i>").removesuffix("</i>") for _, _, text in entries for line in text.splitlines()]
    assert all(len(line) <= 16 for line in lines), [(len(line), line) for line in lines]
    said = " ".join(lines)
    assert said.count(SENTENCE.split()[-1]) == 2 and "Qiqi: 안녕하세요!" in said and "민수: 안녕하세요!" in said


def test_burned_lines_of_korean_dialogue_hold_sixteen_characters() -> None:
    lines = subtitle_lines(Cue(CueKind.DIALOGUE, "안녕하세요! 오늘 날씨가", "Qiqi"))
    assert all(len(line) <= 16 for line in lines), lines
    assert " ".join(lines) == "Qiqi: 안녕하세요! 오늘 날씨가"
