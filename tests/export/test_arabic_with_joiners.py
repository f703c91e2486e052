"""Arabic text holding a zero width joiner: an emoji sequence (👩‍👩‍👧, 🚶‍♀️) in a line of
Arabic, or a ZWJ after a letter. The reshaper drops ZWJs from its output but finds lam-alef
ligatures by their place in its input, so "مرحبا 👩‍👩‍👧 سلام" stopped every export that draws
it (PNG and PDF sheets, burned captions, cards) with "internal error: IndexError", and with
more text after it merged the wrong letters; the emoji's ZWJs were lost, so a right-to-left
line drew 🚶‍♀️ as ♀️ then 🚶."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from studio.core import SetNarration
from studio.export import CaptionMode, ExportOptions, export_branch
from studio.export.bidi_text import shape_arabic, visual_line

from .helpers import Fixture

FAMILY = "\U0001f469\u200d\U0001f469\u200d\U0001f467"  # 👩‍👩‍👧
WALKER = "\U0001f6b6\u200d\u2640\ufe0f"  # 🚶‍♀️
SALAM = "سلام"
LAM_ALEF_FINAL = "\N{ARABIC LIGATURE LAM WITH ALEF FINAL FORM}"
LINE = f"مرحبا {FAMILY} {SALAM}"


def test_an_emoji_sequence_before_a_lam_alef_is_shaped_as_without_it() -> None:
    shaped = shape_arabic(LINE)
    assert FAMILY in shaped  # the emoji whole, its joiners kept
    assert shaped.replace(FAMILY, "") == shape_arabic(LINE.replace(FAMILY, ""))
    assert shaped.endswith(f"{LAM_ALEF_FINAL}م")  # سلام: seen, lam-alef, meem; no letter lost


@pytest.mark.parametrize("text", [f"ب\u200d {SALAM}", f"ب\u200d لا {SALAM} بد", f"ـب\u200dـ {SALAM}"])
def test_a_joiner_after_a_letter_leaves_the_later_ligatures_right(text: str) -> None:
    shaped = shape_arabic(text)
    assert shaped.count("\u200d") == 1
    assert shaped.count("\u0640") == text.count("\u0640")  # a tatweel typed stays a tatweel
    assert shaped.rsplit(" ", 1)[-1] == shape_arabic(text.rsplit(" ", 1)[-1])  # the last word as alone
    assert "ب" not in shaped  # the ZWJ still joins the beh (a beh alone stays unshaped)


def test_a_joined_emoji_in_a_right_to_left_line_stays_whole() -> None:
    line = visual_line(f"شخص {WALKER} وهو")
    assert WALKER in line


@pytest.mark.parametrize("suffix", ["png", "pdf", "mp4"])
def test_a_branch_with_such_narration_exports(story: Fixture, tmp_path: Path, suffix: str) -> None:
    story.project.apply(SetNarration(story.nodes[0], LINE))
    out = tmp_path / "out" / f"episode.{suffix}"
    out.parent.mkdir()
    options = ExportOptions(captions=CaptionMode.BURN if suffix == "mp4" else CaptionMode.NONE)
    result = export_branch(story.project, story.leaf, out, options=options)
    assert result.paths == (out,)
    if suffix == "png":
        with Image.open(out) as page:
            assert page.size[0] > 0
