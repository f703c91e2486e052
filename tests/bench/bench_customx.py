"""CustomX on one GPU: seconds per turn, what each speed-up buys, what it costs in fidelity.

Full-size random weights of the released structure (12.5B transformer in bf16, LLaVA-Llama-3-8B
and CLIP-L in fp16, the HunyuanVideo VAE in fp16) are built on the GPU; the released weights
would take the same time. A turn: 93 frames at 352 x 624 (360p), four reference views, a scene
clip, 33 frames carried over from a previous clip, real guidance 7.5, 30 steps.

In one call (minutes of GPU time), in this order, each part under its own time limit
(``PARTS`` below says which can be left out):

1. attention alone at the turn's size (one head group of 24 x 26k tokens) with each kernel;
2. the text encoders, and the VAE untiled and tiled;
3. transformer steps at full size for each configuration (a few steps each; a turn's
   transformer time is the mean step x 30, or x 22 full + 8 reusing steps for DeepCache): the
   plain baseline (both guidance rows as one masked batch), Reference (one unmasked pass per
   row) with PyTorch's kernel choice and with cuDNN's, DeepCache's reusing step, one step
   profiled by kernel kind;
4. fidelity: the whole 30-step sampler on a short clip (17 frames at 192 x 320, the same
   full-size transformer) for each preset against Reference run the same way from the same
   noise: relative error of the final latents and PSNR of the decoded frames. With random
   weights this is a numerical check of how far a speed-up moves the sampler, not a judgement
   of how the clip looks;
5. compiled blocks, as the engine compiles them: the first step (which waits for the
   compiler), steady-state full and reusing steps, a profiled step, and DeepCache's fidelity
   with the blocks compiled;
6. whole turns through ``CustomXEngine.decode`` with the DeepCache preset, measured end to
   end, not extrapolated: the first (which compiles the blocks when the compile part did not
   run) and, as the preset compiles, the next one;
7. FP8 layers: their steps, first-step velocity error and fidelity.

``KAMISHIBAI_BENCH_TINY=1`` runs the same code with tiny weights on the CPU (a smoke test: FP8
is skipped there, compile uses the eager backend unless ``KAMISHIBAI_BENCH_COMPILE_BACKEND``
names another). ``KAMISHIBAI_BENCH_STEPS`` sets the measured steps per configuration (default
2), ``KAMISHIBAI_BENCH_OUT`` a folder for a JSON copy of the figures written as they come,
``KAMISHIBAI_BENCH_BUDGET`` the seconds the whole run may take (the compile part gets what is
left when it starts, or is skipped).
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import torch

from studio.benchmarks import BenchResult
from studio.core.instruction import parse_instruction
from studio.engines import acceleration
from studio.engines.base import GenerationContext
from studio.engines.catalog.customx import INFO, TEST_INFO, CustomXSettings
from studio.engines.config import EngineConfig
from studio.engines.customx import media
from studio.engines.customx.components import Tokenizers, build, building
from studio.engines.customx.engine import COMPILE_OPTIONS, COMPILED_BLOCKS, FP8_SKIP, FP8_WITHIN, CustomXEngine
from studio.engines.customx.sampler import SamplerOptions, full_pass_steps, sample, scheduler
from studio.engines.customx.sizes import RELEASED, TINY, ModelSize
from studio.engines.customx.tiny import clip_tokenizer, llava_tokenizer

TITLE = "CustomX on one GPU: seconds per turn, speed-ups and their fidelity (full-size random weights)"
GOAL_SECONDS = 75.0
GOAL_PEAK_BYTES = 80 * 1000**3
STEPS = 30
TURN_PRESET = "deepcache"
INSTRUCTION = "Character: Qiqi; Motion: run; Adverb: backward; Background: day town; Camera: follow."


PARTS = ("attention", "vae", "bf16", "cudnn", "profile", "deepcache", "fidelity", "fp8", "turn", "compile")
"""``KAMISHIBAI_BENCH_PARTS`` (comma-separated) runs some of them; Reference's steps, the text
encoders and the untiled VAE always run. ``vae``: the tiled VAE too; ``bf16``: the plain baseline
and DeepCache's reusing step; ``cudnn``: Reference with cuDNN's attention forced; ``deepcache``:
DeepCache's fidelity; ``fidelity``: every eager preset's; ``compile``: compiled blocks (their
compile time, steps, reusing step, a profiled step, and DeepCache's fidelity compiled)."""


def _parts() -> set[str]:
    chosen = os.environ.get("KAMISHIBAI_BENCH_PARTS", "")
    return {p.strip() for p in chosen.split(",")} if chosen else set(PARTS)


class OutOfTimeError(Exception):
    pass


def _tiny() -> bool:
    return os.environ.get("KAMISHIBAI_BENCH_TINY", "") not in ("", "0")


def _sync() -> None:
    if torch.cuda.is_available():
        torch.cuda.synchronize()


@contextmanager
def limit(seconds: float) -> Iterator[None]:
    """Stop the part (between two Python operations) once ``seconds`` have passed."""
    def stop(_signum: int, _frame: object) -> None:
        raise OutOfTimeError(f"over {seconds:.0f} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.01))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class Log:
    """Figures as they come: printed, and kept in a JSON file when a folder is given."""

    def __init__(self) -> None:
        self.figures: dict[str, Any] = {}
        folder = os.environ.get("KAMISHIBAI_BENCH_OUT", "")
        self.path = Path(folder) / "customx.json" if folder else None
        self.start = time.perf_counter()

    def __call__(self, key: str, value: Any) -> None:
        self.figures[key] = value
        print(f"[{time.perf_counter() - self.start:6.1f} s] {key}: {value}", flush=True)
        if self.path is not None:
            self.path.write_text(json.dumps(self.figures, indent=1, default=str))

    def part(self, name: str, seconds: float, body: Callable[[], None]) -> bool:
        begin = time.perf_counter()
        try:
            with limit(seconds):
                body()
        except Exception as error:  # a part that fails is reported, the others still run
            self(f"{name} failed", f"{type(error).__name__}: {str(error)[:300]}")
            if torch.cuda.is_available():
                torch.cuda.synchronize()
                torch.cuda.empty_cache()
            return False
        finally:
            self.figures.setdefault("part seconds", {})[name] = round(time.perf_counter() - begin, 1)
        return True


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


def relative_error(a: torch.Tensor, b: torch.Tensor) -> float:
    a, b = a.double(), b.double()
    return float((a - b).norm() / b.norm().clamp_min(1e-30))


def psnr(a: np.ndarray, b: np.ndarray) -> float:
    mse = float(np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2))
    return float("inf") if mse == 0 else 10 * np.log10(255.0**2 / mse)


def attention_kernels(log: Log, device: torch.device, tokens: int) -> None:
    """Attention alone: 24 heads of 128 over ``tokens`` tokens, each kernel, TFLOP/s."""
    from torch.nn.attention import SDPBackend, sdpa_kernel

    heads = 2 if _tiny() else 24
    dim = 16 if _tiny() else 128
    dtype = torch.float32 if _tiny() else torch.bfloat16
    q, k, v = (torch.randn(1, heads, tokens, dim, device=device, dtype=dtype) for _ in range(3))
    flops = 4 * tokens * tokens * dim * heads
    ref = None
    kernels = {"default": None, "flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION,
               "efficient": SDPBackend.EFFICIENT_ATTENTION}
    for name, kernel in kernels.items():
        if _tiny() and kernel not in (None, SDPBackend.EFFICIENT_ATTENTION):
            continue
        try:
            def call(kernel: Any = kernel) -> torch.Tensor:
                if kernel is None:
                    return torch.nn.functional.scaled_dot_product_attention(q, k, v)
                with sdpa_kernel(kernel):
                    return torch.nn.functional.scaled_dot_product_attention(q, k, v)

            out = call()
            _sync()
            begin = time.perf_counter()
            for _ in range(5):
                out = call()
            _sync()
            seconds = (time.perf_counter() - begin) / 5
            ref = out if ref is None else ref
            log(f"attention {name}", {"ms": round(seconds * 1e3, 2), "TFLOP/s": round(flops / seconds / 1e12, 1),
                                      "relative error vs default": relative_error(out, ref)})
        except RuntimeError as error:
            log(f"attention {name}", f"not available: {str(error)[:160]}")


def profile_step(log: Log, call: Callable[[], object], label: str = "profile, one Reference step (2 rows)") -> None:
    """GPU time of one call split into attention, matrix products and the rest (kernel names)."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        call()
        _sync()
    groups = {"attention s": 0.0, "matrix products s": 0.0, "other s": 0.0}
    kernels = []
    for event in prof.key_averages():
        if not str(getattr(event, "device_type", "")).endswith("CUDA"):
            continue
        seconds = float(getattr(event, "self_device_time_total", 0.0)) / 1e6
        name = event.key.lower()
        if any(k in name for k in ("sdpa", "fmha", "flash", "attention", "attn")):
            groups["attention s"] += seconds
        elif any(k in name for k in ("gemm", "nvjet", "xmma", "cutlass", "matmul", "scaled_mm", "f8f8")):
            groups["matrix products s"] += seconds
        else:
            groups["other s"] += seconds
        kernels.append((seconds, event.key[:90]))
    row: dict[str, Any] = {k: round(v, 3) for k, v in groups.items()}
    row["top kernels"] = [(round(t, 3), n) for t, n in sorted(kernels, reverse=True)[:12]]
    log(label, row)


def run(quick: bool) -> list[BenchResult]:
    tiny = _tiny()
    parts = _parts()
    if not tiny and not torch.cuda.is_available():
        return [BenchResult("skipped", 0.0, "", note="needs a CUDA GPU")]
    device = torch.device("cpu" if tiny else "cuda:0")
    size = TINY if tiny else RELEASED
    size = replace(size, text=replace(size.text, crop_start=0))  # counted from the stand-in tokenizer
    measured = int(os.environ.get("KAMISHIBAI_BENCH_STEPS", "2"))
    height, width, frames = (32, 48, 9) if tiny else (352, 624, 93)
    small = (16, 32, 9) if tiny else (192, 320, 17)  # the fidelity runs' clip
    carried = 5 if tiny else 33
    log = Log()
    if torch.cuda.is_available():
        log("gpu", f"{torch.cuda.get_device_name(device)}, torch {torch.__version__}")
    if "attention" in parts:
        log.part("attention kernels", 30, lambda: attention_kernels(log, device, 512 if tiny else 26488))

    start = time.perf_counter()
    engine = _engine(size, device)
    _sync()
    log("build seconds", round(time.perf_counter() - start, 2))
    base_settings = {"height": height, "width": width, "frames": frames, "continuation_frames": carried,
                     "vae_tiling": True}
    settings = CustomXSettings.from_values(base_settings)
    instruction = parse_instruction(INSTRUCTION)
    context = GenerationContext()
    if torch.cuda.is_available():
        torch.cuda.reset_peak_memory_stats()
    engine.predict(context, instruction, settings, 0)  # warm-up
    _sync()
    start = time.perf_counter()
    prediction = engine.predict(context, instruction, settings, 0)
    _sync()
    log("text seconds", round(time.perf_counter() - start, 3))
    encoded = engine._encoded
    assert encoded is not None
    text, mask, pooled = encoded.text.to(device), encoded.mask.to(device), encoded.pooled.to(device)
    log("text tokens", int(encoded.text.shape[1]))
    previous = np.random.default_rng(0).integers(0, 255, (carried, height, width, 3), dtype=np.uint8)
    vae: dict[str, Any] = {}

    def vae_part(tiling: bool, decoding: bool = True) -> None:
        views = media.grey(4, height, width)
        scene = np.random.default_rng(1).integers(0, 255, (frames, height, width, 3), dtype=np.uint8)
        with torch.inference_mode():
            engine._tiling(tiling)
            engine.encode_video(views[:1])  # warm-up
            _sync()
            begin = time.perf_counter()
            view_latents = torch.cat([engine.encode_video(f[None]) for f in views], dim=2)
            scene_latents = torch.cat([engine.encode_video(scene),
                                       engine.encode_video(media.mask_clip(frames, height, width))], dim=1)
            engine.encode_video(previous)
            _sync()
            encode = time.perf_counter() - begin
            begin = time.perf_counter()
            clip = engine.decode_latents(scene_latents[:, :size.vae.latent_channels]) if decoding else None
            _sync()
            decode = time.perf_counter() - begin if decoding else 0.0
        assert clip is None or clip.shape == (frames, height, width, 3)
        vae[f"{tiling}"] = (encode, decode, clip, view_latents, scene_latents)
        log(f"vae tiling={tiling}", {"encode s": round(encode, 2), "decode s": round(decode, 2)})

    log.part("vae untiled", 60, lambda: vae_part(False))
    if "vae" in parts:
        log.part("vae tiled", 60, lambda: vae_part(True))
    if "False" in vae and "True" in vae:
        log("vae untiled vs tiled, decoded PSNR dB", round(psnr(vae["False"][2], vae["True"][2]), 2))
    vae_choice = min(vae, key=lambda k: vae[k][0] + vae[k][1])
    vae_seconds = vae[vae_choice][0] + vae[vae_choice][1]
    tiled_seconds = vae["True"][0] + vae["True"][1] if "True" in vae else vae_seconds
    _enc, _dec, _clip, view_latents, scene_latents = vae[vae_choice]
    latent_frames = (frames - 1) // 4 + 1
    shape = (1, size.vae.latent_channels, latent_frames, height // 8, width // 8)
    latents = torch.randn(shape, generator=torch.Generator("cpu").manual_seed(0)).to(device)
    views_in = view_latents.expand(2, -1, -1, -1, -1)
    scene_in = scene_latents.expand(2, -1, -1, -1, -1)
    timesteps = scheduler(SamplerOptions(steps=STEPS), device).timesteps  # type: ignore[attr-defined]
    step_seconds: dict[str, float] = {}
    first_velocity: dict[str, torch.Tensor] = {}

    def steps(name: str, pattern: list[bool], batched: bool = False, warm: bool = True, fresh: bool = True) -> None:
        if fresh:
            engine._transformer.forget()
        x = latents
        times = []
        for index, reuse in enumerate(([False] if warm else []) + pattern):
            t = timesteps[index].expand(2)
            _sync()
            begin = time.perf_counter()
            with torch.inference_mode():
                v = engine.velocity(torch.cat([x, x]), t, text, mask, pooled, views_in, scene_in, reuse,
                                    batched=batched)
            _sync()
            times.append(time.perf_counter() - begin)
            if index == 0:
                first_velocity[name] = v.float()
            x = x - 0.01 * v[:1].float()
        kept = times[1:] if warm else times
        step_seconds[name] = float(np.mean(kept))
        log(f"step {name}", {"mean s": round(step_seconds[name], 3), "steps s": [round(t, 3) for t in times]})

    transformer = engine._transformer
    step_limit = 60
    bf16 = "bf16" in parts
    if bf16:
        log.part("baseline", step_limit, lambda: steps("baseline", [False] * measured, batched=True, warm=False))
    acceleration.set_attention(transformer, "auto")
    log.part("reference", step_limit, lambda: steps("reference", [False] * measured))
    if "profile" in parts and not tiny:
        x2, t2 = torch.cat([latents, latents]), timesteps[0].expand(2)

        def one_step() -> None:
            with torch.inference_mode():
                engine.velocity(x2, t2, text, mask, pooled, views_in, scene_in, False)

        log.part("profile", 40, lambda: profile_step(log, one_step))
    if "cudnn" in parts:
        acceleration.set_attention(transformer, "cudnn")
        log.part("reference cudnn", step_limit, lambda: steps("reference cudnn", [False] * measured))
    kernel = "cudnn" if step_seconds.get("reference cudnn", 1e9) < step_seconds.get("reference", 1e9) else "auto"
    log("attention kernel chosen", kernel)
    acceleration.set_attention(transformer, kernel)
    if bf16:
        log.part("reusing", step_limit, lambda: steps("reusing", [True] * measured))
    if "reference cudnn" in first_velocity and "reference" in first_velocity:
        log("first-step velocity error, cudnn vs auto",
            relative_error(first_velocity["reference cudnn"], first_velocity["reference"]))

    # fidelity on a short clip: Reference vs each preset, same noise, the whole sampler
    sh, sw, sf = small
    small_views = media.grey(4, sh, sw)
    small_scene = np.random.default_rng(2).integers(0, 255, (sf, sh, sw, 3), dtype=np.uint8)
    small_previous = np.random.default_rng(3).integers(0, 255, (5, sh, sw, 3), dtype=np.uint8)
    with torch.inference_mode():
        engine._tiling(False)
        s_views = torch.cat([engine.encode_video(f[None]) for f in small_views], dim=2).expand(2, -1, -1, -1, -1)
        s_scene = torch.cat([engine.encode_video(small_scene), engine.encode_video(media.mask_clip(sf, sh, sw))],
                            dim=1).expand(2, -1, -1, -1, -1)
        s_keep = engine.encode_video(small_previous)
    s_shape = (1, size.vae.latent_channels, (sf - 1) // 4 + 1, sh // 8, sw // 8)
    s_noise = torch.randn(s_shape, generator=torch.Generator("cpu").manual_seed(5)).to(device)
    finals: dict[str, tuple[torch.Tensor, np.ndarray]] = {}
    fidelity: dict[str, dict[str, float]] = {}

    def sampled(name: str, options: SamplerOptions, cache: str = "none") -> None:
        transformer = engine._transformer
        transformer.forget()
        counter = [0]  # full passes of the last double block, one a guidance row
        scheduled = [0]  # what the sampler asked for, two rows a step
        compiled = acceleration.is_compiled(transformer)  # a hook inside a compiled block would recompile it
        hook = None if compiled else transformer.transformer_blocks[-1].attn.register_forward_hook(
            lambda *_args: counter.__setitem__(0, counter[0] + 1))

        def denoise(x: torch.Tensor, t: torch.Tensor, reuse: bool) -> torch.Tensor:
            scheduled[0] += 0 if reuse else x.shape[0]
            return engine.velocity(x, t, text, mask, pooled, s_views, s_scene, reuse)

        engine._cache(transformer, cache)
        begin = time.perf_counter()
        try:
            with torch.inference_mode():
                out = sample(denoise, s_noise, options, s_keep)
                pixels = engine.decode_latents(out)
        finally:
            if hook is not None:
                hook.remove()
            transformer.forget()
            if getattr(transformer, "is_cache_enabled", False):
                transformer.disable_cache()
        seconds = time.perf_counter() - begin
        finals[name] = (out, pixels)
        passes = (scheduled if compiled else counter)[0] / 2
        row: dict[str, float] = {"seconds": round(seconds, 2), "full passes": passes}
        if name != "reference" and "reference" in finals:
            row["latent relative error"] = round(relative_error(out, finals["reference"][0]), 5)
            row["PSNR dB"] = round(psnr(pixels, finals["reference"][1]), 2)
        fidelity[name] = row
        log(f"fidelity {name}", row)

    fidelity_limit = 40
    reference = SamplerOptions(steps=STEPS)
    acceleration.set_attention(transformer, "auto")
    if parts & {"fidelity", "fp8", "deepcache", "compile"}:
        log.part("fidelity reference", fidelity_limit, lambda: sampled("reference", reference))
    acceleration.set_attention(transformer, kernel)
    if kernel != "auto" and "fidelity" in parts:
        log.part("fidelity cudnn", fidelity_limit, lambda: sampled(f"{kernel} attention", reference))
    if parts & {"fidelity", "deepcache"}:
        log.part("fidelity deepcache", fidelity_limit,
                 lambda: sampled("deepcache", replace(reference, deepcache=True)))
    if "fidelity" in parts:
        log.part("fidelity first-block", fidelity_limit,
                 lambda: sampled("first-block cache", reference, cache="first_block"))
        log.part("fidelity 20 steps", fidelity_limit, lambda: sampled("20 steps", replace(reference, steps=20)))

    # compiled blocks (bf16), as the engine compiles them; the first call waits for the compiler
    compiled: dict[str, float] = {}

    def compile_part() -> None:
        options: dict[str, Any] = dict(COMPILE_OPTIONS)
        if tiny:
            options["backend"] = os.environ.get("KAMISHIBAI_BENCH_COMPILE_BACKEND", "eager")
        acceleration.set_attention(transformer, kernel)
        count = acceleration.compile_blocks(transformer, COMPILED_BLOCKS, **options)
        engine._transformer.forget()
        begin = time.perf_counter()
        with torch.inference_mode():  # both guidance rows: two text lengths, one dynamic graph per block class
            engine.velocity(torch.cat([latents, latents]), timesteps[0].expand(2), text, mask, pooled, views_in,
                            scene_in, False)
        _sync()
        compiled["compile"] = time.perf_counter() - begin
        log("compile", {"blocks": count, "options": options,
                        "first step s (compiling)": round(compiled["compile"], 1)})
        steps("compiled", [False] * measured, warm=False)
        steps("compiled reusing", [True] * measured, warm=False, fresh=False)  # reuses the last compiled step

    def compiled_profile() -> None:
        x2, t2 = torch.cat([latents, latents]), timesteps[0].expand(2)

        def one_step() -> None:
            with torch.inference_mode():
                engine.velocity(x2, t2, text, mask, pooled, views_in, scene_in, False)

        profile_step(log, one_step, "profile, one compiled step (2 rows)")

    left = float(os.environ.get("KAMISHIBAI_BENCH_BUDGET", "100000")) - (time.perf_counter() - log.start) - 20
    if "compile" not in parts:
        pass
    elif left < 60:
        log("compile", f"skipped: {left:.0f} s of the time budget left")
    else:
        try:
            if log.part("compile", min(left, 400), compile_part):
                if not tiny:
                    log.part("profile compiled", 40, compiled_profile)
                log.part("fidelity compiled deepcache", fidelity_limit + 60,  # the small clip's shapes may compile
                         lambda: sampled("compiled + deepcache", replace(reference, deepcache=True)))
        finally:
            acceleration.uncompile(transformer)
    # one whole turn, measured end to end, with the fastest preset that stays close to Reference
    sizes = {k: v for k, v in base_settings.items() if k != "vae_tiling"}
    turn_settings = {**CustomXSettings.preset(TURN_PRESET).values, **sizes, "attention": kernel}
    turn: dict[str, float] = {}

    def whole_turn(key: str) -> None:
        chosen = CustomXSettings.from_values(turn_settings)
        condition = {**prediction.conditioning, "previous_clip": "previous.mp4"}
        carried_frames = media.last_frames
        media.last_frames = lambda *_args: previous
        if tiny:
            COMPILE_OPTIONS["backend"] = os.environ.get("KAMISHIBAI_BENCH_COMPILE_BACKEND", "eager")
        try:
            _sync()
            begin = time.perf_counter()
            clip = engine.decode(replace(prediction, conditioning=condition), chosen, 0)
            _sync()
        finally:
            media.last_frames = carried_frames
            if tiny:
                COMPILE_OPTIONS.pop("backend", None)
        turn[key] = time.perf_counter() - begin
        assert clip.frames.shape == (frames, height, width, 3)
        log(f"whole turn, {key}", {"settings": turn_settings, "decode s": round(turn[key], 2)})

    if "turn" in parts:  # after the compile part, whose first step is then the process's first compile
        turn["first pays the compile"] = float(bool(turn_settings.get("torch_compile")) and not compiled)
        try:
            # a compiling preset: the first turn compiles (unless the compile part did), the second reuses
            if log.part("whole turn", 240, lambda: whole_turn("first")) and turn_settings.get("torch_compile"):
                log.part("whole turn again", 150, lambda: whole_turn("again"))
        finally:
            acceleration.uncompile(engine._transformer)
            acceleration.set_attention(transformer, kernel)

    # FP8
    fp8 = False
    bf16_peak = 0

    def to_fp8(scaling: str) -> None:
        names = acceleration.fp8_layers(transformer, FP8_WITHIN, FP8_SKIP)
        before = torch.cuda.memory_allocated()
        begin = time.perf_counter()
        used = acceleration.to_fp8(transformer, names, scaling)
        _sync()
        log("fp8", {"layers": len(names), "scaling": used, "seconds": round(time.perf_counter() - begin, 2),
                    "GB freed": round((before - torch.cuda.memory_allocated()) / 1e9, 2)})
        with torch.inference_mode():  # one step, so that a refused product shows here
            engine.velocity(torch.cat([latents, latents]), timesteps[0].expand(2), text, mask, pooled, views_in,
                            scene_in, False)

    if tiny or "fp8" not in parts:
        log("fp8", "skipped" + (" on the CPU" if tiny else ""))
    else:
        import copy

        bf16_peak = torch.cuda.max_memory_allocated()
        backup = copy.deepcopy(transformer)  # bf16, in case the first FP8 scaling is refused
        fp8 = log.part("fp8 convert", 60, lambda: to_fp8("auto"))
        if not fp8:
            transformer = engine._transformer = copy.deepcopy(backup)
            fp8 = log.part("fp8 convert tensorwise", 60, lambda: to_fp8("tensorwise"))
        del backup
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()  # the bf16 copy kept for the fallback is the bench's, not a turn's
        engine._fp8 = fp8
    if fp8:
        acceleration.set_attention(transformer, "auto")
        log.part("fp8 auto", step_limit, lambda: steps("fp8", [False] * measured))
        if bf16:
            acceleration.set_attention(transformer, "cudnn")
            log.part("fp8 cudnn", step_limit, lambda: steps("fp8 cudnn", [False] * measured))
        if "fp8" in first_velocity:
            log("first-step velocity error, FP8 vs bf16 (full size)",
                relative_error(first_velocity["fp8"], first_velocity["reference"]))
        acceleration.set_attention(transformer, kernel)
        log.part("fidelity fp8", fidelity_limit, lambda: sampled("fp8", reference))
        if "fidelity" in parts:
            log.part("fidelity fp8 deepcache", fidelity_limit,
                     lambda: sampled("fp8 + deepcache", replace(reference, deepcache=True)))

    peak = torch.cuda.max_memory_allocated() if torch.cuda.is_available() else 0
    if fp8:
        log("peak GB, bf16 parts", round(bf16_peak / 1e9, 2))
        peak = max(peak, bf16_peak)
    log("peak GB", round(peak / 1e9, 2))
    return results_of(log, step_seconds, fidelity, vae, vae_seconds, tiled_seconds, turn, compiled, peak, kernel)


def results_of(log: Log, step: dict[str, float], fidelity: dict[str, dict[str, float]], vae: dict[str, Any],
               vae_seconds: float, tiled_seconds: float, turn: dict[str, float], compiled: dict[str, float],
               peak: int, kernel: str) -> list[BenchResult]:
    f = log.figures
    results = [BenchResult("Build full-size random models on the GPU", f["build seconds"], "s"),
               BenchResult("Text encoders (LLaVA-Llama-3-8B with 4 views + CLIP-L), 2 rows", f["text seconds"], "s",
                           note=f"{f['text tokens']} text tokens after the crop")]
    for key, label in (("False", "untiled (16-frame chunks)"), ("True", "tiled (256-pixel tiles)")):
        if key in vae:
            results.append(BenchResult(f"VAE, {label}: encode (4 views, scene + mask 93 frames, 33 carried) "
                                       f"+ decode", vae[key][0] + vae[key][1], "s",
                                       note=f"encode {vae[key][0]:.1f} s, decode {vae[key][1]:.1f} s"))
    if "vae untiled vs tiled, decoded PSNR dB" in f:
        results.append(BenchResult("VAE untiled vs tiled, the same latents decoded: PSNR",
                                   f["vae untiled vs tiled, decoded PSNR dB"], "dB"))
    for key in ("attention default", "attention flash", "attention cudnn", "attention efficient"):
        if isinstance(f.get(key), dict):
            results.append(BenchResult(f"Attention alone, 24 heads x 26,488 tokens, {key.split()[1]} kernel",
                                       f[key]["TFLOP/s"], "TFLOP/s", note=f"{f[key]['ms']} ms a call"))
    labels = {"baseline": "plain baseline (1 masked batch of 2, PyTorch's kernels)",
              "reference": "Reference (2 unmasked passes, PyTorch's kernel choice)",
              "reference cudnn": "Reference, cuDNN attention", "reusing": "a reusing step (DeepCache)",
              "fp8": "FP8 layers, PyTorch's kernel choice", "fp8 cudnn": "FP8 layers, cuDNN attention",
              "compiled": "Reference, compiled blocks (bf16, after the compile)",
              "compiled reusing": "a reusing step (DeepCache), compiled blocks"}
    for key, label in labels.items():
        if key in step:
            results.append(BenchResult(f"Transformer step: {label}", step[key], "s",
                                       baseline=f"{step['baseline']:.2f} s" if "baseline" in step else "",
                                       ratio=step["baseline"] / step[key] if "baseline" in step else None,
                                       note="mean of the measured steps"))
    if "compile" in compiled:
        results.append(BenchResult("Compile: the first step after loading, compiling the blocks", compiled["compile"],
                                   "s", note="paid once per engine load: later steps and turns reuse the code"))
    for key in ("profile, one Reference step (2 rows)", "profile, one compiled step (2 rows)"):
        if isinstance(f.get(key), dict):
            row = f[key]
            total = sum(row[k] for k in ("attention s", "matrix products s", "other s"))
            for part in ("attention s", "matrix products s", "other s"):
                share = f"{100 * row[part] / total:.0f} % of the step's GPU time" if total else ""
                results.append(BenchResult(f"{key.capitalize()}: GPU time in {part[:-2]}", row[part], "s",
                                           note=share))
    text = f["text seconds"]
    full = len(full_pass_steps(STEPS))
    reuse = step.get("reusing", 0.0)
    plans: list[tuple[str, float, float, str]] = []  # name, transformer s, VAE s, fidelity key
    vae_kind = "tiled VAE" if "True" in vae else "untiled VAE"  # the tiled VAE is measured in part ``vae``
    if "baseline" in step:
        plans.append((f"Plain baseline (one masked batch, {vae_kind})", step["baseline"] * STEPS, tiled_seconds,
                      "reference"))
    if "reference" in step:
        plans.append((f"Reference as before (PyTorch's kernels, {vae_kind})", step["reference"] * STEPS,
                      tiled_seconds, "reference"))
    best_bf16 = min((step[k] for k in ("reference", "reference cudnn") if k in step), default=0.0)
    if best_bf16:
        plans.append(("Reference, fastest bf16 kernels, best VAE", best_bf16 * STEPS, vae_seconds, "reference"))
        if reuse:
            plans.append(("DeepCache (release schedule), bf16", best_bf16 * full + reuse * (STEPS - full),
                          vae_seconds, "deepcache"))
    if "compiled" in step:
        plans.append(("Reference, compiled blocks (compile time not counted)", step["compiled"] * STEPS, vae_seconds,
                      "reference"))
        compiled_reuse = step.get("compiled reusing", reuse)
        if compiled_reuse:
            plans.append(("DeepCache + compiled blocks (compile time not counted)",
                          step["compiled"] * full + compiled_reuse * (STEPS - full), vae_seconds,
                          "compiled + deepcache"))
    best_fp8 = min((step[k] for k in ("fp8", "fp8 cudnn") if k in step), default=0.0)
    if best_fp8:
        plans.append(("FP8 layers, fastest kernels, best VAE", best_fp8 * STEPS, vae_seconds, "fp8"))
        if reuse:
            plans.append(("FP8 layers + DeepCache", best_fp8 * full + reuse * (STEPS - full), vae_seconds,
                          "fp8 + deepcache"))
    if not any(v[1] for v in vae.values()):
        plans = []  # no VAE decode measured in this run: no turn totals
    baseline_turn = plans[0][1] + plans[0][2] + text if plans else 0.0
    for name, transformer_s, vae_s, key in plans:
        total = transformer_s + vae_s + text
        if name.startswith("DeepCache + compiled") and "compile" in compiled:
            first = total + compiled["compile"] - step["compiled"]  # the compiling step replaces one step
            results.append(BenchResult(f"First turn after loading: {name.replace(' (compile time not counted)', '')},"
                                       f" compile included", first, "s", baseline=f"{baseline_turn:.1f} s",
                                       ratio=baseline_turn / first, note="later turns: the row below"))
        quality = fidelity.get(key, {})
        note = f"transformer {transformer_s:.1f} s (mean step x 30), VAE {vae_s:.1f} s"
        if "PSNR dB" in quality:
            note += f"; vs Reference: latents {quality['latent relative error']:.3g}, PSNR {quality['PSNR dB']} dB"
        results.append(BenchResult(f"Turn, 93 frames at 352 x 624, 30 steps: {name}", total, "s",
                                   goal=f"<= {GOAL_SECONDS:.0f} s", met=total <= GOAL_SECONDS,
                                   baseline=f"{baseline_turn:.1f} s", ratio=baseline_turn / total if total else None,
                                   note=note))
    pays = bool(turn.get("first pays the compile"))
    whens = {"first": "the first turn after loading, compile included" if pays else "the first turn",
             "again": "the next turn"}
    for key, when in whens.items():
        if key not in turn:
            continue
        total = turn[key] + text
        steady = key == "again" or not pays
        results.append(BenchResult(f"Whole turn measured end to end (decode + text encoders), {when}: the "
                                   f"{TURN_PRESET} preset, {kernel} attention", total, "s",
                                   goal=f"<= {GOAL_SECONDS:.0f} s" if steady else "",
                                   met=total <= GOAL_SECONDS if steady else None,
                                   baseline=f"{baseline_turn:.1f} s" if baseline_turn else "",
                                   ratio=baseline_turn / total if baseline_turn else None,
                                   note="CustomXEngine.decode, every step run"))
    for key, row in fidelity.items():
        if "PSNR dB" in row:
            results.append(BenchResult(f"Fidelity vs Reference (30-step sampler, 17 frames at 192 x 320): {key}",
                                       row["PSNR dB"], "dB",
                                       note=f"final latents relative error {row['latent relative error']:.3g}; "
                                            f"{row['full passes']:.0f} full passes"))
    for key in ("first-step velocity error, FP8 vs bf16 (full size)", "first-step velocity error, cudnn vs auto"):
        if key in f:
            results.append(BenchResult(key.capitalize(), f[key], "", note="relative error"))
    results.append(BenchResult("Peak GPU memory (all models resident)", peak / 1000**3, "GB",
                               goal="<= 80 GB", met=peak <= GOAL_PEAK_BYTES))
    failed = [k for k in f if k.endswith(" failed")]
    if failed:
        results.append(BenchResult("Parts that did not finish", len(failed), "",
                                   note="; ".join(f"{k}: {f[k]}" for k in failed)[:400]))
    return results
