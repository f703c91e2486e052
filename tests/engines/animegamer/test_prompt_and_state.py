"""Prompt building and state decoding with AnimeGamer's real tokenizer."""

from __future__ import annotations

from typing import Any

import pytest

from studio.engines.animegamer.grammar import SLOTS, decode_state
from studio.engines.animegamer.sizes import QUERY_TOKENS, VOCABULARY
from studio.engines.animegamer.tokens import (
    TokenIds,
    TurnState,
    frame_token,
    history_turn,
    prompt_ids,
    query_turn,
    state_tokens,
    strength_token,
)


@pytest.fixture(scope="module")
def ids(real_tokenizer: Any) -> TokenIds:
    return TokenIds.from_tokenizer(real_tokenizer)


def test_the_added_tokens_have_the_release_ids(ids: TokenIds, real_tokenizer: Any) -> None:
    assert len(real_tokenizer) == VOCABULARY
    assert (ids.bos, ids.turn, ids.img, ids.frame, ids.end_frame, ids.end_img, ids.ml) == \
        (1, 32282, 32256, 32260, 32261, 32257, 32274)
    assert ids.frames == tuple(range(32000, 32000 + QUERY_TOKENS))
    assert dict(ids.strengths) == {v: 32267 + v for v in range(-5, 6)}


def test_a_turn_to_predict_is_the_release_prompt(ids: TokenIds, real_tokenizer: Any, demo_lines: list[str]) -> None:
    line = demo_lines[2]  # "Character: Qiqi; Motion: gently sit on railing; Background: day town."
    turn = query_turn(real_tokenizer, ids, line)
    # The release encodes "<TURN>" + caption, then the clip block, then "<ML>", each on its own.
    caption = real_tokenizer.encode("<TURN>" + line, add_special_tokens=False)
    block = real_tokenizer.encode("<img><frame>" + "".join(frame_token(i) for i in range(QUERY_TOKENS))
                                  + "</frame></img>", add_special_tokens=False)
    assert list(turn.ids) == [*caption, *block, ids.ml]
    assert caption[:3] == [32282, 15962, 28747]  # <TURN> 'Character' ':' (no space after the tag)
    start, stop = turn.slots
    assert stop - start == QUERY_TOKENS
    assert turn.ids[start - 1] == ids.frame and turn.ids[stop] == ids.end_frame
    assert list(turn.ids[start:stop]) == list(ids.frames)
    assert len(turn) - stop == 3  # </frame></img><ML>: why the release's "last 226" read-out is shifted by 3


def test_every_demo_line_makes_a_prompt_within_the_attention_window(ids: TokenIds, real_tokenizer: Any,
                                                                    demo_lines: list[str]) -> None:
    state = TurnState(3, 1, 0, -2)
    turns = [history_turn(real_tokenizer, ids, line, state) for line in demo_lines[:-1]]
    turns.append(query_turn(real_tokenizer, ids, demo_lines[-1]))
    prompt = prompt_ids(ids, turns)
    assert prompt[0] == 1 and prompt[-1] == ids.ml
    assert len(prompt) < 4096
    assert prompt.count(ids.turn) == len(demo_lines)


def test_a_finished_turn_carries_its_state_tokens(ids: TokenIds, real_tokenizer: Any) -> None:
    turn = history_turn(real_tokenizer, ids, "Character: Qiqi; Motion: wave.", TurnState(2, -1, 4, -5))
    text = real_tokenizer.decode(list(turn.ids[turn.slots[1]:]))
    assert text.replace(" ", "") == ("</frame></img><ML><Strength_2></ML><SC><Strength_-1></SC><ET><Strength_4></ET>"
                                     "<ST><Strength_-5></ST></ST></TURN>")
    assert state_tokens(ids, TurnState(2, -1, 4, -5))[1] == real_tokenizer.convert_tokens_to_ids(strength_token(2))


class Scripted:
    """Next-token scores: ``favourites[i]`` gets 10, ``runner_up[i]`` 5, the rest 0."""

    def __init__(self, favourites: list[int], runners_up: list[int]) -> None:
        self.favourites, self.runners_up = favourites, runners_up
        self.fed: list[list[int]] = []

    def __call__(self, feed: list[int]) -> list[float]:
        self.fed.append(list(feed))
        step = len(self.fed) - 1
        scores = [0.0] * VOCABULARY
        scores[self.runners_up[step]] = 5.0
        scores[self.favourites[step]] = 10.0
        return scores


def test_state_is_decoded_under_the_grammar(ids: TokenIds, real_tokenizer: Any) -> None:
    s = ids.strength
    model = Scripted([s(4), s(-2), s(5), s(0)], [s(1), s(1), s(1), s(1)])
    decoded = decode_state(ids, model)
    assert decoded.state == TurnState(motion_level=4, social=-2, entertainment=5, stamina=0)
    assert decoded.warnings == ()
    # After each value the closing tag and the next opening tag are fed, as the model wrote them.
    assert model.fed == [[], [s(4), ids.end_ml, ids.sc], [s(-2), ids.end_sc, ids.et], [s(5), ids.end_et, ids.st]]
    text = real_tokenizer.decode([ids.ml, *decoded.tokens]).replace(" ", "")
    assert text == "<ML><Strength_4></ML><SC><Strength_-2></SC><ET><Strength_5></ET><ST><Strength_0>"


def test_an_invalid_motion_level_is_never_turned_into_the_maximum(ids: TokenIds, real_tokenizer: Any) -> None:
    """The release parses text and falls back to level 0, which its decoder plays as the largest
    motion (flow 40). Here the likeliest valid level wins, and a warning says what happened."""
    s = ids.strength
    words = real_tokenizer.encode("hello", add_special_tokens=False)[0]
    model = Scripted([s(0), words, s(3), s(-1)], [s(2), s(4), s(1), s(1)])
    decoded = decode_state(ids, model, describe=lambda t: real_tokenizer.convert_ids_to_tokens(t))
    assert decoded.state.motion_level == 2
    assert decoded.state.social == 4
    assert len(decoded.warnings) == 2
    assert "<Strength_0>" in decoded.warnings[0] and "<Strength_2>" in decoded.warnings[0]
    assert "social" in decoded.warnings[1]


def test_the_grammar_allows_levels_1_to_5_and_deltas_minus_5_to_5() -> None:
    assert SLOTS[0].values == (1, 2, 3, 4, 5)
    assert all(slot.values == tuple(range(-5, 6)) for slot in SLOTS[1:])
    with pytest.raises(ValueError):
        TurnState(0, 0, 0, 0)
