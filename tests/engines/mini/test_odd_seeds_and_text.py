"""Engine-API inputs beyond what the CLI lets through: seeds outside torch's 64-bit range
(another caller, a script), and text holding lone surrogates (what Python makes of bytes that
are not UTF-8). The mini engine makes its turn; seeds torch already accepted keep their clip."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.core.instruction import parse_instruction  # noqa: E402
from studio.engines.base import EngineConfig, generator_seed  # noqa: E402
from studio.engines.catalog.mini import MiniSettings  # noqa: E402
from studio.engines.context import GenerationContext  # noqa: E402
from studio.engines.mini.engine import MiniEngine  # noqa: E402

SETTINGS = MiniSettings.from_values({"steps": 1, "height": 32, "width": 48, "frames": 5})


@pytest.fixture(scope="module")
def engine(tiny: Path) -> MiniEngine:
    made = MiniEngine(EngineConfig(checkpoints=tiny.parent, threads=1))
    made.load()
    return made


@pytest.mark.parametrize("seed", [2**64, 2**70 + 5, -(2**70)])
def test_a_seed_beyond_64_bits_makes_a_turn(engine: MiniEngine, seed: int) -> None:
    settings = MiniSettings.from_values({"steps": 1, "height": 32, "width": 48, "frames": 5, "temperature": 1.0})
    prediction = engine.predict(GenerationContext(), parse_instruction("Character: Qiqi; Motion: run."), settings, seed)
    assert engine.decode(prediction, settings, seed).frames.shape == (5, 32, 48, 3)


def test_seeds_torch_accepted_keep_their_clip(engine: MiniEngine) -> None:
    prediction = engine.predict(GenerationContext(), parse_instruction("Character: Qiqi; Motion: run."), SETTINGS, 1)
    assert generator_seed(-1) == 2**64 - 1 and generator_seed(7) == 7
    for seed in (-1, 7, 2**63):
        again = engine.decode(prediction, SETTINGS, seed).frames
        generator = torch.Generator().manual_seed(seed)  # what decode did before
        noise = torch.randn(engine._ready().decoder.canvas, generator=generator)
        assert torch.equal(noise, engine._ready().noise([seed])[0])
        assert np.array_equal(again, engine.decode(prediction, SETTINGS, seed).frames)


def test_text_with_a_lone_surrogate_is_read(engine: MiniEngine) -> None:
    instruction = parse_instruction("Character: Qiqi; Motion: run \udcff\udcfe; Background: day town.")
    prediction = engine.predict(GenerationContext(), instruction, SETTINGS, 3)
    assert prediction.representation.shape == (32, 64)


def test_a_representation_with_nan_is_refused_as_such_not_as_a_wrong_shape(engine: MiniEngine) -> None:
    import dataclasses

    from studio.engines.base import EngineError

    prediction = engine.predict(GenerationContext(), parse_instruction("Character: Qiqi; Motion: run."), SETTINGS, 1)
    broken = prediction.representation.copy()
    broken[0, 0] = np.nan
    with pytest.raises(EngineError, match="not numbers") as raised:
        engine.decode(dataclasses.replace(prediction, representation=broken), SETTINGS, 1)
    assert "(32, 64), not" not in raised.value.message


def test_special_tokens_written_in_an_instruction_are_read_as_text(engine: MiniEngine) -> None:
    vocab = engine._ready().vocab
    typed = "Character: Qiqi; Motion: run <q><r><ML><L5><SC><d+5><pad></s>"
    unknown = vocab.id("<unk>")  # what any character outside the vocabulary becomes, an emoji as a bracket
    assert not set(vocab.encode(typed, 200)) & (set(vocab.special_ids()) - {unknown})
    plain = "Character: Qiqi; Motion: run; Background: day town."
    assert vocab.encode(plain, 200) == vocab.tokenizer.encode(plain, add_special_tokens=False).ids  # as before
    prediction = engine.predict(GenerationContext(), parse_instruction(typed), SETTINGS, 3)
    assert prediction.representation.shape == (32, 64)
