"""Room for a larger decoder: int8 decoder blocks (written, read back, packed in place, refused
clearly when damaged) and a decoder grown deeper from a trained one (new blocks start as
identities, so the grown decoder first makes exactly what the trained one made)."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.engines.base import EngineConfig, EngineLoadError  # noqa: E402
from studio.engines.mini import weights  # noqa: E402
from studio.engines.mini.config import load_train_config, named_config  # noqa: E402
from studio.engines.mini.decoder import VideoDiT, block_count  # noqa: E402
from studio.engines.mini.engine import MiniEngine  # noqa: E402
from studio.engines.mini.pack import main as pack_main  # noqa: E402
from studio.engines.mini.pack import pack_int8_blocks  # noqa: E402
from studio.engines.mini.train import Budget, Trainer  # noqa: E402


def _randomised(model: VideoDiT, seed: int) -> VideoDiT:
    """Every parameter non-zero (a fresh DiT's zeroed layers would hide differences)."""
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.copy_(torch.randn(parameter.shape, generator=generator) * 0.2)
    return model.eval()


def _inputs(model: VideoDiT, seed: int = 3) -> tuple[torch.Tensor, ...]:
    generator = torch.Generator().manual_seed(seed)
    rep_cfg = model.config.representation
    noisy = torch.randn(2, *model.canvas, generator=generator)
    rep = torch.randn(2, rep_cfg.tokens, rep_cfg.dim, generator=generator)
    return noisy, torch.tensor([0.3, 0.7]), torch.tensor([2, 5]), rep


def test_int8_rows_round_trip_within_half_a_step_and_leave_small_tensors_alone() -> None:
    generator = torch.Generator().manual_seed(0)
    state = {"a.weight": torch.randn(64, 48, generator=generator) * torch.logspace(-2, 1, 64)[:, None],
             "a.bias": torch.randn(64, generator=generator), "blocks.0.table": torch.randn(6, 256, generator=generator),
             "small.weight": torch.randn(8, 8, generator=generator)}
    packed = weights.quantize_int8(state)
    assert packed["a.weight"].dtype == torch.int8 and packed["a.weight" + weights.INT8_SCALE].shape == (64,)
    for name in ("a.bias", "blocks.0.table", "small.weight"):
        assert packed[name] is state[name] and name + weights.INT8_SCALE not in packed
    back = weights.dequantize_int8(packed, Path("x"))
    assert set(back) == set(state)
    step = state["a.weight"].abs().amax(dim=1, keepdim=True) / 127
    assert ((back["a.weight"] - state["a.weight"]).abs() <= step / 2 + 1e-7).all(), "each row to half its step"
    assert (back["a.weight"] - state["a.weight"]).abs().max() > 0, "it is a real quantisation"


def test_a_packed_checkpoint_is_smaller_still_verifies_and_makes_nearly_the_same_clip(tiny: Path,
                                                                                      tmp_path: Path) -> None:
    from studio.core.instruction import parse_instruction
    from studio.engines.catalog.mini import MiniSettings
    from studio.engines.context import GenerationContext

    packed = tmp_path / "packed"
    shutil.copytree(tiny, packed / "mini")
    folder = packed / "mini"
    before = (folder / weights.DECODER).stat().st_size
    assert pack_main([str(folder)]) == 0
    assert (folder / weights.DECODER).stat().st_size < before * 0.75
    manifest = weights.read_manifest(folder)
    weights.verify_file(folder, weights.DECODER, manifest)  # the manifest follows the new file
    assert not pack_int8_blocks(folder), "packing twice changes nothing"
    assert not list(folder.glob("*.partial"))

    settings = MiniSettings.from_values({"steps": 2, "height": 64, "width": 96, "frames": 5})
    clips = []
    for checkpoints in (tiny.parent, packed):
        engine = MiniEngine(EngineConfig(checkpoints=checkpoints, threads=1))
        engine.load()
        prediction = engine.predict(GenerationContext(), parse_instruction("Character: Qiqi; Motion: run."),
                                    settings, 7)
        clips.append(engine.decode(prediction, settings, 7).frames.astype(float))
    difference = abs(clips[0] - clips[1]).mean()
    assert difference < 2.0, f"mean pixel difference {difference:.2f} of 255"


def test_an_int8_lm_predicts_what_the_fp16_one_does(tiny: Path, tmp_path: Path) -> None:
    from studio.core.instruction import parse_instruction
    from studio.engines.catalog.mini import MiniSettings
    from studio.engines.context import GenerationContext

    packed = tmp_path / "packed"
    shutil.copytree(tiny, packed / "mini")
    folder = packed / "mini"
    lm_before, blocks_before = ((folder / name).stat().st_size for name in (weights.LM, weights.DECODER))
    assert pack_main([str(folder), "--lm"]) == 0
    assert (folder / weights.LM).stat().st_size < lm_before * 0.75
    assert (folder / weights.DECODER).stat().st_size < blocks_before * 0.75, "--lm packs the blocks too"
    manifest = weights.read_manifest(folder)
    weights.verify_file(folder, weights.LM, manifest)
    assert pack_main([str(folder), "--lm"]) == 0 and not list(folder.glob("*.partial"))

    settings = MiniSettings.from_values({"steps": 1, "height": 64, "width": 96, "frames": 5})
    predictions = []
    for checkpoints in (tiny.parent, packed):
        engine = MiniEngine(EngineConfig(checkpoints=checkpoints, threads=1))
        engine.load()
        predictions.append(engine.predict(GenerationContext(), parse_instruction("Character: Qiqi; Motion: run."),
                                          settings, 7))
    plain, small = predictions
    assert (small.deltas, small.motion_level) == (plain.deltas, plain.motion_level)
    change = abs(small.representation - plain.representation).max()
    assert 0 < change < 0.1 * abs(plain.representation).max(), "a real quantisation, and a small one"


def test_an_int8_matrix_without_its_scales_is_refused_by_name(tiny: Path, tmp_path: Path) -> None:
    from safetensors.torch import save_file

    path = tmp_path / "decoder.safetensors"
    save_file({"blocks.0.ff.weight": torch.zeros(4, 4, dtype=torch.int8)}, str(path))
    with pytest.raises(EngineLoadError, match=r"int8 tensor blocks\.0\.ff\.weight has no matching row scales"):
        weights.load_tensors(path)
    save_file({"x.weight" + weights.INT8_SCALE: torch.ones(4)}, str(path))
    with pytest.raises(EngineLoadError, match="row scales for a missing tensor x.weight"):
        weights.load_tensors(path)


def test_new_blocks_start_as_identities() -> None:
    model = load_train_config(named_config("tiny")).model
    shallow = _randomised(VideoDiT(model), seed=1)
    deeper_config = dataclasses.replace(model, decoder=dataclasses.replace(model.decoder, layers=3))
    deep = _randomised(VideoDiT(deeper_config), seed=2)
    state = shallow.state_dict()
    assert block_count(state) == 1 and block_count(deep.state_dict()) == 3
    deep.load_state_dict({**deep.state_dict(), **state})
    inputs = _inputs(shallow)
    with torch.no_grad():
        assert not torch.allclose(deep(*inputs), shallow(*inputs), atol=1e-4), "random new blocks change it"
        deep.make_blocks_identity(range(1, 3))
        assert torch.allclose(deep(*inputs), shallow(*inputs), atol=1e-5)


def test_training_from_a_shallower_checkpoint_grows_the_decoder(tiny: Path, tmp_path: Path) -> None:
    config = load_train_config(named_config("tiny"))
    deeper = dataclasses.replace(config, model=dataclasses.replace(
        config.model, decoder=dataclasses.replace(config.model.decoder, layers=3)))
    lines: list[str] = []
    trainer = Trainer(deeper, tmp_path / "run", torch.device("cpu"), Budget(0), init=tiny, log=lines.append)
    trainer.restore_state()
    trainer.config = dataclasses.replace(trainer.config, model=dataclasses.replace(
        weights.model_config(weights.read_manifest(tiny), tiny),
        decoder=deeper.model.decoder))
    trainer.build_modules()
    assert any("decoder grown" in line and "blocks_before=1" in line and "blocks=3" in line for line in lines)
    grown = trainer.decoder
    assert grown is not None and len(grown.blocks) == 3
    original = VideoDiT(weights.model_config(weights.read_manifest(tiny), tiny))
    original.load_state_dict({k: v.float() for k, v in {
        **weights.load_tensors(tiny / weights.DECODER), **weights.load_tensors(tiny / weights.DECODER_IO)}.items()})
    # the tiny checkpoint's DiT is fresh (its output layers zeroed): give both the same random
    # head so that the comparison sees the blocks
    with torch.no_grad():
        for module in (original, grown):
            generator = torch.Generator().manual_seed(5)
            for parameter in module.head.parameters():
                parameter.copy_(torch.randn(parameter.shape, generator=generator) * 0.2)
    inputs = _inputs(original.eval())
    with torch.no_grad():
        assert torch.allclose(grown.eval()(*inputs), original(*inputs), atol=1e-5)


def test_a_grown_run_exports_an_int8_checkpoint_the_engine_loads(tiny: Path, tmp_path: Path) -> None:
    from safetensors import safe_open

    from studio.core.instruction import parse_instruction
    from studio.engines.catalog.mini import MiniSettings
    from studio.engines.context import GenerationContext
    from studio.engines.mini.train import run

    config = load_train_config(named_config("tiny"))
    deeper = dataclasses.replace(config, int8_decoder_blocks=True, model=dataclasses.replace(
        config.model, decoder=dataclasses.replace(config.model.decoder, layers=2)))
    export = tmp_path / "ckpt" / "mini"
    lines: list[str] = []
    state = run(deeper, tmp_path / "run", device="cpu", init=tiny, export=export, restart=("decoder",),
                stages=("decoder",), cache=tmp_path / "cache", log=lines.append)
    assert state.stages["decoder"].done and any("decoder grown" in line for line in lines)
    assert weights.model_config(weights.read_manifest(export), export).decoder.layers == 2
    with safe_open(str(export / weights.DECODER), framework="pt") as handle:
        names = set(handle.keys())
    assert any(name.startswith("blocks.1.") for name in names)
    assert any(name.endswith(weights.INT8_SCALE) for name in names)
    engine = MiniEngine(EngineConfig(checkpoints=export.parent, threads=1))
    engine.load()
    settings = MiniSettings.from_values({"steps": 1, "height": 64, "width": 96, "frames": 5})
    prediction = engine.predict(GenerationContext(), parse_instruction("Character: Qiqi; Motion: run."), settings, 3)
    assert engine.decode(prediction, settings, 3).frames.shape == (5, 64, 96, 3)
