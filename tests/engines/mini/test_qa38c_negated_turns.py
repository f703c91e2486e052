"""The mini engine reads a Japanese, Chinese or Korean turn that says its motion is not done as
the sketch engine does: idle. Before, the LM was given "민수 not run." (it learnt no "not run")
and drew the run at level 4. English turns are read exactly as before."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from studio.core.instruction import parse_instruction
from studio.core.model import CastMember
from studio.engines.base import EngineConfig, GenerationContext
from studio.engines.catalog.mini import MiniSettings
from studio.engines.continuity import Setting
from studio.engines.mini.completion import complete, english_turn, lm_text, not_done_warnings

NAMES = ["민수", "美咲", "小美", "Qiqi"]


@pytest.mark.parametrize(("text", "read"), [
    ("민수는 달리지 않는다", "민수 idle."),
    ("캐릭터: 민수; 동작: 안 달리기; 배경: 공원", "Character: 민수; Motion: idle; Background: park."),
    ("美咲が夜の港で走らない", "美咲 night harbour idle."),
    ("小美不跑", "小美 idle."),
    ("민수는 달리지 않고 걷는다", "민수 idle, walk."),  # the walk is done
])
def test_a_motion_not_done_reaches_the_model_as_idle(text: str, read: str) -> None:
    english = english_turn(parse_instruction(text), NAMES)
    assert lm_text(english) == read
    assert complete(english, Setting(), NAMES).text.startswith(read.rstrip("."))


def test_a_motion_done_reads_as_before() -> None:
    english = english_turn(parse_instruction("민수가 공원에서 달린다"), NAMES)
    assert lm_text(english) == english.raw == "민수 park run."


@pytest.mark.parametrize("text", [
    "Qiqi doesn't run in the park", "Qiqi not run.", "Character: Qiqi; Motion: does not run, walks; Background: park",
])
def test_an_english_turn_is_read_byte_for_byte(text: str) -> None:
    written = parse_instruction(text)
    assert english_turn(written, NAMES) is written
    assert lm_text(written) == written.raw
    assert complete(written, Setting("Qiqi", "park", "day"), NAMES).text.startswith(text.rstrip("."))
    assert not_done_warnings(written, NAMES) == []


@pytest.mark.parametrize(("text", "warning"), [
    ("민수는 달리지 않는다", "'달리지 않는다' is a motion not done, shown as 'idle'"),
    ("캐릭터: 민수; 동작: 안 달리기", "'안 달리기' is a motion not done, shown as 'idle'"),
    ("キャラクター：美咲；動作：走らない", "'走らない' is a motion not done, shown as 'idle'"),
])
def test_the_sketch_engines_warning_quotes_it_as_written(text: str, warning: str) -> None:
    assert not_done_warnings(parse_instruction(text), NAMES) == [warning]


@pytest.fixture(scope="module")
def engine(tiny: Path):  # type: ignore[no-untyped-def]
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    pytest.importorskip("diffusers")
    from studio.engines.mini.engine import MiniEngine

    made = MiniEngine(EngineConfig(checkpoints=tiny.parent, threads=1))
    made.load()
    return made


def test_the_model_predicts_it_as_the_idle_turn(engine) -> None:  # type: ignore[no-untyped-def]
    settings = MiniSettings.from_values({"steps": 1, "height": 32, "width": 48, "frames": 5})
    context = GenerationContext(cast=(CastMember(id="c1", name="민수"),))
    negated = engine.predict(context, parse_instruction("민수는 달리지 않는다"), settings, 2)
    idle = engine.predict(context, parse_instruction("민수 idle."), settings, 2)
    run = engine.predict(context, parse_instruction("민수 not run."), settings, 2)
    np.testing.assert_array_equal(negated.representation, idle.representation)
    assert not np.array_equal(negated.representation, run.representation)


def test_the_turn_says_the_motion_is_not_done(engine) -> None:  # type: ignore[no-untyped-def]
    """The mini's own turn carries the sketch engine's words for it, quoted as written (it
    said nothing, or that '안 달린다' was a motion it had not learnt)."""
    settings = MiniSettings.from_values({"steps": 1, "height": 32, "width": 48, "frames": 5})
    context = GenerationContext(cast=(CastMember(id="c1", name="민수"),))
    made = engine.predict(context, parse_instruction("민수는 달리지 않는다"), settings, 2)
    assert "'달리지 않는다' is a motion not done, shown as 'idle'" in made.warnings
    english = engine.predict(context, parse_instruction("Character: 민수; Motion: run"), settings, 2)
    assert not any("not done" in warning for warning in english.warnings)
