"""Cards shorten text between the characters a reader sees (QA: a card's title or excerpt cut
by code points ended in half a family emoji, one regional indicator of a flag or a letter
without its accent; the inspector's long-word breaks did the same inside a word of emoji)."""

from __future__ import annotations

from pathlib import Path

import pytest
import regex  # type: ignore[import-untyped]

from studio.core import EditInstruction
from studio.core.sentence import describe_action
from studio.storage import Project
from studio.ui.node_summary import excerpt_of, summarize
from studio.ui.text_wrap import ZERO_WIDTH_SPACE, breakable, unbroken

FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"  # 7 code points, one character
JAPAN = "\U0001F1EF\U0001F1F5"  # a flag: two regional indicators
ACCENTED = "e\u0301"  # e and a combining acute accent
THUMB = "\U0001F44D\U0001F3FD"  # a thumb with a skin tone
KEYCAP = "1\ufe0f\u20e3"
WORDS = [FAMILY * 30, JAPAN * 60, ACCENTED * 70, THUMB * 60, KEYCAP * 50, "a" + FAMILY * 30, "ab" + JAPAN * 50]


def _clusters(text: str) -> list[str]:
    return list(regex.findall(r"\X", text))


def _is_whole_start(part: str, text: str) -> bool:
    """Whether ``part`` is ``text``'s first few whole characters."""
    clusters = _clusters(text)
    return any("".join(clusters[:count]) == part for count in range(len(clusters) + 1))


@pytest.mark.parametrize("text", WORDS)
@pytest.mark.parametrize("limit", [10, 19, 40, 90])
def test_an_excerpt_ends_with_whole_characters_and_an_ellipsis(text: str, limit: int) -> None:
    excerpt = excerpt_of(text, limit)
    assert len(excerpt) <= limit
    assert excerpt.endswith("…")
    assert _is_whole_start(excerpt[:-1], text)


def test_short_text_is_left_whole() -> None:
    assert excerpt_of(FAMILY, 7) == FAMILY
    assert excerpt_of("  Qiqi   sits  ", 40) == "Qiqi sits"


@pytest.mark.parametrize("text", WORDS)
def test_long_word_breaks_fall_between_characters(text: str) -> None:
    broken = breakable(text)
    assert unbroken(broken) == text
    runs = broken.split(ZERO_WIDTH_SPACE)
    assert len(runs) > 1
    for run in runs:
        assert _clusters(run) and all(cluster in _clusters(text) for cluster in _clusters(run))
    assert "".join(cluster for run in runs for cluster in _clusters(run)) == text


def test_a_card_title_of_emoji_names_keeps_whole_characters(sample_project: Path) -> None:
    character = FAMILY * 12
    with Project.open(sample_project) as project:
        turn = project.tree.child_ids(project.tree.root_id)[0]
        project.apply(EditInstruction(turn, f"Character: {character}; Motion: wave {JAPAN * 80}; Background: town"))
        card = summarize(project.tree, turn)
        # the card says the turn as its subtitle does (a sentence), cut as the title is
        sentence = describe_action(project.tree.node(turn).instruction, cast=project.tree.cast_names())
    assert card.title.endswith("…") and _is_whole_start(card.title[:-1], f"{character} · town")
    assert card.excerpt.endswith("…") and _is_whole_start(card.excerpt[:-1], sentence)
