"""What a mini turn says when it names what the model never saw: a character of the user's own
cast (in the Character field, or only in the text, as the story tree attributes the turn), and
a place of the project that has a picture of its own. Before, a cast member named only in the
text got no warning at all, the warning for an unknown character did not say whom the model
drew instead, and a pictured place whose name holds a word the model knows ("Grandma's
Garden") was silently drawn as one of its own places, and a Time field naming no time of day
it learnt ("Time: golden hour") was drawn as one without a word (the sketch engine warns)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.core.instruction import parse_instruction
from studio.core.model import CastMember, Location
from studio.engines.base import EngineConfig
from studio.engines.catalog.mini import MiniSettings
from studio.engines.context import GenerationContext, TurnContext
from studio.engines.mini.engine import MiniEngine

SETTINGS = MiniSettings.from_values({"steps": 1, "height": 32, "width": 48, "frames": 5})
CAST = (CastMember(id="c1", name="Hana"), CastMember(id="c2", name="Qiqi"))
GARDEN = Location(id="l1", name="Grandma's Garden", kind="image", image_path="garden.png")
PLAIN = Location(id="l2", name="Old Town", kind="builtin")


@pytest.fixture(scope="module")
def engine(tiny: Path) -> MiniEngine:
    made = MiniEngine(EngineConfig(checkpoints=tiny.parent, threads=1))
    made.load()
    return made


def _warnings(engine: MiniEngine, text: str, context: GenerationContext | None = None) -> tuple[tuple[str, ...], dict]:
    prediction = engine.predict(context or GenerationContext(cast=CAST, locations=(GARDEN, PLAIN)),
                                parse_instruction(text), SETTINGS, 4)
    return prediction.warnings, dict(prediction.conditioning)


def test_a_cast_member_named_only_in_the_text_is_warned_about_and_whom_it_drew_is_named(engine: MiniEngine) -> None:
    warned, read = _warnings(engine, "Hana waves in the park.")
    note = next((w for w in warned if "'Hana' is not a character the mini model knows" in w), None)
    assert note is not None, warned
    assert "(named in the turn's text)" in note and f"instead: '{read['character']}'" in note, note
    warned, read = _warnings(engine, "Character: Hana; Motion: wave; Background: park.")
    assert f"'Hana' is not a character the mini model knows; it draws one of its cast instead: " \
           f"'{read['character']}'" in warned, warned
    # one of its own cast named in the text: nothing to warn about
    assert not any("not a character" in w for w in _warnings(engine, "Qiqi waves in the park.")[0])


def test_a_place_with_its_own_picture_says_the_model_draws_one_of_its_own(engine: MiniEngine) -> None:
    for text in ("Character: Qiqi; Motion: wave; Background: grandma's garden.", "Qiqi waves in Grandma's Garden."):
        warned, read = _warnings(engine, text)
        pictured = [w for w in warned if "'Grandma's Garden' is a place of this project with its own picture" in w]
        assert len(pictured) == 1 and f"it read it as '{read['location']}'" in pictured[0], warned
        assert not any("not a place the mini model learnt" in w for w in warned), warned  # said once
    # a project place without a picture, or a place of the model's own: no such warning
    assert not any("picture" in w for w in _warnings(engine, "Character: Qiqi; Motion: wave; Background: park.")[0])
    assert not any("picture" in w for w in _warnings(engine, "Character: Qiqi; Motion: wave; Background: old town.")[0])


def test_a_pictured_place_continued_from_the_branch_is_warned_about(engine: MiniEngine) -> None:
    first = parse_instruction("Character: Qiqi; Motion: wave; Background: Grandma's Garden.")
    earlier = engine.predict(GenerationContext(cast=CAST, locations=(GARDEN,)), first, SETTINGS, 1)
    turn = TurnContext(instruction=first, state=GenerationContext().state, deltas=earlier.deltas,
                       motion_level=earlier.motion_level, engine="mini", conditioning=earlier.conditioning)
    warned, _read = _warnings(engine, "Motion: jump.", GenerationContext(history=(turn,), cast=CAST,
                                                                         locations=(GARDEN,)))
    assert any("'Grandma's Garden' is a place of this project with its own picture (this turn continues it from "
               "the earlier turns)" in w for w in warned), warned


def test_a_time_of_day_it_never_learnt_says_which_it_drew(engine: MiniEngine) -> None:
    warned, read = _warnings(engine, "Character: Qiqi; Motion: run; Background: town; Time: golden hour.")
    assert f"'golden hour' is not a time of day the mini model learnt; it read it as '{read['time_of_day']}'" \
        in warned, warned
    for known in ("sunset", "3pm", "midnight"):  # the world's words and clock times are read, not warned about
        said = f"Character: Qiqi; Motion: run; Background: town; Time: {known}."
        assert not any("time of day the mini model learnt" in w for w in _warnings(engine, said)[0])
