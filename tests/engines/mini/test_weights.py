"""The checkpoint folder: clear errors for missing, truncated, altered or non-safetensors files."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.engines.base import EngineConfig, EngineLoadError, RequirementKind  # noqa: E402
from studio.engines.catalog.mini import check  # noqa: E402
from studio.engines.mini import weights  # noqa: E402
from studio.engines.mini.engine import MiniEngine  # noqa: E402
from tests.engines.mini.damage import alter_one_byte, truncate  # noqa: E402


def _load(checkpoints: Path) -> MiniEngine:
    engine = MiniEngine(EngineConfig(checkpoints=checkpoints, threads=1))
    engine.load()
    return engine


def test_the_manifest_lists_every_file_with_its_size_and_digest(tiny: Path) -> None:
    manifest = weights.read_manifest(tiny)
    for name in weights.ENGINE_FILES[1:]:
        entry = manifest["files"][name]
        assert entry["bytes"] == (tiny / name).stat().st_size
        assert entry["sha256"] == weights.sha256(tiny / name)


def test_a_missing_weight_file_is_named(checkpoints: Path) -> None:
    (checkpoints / "mini" / weights.DECODER).unlink()
    with pytest.raises(EngineLoadError, match="Missing .*decoder.safetensors"):
        _load(checkpoints)
    unmet = check(EngineConfig(checkpoints=checkpoints))
    assert [r.path for r in unmet if r.kind is RequirementKind.FILE] == [str(checkpoints / "mini" / weights.DECODER)]


def test_a_truncated_file_is_refused_by_the_check_and_the_load(checkpoints: Path) -> None:
    path = checkpoints / "mini" / weights.LM
    truncate(path)
    unmet = check(EngineConfig(checkpoints=checkpoints))
    assert any(r.kind is RequirementKind.FILE and "lm.safetensors" in r.message and "expected" in r.message
               for r in unmet)
    with pytest.raises(EngineLoadError, match="lm.safetensors is .* bytes, expected"):
        _load(checkpoints)


def test_an_altered_file_is_found_corrupt(checkpoints: Path) -> None:
    path = checkpoints / "mini" / weights.DECODER_IO
    alter_one_byte(path)
    with pytest.raises(EngineLoadError, match="decoder_io.safetensors is corrupt"):
        _load(checkpoints)


def test_a_pickle_is_never_unpickled(tmp_path: Path) -> None:
    marker = tmp_path / "ran"

    class Trap:
        def __reduce__(self):  # type: ignore[no-untyped-def]
            return (marker.write_text, ("unpickled",))

    path = tmp_path / "weights.safetensors"
    path.write_bytes(pickle.dumps(Trap()))
    with pytest.raises(EngineLoadError, match="not a readable safetensors file"):
        weights.load_tensors(path)
    assert not marker.exists()


def test_a_missing_config_is_explained(checkpoints: Path) -> None:
    (checkpoints / "mini" / weights.CONFIG).unlink()
    with pytest.raises(EngineLoadError, match="config.json"):
        _load(checkpoints)


def test_the_intact_checkpoint_loads_and_makes_a_turn(checkpoints: Path) -> None:
    from studio.core.instruction import parse_instruction
    from studio.engines.catalog.mini import MiniSettings
    from studio.engines.context import GenerationContext

    engine = _load(checkpoints)
    settings = MiniSettings.from_values({"steps": 1, "height": 64, "width": 96, "frames": 5})
    prediction = engine.predict(GenerationContext(), parse_instruction("Character: Qiqi; Motion: run."), settings, 3)
    clip = engine.decode(prediction, settings, 3)
    assert clip.frames.shape == (5, 64, 96, 3)
    assert prediction.representation.shape == (32, 64)


def test_weights_that_do_not_fit_the_config_are_explained_in_a_few_names(checkpoints: Path) -> None:
    import json

    config = checkpoints / "mini" / weights.CONFIG
    manifest = json.loads(config.read_text(encoding="utf-8"))
    manifest["model"]["decoder"]["layers"] += 1  # the weights have one block fewer than the config says
    config.write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(EngineLoadError) as raised:
        _load(checkpoints)
    message = str(raised.value)
    assert "does not fit the model in its config.json" in message and "missing tensors (" in message, message
    assert "blocks." in message and len(message) < 800, message  # names a few, not every layer
    assert weights.state_mismatch({"a": (2,)}, {"a": (3,), "b": (1,)}) == \
        "1 unexpected tensor (b); 1 shape mismatch (a is [3], not [2])"
    told = [item.message for item in check(EngineConfig(checkpoints=checkpoints))]
    assert any("layers, but" in m and "decoder.layers" in m for m in told), told  # doctor says so before a turn
