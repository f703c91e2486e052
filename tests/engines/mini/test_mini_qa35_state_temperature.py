"""The mini engine's "State temperature" setting changes the predicted deltas.

The LM learnt the sketch world's rule without the variation the world adds from each take's
seed, and it is sure of it: sampling its own choices at temperature 2 left the deltas of every
ordinary turn as they were at 0, so the setting did nothing a user could see. Above 0 the
deltas now vary by the seed as the world's do: one step either way, never changing sign,
never lifting a gain above the world's cap; the same seed gives the same deltas."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.core.instruction import parse_instruction  # noqa: E402
from studio.core.state import CharacterState  # noqa: E402
from studio.engines.catalog.mini import MiniSettings  # noqa: E402
from studio.engines.context import GenerationContext  # noqa: E402
from studio.engines.mini.engine import MiniEngine, varied_deltas  # noqa: E402
from tests.engines.mini.qa40b_shipped import shipped_engine  # noqa: E402

TURN = parse_instruction("Character: Qiqi; Motion: jump; Background: day town.")


@pytest.fixture(scope="module")
def engine() -> MiniEngine:
    return shipped_engine()  # type: ignore[no-any-return]


def _deltas(engine: MiniEngine, temperature: float, seed: int) -> tuple[int, int, int]:
    settings = MiniSettings.from_values({"temperature": temperature})
    deltas = engine.predict(GenerationContext(), TURN, settings, seed).deltas
    return deltas.stamina, deltas.social, deltas.entertainment


def test_a_temperature_above_zero_varies_the_deltas_by_the_seed(engine: MiniEngine) -> None:
    greedy = {_deltas(engine, 0.0, seed) for seed in range(6)}
    assert len(greedy) == 1  # 0: the rule, whatever the seed
    rule = next(iter(greedy))
    warm = [_deltas(engine, 1.0, seed) for seed in range(6)]
    assert len(set(warm)) > 1, warm  # the setting does something
    for deltas in warm:
        for value, base in zip(deltas, rule, strict=True):
            assert abs(value - base) <= 1 and (value > 0) == (base > 0) and (value < 0) == (base < 0), (deltas, rule)
    assert [_deltas(engine, 1.0, seed) for seed in range(6)] == warm  # the same seed, the same deltas


def test_the_variation_follows_the_worlds_rule() -> None:
    middle = CharacterState(50, 50, 50)
    assert varied_deltas((-3, 2, 0), 0.0, 5, middle) == (-3, 2, 0)
    seen = [varied_deltas((-3, 2, 0), 2.0, seed, middle) for seed in range(40)]
    assert all(third == 0 for _a, _b, third in seen)  # a zero delta stays zero
    assert {first for first, _b, _c in seen} == {-4, -2} and {second for _a, second, _c in seen} == {1, 3}
    # a stat at 90 or more gains at most +1; an edge delta stays in -5..5
    full = CharacterState(50, 95, 95)
    assert all(varied_deltas((-5, 1, 1), 2.0, seed, full)[1:] == (1, 1) for seed in range(40))
    assert all(varied_deltas((-5, 1, 1), 2.0, seed, full)[0] in (-5, -4) for seed in range(40))
    # how often a delta moves grows with the temperature (1: a quarter of turns each way, as the world)
    moved = [sum(varied_deltas((3, 3, 3), t, seed, middle)[0] != 3 for seed in range(400)) for t in (0.5, 1.0, 2.0)]
    assert moved[0] < moved[1] < moved[2] == 400 and 150 < moved[1] < 250, moved
