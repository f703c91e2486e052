"""A long narration or dialogue line becomes consecutive SRT cues of at most two lines of 42
columns (QA: one line of narration came out as a single cue of 57 lines, and a word longer
than 42 columns was never broken). The cues break at sentence ends first, then at clause
punctuation, then between words; they share the turn's time by length, each up long enough
to read where the turn has the time, in order and without overlapping. The OTIO markers
keep one marker a line, as before."""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from pathlib import Path

import opentimelineio as otio
import pytest

from studio.core import AddDialogueLine, SetDuration, SetNarration
from studio.export import export_branch
from studio.export.subtitles import display_width

from .helpers import FPS, Fixture, parse_srt

SENTENCES = [
    "The town wakes up slowly under a pale winter sky.",
    "Smoke rises from the bakery chimney and the smell of warm bread fills the lane.",
    "Nobody is in a hurry yet!",
    "Why would anyone be, on a morning like this one?",
    "Qiqi counts the parcels twice, then a third time, just to be sure.",
]
NARRATION = " ".join(SENTENCES * 12)  # about 57 lines of 42 columns in one cue before
CLAUSES = ("Well, if you take the long road past the harbour, then the hill with the old windmill, "
           "and the bridge that creaks when the trams go over it, you will find the shop at last, "
           "though I would not promise that it is open before noon.")
TURN_SECONDS = 120.0
MIN_CUE = math.ceil(5 / 6 * FPS) / FPS  # the least time a cue stays up, in whole frames


def _lines(text: str) -> list[str]:
    """A cue's lines as shown, without the italics of narration."""
    return text.removeprefix("<i>").removesuffix("</i>").split("\n")


def _long_turn(story: Fixture, narration: str, *lines: str) -> list[tuple[float, float, str]]:
    """The first turn held to TURN_SECONDS with ``narration`` and Qiqi's ``lines``, exported
    as SRT and read back: the first turn's cues."""
    first = story.nodes[0]
    story.project.apply(SetDuration(first, TURN_SECONDS))
    story.project.apply(SetNarration(first, narration))
    for line in lines:
        story.project.apply(AddDialogueLine(first, "Qiqi", line))
    out = export_branch(story.project, story.leaf, story.project.path.parent / "long.srt").path
    entries = parse_srt(out.read_text(encoding="utf-8"))
    return [entry for entry in entries if entry[1] <= TURN_SECONDS + 1e-6]


def _assert_short_timed_cues(cues: list[tuple[float, float, str]], end: float) -> None:
    assert cues[0][0] == 0 and cues[-1][1] == pytest.approx(end), "the cues fill the turn, never past it"
    for start, stop, text in cues:
        lines = _lines(text)
        assert len(lines) <= 2, text
        assert all(0 < display_width(line) <= 42 for line in lines), text
        assert stop - start >= MIN_CUE - 1e-6, (start, stop, text)
    for (start, stop, _), (after, _, _) in itertools.pairwise(cues):
        assert start < stop <= after + 1e-6


def _words(cues: list[tuple[float, float, str]]) -> list[str]:
    """The words the cues show (a right-to-left or left-to-right mark that sets a line's
    direction is not one)."""
    shown = " ".join(" ".join(_lines(text)) for _, _, text in cues)
    return shown.replace("\u200f", "").replace("\u200e", "").split()


def test_a_long_narration_and_line_become_short_cues_in_order(story: Fixture) -> None:
    cues = _long_turn(story, NARRATION, CLAUSES)
    _assert_short_timed_cues(cues, TURN_SECONDS)
    narration = [text for _, _, text in cues if text.startswith("<i>")]
    dialogue = [text for _, _, text in cues if not text.startswith("<i>")]
    assert cues[:len(narration)] == [cue for cue in cues if cue[2].startswith("<i>")], "narration first"
    assert all(text.endswith("</i>") for text in narration), "every narration cue in italics"
    assert _words(cues) == f"{NARRATION} Qiqi: {CLAUSES}".split(), "every word, in order"
    # each sentence fits two lines: the narration's cues end at sentence ends
    assert len(narration) > 20 and all(_lines(text)[-1][-1] in ".!?" for text in narration), narration
    # one long sentence: its cues end at commas (and the last at its full stop)
    assert len(dialogue) > 2 and dialogue[0].startswith("Qiqi: Well,")
    assert all(_lines(text)[-1][-1] in ",." for text in dialogue), dialogue
    # the time follows the length: a cue twice as long stays up about twice as long
    per_char = [(stop - start) / len(text) for start, stop, text in cues if len(text) > 40]
    assert max(per_char) < 1.5 * min(per_char), per_char


def test_a_word_wider_than_a_line_is_cut_and_keeps_its_characters_whole(story: Fixture) -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    accented = "e\u0301" * 60  # 60 columns: e and a combining acute accent, never apart
    long_word = "a" * 41 + family + "b" * 70
    line = f"Look: {accented} and {long_word} done."
    cues = _long_turn(story, "", line)
    _assert_short_timed_cues(cues, TURN_SECONDS)
    lines = [text for _, _, cue in cues for text in _lines(cue)]
    assert "".join(lines).replace(" ", "") == f"Qiqi:{line}".replace(" ", ""), "nothing lost, nothing added"
    assert not any(unicodedata.combining(text[0]) for text in lines), lines
    assert sum(family in text for text in lines) == 1, "the family emoji stays whole"
    assert lines[0] == "Qiqi: Look:", "a long word starts its own line, as on burned captions"


def test_arabic_and_hebrew_break_at_their_own_punctuation(story: Fixture) -> None:
    arabic = ("كانت المدينة هادئة في الصباح الباكر، والمخبز يفتح أبوابه للهواء البارد. "
              "هل يستعجل أحد في مثل هذا الصباح الجميل؟ ") * 8
    hebrew = "העיר מתעוררת לאט מתחת לשמיים חיוורים, והמאפייה פותחת את דלתותיה. אף אחד עוד לא ממהר! " * 8
    cues = _long_turn(story, arabic.strip(), hebrew.strip())
    _assert_short_timed_cues(cues, TURN_SECONDS)
    assert _words(cues) == f"{arabic} Qiqi: {hebrew}".split(), "every word, in logical order"
    arabic_cues = [text for _, _, text in cues if text.startswith("<i>")]
    assert len(arabic_cues) > 4 and all(_lines(text)[-1][-1] in ".\u061f" for text in arabic_cues), arabic_cues
    hebrew_cues = [text for _, _, text in cues if not text.startswith("<i>")]
    assert len(hebrew_cues) > 4 and all(_lines(text)[-1][-1] in ".!" for text in hebrew_cues), hebrew_cues


def test_japanese_without_spaces_breaks_between_characters_counting_two_columns(story: Fixture) -> None:
    sentences = "桜の木の下で、キキは空を見上げた。「今日はいい天気だね！」と彼女は言った。"
    japanese = sentences * 6 + "そして丘を登り始めた" * 6  # the end: a run without punctuation
    cues = _long_turn(story, "", japanese)
    _assert_short_timed_cues(cues, TURN_SECONDS)
    lines = [text for _, _, cue in cues for text in _lines(cue)]
    assert "".join(lines) == f"Qiqi: {japanese}", "broken between characters, nothing lost"
    # a Japanese line holds 13 full-width characters (26 columns), not 21
    assert all(sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text) <= 26 for text in lines)
    assert not any(text[0] in "。、」！" for text in lines), "closing punctuation never starts a line"
    texts = [text for _, _, text in cues]
    assert all(re.search(r"[。」]$", text) for text in texts[:-3]), "sentence ends first"
    # the run without punctuation (60 characters) takes three subtitles of at most 26 characters
    tail = [_lines(text) for text in texts[-3:]]
    assert "".join(line for lines in tail for line in lines) == "そして丘を登り始めた" * 6
    assert [len(lines) for lines in tail[:2]] == [2, 2], "a run without punctuation fills its subtitles"


def test_a_short_turn_shows_what_can_be_read_and_never_overlaps(story: Fixture) -> None:
    """The first turn lasts 6 frames, less than a cue's least time, and the next caption needs
    all of its own: the turn shows the start of its narration in one cue of at most two lines,
    cut after a word with "…" (it used to flash the whole text by in six cues of a frame each,
    each many lines long)."""
    first = story.nodes[0]
    story.project.apply(SetNarration(first, NARRATION))
    out = export_branch(story.project, story.leaf, story.project.path.parent / "short.srt").path
    entries = parse_srt(out.read_text(encoding="utf-8"))
    turn = [entry for entry in entries if entry[2].startswith("<i>")]
    assert len(turn) == 1, turn
    start, stop, text = turn[0]
    shown = " ".join(_lines(text))
    assert len(_lines(text)) <= 2 and shown.endswith("\u2026"), text
    assert NARRATION.startswith(shown[:-1]) and NARRATION[len(shown) - 1] == " ", "cut after a whole word"
    assert start == 0 and stop == pytest.approx(story.frames[0] / FPS) == entries[1][0]


def test_otio_marks_the_long_line_as_the_srt_cuts_it(story: Fixture, tmp_path: Path) -> None:
    first = story.nodes[0]
    story.project.apply(SetDuration(first, TURN_SECONDS))
    story.project.apply(SetNarration(first, NARRATION))
    result = export_branch(story.project, story.leaf, tmp_path / "long.otio")
    markers = otio.adapters.read_from_file(str(result.path)).tracks[0].markers
    narration = [marker for marker in markers if marker.metadata["kamishibai"]["kind"] == "narration"]
    assert len(narration) > 1 and " ".join(marker.name for marker in narration) == NARRATION
    assert narration[0].marked_range.start_time.to_seconds() == pytest.approx(0)
    assert narration[-1].marked_range.end_time_exclusive().to_seconds() == pytest.approx(TURN_SECONDS)
    assert markers[len(narration)].marked_range.start_time.to_seconds() == pytest.approx(TURN_SECONDS)


def test_share_frames_follows_the_weights_with_a_floor() -> None:
    from studio.export.cues import share_frames

    assert share_frames([10, 10, 20], 0, 40) == [(0, 10), (10, 20), (20, 40)]
    # the short piece gets the floor, the rest is shared by weight
    assert share_frames([100, 100, 5], 0, 100, minimum=20) == [(0, 40), (40, 80), (80, 100)]
    # too short for the floor everywhere: at least a share of half the span, lengths still count
    assert share_frames([18, 15, 44], 0, 6, minimum=7) == [(0, 1), (1, 3), (3, 6)]
    pairs = share_frames([1, 500, 1, 1], 50, 60, minimum=3)
    assert pairs[0][0] == 50 and pairs[-1][1] == 60 and all(stop - start >= 1 for start, stop in pairs)
    assert all(stop == after for (_, stop), (after, _) in itertools.pairwise(pairs))
    with pytest.raises(ValueError, match="3 pieces"):
        share_frames([1, 1, 1], 0, 2)
