"""World rules: stamina, social and entertainment deltas."""

from __future__ import annotations

from studio.core.instruction import parse_instruction
from studio.core.state import CharacterState, StateDeltas
from studio.engines.base import GenerationContext
from studio.engines.sketch.rules import RuleInput, base_deltas, predict_deltas
from studio.engines.sketch.vocabulary import MOTION_BY_NAME, MOTIONS

from .sketch_helpers import MEDIUM, START, as_turn, options


def run_turns(engine, text: str, turns: int, state: CharacterState = START):  # type: ignore[no-untyped-def]
    history = ()
    for seed in range(turns):
        ctx = GenerationContext(state=state, history=history)
        pred = engine.predict(ctx, parse_instruction(text), options(MEDIUM), seed)
        state = state.apply(pred.deltas)
        history = (*history, as_turn(pred, text, state))
    return state


def test_ten_turns_of_running_drain_stamina(engine) -> None:  # type: ignore[no-untyped-def]
    state = run_turns(engine, "Character: Qiqi; Motion: run; Background: day town.", 10)
    assert state.stamina == 0


def test_sleep_restores_stamina(engine) -> None:  # type: ignore[no-untyped-def]
    tired = CharacterState(stamina=10, social=50, entertainment=50)
    state = run_turns(engine, "Character: Qiqi; Motion: sleep; Background: night bedroom.", 3, tired)
    assert state.stamina >= 10 + 3 * 5 * 3
    one = engine.predict(GenerationContext(state=tired),
                         parse_instruction("Character: Qiqi; Motion: sleep; Background: night bedroom."),
                         options(MEDIUM), 0)
    assert one.deltas.stamina >= 3


def test_rest_and_food_restore_effort_costs() -> None:
    state = CharacterState()
    for name in ("sit", "lie down", "eat", "drink", "sleep"):
        sta, _, _, _ = base_deltas(RuleInput(MOTION_BY_NAME[name], 1, "day", False, False, state))
        assert sta > 0, name
    for name in ("walk", "run", "jump", "climb", "fly on broomstick", "dance", "swim"):
        sta, _, _, _ = base_deltas(RuleInput(MOTION_BY_NAME[name], 3, "day", False, False, state))
        assert sta < 0, name


def test_effort_grows_with_motion_level() -> None:
    run = MOTION_BY_NAME["run"]
    costs = [base_deltas(RuleInput(run, level, "day", False, False, CharacterState()))[0] for level in range(1, 6)]
    assert costs == sorted(costs, reverse=True)
    assert costs[0] > costs[-1]


def test_social_rules(engine) -> None:  # type: ignore[no-untyped-def]
    for motion in ("talk", "wave", "meet people", "hug"):
        pred = engine.predict(GenerationContext(),
                              parse_instruction(f"Character: Qiqi; Motion: {motion}; Background: day town."),
                              options(MEDIUM), 3)
        assert pred.deltas.social > 0, motion
    quiet = engine.predict(GenerationContext(),
                           parse_instruction("Character: Qiqi; Motion: read; Background: day library."),
                           options(MEDIUM), 3)
    assert quiet.deltas.social == 0


def test_entertainment_rules() -> None:
    state = CharacterState()
    for name in ("play", "dance", "fly on broomstick", "spin", "sing"):
        assert base_deltas(RuleInput(MOTION_BY_NAME[name], 3, "day", False, False, state))[2] > 0, name
    for name in ("cry", "fall"):
        assert base_deltas(RuleInput(MOTION_BY_NAME[name], 3, "day", False, False, state))[2] < 0, name


def test_busy_place_and_night_modifiers() -> None:
    talk = MOTION_BY_NAME["talk"]
    quiet = base_deltas(RuleInput(talk, 2, "day", False, False, CharacterState()))[1]
    busy = base_deltas(RuleInput(talk, 2, "day", True, False, CharacterState()))[1]
    assert busy == quiet + 1
    run = MOTION_BY_NAME["run"]
    assert base_deltas(RuleInput(run, 3, "night", False, False, CharacterState()))[0] == \
        base_deltas(RuleInput(run, 3, "day", False, False, CharacterState()))[0] - 1


def test_deltas_are_valid_deterministic_and_bounded_for_every_motion() -> None:
    for motion in MOTIONS:
        for level in range(1, 6):
            inp = RuleInput(motion, level, "day", True, True, CharacterState(stamina=5, social=95, entertainment=95))
            base = base_deltas(inp)[:3]
            for seed in range(6):
                deltas, _ = predict_deltas(inp, seed)
                assert isinstance(deltas, StateDeltas)
                assert deltas == predict_deltas(inp, seed)[0]
                for value, rule in zip(deltas.as_dict().values(), base, strict=True):
                    assert -5 <= value <= 5
                    assert abs(value - max(-5, min(5, rule))) <= 1
                    assert (value > 0) == (rule > 0) and (value < 0) == (rule < 0)


def test_seed_varies_deltas_a_little() -> None:
    inp = RuleInput(MOTION_BY_NAME["run"], 4, "day", False, False, CharacterState())
    values = {predict_deltas(inp, seed)[0].stamina for seed in range(30)}
    assert len(values) > 1
    assert max(values) - min(values) <= 2


def test_world_rules_doc_lists_every_motion_and_location() -> None:
    from pathlib import Path

    from studio.engines.sketch.vocabulary import LOCATIONS

    doc = (Path(__file__).resolve().parents[2] / "docs" / "WORLD_RULES.md").read_text()
    for motion in MOTIONS:
        assert f"| {motion.name} |" in doc, motion.name
    for loc in LOCATIONS:
        assert f"| {loc.name} |" in doc, loc.name
