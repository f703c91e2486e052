"""The mini engine reads what the sketch engine understands in words its LM never learnt (a
synonym beside a word it never saw, a stand-in such as volcano, a typo, speech in quotes) as the
sketch world's own words, and warns as the sketch engine does. Before, "Qiqi sprints across the
park" was drawn as a talk, "Qiqi rnus" as a drink and "Qiqi says: 'let's run!'" as a run, with
no warning or a vague one. A turn in words the LM learnt is read exactly as before."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from studio.core.instruction import parse_instruction
from studio.engines.mini.rephrase import Rephrased, learnt_words, rephrase, unlearnt
from tests.engines.mini.qa40b_shipped import shipped_engine

ORDINARY = [  # the README's turns and the tests', in words the LM learnt (one that names no motion, "Character:
    # Qiqi", "Qiqi is at the shop", is told as the idle the sketch draws: test_qa40b_no_motion_is_the_sketch_idle)
    "Character: Qiqi; Motion: run; Background: day town",
    "Motion: jump.",
    "Motion: wave.",
    "Qiqi eats bread slowly in the bakery at night",
    "Qiqi waves at Yuzu",
    "Aoi waves at Yuzu in the classroom",
    "Character: Qiqi; Motion: gently sit on railing; Background: day town.",
    "Character: Qiqi; Motion: run.",
    "Character: Qiqi; Motion: run; Background: park.",
    "Then Aoi wants to dance near the fountain at night",
    "Character: Qiqi; Motion: walk; she is still walking",
    "Character: Yuzu; Motion: wave; Background: park; Time: sunset.",
    "Qiqi dances",
    "Qiqi runs in the park",
    "Taro looks around at sunset",
    "Taro looks around, camera static",
    "Yuzu waves",
    "Qiqi sprints in the park",
    "Qiqi talks",
]


@pytest.mark.parametrize(("text", "read", "warnings"), [
    ("Qiqi sprints across the park", "Qiqi runs in the park", ()),
    ("Qiqi dashes across the park", "Qiqi runs in the park", ()),
    ("Qiqi rnus", "Qiqi runs", ("'rnus' unknown, shown as 'run'",)),
    ("Qiqi takes a shower", "Qiqi swims", ("'shower' unknown, shown as 'swim'",)),
    ("Character: Qiqi; Motion: run; Background: volcano", "Character: Qiqi; Motion: run; Background: mountain",
     ("'volcano' unknown, shown as 'mountain'",)),
    ("Qiqi says: 'let's run!'", "Qiqi talks", ()),
    ("Character: Qiqi; Motion: quickly sprnt; Background: prak; Time: evenign.",
     "Character: Qiqi; Motion: quickly run; Background: park; Time: sunset.",
     ("'sprnt' unknown, shown as 'run'", "'prak' unknown, shown as 'park'", "'evenign' unknown, shown as 'sunset'")),
    ("Hana sprints across the beach", "Hana runs in the beach", ()),  # a name it never learnt stays
])
def test_what_the_sketch_understands_is_given_in_learnt_words(text: str, read: str,
                                                               warnings: tuple[str, ...]) -> None:
    rephrased = rephrase(parse_instruction(text), ("Qiqi",))
    assert rephrased.instruction.raw == read
    assert rephrased.warnings == warnings
    assert not unlearnt(read, ("Qiqi", "Hana"))


@pytest.mark.parametrize("text", ORDINARY)
def test_a_turn_in_learnt_words_is_left_as_it_is(text: str) -> None:
    written = parse_instruction(text)
    assert unlearnt(text) == []
    assert rephrase(written, ("Qiqi", "Yuzu")) == Rephrased(written)


@pytest.mark.parametrize("text", ["Character: Zed; Motion: run; Background: atlantis"])
def test_what_the_sketch_only_guesses_is_left_to_the_model(text: str) -> None:
    """Words the sketch reads as its default place (the default town) are not its reading. (A motion
    it does not know is told as it draws it: test_qa40b_no_motion_is_the_sketch_idle.)"""
    written = parse_instruction(text)
    assert rephrase(written).instruction.raw == written.raw


def test_the_learnt_words_are_those_of_the_training_texts() -> None:
    words = learnt_words()
    assert {"qiqi", "runs", "sprints", "dashes", "park", "mountain", "sunset", "quickly", "character"} <= words
    assert not {"across", "volcano", "shower", "rnus"} & words


# through the shipped checkpoint -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def engine():  # type: ignore[no-untyped-def]
    return shipped_engine()


def _predict(engine, text: str, seed: int = 7):  # type: ignore[no-untyped-def]
    from studio.engines.catalog.mini import MiniSettings
    from studio.engines.context import GenerationContext

    return engine.predict(GenerationContext(), parse_instruction(text), MiniSettings.from_values({"steps": 1}), seed)


@pytest.mark.parametrize(("text", "motion", "place", "warning"), [
    ("Qiqi sprints across the park", "run", "park", None),
    ("Qiqi dashes across the park", "run", "park", None),
    ("Qiqi rnus", "run", None, "'rnus' unknown, shown as 'run'"),
    ("Qiqi takes a shower", "swim", None, "'shower' unknown, shown as 'swim'"),
    ("Character: Qiqi; Motion: run; Background: volcano", "run", "mountain", "'volcano' unknown, shown as 'mountain'"),
    ("Qiqi says: 'let's run!'", "talk", None, None),
])
def test_the_model_draws_what_the_sketch_reads(engine, text: str, motion: str, place: str | None,  # type: ignore[no-untyped-def]
                                               warning: str | None) -> None:
    prediction = _predict(engine, text)
    assert prediction.conditioning["motion"] == motion
    if place is not None:
        assert prediction.conditioning["location"] == place
    if warning is not None:
        assert warning in prediction.warnings
    assert not any("it chooses one itself" in w for w in prediction.warnings), prediction.warnings
    # exactly as the turn written in the words it learnt
    same = _predict(engine, rephrase(parse_instruction(text), ("Qiqi",)).instruction.raw)
    np.testing.assert_array_equal(prediction.representation, same.representation)
    assert (prediction.deltas, prediction.motion_level) == (same.deltas, same.motion_level)


def test_a_synonym_beside_an_unlearnt_word_keeps_the_runs_deltas(engine) -> None:  # type: ignore[no-untyped-def]
    """Before, "dashes across the park" was a run with the talk's social gain."""
    dashes, runs = _predict(engine, "Qiqi dashes across the park"), _predict(engine, "Qiqi runs in the park")
    assert dashes.deltas == runs.deltas


def test_turns_in_learnt_words_predict_as_without_the_rephrasing(engine, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from studio.engines.mini import engine as module

    now = [_predict(engine, text, seed) for seed, text in enumerate(ORDINARY)]
    monkeypatch.setattr(module, "rephrase", lambda instruction, _names=(): Rephrased(instruction))
    before = [_predict(engine, text, seed) for seed, text in enumerate(ORDINARY)]
    for text, a, b in zip(ORDINARY, now, before, strict=True):
        assert (a.deltas, a.motion_level, a.conditioning) == (b.deltas, b.motion_level, b.conditioning), text
        np.testing.assert_array_equal(a.representation, b.representation)
        assert a.warnings == b.warnings, text


@pytest.mark.parametrize("text", ["slipping Qiqi", "Motion: cry out idle", "pointing sky Sosuke",
                                  "Gandalf runs quickly in Mordor at night", *ORDINARY[:8]])
def test_a_model_reading_other_than_the_sketchs_is_said(engine, text: str) -> None:  # type: ignore[no-untyped-def]
    from studio.engines.sketch.understanding import Reading, read_motion

    prediction = _predict(engine, text)
    reading = Reading()
    read_motion(parse_instruction(text), reading)
    drawn = [w for w in prediction.warnings if "motion is drawn as" in w]
    if not reading.warnings and reading.motion.name != "idle" \
            and prediction.conditioning["motion"] != reading.motion.name:
        assert drawn == [f"the mini model's motion is drawn as '{prediction.conditioning['motion']}' though the turn "
                         f"reads '{reading.motion.name}' (re-roll, or write it as 'Motion: {reading.motion.name}')"]
    else:
        assert drawn == []


def test_the_drawn_warning_names_what_was_drawn_and_what_the_turn_reads() -> None:
    from studio.engines.mini.engine import _drawn_warnings

    turn = parse_instruction("Qiqi runs in the park")
    assert _drawn_warnings(turn, {"motion": "talk", "location": "park"}, []) == [
        "the mini model's motion is drawn as 'talk' though the turn reads 'run' (re-roll, or write it as "
        "'Motion: run')"]
    assert _drawn_warnings(turn, {"motion": "run", "location": "beach"}, []) == [
        "the mini model's place is drawn as 'beach' though the turn reads 'park' (re-roll, or write it as "
        "'Background: park')"]
    assert _drawn_warnings(turn, {"motion": "run", "location": "park"}, []) == []
    # a turn the sketch itself is unsure of is warned about otherwise
    assert _drawn_warnings(parse_instruction("Qiqi rnus"), {"motion": "drink"}, []) == []


def test_play_warns_about_the_typo_and_draws_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    from studio.cli import main

    project = tmp_path / "p.kamishibai"
    assert main(["new", str(project)]) == 0
    capsys.readouterr()
    code = main(["play", str(project), "--engine", "mini", "--json", "--seed", "7", "-i", "Qiqi rnus",
                 "--setting", "steps=1", "--setting", "height=64", "--setting", "width=96"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    text = json.dumps(result)
    assert "'rnus' unknown, shown as 'run'" in text, text
    assert "it chooses one itself" not in text
