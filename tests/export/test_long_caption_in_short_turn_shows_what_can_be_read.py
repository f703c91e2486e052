"""A turn with far more caption text than its time can show (QA: an instruction of about
2,000 characters, the caption of a 9 s turn, became 26 subtitles of about 0.35 s each, and
the burned caption of the same turn ended "aroun…", cut inside a word).

It now shows what can be read: as many subtitles of at most two lines as each stay up the
least time a cue does (5/6 s), the last one ending in "…" after a whole word (or between two
characters of Japanese, never inside an emoji sequence or a letter with its marks); the
burned captions, the SRT and the OTIO markers show those same subtitles of that start of the
text over the same frames, and the export's notes name the turn."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import opentimelineio as otio
import pytest
import regex  # type: ignore[import-untyped]

from studio.core import AddDialogueLine, SetDuration, SetNarration
from studio.export import CaptionMode, ExportOptions, export_branch
from studio.export.branch import collect_branch
from studio.export.drawing import caption_layout, caption_patch

from .helpers import COLOURS, FPS, Fixture, add_turn, decode, parse_srt

LEAST = math.ceil(5 / 6 * FPS) / FPS  # the least time a cue stays up, in whole frames: 7 at 8 fps
WORDS = ("Qiqi walks slowly around the quiet harbour town at dusk while the lanterns flicker "
         "and the boats rock gently against the old stone pier ")
ELLIPSIS = "\u2026"


def _lines(text: str) -> list[str]:
    return text.removeprefix("<i>").removesuffix("</i>").split("\n")


def _shown(cues: list[tuple[float, float, str]]) -> str:
    """What the cues show, their lines joined with spaces."""
    return " ".join(" ".join(_lines(text)) for _, _, text in cues)


def _long_turn(story: Fixture, seconds: float) -> tuple[str, str]:
    """A turn after the first whose instruction (about 2,000 characters) is its caption, held
    ``seconds``, then a last turn; the neighbours last 2 s each. Its node and caption text."""
    for node in story.nodes:
        story.project.apply(SetDuration(node, 2.0))
    motion = (WORDS * 20)[:1950].rsplit(" ", 1)[0]
    node = add_turn(story.project, story.nodes[0], f"Character: Qiqi; Motion: {motion}; Background: harbour.",
                    COLOURS[3])
    story.project.apply(SetDuration(node, seconds))
    last = add_turn(story.project, node, "Character: Yuzu; Motion: jump; Background: day town.", COLOURS[4])
    story.project.apply(SetDuration(last, 2.0))
    action = collect_branch(story.project, last).turns[1].action
    assert len(action) > 1500, action
    return last, action


def _turn_cues(entries: list[tuple[float, float, str]], start: float, end: float) -> list[tuple[float, float, str]]:
    """The cues that start within ``start..end`` (the last may run on a little into the next
    turn's spare time)."""
    return [entry for entry in entries if start - 1e-6 <= entry[0] < end - 1e-6]


def _frames(cues: list[tuple[float, float, str]]) -> int:
    return round((cues[-1][1] - cues[0][0]) * FPS)


def _assert_readable_start(cues: list[tuple[float, float, str]], original: str) -> str:
    """The cues show a start of ``original`` cut after a whole word with "…", in subtitles of
    at most two lines each up at least the least time; returns what they show."""
    assert len(cues) >= 2
    for start, end, text in cues:
        assert end - start >= LEAST - 1e-3, (start, end, text)
        assert len(_lines(text)) <= 2, text
    assert all(not text.endswith(ELLIPSIS) for _, _, text in cues[:-1])
    shown = _shown(cues)
    assert shown.endswith(ELLIPSIS), shown
    kept = shown.removesuffix(ELLIPSIS)
    assert original.startswith(kept), (kept, original)
    assert original[len(kept)] == " ", f"cut inside a word: {kept[-20:]!r} + {original[len(kept):][:10]!r}"
    return shown


def test_srt_shows_as_many_readable_subtitles_as_fit(story: Fixture, tmp_path: Path) -> None:
    leaf, action = _long_turn(story, 9.0)
    entries = parse_srt(export_branch(story.project, leaf, tmp_path / "long.srt").path.read_text(encoding="utf-8"))
    assert all(end - start >= LEAST - 1e-3 for start, end, _ in entries), entries
    cues = _turn_cues(entries, 2.0, 11.0)
    _assert_readable_start(cues, action)
    # as many subtitles as stay up the least time each in the turn's 9 s (72 frames: 10 of 7)
    assert len(cues) == _frames(cues) // 7 >= 72 // 7
    assert cues[0][0] == pytest.approx(2.0) and cues[-1][1] >= 11.0
    assert len(entries) == len(cues) + 2, "the turns before and after keep their captions"


def test_otio_marker_shows_what_the_srt_shows_over_its_frames(story: Fixture, tmp_path: Path) -> None:
    leaf, action = _long_turn(story, 9.0)
    entries = parse_srt(export_branch(story.project, leaf, tmp_path / "long.srt").path.read_text(encoding="utf-8"))
    cues = _turn_cues(entries, 2.0, 11.0)
    timeline = otio.adapters.read_from_file(str(export_branch(story.project, leaf, tmp_path / "long.otio").path))
    markers = [m for m in timeline.tracks[0].markers if m.metadata["kamishibai"]["turn"] == 2]
    _assert_readable_start(cues, action)
    # a marker for each subtitle, named with its text, over its frames
    assert [m.name for m in markers] == [m.metadata["kamishibai"]["text"] for m in markers] == [
        " ".join(_lines(text)) for _, _, text in cues]
    spans = [(m.marked_range.start_time.to_seconds(), m.marked_range.end_time_exclusive().to_seconds())
             for m in markers]
    assert [t for span in spans for t in span] == pytest.approx([t for start, end, _ in cues for t in (start, end)],
                                                                abs=1e-3)


def test_burned_caption_shows_the_srt_text_and_the_export_says_so(story: Fixture, tmp_path: Path) -> None:
    """A 2 s turn: two subtitles' worth of text, each burned in over its frames as the SRT shows it."""
    leaf, action = _long_turn(story, 2.0)
    entries = parse_srt(export_branch(story.project, leaf, tmp_path / "short.srt").path.read_text(encoding="utf-8"))
    cues = _turn_cues(entries, 2.0, 4.0)
    shown = _assert_readable_start(cues, action)
    assert len(cues) == _frames(cues) // 7 >= 16 // 7
    size = (1280, 720)
    result = export_branch(story.project, leaf, tmp_path / "short.mp4",
                           options=ExportOptions(size=size, captions=CaptionMode.BURN))
    assert any("turn 2" in note and ELLIPSIS in note for note in result.notes), result.notes
    frames = decode(result.path)
    plain = decode(export_branch(story.project, leaf, tmp_path / "plain.mp4",
                                 options=ExportOptions(size=size, captions=CaptionMode.NONE)).path)
    assert len(frames) == len(plain) == 6 * FPS

    def drawn(index: int, text: str) -> np.ndarray:
        """Frame ``index`` of the video without captions, with ``text``'s caption drawn over it."""
        patch = caption_patch(size, text)
        assert patch is not None
        return patch.apply(plain[index].copy()).astype(int)

    band = slice(size[1] // 2, size[1])  # the caption's rows
    for start, end, text in cues:  # each subtitle burned in, in the SRT's lines, at its first and last frame
        for index in (round(start * FPS), math.ceil(end * FPS) - 1):
            frame = frames[index].astype(int)
            near = np.abs(frame[band] - drawn(index, "\n".join(_lines(text)))[band]).mean()
            far = np.abs(frame[band] - drawn(index, shown)[band]).mean()
            assert near < 2 and far > 2 * near, (index, near, far)


LONG_LATIN = ("An extraordinarily unconventional watchmaker painstakingly reassembles "
              "incomprehensibly complicated astronomical clockworks ") * 6
LONG_JAPANESE = "港町の夕暮れ、\u304b\u3099ランタン\U0001f468\u200d\U0001f469\u200d\U0001f467が灯り" * 20


@pytest.mark.parametrize("size", [(320, 180), (160, 90), (200, 400)])
def test_a_burned_caption_cut_for_room_ends_after_a_whole_word(size: tuple[int, int]) -> None:
    text = " ".join(LONG_LATIN.split())
    _face, lines, cut = caption_layout(size, text)
    assert cut and lines[-1].endswith(ELLIPSIS), lines
    kept = " ".join(lines).removesuffix(ELLIPSIS).rstrip()
    assert text.startswith(kept) and text[len(kept)] == " ", f"cut inside a word: {lines[-1]!r}"


def test_a_burned_japanese_caption_cut_for_room_keeps_its_characters_whole() -> None:
    _face, lines, cut = caption_layout((160, 90), LONG_JAPANESE)
    assert cut and lines[-1].endswith(ELLIPSIS), lines
    kept = "".join(lines).removesuffix(ELLIPSIS)
    assert LONG_JAPANESE.startswith(kept)
    assert len(kept) in _cluster_ends(LONG_JAPANESE), f"cut inside a character: {lines[-1]!r}"


def _cluster_ends(text: str) -> set[int]:
    """The offsets where a character as a reader sees it ends (extended grapheme clusters)."""
    ends, at = set(), 0
    for cluster in regex.findall(r"\X", text):
        at += len(cluster)
        ends.add(at)
    return ends


def test_a_long_japanese_narration_is_cut_between_whole_characters(story: Fixture, tmp_path: Path) -> None:
    story.project.apply(SetDuration(story.nodes[0], 2.0))
    story.project.apply(SetNarration(story.nodes[0], LONG_JAPANESE))
    entries = parse_srt(export_branch(story.project, story.leaf, tmp_path / "ja.srt").path.read_text(encoding="utf-8"))
    cues = [entry for entry in entries if entry[2].startswith("<i>")]
    assert len(cues) == _frames(cues) // 7 >= 16 // 7
    assert all(end - start >= LEAST - 1e-3 and len(_lines(text)) <= 2 for start, end, text in cues), cues
    kept = "".join("".join(_lines(text)) for _, _, text in cues)
    assert kept.endswith(ELLIPSIS)
    kept = kept.removesuffix(ELLIPSIS)
    assert LONG_JAPANESE.startswith(kept) and len(kept) in _cluster_ends(LONG_JAPANESE), kept[-10:]


def test_each_line_of_an_overfull_turn_keeps_its_start(story: Fixture, tmp_path: Path) -> None:
    """A long narration and a line of dialogue in 3 s: the narration shows what fits after the
    line's own subtitle, which is never dropped."""
    first = story.nodes[0]
    story.project.apply(SetDuration(first, 3.0))
    narration = " ".join((WORDS * 10).split())
    story.project.apply(SetNarration(first, narration))
    story.project.apply(AddDialogueLine(first, "Yuzu", "Wait for me!"))
    entries = parse_srt(export_branch(story.project, story.leaf, tmp_path / "two.srt").path.read_text(encoding="utf-8"))
    cues = _turn_cues(entries, 0.0, 3.0)
    assert len(cues) == _frames(cues) // 7 >= 24 // 7 and cues[-1][2] == "Yuzu: Wait for me!"
    assert all(end - start >= LEAST - 1e-3 for start, end, _ in cues), cues
    told = _shown(cues[:-1])
    assert told.endswith(ELLIPSIS) and narration.startswith(told[:-1]) and narration[len(told) - 1] == " "
