"""CustomX's speed settings on tiny random weights: which layers FP8 takes, the attention
kernel, compiled blocks, the bf16 reload after FP8, the kept mask latents, the presets."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")
pytest.importorskip("transformers")

from studio.core.instruction import parse_instruction  # noqa: E402
from studio.engines import acceleration  # noqa: E402
from studio.engines.base import EngineConfig, EngineError, GenerationContext  # noqa: E402
from studio.engines.catalog.customx import TEST_INFO, CustomXSettings  # noqa: E402
from studio.engines.customx.engine import FP8_SKIP, FP8_WITHIN, CustomXEngine  # noqa: E402
from studio.engines.customx.tiny import write_tiny_checkpoints  # noqa: E402

SETTINGS = {"height": 32, "width": 48, "frames": 9, "steps": 2, "continuation_frames": 5, "vae_tiling": False}
INSTRUCTION = parse_instruction("Character: Aoi; Motion: run; Camera: follow.")


@pytest.fixture()
def engine(tmp_path: Path) -> CustomXEngine:
    write_tiny_checkpoints(tmp_path)
    made = CustomXEngine(EngineConfig(checkpoints=tmp_path), info=TEST_INFO)
    made.load()
    return made


def _settings(**values: object) -> CustomXSettings:
    return CustomXSettings.from_values({**SETTINGS, **values})


def test_fp8_takes_the_blocks_projections_and_leaves_the_modulation(engine: CustomXEngine) -> None:
    transformer = engine._transformer
    names = acceleration.fp8_layers(transformer, FP8_WITHIN, FP8_SKIP, smallest=1)
    linears = {n for n, m in transformer.named_modules() if isinstance(m, torch.nn.Linear)}
    assert names and set(names) <= linears
    assert "transformer_blocks.0.attn.to_q" in names and "transformer_blocks.0.ff_context.net.2" in names
    assert "single_transformer_blocks.1.proj_mlp" in names and "single_transformer_blocks.1.proj_out" in names
    assert not [n for n in names if ".norm" in n], "modulation layers stay in bf16"
    assert not [n for n in names if not n.startswith(FP8_WITHIN)], "embedders and the output layer stay"
    # the released sizes' rule: both sides a multiple of 16 and at least 1024 (the tiny model has none)
    assert acceleration.fp8_layers(transformer, FP8_WITHIN, FP8_SKIP) == []


def test_fp8_on_the_cpu_is_refused_with_the_reason_and_the_engine_still_works(engine: CustomXEngine) -> None:
    prediction = engine.predict(GenerationContext(), INSTRUCTION, _settings(), 0)
    with pytest.raises(EngineError, match="FP8 layers need a CUDA GPU"):
        engine.decode(prediction, _settings(fp8=True), 0)
    assert engine.decode(prediction, _settings(), 0).frames.shape == (9, 32, 48, 3)


def test_going_back_to_bf16_after_fp8_reloads_the_transformer_from_its_file(engine: CustomXEngine) -> None:
    prediction = engine.predict(GenerationContext(), INSTRUCTION, _settings(), 0)
    before = engine.decode(prediction, _settings(), 0).frames
    old = engine._transformer
    with torch.no_grad():
        old.proj_out.weight.add_(1.0)  # stands for the weights FP8 rounded
    engine._fp8 = True
    after = engine.decode(prediction, _settings(), 0).frames
    assert engine._transformer is not old and engine._fp8 is False
    np.testing.assert_array_equal(before, after)


def test_adopted_models_cannot_be_reloaded_and_say_so(tmp_path: Path) -> None:
    source = CustomXEngine(EngineConfig(checkpoints=tmp_path), info=TEST_INFO)
    write_tiny_checkpoints(tmp_path)
    source.load()
    adopted = CustomXEngine(EngineConfig(checkpoints=tmp_path / "none"), info=TEST_INFO)
    assert source._size is not None and source._tokenizers is not None
    adopted.adopt(source._size, source._tokenizers, {"text_encoder": source._llava, "text_encoder_2": source._clip,
                                                     "transformer": source._transformer, "vae": source._vae})
    adopted._fp8 = True
    with pytest.raises(EngineError, match="bf16 weights can't be read again"):
        adopted.accelerate(_settings())


def test_the_attention_kernel_is_set_on_every_attention_layer(engine: CustomXEngine) -> None:
    transformer = engine._transformer

    def backends() -> set[str]:
        return {str(getattr(m.processor, "_attention_backend", None)) for m in transformer.modules()
                if hasattr(m, "processor") and hasattr(m.processor, "_attention_backend")}

    acceleration.set_attention(transformer, "cudnn")
    assert backends() == {"AttentionBackendName._NATIVE_CUDNN"}
    acceleration.set_attention(transformer, "auto")
    assert backends() == {"AttentionBackendName.NATIVE"}
    with pytest.raises(acceleration.AccelerationError, match="Unknown attention kernel 'fa3'"):
        acceleration.set_attention(transformer, "fa3")


def test_a_forced_attention_kernel_off_the_gpu_is_refused_with_the_reason(engine: CustomXEngine) -> None:
    prediction = engine.predict(GenerationContext(), INSTRUCTION, _settings(), 0)
    with pytest.raises(EngineError, match="The cudnn attention kernel runs on a CUDA GPU; the transformer is on cpu"):
        engine.decode(prediction, _settings(attention="cudnn"), 0)
    assert engine.decode(prediction, _settings(attention="auto"), 0).frames.shape == (9, 32, 48, 3)


def test_compiled_blocks_give_the_same_velocity_and_can_be_undone(engine: CustomXEngine) -> None:
    transformer = engine._transformer
    torch.manual_seed(2)
    x, views = torch.randn(1, 4, 3, 4, 6), torch.randn(1, 4, 4, 4, 6)
    text, mask, pooled = torch.randn(1, 5, 32), torch.ones(1, 5), torch.randn(1, 16)
    t = torch.tensor([900.0])
    with torch.inference_mode():
        eager = transformer(x, t, text, mask, pooled, views, None)
    count = acceleration.compile_blocks(transformer, backend="eager")
    assert count == len(transformer.transformer_blocks) + len(transformer.single_transformer_blocks) + 3
    assert acceleration.is_compiled(transformer)
    try:
        with torch.inference_mode():
            compiled = transformer(x, t, text, mask, pooled, views, None)
    finally:
        acceleration.uncompile(transformer)
    torch.testing.assert_close(compiled, eager)
    assert not acceleration.is_compiled(transformer)


def test_the_compile_setting_compiles_and_uncompiles(engine: CustomXEngine) -> None:
    engine.accelerate(_settings(torch_compile=True))  # compiling itself waits for the first call
    assert acceleration.is_compiled(engine._transformer)
    engine.accelerate(_settings())
    assert not acceleration.is_compiled(engine._transformer)


def test_the_engine_compiles_only_the_blocks_once_for_every_text_length(engine: CustomXEngine,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The conditional row's text length changes with each prompt: the compiled blocks must take
    any length without compiling again (the inductor backend, slow on the CPU, is swapped for
    the eager one; the tracing and its shape rules are the same)."""
    from studio.engines.customx import engine as engine_module

    monkeypatch.setitem(engine_module.COMPILE_OPTIONS, "backend", "eager")
    transformer = engine._transformer
    torch._dynamo.reset()
    engine.accelerate(_settings(torch_compile=True))
    compiled = {type(m).__name__ for m in transformer.modules() if getattr(m, "_compiled_call_impl", None)}
    assert compiled == set(engine_module.COMPILED_BLOCKS), "the embedders and the token refiner stay eager"
    torch.manual_seed(3)
    x, views = torch.randn(1, 4, 3, 4, 6), torch.randn(1, 4, 4, 4, 6)
    pooled, t = torch.randn(1, 16), torch.tensor([900.0])
    graphs = []
    try:
        for length in (5, 7, 11):
            text, mask = torch.randn(1, length, 32), torch.ones(1, length)
            with torch.inference_mode():
                out = transformer(x, t, text, mask, pooled, views, None)
            graphs.append(torch._dynamo.utils.counters["stats"]["unique_graphs"])
            acceleration.uncompile(transformer)
            with torch.inference_mode():
                eager = transformer(x, t, text, mask, pooled, views, None)
            engine.accelerate(_settings(torch_compile=True))
            torch.testing.assert_close(out, eager)
    finally:
        acceleration.uncompile(transformer)
        torch._dynamo.reset()
    assert graphs[0] > 0 and graphs == [graphs[0]] * 3, f"compiled again for a new text length: {graphs}"


def test_the_mask_clips_latents_are_encoded_once_per_size(engine: CustomXEngine) -> None:
    calls = []
    encode = engine.encode_video

    def counting(frames: np.ndarray) -> torch.Tensor:
        calls.append(frames.shape)
        return encode(frames)

    engine.encode_video = counting  # type: ignore[method-assign]
    with torch.inference_mode():
        first = engine.mask_latents(9, 32, 48, False)
        again = engine.mask_latents(9, 32, 48, False)
        other = engine.mask_latents(5, 32, 48, False)
    assert again is first and calls == [(9, 32, 48, 3), (5, 32, 48, 3)]
    assert other.shape[2] == 2


def test_presets_that_change_the_clip_say_so() -> None:
    presets = {p.name: p for p in CustomXSettings.PRESETS}
    reference = CustomXSettings.from_values(presets["reference"].values)
    assert not reference.fp8 and reference.step_reuse == "none" and not presets["reference"].changes_output
    for preset in presets.values():
        values = CustomXSettings.from_values(preset.values)
        if values.fp8 or values.step_reuse != "none" or values.steps != 30:
            assert preset.changes_output, preset.name


def test_the_fastest_preset_at_reference_quality_is_deepcache_with_compiled_blocks() -> None:
    fastest = CustomXSettings.from_values(CustomXSettings.preset("deepcache").values)
    assert fastest.step_reuse == "deepcache" and fastest.torch_compile and not fastest.vae_tiling
    assert (fastest.steps, fastest.guidance, fastest.shift, fastest.fp8) == (30, 7.5, 13.0, False)
    reference = CustomXSettings.from_values(CustomXSettings.preset("reference").values)
    assert not reference.torch_compile, "Reference runs as released, with no compiler wait"


def test_compile_is_refused_with_the_reason_where_the_gpu_has_no_triton(engine: CustomXEngine,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import torch.utils._triton as triton_check

    monkeypatch.setattr(triton_check, "has_triton", lambda: False)
    problem = acceleration.compile_problem(torch.device("cuda"))
    assert problem.startswith("Compile needs Triton to build CUDA kernels")
    assert acceleration.compile_problem(torch.device("cpu")) == ""  # the CPU compiler needs no Triton
    monkeypatch.setattr(acceleration, "compile_problem", lambda device: problem)  # as on such a GPU
    with pytest.raises(EngineError, match="Compile needs Triton") as raised:
        engine.accelerate(_settings(torch_compile=True))
    assert raised.value.hint == "Turn Compile off."
    assert not acceleration.is_compiled(engine._transformer)
    engine.accelerate(_settings())  # the engine is left as it was, and runs without it
