"""The AnimeGamer engine on tiny converted weights, on the CPU."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest
import torch

from studio.core.instruction import parse_instruction
from studio.core.state import CharacterState
from studio.engines.animegamer.engine import AnimeGamerEngine
from studio.engines.animegamer.kvcache import CachedPrefix, PrefixCache
from studio.engines.base import EngineLoadError, GenerationContext, Prediction, TurnContext
from studio.engines.catalog.animegamer import INFO, TEST_INFO, AnimeGamerSettings
from studio.engines.config import EngineConfig
from studio.engines.settings import SettingsError

from .tiny import tiny_checkpoints

QIQI = ("Character: Qiqi; Motion: quickly flying on broomstick; Background: day sky.",
        "Character: Qiqi; Motion: gently sit on railing; Background: day town.",
        "Character: Qiqi; Motion: gently turn head; Background: day town.")
SMALL = {"height": 32, "width": 48, "frames": 9, "steps": 2}


@pytest.fixture
def engine(tiny: Path) -> AnimeGamerEngine:
    made = AnimeGamerEngine(EngineConfig(checkpoints=tiny), info=TEST_INFO)
    made.load()
    return made


def _settings(**values: object) -> AnimeGamerSettings:
    return AnimeGamerSettings.from_values({**SMALL, **values})


def _turn(instruction: str, prediction: Prediction) -> TurnContext:
    return TurnContext(instruction=parse_instruction(instruction), state=CharacterState(), deltas=prediction.deltas,
                       motion_level=prediction.motion_level, engine="animegamer",
                       representation_space=TEST_INFO.capabilities.representation.space,
                       representation=prediction.representation)


def test_predict_and_decode_two_steps(engine: AnimeGamerEngine) -> None:
    settings = _settings()
    prediction = engine.predict(GenerationContext(), parse_instruction(QIQI[0]), settings, 3)
    assert prediction.representation.shape == (226, 32) and prediction.representation.dtype == np.float32
    assert 1 <= prediction.motion_level <= 5
    assert prediction.conditioning["flow"] == {1: 0.5, 2: 2.5, 3: 10.0, 4: 15.0, 5: 40.0}[prediction.motion_level]
    clip = engine.decode(prediction, settings, 3)
    assert clip.frames.shape == (9, 32, 48, 3) and clip.fps == 8.0
    assert clip.frames.std() > 0


def test_reusing_the_kv_cache_gives_what_re_encoding_gives(tiny: Path) -> None:
    """Along a branch, a fork and a re-roll, the cached engine matches one that encodes every
    prompt from scratch (the same weights, fp32)."""
    settings = _settings(history_window=2, readout="queries", state_pass="shared")
    cached = AnimeGamerEngine(EngineConfig(checkpoints=tiny), info=TEST_INFO)
    fresh = AnimeGamerEngine(EngineConfig(checkpoints=tiny), info=TEST_INFO)
    cached.load()
    fresh.load()
    assert fresh._predictor is not None

    def both(history: list[TurnContext], text: str) -> Prediction:
        assert fresh._predictor is not None
        fresh._predictor.cache.clear()
        context = GenerationContext(history=tuple(history))
        one = cached.predict(context, parse_instruction(text), settings, 1)
        other = fresh.predict(context, parse_instruction(text), settings, 1)
        np.testing.assert_allclose(one.representation, other.representation, rtol=1e-5, atol=1e-6)
        assert (one.deltas, one.motion_level) == (other.deltas, other.motion_level)
        return one

    first = both([], QIQI[0])
    second = both([_turn(QIQI[0], first)], QIQI[1])
    assert second.conditioning["reused_tokens"] == 1  # the BOS cached by the first turn
    third = both([_turn(QIQI[0], first), _turn(QIQI[1], second)], QIQI[2])
    assert third.conditioning["reused_tokens"] > 200  # BOS and turn 1 came from the cache
    again = both([_turn(QIQI[0], first), _turn(QIQI[1], second)], QIQI[0])  # a sibling of the third turn
    # the whole history (BOS, turns 1 and 2) now comes from the cache: more than the third turn reused
    assert again.conditioning["reused_tokens"] > third.conditioning["reused_tokens"]
    fork = both([_turn(QIQI[2], first)], QIQI[1])  # another first turn: shares only the BOS
    assert fork.conditioning["reused_tokens"] == 1


class FakeCache:
    def __init__(self, length: int = 0) -> None:
        self.length = length

    def get_seq_length(self) -> int:
        return self.length

    def crop(self, amount: int) -> None:
        assert amount < 0
        self.length += amount


def test_prefix_cache_hands_over_extensions_and_copies_divergent_prefixes() -> None:
    store = PrefixCache(capacity=2)
    store.put(CachedPrefix(("bos", "a", "b"), (1, 10, 10), FakeCache(21)))
    longer = store.take(["bos", "a", "b", "c"])
    assert longer is not None and longer.keys == ("bos", "a", "b") and len(store) == 0  # handed over
    longer.keys, longer.lengths, longer.cache.length = ("bos", "a", "b", "c"), (1, 10, 10, 5), 26
    store.put(longer)
    fork = store.take(["bos", "a", "x"])
    assert fork is not None and fork.keys == ("bos", "a") and fork.cache.length == 11
    assert fork.cache is not longer.cache and longer.cache.length == 26 and len(store) == 1  # original kept
    assert store.take(["other"]) is None
    store.put(fork)
    store.put(CachedPrefix(("z",), (3,), FakeCache(3)))
    assert len(store) == 2  # least recently used dropped
    assert copy.deepcopy(FakeCache(4)).length == 4


def test_history_window_and_turns_of_other_engines(engine: AnimeGamerEngine) -> None:
    settings = _settings(history_window=2)
    first = engine.predict(GenerationContext(), parse_instruction(QIQI[0]), settings, 1)
    with_history = engine.predict(GenerationContext(history=(_turn(QIQI[0], first),)), parse_instruction(QIQI[1]),
                                  settings, 1)
    alone = engine.predict(GenerationContext(history=(_turn(QIQI[0], first),)), parse_instruction(QIQI[1]),
                           _settings(history_window=0), 1)
    assert with_history.conditioning["history_turns"] == 1 and alone.conditioning["history_turns"] == 0
    assert not np.allclose(with_history.representation, alone.representation)
    sketchy = TurnContext(instruction=parse_instruction(QIQI[0]), state=CharacterState(), deltas=first.deltas,
                          motion_level=3, engine="sketch", representation_space="sketch/226x64-v1")
    after_sketch = engine.predict(GenerationContext(history=(sketchy,)), parse_instruction(QIQI[1]), settings, 1)
    assert after_sketch.conditioning["history_turns"] == 0
    assert any("another engine" in w for w in after_sketch.warnings)
    np.testing.assert_allclose(after_sketch.representation, alone.representation, rtol=1e-5, atol=1e-6)


def test_the_instruction_picks_the_character(tmp_path: Path) -> None:
    checkpoints = tmp_path / "checkpoints"
    tiny_checkpoints(checkpoints, ("qiqi", "sosuke"))
    engine = AnimeGamerEngine(EngineConfig(checkpoints=checkpoints), info=TEST_INFO)
    engine.load()
    assert engine.character == "qiqi"
    text = "Motion: wave; Background: day town."
    qiqi = engine.predict(GenerationContext(), parse_instruction("Character: Qiqi; " + text), _settings(), 1)
    sosuke = engine.predict(GenerationContext(), parse_instruction("Character: Sosuke; " + text), _settings(), 1)
    assert (qiqi.conditioning["character"], sosuke.conditioning["character"]) == ("qiqi", "sosuke")
    assert not np.allclose(qiqi.representation, sosuke.representation)
    engine.decode(qiqi, _settings(), 1)  # switches back to Qiqi's decoder
    assert engine.character == "qiqi"
    stranger = engine.predict(GenerationContext(), parse_instruction("Character: Totoro; " + text), _settings(), 1)
    assert stranger.conditioning["character"] == "qiqi" and "Totoro" in stranger.warnings[0]


def test_faster_settings_run_and_change_the_clip(engine: AnimeGamerEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.engines.animegamer import engine as module

    monkeypatch.setattr(module, "FIRST_BLOCK_THRESHOLD", 10.0)  # random weights: make the cache skip blocks
    prediction = engine.predict(GenerationContext(), parse_instruction(QIQI[1]), _settings(), 2)
    reference = engine.decode(prediction, _settings(steps=4), 2).frames
    for change in ({"guidance_steps": 2}, {"step_cache": "first_block"}, {"step_cache": "pyramid", "guidance_steps": 1},
                   {"step_cache": "faster"}, {"dynamic_guidance": False}):
        frames = engine.decode(prediction, _settings(steps=4, **change), 2).frames
        assert frames.shape == reference.shape
        assert not np.array_equal(frames, reference), change
    np.testing.assert_array_equal(engine.decode(prediction, _settings(steps=4), 2).frames, reference)


def test_settings_presets_and_validation() -> None:
    defaults = AnimeGamerSettings()
    reference = AnimeGamerSettings.from_values({}, preset="reference")
    assert reference == defaults  # the defaults are the release's settings
    assert (defaults.steps, defaults.guidance, defaults.height, defaults.width, defaults.frames, defaults.fps) == \
        (50, 6.0, 480, 720, 17, 8.0)
    faster = [p for p in AnimeGamerSettings.PRESETS if p.name != "reference"]
    assert faster and all(p.changes_output for p in faster)
    assert not AnimeGamerSettings.preset("reference").changes_output
    from studio.engines.animegamer.engine import _Options

    with pytest.raises(SettingsError, match="8k \\+ 1"):
        _Options.of(AnimeGamerSettings.from_values({"frames": 13}))
    with pytest.raises(SettingsError, match="multiple of 16"):
        _Options.of(AnimeGamerSettings.from_values({"height": 40}))
    with pytest.raises(SettingsError, match="FasterCache step cache needs guidance on every step"):
        _Options.of(AnimeGamerSettings.from_values({"step_cache": "faster", "guidance_steps": 6}))


def test_the_released_engine_refuses_the_cpu_and_tiny_weights(tiny: Path) -> None:
    engine = AnimeGamerEngine(EngineConfig(checkpoints=tiny))
    assert engine.info is INFO
    with pytest.raises(EngineLoadError, match="CUDA GPU"):
        engine.load()
    assert not engine.loaded
    checked = AnimeGamerEngine(EngineConfig(checkpoints=tiny), info=TEST_INFO)
    checked.info = INFO
    with pytest.raises(EngineLoadError, match="tiny-size weights"):
        checked._read_size("qiqi")


def test_without_weights_load_names_the_missing_files(tmp_path: Path) -> None:
    engine = AnimeGamerEngine(EngineConfig(checkpoints=tmp_path), info=TEST_INFO)
    with pytest.raises(EngineLoadError) as raised:
        engine.load()
    assert str(tmp_path / "animegamer" / "mistral" / "model.safetensors") in str(raised.value)
    assert "kamishibai checkpoints convert" in str(raised.value)
    assert not engine.loaded


def test_a_tensor_source_stands_in_for_reading_the_files(tiny: Path) -> None:
    """The ``read`` hook (the GPU benchmark's random weights) gets every weights file, and a
    tensor it does not place is still an error naming it, as from a file."""
    from safetensors.torch import load_file

    read: list[str] = []

    def recording(path: Path) -> dict[str, torch.Tensor]:
        read.append(path.relative_to(tiny / "animegamer").as_posix())
        return load_file(str(path))

    engine = AnimeGamerEngine(EngineConfig(checkpoints=tiny), info=TEST_INFO, read=recording)
    engine.load()
    assert sorted(read) == ["mistral/model.safetensors", "qiqi/decoder.safetensors", "qiqi/mllm.safetensors",
                            "vae/vae.safetensors"]
    prediction = engine.predict(GenerationContext(), parse_instruction(QIQI[0]), _settings(), 3)
    assert engine.decode(prediction, _settings(), 3).frames.shape == (9, 32, 48, 3)

    def with_a_stray_key(path: Path) -> dict[str, torch.Tensor]:
        return {**load_file(str(path)), "model.layers.0.mlp.stray.weight": torch.zeros(2, 2)}

    stray = AnimeGamerEngine(EngineConfig(checkpoints=tiny), info=TEST_INFO, read=with_a_stray_key)
    with pytest.raises(EngineLoadError, match="stray"):
        stray.load()
    assert not stray.loaded
