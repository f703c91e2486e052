"""Several candidate clips per turn, the motion critic keeping the one whose motion best
matches what the LM read in the instruction: the runtime's pick, the engine's setting and
the prediction's conditioning that carries the LM's motions to the decoder, at toy size."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.core.instruction import parse_instruction  # noqa: E402
from studio.engines.base import EngineConfig, EngineLoadError, GenerationContext  # noqa: E402
from studio.engines.catalog import mini as catalog  # noqa: E402
from studio.engines.catalog.mini import MiniSettings  # noqa: E402
from studio.engines.mini import weights  # noqa: E402
from studio.engines.mini.data import LOCATION_NAMES, MOTION_NAMES, TIMES, characters  # noqa: E402
from studio.engines.mini.decoder import sample  # noqa: E402
from studio.engines.mini.engine import MiniEngine, predicted_motions  # noqa: E402
from studio.engines.mini.runtime import (  # noqa: E402
    MOTION_CHOICES,
    MiniRuntime,
    TurnQuery,
    candidate_seeds,
    likely_motions,
)

CPU = torch.device("cpu")


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny latent checkpoint with a motion critic."""
    from studio.engines.mini.tiny import write_tiny_checkpoint

    return write_tiny_checkpoint(tmp_path_factory.mktemp("critic") / "mini", config_name="tiny_latent", critic=True)


@pytest.fixture(scope="module")
def runtime(judged: Path) -> MiniRuntime:
    return MiniRuntime.load(judged, CPU, CPU)


def _turn(runtime: MiniRuntime, text: str = "Qiqi waves at a friend in the park") -> tuple[np.ndarray, int, tuple]:
    out = runtime.predict([TurnQuery(text, (50, 50, 50))])[0]
    return out.representation[None], out.level, out.motions


def test_the_lm_reports_its_likely_motions_most_likely_first(runtime: MiniRuntime) -> None:
    _rep, _level, motions = _turn(runtime)
    assert 1 <= len(motions) <= MOTION_CHOICES
    names = [name for name, _p in motions]
    assert set(names) <= set(MOTION_NAMES) and len(set(names)) == len(names)
    probabilities = [p for _n, p in motions]
    assert probabilities == sorted(probabilities, reverse=True) and all(0 < p <= 1 for p in probabilities)
    row = torch.zeros(len(MOTION_NAMES))
    row[3], row[7], row[9] = 0.6, 0.395, 0.005
    assert likely_motions(row) == ((MOTION_NAMES[3], 0.6), (MOTION_NAMES[7], 0.395)), "below the floor: left out"


def test_one_candidate_decodes_as_before_and_the_first_candidate_is_the_clip_s_own_seed(runtime: MiniRuntime) -> None:
    rep, level, motions = _turn(runtime)
    plain = runtime.decode(rep, [level], [21], steps=2)
    assert torch.equal(runtime.decode(rep, [level], [21], steps=2, candidates=1, motions=[motions]), plain)
    assert torch.equal(runtime.decode(rep, [level], [21], steps=2, candidates=3, motions=None), plain), \
        "without motions to judge against there is nothing to pick by"
    assert torch.equal(runtime.decode(rep, [level], [21], steps=2, candidates=3, motions=[()]), plain)
    with pytest.raises(ValueError, match="2 rows of motions for 1 clips"):
        runtime.decode(rep, [level], [21], steps=2, candidates=3, motions=[motions, motions])
    seeds = candidate_seeds([21, 5], 3)
    assert seeds[:2] == [21, 5] and len(set(seeds)) == 6


def test_the_kept_candidate_is_the_one_the_critic_reads_closest_to_the_lm_s_motions(runtime: MiniRuntime) -> None:
    rep, level, _motions = _turn(runtime)
    seeds = candidate_seeds([21], 4)
    noise = runtime.noise(seeds)
    with torch.no_grad():
        canvases = sample(runtime.decoder, torch.as_tensor(rep).repeat(4, 1, 1), torch.tensor([level] * 4), noise, 2,
                          clamp=False)
    # each target motion in turn: the candidate kept is the best-scored one for it
    kept = set()
    for name in MOTION_NAMES[:12]:
        wanted = ((name, 1.0),)
        scores = runtime.motion_scores(canvases, [wanted] * 4)
        best = int(scores.argmax())
        kept.add(best)
        chosen = runtime.decode(rep, [level], [21], steps=2, candidates=4, motions=[wanted])
        alone = runtime.decode(rep, [level], [seeds[best]], steps=2)
        assert (chosen.int() - alone.int()).abs().max() <= 2, name  # batch of 4 against 1: rounding only
    assert len(kept) > 1, "different motions asked for keep different candidates"


def test_clips_of_one_batch_are_picked_each_for_its_own_motions(runtime: MiniRuntime) -> None:
    rep, level, _motions = _turn(runtime)
    reps = np.concatenate([rep, rep])
    canvases = torch.randn(6, *runtime.decoder.canvas)
    wanted = [((MOTION_NAMES[0], 1.0),), ()]
    rows = runtime.pick(canvases, wanted, 3)
    scores = runtime.motion_scores(canvases[[0, 2, 4]], [wanted[0]] * 3)
    assert int(rows[0]) == 2 * int(scores.argmax()), "clip 0's best candidate (candidate-major rows)"
    assert int(rows[1]) == 1, "a clip without motions keeps its first candidate"
    out = runtime.decode(reps, [level, level], [3, 4], steps=1, candidates=2, motions=wanted)
    assert out.shape[0] == 2


def test_the_engine_carries_the_motions_from_predict_to_decode(judged: Path) -> None:
    engine = MiniEngine(EngineConfig(checkpoints=judged.parent, threads=1))
    engine.load()
    instruction = parse_instruction("Character: Qiqi; Motion: wave; Background: park.")
    one = MiniSettings.from_values({"steps": 1, "height": 64, "width": 96})
    four = MiniSettings.from_values({"steps": 1, "height": 64, "width": 96, "candidates": 4})
    prediction = engine.predict(GenerationContext(), instruction, one, 3)
    motions = prediction.conditioning["motions"]
    assert isinstance(motions, dict) and motions and set(motions) <= set(MOTION_NAMES)
    # what the model understood, under the sketch engine's keys (the studio's chips read them)
    understood = {key: prediction.conditioning[key] for key in ("motion", "location", "character", "time_of_day")}
    assert understood["motion"] == next(iter(motions)), "the most likely motion"
    assert understood["location"] in LOCATION_NAMES and understood["character"] in characters()
    assert understood["time_of_day"] in TIMES
    json.dumps(prediction.conditioning)  # kept in the take as JSON
    assert predicted_motions(prediction) == tuple(motions.items())
    first = engine.decode(prediction, one, 3).frames
    assert engine.decode(prediction, four, 3).frames.shape == first.shape
    # a prediction whose motions are missing or malformed decodes its first candidate
    for broken in ({}, {"motions": "wave"}, {"motions": {"wave": "high"}}, {"motions": {"wave": float("nan")}}):
        damaged = type(prediction)(deltas=prediction.deltas, motion_level=prediction.motion_level,
                                   representation=prediction.representation, conditioning=broken)
        assert predicted_motions(damaged) == ()
        assert np.array_equal(engine.decode(damaged, four, 3).frames, first)
    engine.unload()


def test_a_damaged_critic_is_refused_by_name_and_a_missing_one_leaves_one_candidate(judged: Path,
                                                                                    tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "mini"
    shutil.copytree(judged, copy)
    assert catalog.CRITIC not in catalog.checkpoint_files(copy), "optional"
    good = (copy / weights.CRITIC).read_bytes()
    (copy / weights.CRITIC).write_bytes(good[:-8] + b"\0" * 8)
    with pytest.raises(EngineLoadError, match="critic.safetensors is corrupt"):
        MiniRuntime.load(copy, CPU, CPU)
    assert any("critic.safetensors is corrupt: its SHA-256" in item.message
               for item in catalog.check(EngineConfig(checkpoints=tmp_path))), "the check (and doctor) name it too"
    (copy / weights.CRITIC).write_bytes(good[:-8])
    assert any("critic.safetensors is" in item.message and "expected" in item.message
               for item in catalog.check(EngineConfig(checkpoints=tmp_path))), "a short copy is named"

    (copy / weights.CRITIC).unlink()
    assert not [item for item in catalog.check(EngineConfig(checkpoints=tmp_path)) if "critic" in item.message]
    engine = MiniEngine(EngineConfig(checkpoints=tmp_path, threads=1))
    engine.load()
    four = MiniSettings.from_values({"steps": 1, "height": 64, "width": 96, "candidates": 4})
    one = MiniSettings.from_values({"steps": 1, "height": 64, "width": 96})
    instruction = parse_instruction("Character: Qiqi; Motion: wave; Background: park.")
    prediction = engine.predict(GenerationContext(), instruction, four, 3)
    assert any("critic.safetensors) is not in the checkpoint folder, so one candidate was made, not 4" in w
               for w in prediction.warnings)
    assert not any("critic" in w for w in engine.predict(GenerationContext(), instruction, one, 3).warnings)
    assert np.array_equal(engine.decode(prediction, four, 3).frames, engine.decode(prediction, one, 3).frames)
    engine.unload()


def test_a_checkpoint_without_a_critic_ignores_the_candidates_setting(tiny: Path) -> None:
    runtime = MiniRuntime.load(tiny, CPU, CPU)
    assert runtime.critic is None and catalog.CRITIC not in catalog.checkpoint_files(tiny)
    rep, level, motions = _turn(runtime)
    plain = runtime.decode(rep, [level], [9], steps=1)
    assert torch.equal(runtime.decode(rep, [level], [9], steps=1, candidates=4, motions=[motions]), plain)
