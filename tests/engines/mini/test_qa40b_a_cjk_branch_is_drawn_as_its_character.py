"""Every turn of a Japanese or Korean branch is drawn as the branch's character, and nothing says
otherwise. A past run drew each turn of a Japanese branch as another character of the mini cast
while its warning named the branch's; this pins that it is drawn as the branch goes on."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.state import CharacterState
from tests.engines.mini.qa40b_shipped import predict, shipped_engine


@pytest.fixture(scope="module")
def engine():  # type: ignore[no-untyped-def]
    return shipped_engine()


BRANCHES = [
    ["キャラクター：Yuzu；動作：走る；背景：公園", "歩く", "公園で踊る", "彼女は座る", "ジャンプする"],
    ["Taroは公園で走る", "歩く", "夜に踊る"],
    ["캐릭터: Yuzu; 동작: 달린다; 배경: 공원", "걷는다", "공원에서 춤춘다", "그녀는 앉는다"],
    ["Taro는 공원에서 달린다", "걷는다", "춤춘다"],
]


@pytest.mark.parametrize("turns", BRANCHES)
def test_each_turn_is_drawn_as_the_branch_character(engine, turns: list[str]) -> None:  # type: ignore[no-untyped-def]
    from studio.engines.context import TurnContext
    from studio.engines.mini.config import REP_SPACE

    who = "Yuzu" if "Yuzu" in turns[0] else "Taro"
    history: list[TurnContext] = []
    state = CharacterState()
    for text in turns:
        prediction = predict(engine, text, state, history=history)
        assert prediction.conditioning["character"] == who, (text, prediction.conditioning)
        named = [w for w in prediction.warnings if "character" in w and "camera" not in w]
        assert not named, (text, named)  # no warning that it read, or drew, another character
        history.append(TurnContext(instruction=parse_instruction(text), state=state, deltas=prediction.deltas,
                                   motion_level=prediction.motion_level, engine="mini",
                                   representation_space=REP_SPACE, representation=prediction.representation,
                                   conditioning=prediction.conditioning))
        state = state.apply(prediction.deltas)
