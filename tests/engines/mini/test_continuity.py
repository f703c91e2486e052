"""The shipped mini model keeps a branch's character, place and time of day from turn to turn
(the instruction it reads is completed from the branch), warns when it reads another
character than the turn names, and names only the fields it really left unread."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.core.instruction import parse_instruction  # noqa: E402
from studio.engines.base import Engine, Prediction  # noqa: E402
from studio.engines.catalog.mini import MiniSettings  # noqa: E402
from studio.engines.context import GenerationContext, TurnContext  # noqa: E402
from studio.engines.continuity import CONTINUED_KEY  # noqa: E402
from studio.engines.mini.engine import MiniEngine  # noqa: E402
from studio.engines.sketch.engine import SketchEngine  # noqa: E402
from tests.engines.mini.qa40b_shipped import shipped_engine  # noqa: E402

SETTINGS = MiniSettings.from_values({"steps": 1, "height": 64, "width": 96, "frames": 5})


@pytest.fixture(scope="module")
def engine() -> MiniEngine:
    return shipped_engine()  # type: ignore[no-any-return]


def _play(turns: Sequence[tuple[Engine, str]], seed: int = 1) -> list[Prediction]:
    """Each turn predicted after the ones before it, the context cut to two turns as the worker cuts it."""
    history: list[TurnContext] = []
    made = []
    for engine, text in turns:
        instruction = parse_instruction(text)
        settings = SETTINGS if isinstance(engine, MiniEngine) else engine.info.settings()
        prediction = engine.predict(GenerationContext(history=tuple(history[-2:])), instruction, settings, seed)
        made.append(prediction)
        history.append(TurnContext(instruction=instruction, state=GenerationContext().state,
                                   deltas=prediction.deltas, motion_level=prediction.motion_level,
                                   engine=engine.name, conditioning=prediction.conditioning))
    return made


def _read(prediction: Prediction) -> tuple[str, str, str]:
    read = prediction.conditioning
    return read["character"], read["location"], read["time_of_day"]


def test_turns_that_name_only_their_motion_keep_the_branch_character_place_and_time(engine: MiniEngine) -> None:
    texts = ("Character: Yuzu; Motion: walk; Background: night bakery.", "Motion: jump.", "Motion: sit.",
             "Motion: wave.")
    made = _play([(engine, text) for text in texts])
    assert [_read(p) for p in made] == [("Yuzu", "bakery", "night")] * 4
    assert [p.conditioning["motion"] for p in made] == ["walk", "jump", "sit", "wave"]
    assert CONTINUED_KEY not in made[0].conditioning  # the first turn names everything itself
    assert made[3].conditioning[CONTINUED_KEY] == {"character": "Yuzu", "location": "bakery", "time_of_day": "night"}
    assert all(not p.warnings for p in made), [p.warnings for p in made]


def test_a_mini_turn_after_sketch_turns_continues_their_story(engine: MiniEngine) -> None:
    sketch = SketchEngine()
    sketch.load()
    made = _play([(sketch, "Character: Yuzu; Motion: walk; Background: night bakery."), (sketch, "Motion: jump."),
                  (sketch, "Motion: sit."), (engine, "Motion: wave.")])
    assert _read(made[3]) == ("Yuzu", "bakery", "night")
    assert made[3].conditioning["motion"] == "wave"


def test_the_turn_s_own_fields_win_over_the_branch(engine: MiniEngine) -> None:
    made = _play([(engine, "Character: Yuzu; Motion: walk; Background: night bakery."),
                  (engine, "Character: Qiqi; Motion: run; Background: day town.")])
    assert _read(made[1]) == ("Qiqi", "town", "day")
    assert CONTINUED_KEY not in made[1].conditioning


def test_a_name_in_the_free_text_that_misleads_the_model_is_warned_about(engine: MiniEngine) -> None:
    text = "Character: Qiqi; Motion: gently sit on railing; Background: day town; Yuzu watches"
    prediction = engine.predict(GenerationContext(), parse_instruction(text), SETTINGS, 1)
    assert prediction.conditioning["character"] == "Yuzu"  # the shipped model's reading (its heads' argmax)
    assert any("read the character as 'Yuzu', though the turn names 'Qiqi'" in w and "leave it out, or re-roll" in w
               for w in prediction.warnings), prediction.warnings
    plain = engine.predict(GenerationContext(), parse_instruction("Character: Qiqi; Motion: run; Background: town."),
                           SETTINGS, 1)
    assert plain.conditioning["character"] == "Qiqi" and not plain.warnings


def test_only_the_fields_past_the_token_limit_are_named_as_unread(engine: MiniEngine) -> None:
    instruction = parse_instruction(
        "Character: Qiqi; Motion: wave; Background: day park; then she says hello to the many friends who came "
        "along with her today, and everyone in the park waves back at Qiqi and at the park")
    note = next(w for w in engine.predict(GenerationContext(), instruction, SETTINGS, 1).warnings if "tokens" in w)
    assert "not read in full" not in note and note.endswith("(shorten it)"), note


def test_a_character_the_model_does_not_know_is_warned_about_when_continued_too(engine: MiniEngine) -> None:
    sketch = SketchEngine()
    sketch.load()
    made = _play([(sketch, "Character: Hana; Motion: run; Background: day town."), (engine, "Motion: jump.")])
    assert made[1].conditioning[CONTINUED_KEY]["character"] == "Hana"
    assert any("'Hana' is not a character the mini model knows (this turn continues it" in w
               for w in made[1].warnings), made[1].warnings
