"""A burned caption that joins an English line and an Arabic one (each opening with its
direction's mark) wraps a part too wide for the frame in that part's own direction: the
Arabic line's continuation lines read right to left as it does, though the caption as a
whole reads left to right (they were given the caption's direction, and a continuation
line that began with an Arabic word was marked left to right, its words turned around)."""

from __future__ import annotations

import pytest

from studio.export.bidi_text import LRM, RLM, starts_right_to_left
from studio.export.cues import Cue, CueKind, merged
from studio.export.drawing import caption_layout, wrap_text
from studio.export.subtitles import subtitle_lines

ARABIC = "مرحبا يا قيقي كيف حالك اليوم"
HEBREW = "שלום קיקי מה שלומך היום"


def _part_lines(lines: tuple[str, ...] | list[str], letters: str) -> list[str]:
    return [line for line in lines if any(char in line for char in letters)]


@pytest.mark.parametrize("size", [(160, 90), (128, 72)])
def test_an_arabic_part_wrapped_in_an_english_caption_reads_right_to_left_on_every_line(
        size: tuple[int, int]) -> None:
    cue = merged([Cue(CueKind.DIALOGUE, "I'm late!", "Qiqi"), Cue(CueKind.DIALOGUE, f"{ARABIC} Qiqi {ARABIC}", "Yuzu")])
    text = "\n".join(subtitle_lines(cue))
    assert not cue.reads_rtl and RLM in text  # the caption reads left to right, its Arabic part does not
    _face, lines, _cut = caption_layout(size, text, rtl=cue.reads_rtl)
    arabic = _part_lines(lines, "مرحبايقكفحلو")
    assert len(arabic) >= 2 and arabic[0].startswith(f"{RLM}Yuzu:")
    # its first subtitle line was too wide even for the smallest type: it went on on a line of the frame
    assert "\n".join(arabic).count(RLM) < len(arabic) or any(line.startswith(LRM) for line in arabic)
    assert all(starts_right_to_left(line) for line in arabic)
    assert not any(line.startswith(LRM) for line in arabic)
    assert not starts_right_to_left(lines[0]) and lines[0].startswith("Qiqi")


def test_an_english_part_wrapped_in_a_hebrew_caption_reads_left_to_right_on_every_line() -> None:
    english = "Qiqi: I am so sorry, the bus was late again this morning and I ran all the way"
    text = f"{RLM}Yuzu: {HEBREW} /\n{LRM}{english}"

    def measure(line: str) -> float:
        return 7.0 * len(line)

    lines = wrap_text(text, measure, 160, rtl=True)
    start = next(i for i, line in enumerate(lines) if "Qiqi" in line)
    before, after = lines[:start], lines[start:]
    assert before and all(starts_right_to_left(line) for line in before)
    assert len(after) >= 2 and all(not starts_right_to_left(line) for line in after)
    assert not any(line.startswith(RLM) for line in after)
