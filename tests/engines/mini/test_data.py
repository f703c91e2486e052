"""The mini model's episodes: ground truth, held-out splits, determinism (no torch needed)."""

from __future__ import annotations

import itertools

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.mini.config import DataConfig, VideoSpec
from studio.engines.mini.data import (
    HELDOUT_TEMPLATES,
    LOCATION_NAMES,
    MOTION_NAMES,
    TRAIN_TEMPLATES,
    EpisodeMaker,
    Split,
    _jitter_range,
    action_text,
    characters,
    combo_split,
)
from studio.engines.sketch.understanding import read_instruction

DATA = DataConfig(turns=3)
VIDEO = VideoSpec(height=32, width=48, frames=3)


@pytest.fixture(scope="module")
def maker() -> EpisodeMaker:
    return EpisodeMaker(DATA, VIDEO)


def test_a_tenth_of_the_combinations_is_held_out_and_every_part_is_still_trained_on() -> None:
    combos = list(itertools.product(characters(), MOTION_NAMES, LOCATION_NAMES))
    held = [c for c in combos if combo_split(*c, 0.1) is Split.HELDOUT]
    assert 0.08 < len(held) / len(combos) < 0.12
    trained = [c for c in combos if combo_split(*c, 0.1) is Split.TRAIN]
    for index, values in enumerate((characters(), MOTION_NAMES, LOCATION_NAMES)):
        assert {c[index] for c in trained} == set(values)


def test_train_and_held_out_templates_are_disjoint() -> None:
    assert not set(TRAIN_TEMPLATES) & set(HELDOUT_TEMPLATES)


@pytest.mark.parametrize("split", list(Split))
def test_episodes_use_only_their_splits_combinations_and_templates(maker: EpisodeMaker, split: Split) -> None:
    templates = TRAIN_TEMPLATES if split is Split.TRAIN else HELDOUT_TEMPLATES
    for index in range(12):
        for turn in maker.make(split, index).turns:
            assert combo_split(turn.character, turn.motion, turn.location, DATA.heldout_fraction) is split
            assert turn.template in templates


def test_every_turn_reads_back_as_what_it_was_written_for(maker: EpisodeMaker) -> None:
    for index in range(10):
        episode = maker.make(Split.HELDOUT, index)
        for turn in episode.turns:
            reading = read_instruction(parse_instruction(turn.text))
            assert reading.motion.name == turn.motion, turn.text
            assert not reading.warnings, turn.text
            if reading.location:
                assert reading.location == turn.location, turn.text


def test_the_rule_and_the_seeded_deltas_lie_in_the_range(maker: EpisodeMaker) -> None:
    seen_variation = False
    for index in range(25):
        for turn in maker.make(Split.TRAIN, index).turns:
            truth = turn.truth
            for f in range(3):
                assert truth.low[f] <= truth.rule[f] <= truth.high[f]
                assert truth.low[f] <= truth.deltas[f] <= truth.high[f]
            seen_variation |= truth.deltas != truth.rule
            assert 1 <= turn.level <= 5
    assert seen_variation, "the world's seeded variation shows in some turns"


def test_states_follow_the_world_deltas_through_an_episode(maker: EpisodeMaker) -> None:
    episode = maker.make(Split.TRAIN, 3)
    for before, after in itertools.pairwise(episode.turns):
        for f in range(3):
            assert after.state[f] == max(0, min(100, before.state[f] + 5 * before.truth.deltas[f]))


def test_episodes_are_the_same_for_the_same_seed_and_differ_between_indices(maker: EpisodeMaker) -> None:
    again = EpisodeMaker(DATA, VIDEO)
    assert [t.to_json() for t in maker.make(Split.TRAIN, 5).turns] == \
        [t.to_json() for t in again.make(Split.TRAIN, 5).turns]
    assert maker.make(Split.TRAIN, 5).turns[0].text != maker.make(Split.TRAIN, 6).turns[0].text


def test_rendered_episodes_carry_a_clip_per_turn_at_the_training_size(maker: EpisodeMaker) -> None:
    episode = maker.make(Split.TRAIN, 0, render=True, alt=True)
    assert len(episode.clips) == len(episode.alt_clips) == DATA.turns
    assert episode.clips[0].shape == (3, 32, 48, 3)
    assert any((a != b).any() for a, b in zip(episode.clips, episode.alt_clips, strict=True))


@pytest.mark.parametrize(("value", "expected"), [(0, (0, 0)), (1, (1, 2)), (-1, (-2, -1)), (5, (4, 5)),
                                                 (-5, (-5, -4)), (3, (2, 4))])
def test_jitter_range_keeps_the_sign_and_the_bounds(value: int, expected: tuple[int, int]) -> None:
    assert _jitter_range(value) == expected


def test_action_text_is_the_motion_part_or_the_free_text() -> None:
    assert action_text("Character: Qiqi; Motion: quickly run; Background: town.") == "quickly run"
    assert action_text("Qiqi dances in the park.") == "Qiqi dances in the park"


def test_the_composed_grammars_vary_the_wording_and_keep_the_held_out_markers_out(maker: EpisodeMaker) -> None:
    texts = [turn.text for index in range(60) for turn in maker.make(Split.TRAIN, index).turns
             if turn.template.startswith("composed")]
    assert len(texts) > 40
    # many different shapes: the words that are not the turn's content differ from text to text
    openings = {" ".join(text.split()[:2]).lower() for text in texts}
    assert len(openings) > len(texts) // 3
    for text in texts:
        lowered = f" {text.lower()} "
        assert " will " not in lowered, text
        for key in ("who:", "move:", "where:", "time of day:"):
            assert key not in lowered.replace(" :", ":"), text


def test_composed_sentences_never_start_with_the_place(maker: EpisodeMaker) -> None:
    from studio.engines.sketch.vocabulary import LOCATION_BY_NAME

    checked = 0
    for index in range(80):
        for turn in maker.make(Split.TRAIN, index).turns:
            if turn.template != "composed_sentence":
                continue
            first_clause = turn.text.lower().split(",")[0]
            phrases = LOCATION_BY_NAME[turn.location].phrases
            assert not any(first_clause.startswith(f"{prep} {phrase}") for phrase in phrases
                           for prep in ("in the", "at the", "near the", "by the")), turn.text
            checked += 1
    assert checked > 20
