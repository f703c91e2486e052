"""CustomX on one GPU: seconds per turn (text encoders, transformer, VAE) and peak memory.

Full-size random weights of the released structure (12.5B transformer in bf16, LLaVA-Llama-3-8B
and CLIP-L in fp16, the HunyuanVideo VAE in fp16) are built on the GPU; the released weights
would take the same time. 93 frames at 352 x 624 (360p), four reference views, a scene clip,
33 frames carried over from a previous clip, real guidance 7.5.

One device call must stay within minutes, so the transformer is timed on a few steps of each
configuration and the 30-step figure is that mean step time x 30 (x 22 full + 8 reusing steps
for DeepCache), plus the text encoders and the VAE measured once per turn:

- Reference: the release's sampler, each guidance row its own unmasked pass (fast kernels);
- plain baseline: the same, both rows in one batch with the padding mask (diffusers' way);
- DeepCache (the fastest preset at Reference steps): the release's schedule.

``KAMISHIBAI_BENCH_TINY=1`` runs the same code with tiny weights on the CPU (a smoke test).
``KAMISHIBAI_BENCH_STEPS`` sets the measured steps (default 3).
"""

from __future__ import annotations

import os
import time
from dataclasses import replace

import numpy as np
import torch

from studio.benchmarks import BenchResult
from studio.core.instruction import parse_instruction
from studio.engines.base import GenerationContext
from studio.engines.catalog.customx import INFO, TEST_INFO, CustomXSettings
from studio.engines.config import EngineConfig
from studio.engines.customx import engine as engine_module
from studio.engines.customx import media
from studio.engines.customx.components import Tokenizers, build, building
from studio.engines.customx.engine import CustomXEngine
from studio.engines.customx.sampler import SamplerOptions, full_pass_steps, scheduler
from studio.engines.customx.sizes import RELEASED, TINY, ModelSize
from studio.engines.customx.tiny import clip_tokenizer, llava_tokenizer

TITLE = "CustomX on one GPU: seconds per turn and peak memory (full-size random weights)"
GOAL_SECONDS = 75.0
GOAL_PEAK_BYTES = 80 * 1000**3
INSTRUCTION = "Character: Qiqi; Motion: run; Adverb: backward; Background: day town; Camera: follow."


def _tiny() -> bool:
    return os.environ.get("KAMISHIBAI_BENCH_TINY", "") not in ("", "0")


def _sync() -> None:
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def _engine(size: ModelSize, device: torch.device) -> CustomXEngine:
    info = TEST_INFO if _tiny() else INFO
    engine = CustomXEngine(EngineConfig(), info=info)  # models are adopted, not loaded from a folder
    tokenizers = Tokenizers(llava_tokenizer(), clip_tokenizer())
    models = {}
    dtypes = {"transformer": torch.bfloat16, "vae": torch.float16, "text_encoder": torch.float16,
              "text_encoder_2": torch.float16}
    for part in ("transformer", "text_encoder", "text_encoder_2", "vae"):
        dtype = torch.float32 if device.type == "cpu" else dtypes[part]
        with torch.inference_mode(False), building(device, dtype):
            models[part] = build(part, size, tokenizers).eval().requires_grad_(False)
    engine.adopt(size, tokenizers, models)
    return engine


prioritised = engine_module.fast_attention


def no_priority(_device: torch.device) -> object:
    from contextlib import nullcontext

    return nullcontext()


def run(quick: bool) -> list[BenchResult]:
    tiny = _tiny()
    if not tiny and not torch.cuda.is_available():
        return [BenchResult("skipped", 0.0, "", note="needs a CUDA GPU")]
    device = torch.device("cpu" if tiny else "cuda:0")
    size = TINY if tiny else RELEASED
    size = replace(size, text=replace(size.text, crop_start=0))  # counted from the stand-in tokenizer
    measured = int(os.environ.get("KAMISHIBAI_BENCH_STEPS", "2" if quick else "3"))
    height, width, frames = (32, 48, 9) if tiny else (352, 624, 93)
    carried = 5 if tiny else 33
    build_start = time.perf_counter()
    engine = _engine(size, device)
    _sync()
    built = time.perf_counter() - build_start
    print(f"built in {built:.1f} s", flush=True)
    results: list[BenchResult] = []
    previous = np.random.default_rng(0).integers(0, 255, (carried, height, width, 3), dtype=np.uint8)
    settings = CustomXSettings.from_values({"height": height, "width": width, "frames": frames,
                                            "continuation_frames": carried, "vae_tiling": True})
    instruction = parse_instruction(INSTRUCTION)
    context = GenerationContext()
    if torch.cuda.is_available():
        torch.cuda.reset_peak_memory_stats()
    # text encoders (predict), once to warm up, once timed
    engine.predict(context, instruction, settings, 0)
    _sync()
    start = time.perf_counter()
    prediction = engine.predict(context, instruction, settings, 0)
    _sync()
    text_seconds = time.perf_counter() - start
    encoded = engine._encoded
    assert encoded is not None
    # VAE: views, scene + mask, previous clip; decode
    views = media.grey(4, height, width)
    scene = media.grey(frames, height, width)
    start = time.perf_counter()
    with torch.inference_mode():
        engine._tiling(True)
        view_latents = torch.cat([engine.encode_video(f[None]) for f in views], dim=2)
        scene_latents = torch.cat([engine.encode_video(scene),
                                   engine.encode_video(media.mask_clip(frames, height, width))], dim=1)
        engine.encode_video(previous)  # the carried frames, timed with the rest
    _sync()
    encode_seconds = time.perf_counter() - start
    latent_frames = (frames - 1) // 4 + 1
    shape = (1, size.vae.latent_channels, latent_frames, height // 8, width // 8)
    latents = torch.randn(shape, generator=torch.Generator("cpu").manual_seed(0)).to(device)
    text, mask, pooled = encoded.text.to(device), encoded.mask.to(device), encoded.pooled.to(device)
    views_in = view_latents.expand(2, -1, -1, -1, -1)
    scene_in = scene_latents.expand(2, -1, -1, -1, -1)
    timesteps = scheduler(SamplerOptions(steps=30), device).timesteps  # type: ignore[attr-defined]

    def steps(batched: bool, reuse_pattern: list[bool]) -> list[float]:
        times = []
        engine._transformer.forget()
        x = latents
        for index, reuse in enumerate(reuse_pattern):
            t = timesteps[index].expand(2)
            _sync()
            begin = time.perf_counter()
            with torch.inference_mode():
                v = engine.velocity(torch.cat([x, x]), t, text, mask, pooled, views_in, scene_in, reuse,
                                    batched=batched)
            _sync()
            times.append(time.perf_counter() - begin)
            x = x - 0.01 * v[:1].float()
        return times

    steps(False, [False])  # warm-up
    reference = steps(False, [False] * measured)
    print(f"reference steps {reference}", flush=True)
    engine_module.fast_attention = no_priority  # the same without the kernel order
    flash = steps(False, [False] * measured)
    engine_module.fast_attention = prioritised
    print(f"reference steps, default kernels {flash}", flush=True)
    batched = steps(True, [False] * measured)
    print(f"batched steps {batched}", flush=True)
    reusing = steps(False, [False] + [True] * measured)[1:]
    print(f"reusing steps {reusing}", flush=True)
    start = time.perf_counter()
    with torch.inference_mode():
        clip = engine.decode_latents(latents)
    _sync()
    decode_seconds = time.perf_counter() - start
    assert clip.shape == (frames, height, width, 3)
    peak = torch.cuda.max_memory_allocated() if torch.cuda.is_available() else 0
    full = len(full_pass_steps(30))
    vae_seconds = encode_seconds + decode_seconds
    step = float(np.mean(reference))
    turns = {
        "Reference": step * 30,
        "Plain baseline (one masked batch)": float(np.mean(batched)) * 30,
        "DeepCache preset": step * full + float(np.mean(reusing)) * (30 - full),
    }
    base = text_seconds + vae_seconds
    results.append(BenchResult("Build full-size random models on the GPU", built, "s"))
    results.append(BenchResult("Text encoders (LLaVA-Llama-3-8B with 4 views + CLIP-L), 2 rows", text_seconds,
                               "s", note=f"{int(encoded.text.shape[1])} text tokens after the crop"))
    results.append(BenchResult("VAE encode (4 views, scene + mask 93 frames, 33 carried) + decode, tiled",
                               vae_seconds, "s",
                               note=f"encode {encode_seconds:.1f} s, decode {decode_seconds:.1f} s"))
    results.append(BenchResult("Transformer step, Reference (2 unmasked passes)", step, "s",
                               note=f"mean of {measured} measured steps"))
    results.append(BenchResult("Transformer step, Reference with PyTorch's default attention kernels",
                               float(np.mean(flash)), "s", note=f"mean of {measured} measured steps"))
    results.append(BenchResult("Transformer step, plain baseline (1 masked batch of 2)", float(np.mean(batched)),
                               "s", note=f"mean of {measured} measured steps"))
    results.append(BenchResult("Transformer step reusing the cache (DeepCache)", float(np.mean(reusing)), "s"))
    baseline_turn = turns["Plain baseline (one masked batch)"] + base
    for name, seconds in turns.items():
        total = seconds + base
        results.append(BenchResult(f"{name}: turn, 93 frames at 352 x 624, 30 steps (transformer "
                                   f"{seconds:.1f} s)", total, "s", goal=f"<= {GOAL_SECONDS:.0f} s",
                                   met=total <= GOAL_SECONDS, baseline=f"{baseline_turn:.1f} s",
                                   ratio=baseline_turn / total if total else None,
                                   note="transformer extrapolated from the measured steps"))
    results.append(BenchResult("Peak GPU memory (all models resident)", peak / 1000**3, "GB",
                               goal="<= 80 GB", met=peak <= GOAL_PEAK_BYTES))
    del prediction
    return results
