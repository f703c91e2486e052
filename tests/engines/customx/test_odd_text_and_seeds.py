"""CustomX on tiny weights with engine-API inputs the CLI never passes: an instruction with a
lone surrogate (bytes that were not UTF-8) and a seed beyond torch's 64-bit range."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")
pytest.importorskip("transformers")

from studio.core.instruction import parse_instruction  # noqa: E402
from studio.engines.base import EngineConfig, GenerationContext  # noqa: E402
from studio.engines.catalog.customx import TEST_INFO  # noqa: E402
from studio.engines.customx.engine import CustomXEngine  # noqa: E402
from studio.engines.customx.tiny import write_tiny_checkpoints  # noqa: E402

SETTINGS = {"height": 32, "width": 48, "frames": 9, "steps": 1, "continuation_frames": 5, "vae_tiling": False}


def test_a_lone_surrogate_and_a_seed_beyond_64_bits(tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = tmp_path_factory.mktemp("checkpoints")
    write_tiny_checkpoints(folder)
    engine = CustomXEngine(EngineConfig(checkpoints=folder), info=TEST_INFO)
    engine.load()
    instruction = parse_instruction("Character: Aoi; Motion: run \udcff; Background: harbour.")
    prediction = engine.predict(GenerationContext(), instruction, SETTINGS, 2**70)
    clip = engine.decode(prediction, SETTINGS, 2**70)
    assert clip.frames.shape[0] == 9
