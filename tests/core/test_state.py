import pytest

from studio.core.state import CharacterState, StateDeltas


def test_rule_start_50_five_times_delta_clamped():
    state = CharacterState()
    assert state.as_dict() == {"stamina": 50, "social": 50, "entertainment": 50}
    state = state.apply(StateDeltas(-3, 2, 5))
    assert state.as_dict() == {"stamina": 35, "social": 60, "entertainment": 75}
    for _ in range(5):
        state = state.apply(StateDeltas(-5, 5, 5))
    assert state.as_dict() == {"stamina": 0, "social": 100, "entertainment": 100}


@pytest.mark.parametrize("bad", [6, -6, 1.5, True])
def test_deltas_validated(bad):
    with pytest.raises(ValueError):
        StateDeltas(stamina=bad)


def test_clamped_constructor():
    assert StateDeltas.clamped(9.6, -7, 0.4) == StateDeltas(5, -5, 0)
