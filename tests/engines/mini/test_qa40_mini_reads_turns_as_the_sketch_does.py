"""The mini engine reads three kinds of turns as the sketch engine does. Before:

- a stand-in the sketch reads as a motion ("Qiqi chills on the couch": chill stands in for the
  idle) was left to the LM, which drew a drink, with no warning;
- a place that is no place of the world ("walks at the theatre", "runs in Mordor") was dropped
  without a word, and a capitalised one was read by the LM as a name (it drew "write");
- a Character field joining names ("Qiqi and Yuzu", "Qiqi & Yuzu", "美咲とゆず") was one unknown
  character, a random one of the mini cast drawn; "Character: she" too, and "She waves at Yuzu"
  drew Yuzu, not the branch's character.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.mini.rephrase import one_character, rephrase, unlearnt
from tests.engines.mini.qa40b_shipped import shipped_engine

CAST = ("Qiqi", "Sosuke", "Aoi", "Taro", "Yuzu")


@pytest.mark.parametrize(("text", "read", "warnings"), [
    ("Qiqi chills on the couch", "Qiqi idles", ("'chill' unknown, shown as 'idle'",)),
    ("Qiqi chills at the volcano", "Qiqi idles in the mountain",
     ("'chill' unknown, shown as 'idle'", "'volcano' unknown, shown as 'mountain'")),
    ("Background: couch; Motion: chill", "Background: bedroom; Motion: idle",
     ("'chill' unknown, shown as 'idle'", "'couch' unknown, shown as 'bedroom'")),
    ("Character: Qiqi; Motion: chilling; Background: sofa", "Character: Qiqi; Motion: idle; Background: bedroom",
     ("'chilling' unknown, shown as 'idle'", "'sofa' unknown, shown as 'bedroom'")),
    ("Qiqi is skating", "Qiqi runs", ("'skate' unknown, shown as 'run'",)),
    ("Qiqi skated happily in the park", "Qiqi happily runs in the park", ("'skate' unknown, shown as 'run'",)),
])
def test_a_stand_in_motion_reaches_the_lm_as_the_sketch_reads_it(text: str, read: str,
                                                                 warnings: tuple[str, ...]) -> None:
    rephrased = rephrase(parse_instruction(text), ("Qiqi",))
    assert rephrased.instruction.raw == read
    assert rephrased.warnings == warnings
    assert not unlearnt(read, ("Qiqi",))


@pytest.mark.parametrize(("text", "read"), [
    ("Qiqi runs in Mordor at night", "Qiqi runs at night"),
    ("Qiqi walks at the theatre", "Qiqi walks"),
])
def test_a_place_of_no_world_is_not_read_by_the_lm(text: str, read: str) -> None:
    assert rephrase(parse_instruction(text), ("Qiqi",)).instruction.raw == read


@pytest.mark.parametrize(("text", "raw", "actor", "warnings"), [
    ("Character: Qiqi and Yuzu; Motion: run", "Character: Qiqi; Motion: run", "Qiqi",
     ["'Yuzu' is not drawn: the mini model draws one character, Qiqi (it has no second character beside them); "
      "name 'Yuzu' in a turn of their own"]),
    ("Character: Qiqi & Yuzu; Motion: dance; Background: park", "Character: Qiqi; Motion: dance; Background: park",
     "Qiqi", ["'Yuzu' is not drawn: the mini model draws one character, Qiqi (it has no second character beside "
              "them); name 'Yuzu' in a turn of their own"]),
    ("Character: Bob and Yuzu; Motion: wave", "Character: Yuzu; Motion: wave", "Yuzu",
     ["'Bob' is not in the cast: drawn only Yuzu; add Bob to the cast to draw them too"]),
    ("Character: Qiqi and Qiqi; Motion: jump", "Character: Qiqi; Motion: jump", "Qiqi",
     ["'Qiqi' is named more than once in the Character field: drawn once"]),
    ("キャラクター：美咲とゆず；動作：走る", "キャラクター：美咲；動作：走る", "美咲",
     ["'ゆず' is not drawn: the mini model draws one character, 美咲 (it has no second character beside them); "
      "name 'ゆず' in a turn of their own"]),
    ("Character: she; Motion: run", "Character: Aoi; Motion: run", "Aoi", []),
    ("Motion: run; Character: she and Yuzu.", "Motion: run; Character: Aoi.", "Aoi",
     ["'Yuzu' is not drawn: the mini model draws one character, Aoi (it has no second character beside them); "
      "name 'Yuzu' in a turn of their own"]),
])
def test_a_character_field_of_several_or_a_pronoun_names_the_one_who_acts(text: str, raw: str, actor: str,
                                                                          warnings: list[str]) -> None:
    cast = (*CAST, "美咲", "ゆず")
    named = one_character(parse_instruction(text), cast, going_on="Aoi")
    assert named is not None
    assert (named.instruction.raw, named.instruction.character, named.actor) == (raw, actor, actor)
    assert named.warnings(cast) == warnings
    assert parse_instruction(raw).character == actor


@pytest.mark.parametrize(("text", "raw"), [("Character: she; Motion: run", "Motion: run"),
                                           ("Motion: run; Character: she.", "Motion: run."),
                                           ("Motion: run\nCharacter: they\nBackground: park", "Motion: run\n"
                                                                                              "Background: park")])
def test_a_pronoun_with_no_one_to_go_on_with_leaves_the_field_out(text: str, raw: str) -> None:
    """A turn of the branch: it goes on with whom it was read as then."""
    named = one_character(parse_instruction(text), CAST)
    assert named is not None and named.instruction.raw == raw
    assert parse_instruction(raw).character == ""


@pytest.mark.parametrize("text", ["Character: Qiqi; Motion: run", "Motion: run", "Character: Salt and Pepper",
                                  "Qiqi and Yuzu dance"])
def test_a_field_naming_one_character_or_none_is_left_alone(text: str) -> None:
    assert one_character(parse_instruction(text), (*CAST, "Salt and Pepper"), going_on="Aoi") is None


# through the shipped checkpoint, beside the sketch engine -----------------------------------------------------------

@pytest.fixture(scope="module")
def engines():  # type: ignore[no-untyped-def]
    from studio.engines.sketch.engine import SketchEngine

    mini = shipped_engine()
    sketch = SketchEngine()
    sketch.load()
    return mini, sketch


def _predict(engine, text: str, history: Sequence[tuple[str, str]] = (), cast: Sequence[str] = CAST,  # type: ignore[no-untyped-def]
             places: Sequence[str] = ()):
    """``text`` predicted by ``engine`` after turns ``history`` (text, the character drawn)."""
    from studio.core.model import CastMember, Location
    from studio.core.state import StateDeltas
    from studio.engines.catalog.mini import MiniSettings
    from studio.engines.catalog.sketch import SketchSettings
    from studio.engines.context import GenerationContext, TurnContext
    from studio.engines.mini.engine import MiniEngine

    state = GenerationContext().state
    turns = tuple(TurnContext(instruction=parse_instruction(said), state=state, deltas=StateDeltas(0, 0, 0),
                              motion_level=2, conditioning={"character": who}) for said, who in history)
    context = GenerationContext(history=turns, cast=tuple(CastMember(f"c{k}", name) for k, name in enumerate(cast)),
                                locations=tuple(Location(f"l{k}", name) for k, name in enumerate(places)))
    settings = MiniSettings.from_values({"steps": 1}) if isinstance(engine, MiniEngine) \
        else SketchSettings.from_values({"frames": 2, "height": 64, "width": 96})
    return engine.predict(context, parse_instruction(text), settings, 7)


@pytest.mark.parametrize(("text", "motion", "place"), [
    ("Qiqi chills on the couch", "idle", None),
    ("Qiqi chills at the volcano", "idle", "mountain"),
    ("Background: couch; Motion: chill", "idle", "bedroom"),
    ("Qiqi is skating", "run", None),
])
def test_a_stand_in_motion_is_drawn_and_warned_about_as_the_sketch_does(engines, text: str, motion: str,  # type: ignore[no-untyped-def]
                                                                        place: str | None) -> None:
    mini, sketch = engines
    drawn, read = _predict(mini, text), _predict(sketch, text)
    assert read.conditioning["motion"] == drawn.conditioning["motion"] == motion
    if place is not None:
        assert read.conditioning["location"] == drawn.conditioning["location"] == place
    unknown = [w for w in read.warnings if " unknown, shown as " in w]
    assert unknown and all(w in drawn.warnings for w in unknown), (read.warnings, drawn.warnings)
    assert not any("not a motion the mini model learnt" in w or "drawn as" in w for w in drawn.warnings)


@pytest.mark.parametrize(("text", "motion", "place"), [
    ("Qiqi walks at the theatre", "walk", "theatre"),
    ("Qiqi runs in Mordor at night", "run", "Mordor"),
])
def test_a_place_of_no_world_is_said_as_the_sketch_says_it(engines, text: str, motion: str, place: str) -> None:  # type: ignore[no-untyped-def]
    mini, sketch = engines
    drawn, read = _predict(mini, text), _predict(sketch, text)
    assert drawn.conditioning["motion"] == read.conditioning["motion"] == motion
    assert f"'{place}' is no place of this world, shown as '{read.conditioning['location']}'" in read.warnings
    assert f"'{place}' is no place of this world, shown as '{drawn.conditioning['location']}'" in drawn.warnings
    # a place of the project, or someone of the cast, is no such place
    assert not any("no place of this world" in w for w in _predict(mini, text, places=(place,)).warnings)
    assert not any("no place of this world" in w for w in _predict(mini, "Qiqi runs to Yuzu").warnings)


@pytest.mark.parametrize(("text", "actor", "left_out"), [
    ("Character: Qiqi and Yuzu; Motion: run", "Qiqi", "'Yuzu' is not drawn: the mini model draws one character, "
                                                      "Qiqi"),
    ("Character: Qiqi & Yuzu; Motion: dance; Background: park", "Qiqi", "'Yuzu' is not drawn"),
    ("Character: Yuzu, Aoi and Taro; Motion: wave", "Yuzu", "'Taro' is not drawn"),
    ("Character: Qiqi and Bob; Motion: wave", "Qiqi", "'Bob' is not in the cast: drawn only Qiqi; add Bob to the "
                                                      "cast to draw them too"),
    ("Character: Qiqi and Qiqi; Motion: jump", "Qiqi", "'Qiqi' is named more than once in the Character field: "
                                                       "drawn once"),
])
def test_a_character_field_of_several_acts_as_the_first_of_the_cast(engines, text: str, actor: str,  # type: ignore[no-untyped-def]
                                                                   left_out: str) -> None:
    mini, sketch = engines
    drawn, read = _predict(mini, text), _predict(sketch, text)
    assert drawn.conditioning["character"] == read.conditioning["character"] == actor
    assert any(w.startswith(left_out) for w in drawn.warnings), drawn.warnings
    assert not any("is not a character the mini model knows" in w for w in drawn.warnings), drawn.warnings
    # the sketch's own warnings for names outside the cast or given twice, word for word
    for warning in read.warnings:
        if "is not in the cast" in warning or "more than once" in warning:
            assert warning in drawn.warnings


def test_a_japanese_character_field_of_two_names_is_one_character(engines) -> None:  # type: ignore[no-untyped-def]
    mini, _sketch = engines
    drawn = _predict(mini, "キャラクター：美咲とゆず；動作：走る", cast=("美咲", "ゆず"))
    assert not any("美咲とゆず" in w for w in drawn.warnings), drawn.warnings
    assert any(w.startswith("'ゆず' is not drawn: the mini model draws one character, 美咲") for w in drawn.warnings)


@pytest.mark.parametrize("text", ["She waves", "She waves at Yuzu", "Character: she; Motion: run",
                                  "Character: her; Motion: dance; Background: park"])
def test_a_pronoun_goes_on_with_the_branch_s_character(engines, text: str) -> None:  # type: ignore[no-untyped-def]
    mini, sketch = engines
    history = [("Character: Aoi; Motion: walk; Background: park", "Aoi")]
    drawn, read = _predict(mini, text, history), _predict(sketch, text, history)
    assert drawn.conditioning["character"] == read.conditioning["character"] == "Aoi"
    assert not any("is not a character the mini model knows" in w or "read the character as" in w
                   for w in drawn.warnings), drawn.warnings


def test_a_pronoun_at_the_story_s_start_is_the_first_of_the_cast(engines) -> None:  # type: ignore[no-untyped-def]
    mini, sketch = engines
    for text in ("Character: she; Motion: run", "She waves at Yuzu"):
        drawn, read = _predict(mini, text, cast=("Taro", *CAST)), _predict(sketch, text, cast=("Taro", *CAST))
        assert drawn.conditioning["character"] == read.conditioning["character"] == "Taro", text


def test_a_branch_turn_of_several_or_a_pronoun_carries_its_actor_on(engines) -> None:  # type: ignore[no-untyped-def]
    mini, _sketch = engines
    made = _predict(mini, "Motion: jump", [("Character: Taro and Yuzu; Motion: run", "Taro")])
    assert made.conditioning["character"] == "Taro"
    assert not any("Taro and Yuzu" in w for w in made.warnings), made.warnings
    made = _predict(mini, "Motion: jump", [("Character: Yuzu; Motion: run", "Yuzu"),
                                           ("Character: she; Motion: sit", "Yuzu")])
    assert made.conditioning["character"] == "Yuzu"
    assert not any("'she'" in w for w in made.warnings), made.warnings


# found trying authors' turns through both engines -------------------------------------------------------------------

@pytest.mark.parametrize(("text", "read", "warnings"), [
    # a stand-in place beside a motion the sketch names: before, the place's warning made the motion "unsure"
    ("Qiqi waits at the airport", "Qiqi idles in the station", ("'airport' unknown, shown as 'station'",)),
    ("Qiqi relaxes in the bathroom", "Qiqi idles in the bedroom", ("'bathroom' unknown, shown as 'bedroom'",)),
    ("Qiqi sits at the airport", "Qiqi sits in the station", ("'airport' unknown, shown as 'station'",)),
    # a pronoun subject stays the subject, in the verb's form for it
    ("They laugh together in the garden", "They laugh in the garden", ()),
    ("He jogs across the park", "He runs in the park", ()),
])
def test_what_the_sketch_reads_beside_a_stand_in_or_a_pronoun_reaches_the_lm(text: str, read: str,
                                                                             warnings: tuple[str, ...]) -> None:
    rephrased = rephrase(parse_instruction(text), ("Qiqi",))
    assert (rephrased.instruction.raw, rephrased.warnings) == (read, warnings)


@pytest.mark.parametrize(("text", "motion", "place"), [("Qiqi waits at the airport", "idle", "station"),
                                                       ("Qiqi relaxes in the bathroom", "idle", "bedroom")])
def test_a_stand_in_place_beside_a_named_motion_is_drawn_as_the_sketch_does(engines, text: str, motion: str,  # type: ignore[no-untyped-def]
                                                                            place: str) -> None:
    mini, sketch = engines
    drawn, read = _predict(mini, text), _predict(sketch, text)
    assert (read.conditioning["motion"], read.conditioning["location"]) == (motion, place)
    assert (drawn.conditioning["motion"], drawn.conditioning["location"]) == (motion, place)
    assert f"'{text.split()[-1]}' unknown, shown as '{place}'" in drawn.warnings


@pytest.mark.parametrize("text", ["They laugh together in the garden", "キキが公園で走る", "Motion: jump."])
def test_a_turn_naming_no_one_at_the_story_s_start_is_the_first_of_the_cast(engines, text: str) -> None:  # type: ignore[no-untyped-def]
    """As the story says who acts, and the sketch engine draws them (キキ is no one of this cast)."""
    mini, sketch = engines
    cast = ("Taro", *CAST[:3])
    drawn, read = _predict(mini, text, cast=cast), _predict(sketch, text, cast=cast)
    assert drawn.conditioning["character"] == read.conditioning["character"] == "Taro"


def test_the_first_of_the_cast_the_model_does_not_know_is_said_as_such(engines) -> None:  # type: ignore[no-untyped-def]
    mini, _sketch = engines
    drawn = _predict(mini, "Motion: jump.", cast=("Hana", "Qiqi"))
    assert any(w.startswith("'Hana' is not a character the mini model knows (the first of the cast, who acts while "
                            "no turn has named anyone); it draws one of its cast") for w in drawn.warnings), \
        drawn.warnings
    assert not any("from the earlier turns" in w for w in drawn.warnings), drawn.warnings
