"""The memory and speed options on tiny weights, on the CPU: the lean VAE decode, parking
the decoder, the RAM copies behind offloading, the attention and FP8 settings."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch import nn

from studio.core.instruction import parse_instruction
from studio.engines.animegamer import lean_vae, speed
from studio.engines.animegamer.engine import AnimeGamerEngine
from studio.engines.animegamer.offload import HostCopy
from studio.engines.animegamer.sizes import TINY
from studio.engines.animegamer.vae import build_vae
from studio.engines.base import GenerationContext
from studio.engines.catalog.animegamer import TEST_INFO, AnimeGamerSettings
from studio.engines.config import EngineConfig
from studio.engines.settings import SettingsError

SMALL = {"height": 32, "width": 48, "frames": 9, "steps": 2}


@pytest.fixture
def engine(tiny) -> AnimeGamerEngine:  # type: ignore[no-untyped-def]
    made = AnimeGamerEngine(EngineConfig(checkpoints=tiny), info=TEST_INFO)
    made.load()
    return made


@pytest.mark.parametrize("latent_frames", [1, 2, 3, 5, 7])
def test_the_lean_decode_computes_what_diffusers_decode_computes(latent_frames: int) -> None:
    torch.manual_seed(latent_frames)
    vae = build_vae(TINY.vae).eval()
    for parameter in vae.parameters():  # away from the initial values, so that every layer matters
        parameter.data.add_(0.05 * torch.randn_like(parameter))
    z = torch.randn(1, TINY.vae.latent_channels, latent_frames, 4, 6)
    with torch.inference_mode():
        expected = vae.decode(z).sample
        got = lean_vae.decode(vae, z)
    assert got.shape == expected.shape == (1, 3, 4 * (latent_frames - 1) + 1 if latent_frames % 2 else
                                          4 * latent_frames, 32, 48)
    assert torch.isfinite(got).all()
    error = ((got - expected).norm() / expected.norm()).item()
    assert error < 1e-6, error


def test_in_bf16_the_lean_decode_is_as_close_to_float32_as_diffusers_decode() -> None:
    """Half precision: the two decodes differ by far less than either differs from float32."""
    torch.manual_seed(11)
    vae = build_vae(TINY.vae).eval()
    for parameter in vae.parameters():
        parameter.data.add_(0.05 * torch.randn_like(parameter))
    z = torch.randn(1, TINY.vae.latent_channels, 5, 8, 12)
    with torch.inference_mode():
        exact = vae.decode(z).sample
        vae.to(torch.bfloat16)
        stock = vae.decode(z.bfloat16()).sample.float()
        lean = lean_vae.decode(vae, z.bfloat16()).float()

    def relative(a: torch.Tensor, b: torch.Tensor) -> float:
        return float((a - b).norm() / b.norm())

    assert relative(stock, exact) > 1e-4  # bf16 rounding shows
    assert relative(lean, stock) <= 0.1 * relative(stock, exact)


def test_the_lean_decode_steps_aside_for_tiling() -> None:
    vae = build_vae(TINY.vae)
    assert lean_vae.supported(vae)
    vae.enable_tiling()
    assert not lean_vae.supported(vae)


def test_lean_and_diffusers_decodes_give_the_same_clip(engine: AnimeGamerEngine) -> None:
    prediction = engine.predict(GenerationContext(), parse_instruction("Character: Qiqi; Motion: wave."),
                                AnimeGamerSettings.from_values(SMALL), 1)
    lean = engine.decode(prediction, AnimeGamerSettings.from_values(SMALL), 4).frames
    stock = engine.decode(prediction, AnimeGamerSettings.from_values({**SMALL, "lean_vae": False}), 4).frames
    assert lean.shape == stock.shape == (9, 32, 48, 3)
    assert np.abs(lean.astype(int) - stock.astype(int)).max() <= 1  # float32 rounding, then truncation


def test_parking_the_decoder_keeps_the_clip(engine: AnimeGamerEngine) -> None:
    prediction = engine.predict(GenerationContext(), parse_instruction("Character: Qiqi; Motion: wave."),
                                AnimeGamerSettings.from_values(SMALL), 1)
    plain = engine.decode(prediction, AnimeGamerSettings.from_values(SMALL), 5).frames
    parked_settings = AnimeGamerSettings.from_values({**SMALL, "park_decoder": True})
    first = engine.decode(prediction, parked_settings, 5).frames
    assert engine._decoder is not None and id(engine._decoder) in engine._hosts
    second = engine.decode(prediction, parked_settings, 5).frames
    np.testing.assert_array_equal(first, plain)
    np.testing.assert_array_equal(second, plain)


def test_a_host_copy_keeps_the_ram_tensors_it_was_given() -> None:
    module = nn.Sequential(nn.Linear(4, 3), nn.LayerNorm(3))
    pointers = [p.data_ptr() for p in module.parameters()]
    copy = HostCopy(module, pin=False)
    assert copy.nbytes == sum(p.numel() * 4 for p in module.parameters())
    copy.visit(torch.device("cpu"))
    copy.leave()
    assert [p.data_ptr() for p in module.parameters()] == pointers  # the weights were never copied


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_a_host_copy_visits_the_gpu_and_leaves_its_ram_copy_in_place() -> None:
    module = nn.Sequential(nn.Linear(4, 3), nn.LayerNorm(3))
    module[1].register_buffer("marker", torch.ones(2))
    before = [p.detach().clone() for p in module.parameters()]
    copy = HostCopy(module, pin=True)
    host_pointers = [p.data_ptr() for p in module.parameters()]
    copy.visit(torch.device("cuda:0"))
    assert all(p.device.type == "cuda" for p in module.parameters()) and module[1].marker.device.type == "cuda"
    out = module(torch.ones(1, 4, device="cuda:0"))
    copy.leave()
    assert [p.data_ptr() for p in module.parameters()] == host_pointers
    assert module[1].marker.device.type == "cpu"
    torch.testing.assert_close(out.cpu(), module(torch.ones(1, 4)))
    for p, old in zip(module.parameters(), before, strict=True):
        assert torch.equal(p, old)


def test_attention_kernel_names_are_checked_and_the_cpu_is_left_alone() -> None:
    with pytest.raises(ValueError, match="unknown attention kernel"), \
            speed.attention_kernel("fastest", torch.device("cpu")):
        pass
    with speed.attention_kernel("cudnn", torch.device("cpu")):
        out = torch.nn.functional.scaled_dot_product_attention(*(torch.randn(1, 2, 5, 8) for _ in range(3)))
    assert out.shape == (1, 2, 5, 8)


def test_fp8_is_refused_on_the_cpu_with_the_reason(engine: AnimeGamerEngine) -> None:
    prediction = engine.predict(GenerationContext(), parse_instruction("Character: Qiqi; Motion: wave."),
                                AnimeGamerSettings.from_values(SMALL), 1)
    with pytest.raises(SettingsError, match="FP8 layers need a CUDA GPU"):
        engine.decode(prediction, AnimeGamerSettings.from_values({**SMALL, "fp8": True}), 1)
    assert not engine._fp8


def test_fp8_with_a_parked_transformer_is_refused_with_the_reason(engine: AnimeGamerEngine,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(speed, "fp8_problem", lambda device: "")  # as on an FP8 GPU
    prediction = engine.predict(GenerationContext(), parse_instruction("Character: Qiqi; Motion: wave."),
                                AnimeGamerSettings.from_values(SMALL), 1)
    engine.decode(prediction, AnimeGamerSettings.from_values(SMALL), 1)  # parks the transformer
    with pytest.raises(SettingsError, match="Park the video transformer"):
        engine.decode(prediction, AnimeGamerSettings.from_values({**SMALL, "fp8": True}), 1)
    assert not engine._fp8


def test_fp8_takes_only_the_large_linear_layers_of_the_blocks() -> None:
    block = nn.Module()
    block.ff = nn.Linear(1024, 4096)
    block.odd = nn.Linear(1000, 4096)
    block.norm = nn.LayerNorm(1024)
    model = nn.Module()
    model.transformer_blocks = nn.ModuleList([block])
    model.proj_out = nn.Linear(1024, 4096)
    assert speed.fp8_layer_names(model) == ["transformer_blocks.0.ff"]


def test_the_fastest_preset_asks_for_compile_not_fp8_or_a_cache_and_reference_for_neither() -> None:
    fastest = AnimeGamerSettings.from_values({}, preset="fastest")
    reference = AnimeGamerSettings.from_values({}, preset="reference")
    assert (fastest.steps, fastest.guidance_steps, fastest.state_pass) == (8, 4, "shared")
    assert fastest.compile and fastest.vae_autotune
    # with FP8 its first clip waited about 7 minutes for the compiler; a step cache multiplies the graphs
    assert not fastest.fp8 and fastest.step_cache == "none"
    assert not (reference.fp8 or reference.compile or fastest.park_decoder)
    compiled = AnimeGamerSettings.from_values({}, preset="compiled")
    assert compiled.compile and compiled.to_values() == {**reference.to_values(), "compile": True}
    assert reference.lean_vae and reference.park_decoder


def test_compiling_marks_each_transformer_block(engine: AnimeGamerEngine) -> None:
    from studio.engines.acceleration import is_compiled, uncompile

    assert engine._decoder is not None
    model = engine._decoder.transformer
    assert speed.compile_blocks(model) == TINY.decoder.layers  # lazy: nothing is compiled until a call
    assert is_compiled(model)
    uncompile(model)
    assert not is_compiled(model)


def test_unloading_a_compiled_engine_drops_the_compiled_code(engine: AnimeGamerEngine,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiled code keeps the weights it was traced with: an unloaded engine must not leave it behind."""
    dropped: list[bool] = []
    monkeypatch.setattr(speed, "forget_compiled", lambda: dropped.append(True))
    engine._compiled = True
    engine.unload()
    assert dropped == [True] and not engine._compiled and not engine.loaded


@pytest.mark.parametrize("loaded_in_inference_mode", [True, False])
def test_a_ram_copy_keeps_its_weights_usable_whatever_mode_moves_them(loaded_in_inference_mode: bool) -> None:
    """The engine loads its weights under inference mode; a visit made from code outside it (a
    benchmark's own decoder pass) must not leave the parameters unusable. ``cpu:0`` stands for
    the GPU: moving there copies each tensor, as an upload does."""
    with torch.inference_mode(loaded_in_inference_mode):
        layer = nn.Linear(4, 4)
        for name, value in list(layer.named_parameters()):
            setattr(layer, name, nn.Parameter(value.detach().clone(), requires_grad=False))
    x = torch.randn(2, 4)
    expected = layer(x).detach().clone()
    with torch.inference_mode():
        copy = HostCopy(layer, pin=False)  # made while a clip runs, in inference mode
    elsewhere = torch.device("cpu", 0)
    copy.visit(elsewhere)  # moved by code outside inference mode
    with torch.inference_mode():
        assert torch.equal(layer(x), expected)
    copy.leave()
    with torch.inference_mode():
        copy.visit(elsewhere)
    assert torch.equal(layer(x), expected)
    copy.leave()
    with torch.inference_mode():
        assert torch.equal(layer(x), expected)


def test_compile_is_refused_with_the_reason_where_the_gpu_has_no_triton(engine: AnimeGamerEngine,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.engines import acceleration

    monkeypatch.setattr(acceleration, "compile_problem", lambda device: "Compile needs Triton (test).")
    prediction = engine.predict(GenerationContext(), parse_instruction("Character: Qiqi; Motion: wave."),
                                AnimeGamerSettings.from_values(SMALL), 1)
    with pytest.raises(SettingsError, match=r"Compile needs Triton \(test\)\. Turn Compile off"):
        engine.decode(prediction, AnimeGamerSettings.from_values({**SMALL, "compile": True}), 1)
    assert not engine._compiled and not acceleration.is_compiled(engine._decoder.transformer)
    assert engine.decode(prediction, AnimeGamerSettings.from_values(SMALL), 1).frames.shape == (9, 32, 48, 3)
