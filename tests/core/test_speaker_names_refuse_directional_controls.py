"""A speaker's name refuses the directional overrides, embeddings and isolates a cast
member's name refuses: in a subtitle or a sheet it reordered the whole line it starts.
The plain right-to-left and left-to-right marks stay allowed."""

from __future__ import annotations

import pytest

from studio.core.story import StoryFieldError, check_dialogue_line


@pytest.mark.parametrize("char", ["\u202e", "\u202b", "\u2067", "\u2069"])
def test_a_directional_control_in_a_speaker_name_is_refused(char: str) -> None:
    with pytest.raises(StoryFieldError) as refused:
        check_dialogue_line(f"Qi{char}qi", "Hello!")
    assert f"U+{ord(char):04X}" in refused.value.message and "character 3" in refused.value.message


def test_marks_and_right_to_left_names_are_kept() -> None:
    assert check_dialogue_line("\u200fمريم", "!مرحبا").speaker == "\u200fمريم"
    assert check_dialogue_line("Qiqi\u200e", "Hello").speaker == "Qiqi\u200e"
