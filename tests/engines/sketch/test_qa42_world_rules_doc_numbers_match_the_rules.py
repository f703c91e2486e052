"""docs/WORLD_RULES.md's numbers are the rules' numbers.

It said "ten turns of running empty a full bar" where seven do (100 -> 85 ... 10 -> 0); the
motion tables give each motion's deltas at its natural level, in a quiet place, by day, from
the starting state, which this test computes with the rules themselves.
"""

from __future__ import annotations

import re
from pathlib import Path

from studio.core.state import DELTA_SCALE, STATE_MAX, STATE_MIN, CharacterState
from studio.engines.sketch.rules import EFFORT, RESTORE, RuleInput, base_deltas, tired_level
from studio.engines.sketch.vocabulary import MOTION_BY_NAME

DOC = (Path(__file__).resolve().parents[3] / "docs" / "WORLD_RULES.md").read_text(encoding="utf-8")
ROW = re.compile(r"^\| ([a-z ]+) \| (\d) \| ([+-]\d+) \| ([+-]\d+) \| ([+-]\d+) \|", re.MULTILINE)
WORDS = {"five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def test_every_motion_row_gives_the_rules_deltas() -> None:
    rows = ROW.findall(DOC)
    assert len(rows) == len(MOTION_BY_NAME), sorted(set(MOTION_BY_NAME) - {r[0] for r in rows})
    for name, level, *deltas in rows:
        motion = MOTION_BY_NAME[name]
        assert int(level) == motion.level, name
        stamina, social, fun, _ = base_deltas(RuleInput(motion, motion.level, "day", False, False, CharacterState()))
        assert [int(d) for d in deltas] == [stamina, social, fun], name


def test_the_turns_of_running_that_empty_a_full_bar() -> None:
    run = MOTION_BY_NAME["run"]
    stamina, turns, seen = STATE_MAX, 0, [STATE_MAX]
    while stamina > STATE_MIN:
        level, _ = tired_level(run, run.level, stamina, "Qiqi")
        delta, _, _, _ = base_deltas(RuleInput(run, level, "day", False, False, CharacterState(stamina=stamina)))
        stamina = max(STATE_MIN, stamina + DELTA_SCALE * delta)
        turns, seen = turns + 1, [*seen, stamina]
    said = re.search(r"and (\w+) turns of running empty a full bar: ([\d, ]+), then 0", DOC)
    assert said is not None
    assert WORDS[said.group(1)] == turns
    assert [int(v) for v in said.group(2).split(", ")] == seen[:-1] and seen[-1] == 0
    cost = -base_deltas(RuleInput(run, run.level, "day", False, False, CharacterState()))[0] * DELTA_SCALE
    assert f"`run` at level {run.level} (stamina -{cost // DELTA_SCALE}) costs {cost} stamina" in DOC


def test_the_effort_and_rest_numbers() -> None:
    efforts = re.search(r"Effort per family: ([a-z0-9., ]+?)\.\n", DOC)
    assert efforts is not None
    said = dict(pair.rsplit(" ", 1) for pair in efforts.group(1).split(", "))
    assert {family.value: str(value) for family, value in EFFORT.items()} == said
    rests = re.search(r"\(stamina\): (rest \+\d, quiet \+\d, sleep \+\d, nourish \+\d);", DOC)
    assert rests is not None
    assert rests.group(1) == ", ".join(f"{family.value} +{value}" for family, value in RESTORE.items())
