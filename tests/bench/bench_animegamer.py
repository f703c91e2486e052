"""AnimeGamer on one GPU: seconds per turn (MLLM, decoder, VAE) and peak memory, full size.

Random weights of the released sizes are written in our layout (no download needed); the
released weights would take the same time. Measured in one run:

- Reference preset (the release's sampler: 50 steps, dynamic CFG 6, 480 x 720, 17 frames),
  MLLM in bf16, DiT and VAE in fp16, history window 4 with the KV cache, lean VAE decode, the
  transformer parked in RAM while the VAE runs; peak GPU memory per stage; then the same with
  the transformer kept on the GPU (part ``resident``), and compiled (part ``compiled``: compile
  time apart, steady turns, and the relative difference of one decoder pass against eager);
- one decoder pass (the CFG batch of two) under each attention kernel, and the VAE decode
  three ways (diffusers', lean, lean with autotuned convolutions): time, memory, difference;
- a naive baseline as the release runs it: fp16 everywhere, eager, no KV cache (the
  history re-encoded every turn), a T5-XXL encoder resident and run once per turn;
- the fastest preset (the 2.1 s clip, watching speed);
- the Reference preset offloaded (weights in pinned RAM, visiting the GPU) under a 16 GiB cap.

Needs CUDA. ``KAMISHIBAI_ANIMEGAMER_TOKENIZER`` points at AnimeGamer's tokenizer when it is
not at ``../shared/fixtures/animegamer/tokenizer`` or ``checkpoints/animegamer/tokenizer``.
``KAMISHIBAI_BENCH_TINY=1`` runs the same code with tiny weights on the CPU (a smoke test).
``KAMISHIBAI_BENCH_PARTS`` (comma-separated: reference, resident, compiled, naive, fastest,
offload; default all) runs some parts only; ``KAMISHIBAI_BENCH_TABLES=0`` leaves out the
attention and VAE tables; ``KAMISHIBAI_BENCH_CHECKPOINTS`` keeps the random weights in that
folder and reuses them on the next run. All parts together should take about 8 minutes on an
H200 (an estimate from the parts measured): give a remote machine a longer limit, or run the
parts in two calls with the weights kept.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import torch

from studio.benchmarks import BenchResult
from studio.core.instruction import parse_instruction
from studio.core.progress import Progress
from studio.core.state import CharacterState
from studio.engines.animegamer import lean_vae, speed
from studio.engines.animegamer.engine import AnimeGamerEngine
from studio.engines.animegamer.released import Target, expected_keys
from studio.engines.animegamer.sizes import FULL, TINY, ModelSize
from studio.engines.base import GenerationContext, Prediction, TurnContext
from studio.engines.catalog import animegamer_layout as layout
from studio.engines.catalog.animegamer import INFO, TEST_INFO, AnimeGamerSettings
from studio.engines.config import DType, EngineConfig

TITLE = "AnimeGamer on one GPU: seconds per turn and peak memory (full-size random weights)"
GOAL_TURN_SECONDS = 5.5
GOAL_PEAK_BYTES = 24 * 1000**3
GOAL_FAST_CLIP_SECONDS = 17 / 8  # the clip's own duration
OFFLOAD_CAP_BYTES = 16 * 1024**3

TURNS = (
    "Character: Qiqi; Motion: quickly flying on broomstick; Background: day sky.",
    "Character: Qiqi; Motion: smoothly fly on broomstick; Background: day countryside.",
    "Character: Qiqi; Motion: gently sit on railing; Background: day town.",
    "Character: Qiqi; Motion: gently turn head; Background: day town.",
    "Character: Qiqi; Motion: gently lie down; Background: day grass.",
)
REPO = Path(__file__).resolve().parents[2]


def _tiny() -> bool:
    return os.environ.get("KAMISHIBAI_BENCH_TINY") == "1"


def _tokenizer() -> Path:
    for candidate in (os.environ.get("KAMISHIBAI_ANIMEGAMER_TOKENIZER", ""),
                      str(REPO.parent / "shared" / "fixtures" / "animegamer" / "tokenizer"),
                      str(REPO / "checkpoints" / "animegamer" / "tokenizer")):
        if candidate and (Path(candidate) / "tokenizer.model").is_file():
            return Path(candidate)
    raise FileNotFoundError("AnimeGamer's tokenizer not found: set KAMISHIBAI_ANIMEGAMER_TOKENIZER")


def write_random_checkpoints(checkpoints: Path, size: ModelSize, device: str) -> None:
    """Our layout filled with random weights of ``size`` (bf16 MLLM, fp16 decoder and VAE)."""
    import json

    from safetensors.torch import save_file

    folder = layout.engine_folder(checkpoints)
    shutil.copytree(_tokenizer(), folder / "tokenizer", dirs_exist_ok=True)
    generator = torch.Generator(device).manual_seed(0)
    files = {Target.BASE: folder / layout.BASE_FILE, Target.MLLM: folder / "qiqi" / layout.MLLM_FILE,
             Target.DECODER: folder / "qiqi" / layout.DECODER_FILE, Target.VAE: folder / layout.VAE_FILE}
    for target, path in files.items():
        dtype = torch.bfloat16 if target in (Target.BASE, Target.MLLM) else torch.float16
        tensors = {}
        for key, shape in expected_keys(target, size).items():
            if key.endswith(("norm.weight", "layernorm.weight", "norm_layer.weight")) or ".norm_q." in key \
                    or ".norm_k." in key:
                value = torch.ones(shape, device=device)
            else:
                fan = shape[1] if len(shape) > 1 else 1
                value = torch.randn(shape, generator=generator, device=device) * (0.5 / max(fan, 1) ** 0.5)
            tensors[key] = value.to(dtype).cpu()
        path.parent.mkdir(parents=True, exist_ok=True)
        save_file(tensors, str(path))
        del tensors
    record = {"engine": layout.ENGINE, "character": "qiqi", "size": size.to_json(), "sources": {}, "files": {}}
    (folder / "qiqi" / layout.MODEL_FILE).write_text(json.dumps(record))


PARTS = ("reference", "resident", "compiled", "naive", "fastest", "offload")


def _parts() -> tuple[str, ...]:
    chosen = tuple(p.strip() for p in os.environ.get("KAMISHIBAI_BENCH_PARTS", ",".join(PARTS)).split(",") if p)
    unknown = set(chosen) - set(PARTS)
    if unknown:
        raise ValueError(f"unknown bench parts {sorted(unknown)}; choose from {PARTS}")
    return chosen


@dataclass
class TurnTimes:
    mllm: list[float] = field(default_factory=list)
    decoder: list[float] = field(default_factory=list)
    vae: list[float] = field(default_factory=list)
    first_turn: float = 0.0
    """The warm-up turn (compilation, autotuning, first allocations), not in the means."""
    peak: int = 0
    peaks: dict[str, int] = field(default_factory=lambda: {"mllm": 0, "decoder": 0, "vae": 0})
    """Peak GPU memory while each stage ran (weights of every resident stage included)."""
    reused: list[int] = field(default_factory=list)

    @staticmethod
    def mean(values: list[float]) -> float:
        return sum(values) / len(values) if values else float("nan")

    @property
    def turn(self) -> float:
        return self.mean(self.mllm) + self.mean(self.decoder) + self.mean(self.vae)

    def split(self) -> str:
        return (f"MLLM {self.mean(self.mllm):.2f} s, decoder {self.mean(self.decoder):.2f} s, "
                f"VAE {self.mean(self.vae):.2f} s")

    def peak_split(self) -> str:
        return ", ".join(f"{stage} {value / 1000**3:.1f}" for stage, value in self.peaks.items()) + " GB"


def _sync() -> None:
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def _peak_since_reset() -> int:
    if not torch.cuda.is_available():
        return 0
    peak = torch.cuda.max_memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    return peak


@contextmanager
def _t5_resident(enabled: bool, device: str) -> Iterator[object]:
    """The release keeps a T5-XXL encoder (4.7B parameters, fp16) and runs it on the empty
    prompt every turn, then discards its output. Random weights: only time and memory matter."""
    if not enabled:
        yield None
        return
    from accelerate import init_empty_weights
    from transformers import T5Config, T5EncoderModel

    config = T5Config(d_model=4096, d_ff=10240, num_layers=24, num_heads=64, d_kv=64, vocab_size=32128,
                      feed_forward_proj="gated-gelu", is_encoder_decoder=False)
    if _tiny():
        config = T5Config(d_model=32, d_ff=64, num_layers=2, num_heads=4, d_kv=8, vocab_size=64,
                          feed_forward_proj="gated-gelu", is_encoder_decoder=False)
    with init_empty_weights():
        model = T5EncoderModel(config)
    model = model.to_empty(device=device).to(torch.float16 if device != "cpu" else torch.float32)
    try:
        yield model
    finally:
        del model
        if torch.cuda.is_available():
            torch.cuda.empty_cache()


def _play(engine: AnimeGamerEngine, settings: AnimeGamerSettings, turns: tuple[str, ...], t5: object,
          space: str) -> TurnTimes:
    """Play ``turns`` as one branch; the first turn warms up and is not counted."""
    times = TurnTimes()
    history: list[TurnContext] = []
    if torch.cuda.is_available():
        torch.cuda.reset_peak_memory_stats()
    for index, text in enumerate(turns):
        _sync()
        _peak_since_reset()
        start = time.perf_counter()
        if t5 is not None:
            with torch.inference_mode():
                t5(input_ids=torch.ones(1, 30, dtype=torch.long, device=next(t5.parameters()).device))  # type: ignore[attr-defined]
        prediction: Prediction = engine.predict(GenerationContext(history=tuple(history)), parse_instruction(text),
                                                settings, index)
        _sync()
        predicted = time.perf_counter()
        peaks = {"mllm": _peak_since_reset()}
        stamps: list[float] = []

        def mark(progress: Progress, stamps: list[float] = stamps, peaks: dict[str, int] = peaks) -> None:
            _sync()
            stamps.append(time.perf_counter())
            if progress.step == progress.total - 1:  # the last denoising step is done
                peaks["decoder"] = _peak_since_reset()

        clip = engine.decode(prediction, settings, index, mark)
        _sync()
        peaks["vae"] = _peak_since_reset()
        assert clip.frames.shape[0] == settings.frames
        if index:  # the first turn compiles and warms the caches
            times.mllm.append(predicted - start)
            times.decoder.append(stamps[-2] - predicted)
            times.vae.append(stamps[-1] - stamps[-2])
            times.reused.append(int(prediction.conditioning["reused_tokens"]))
            for stage, value in peaks.items():
                times.peaks[stage] = max(times.peaks[stage], value)
        else:
            times.first_turn = stamps[-1] - start
        history.append(TurnContext(instruction=parse_instruction(text), state=CharacterState(),
                                   deltas=prediction.deltas, motion_level=prediction.motion_level,
                                   engine="animegamer", representation_space=space,
                                   representation=prediction.representation))
    times.peak = max(times.peaks.values())
    return times


def _engine(checkpoints: Path, spec: str, dtype: DType = DType.AUTO) -> AnimeGamerEngine:
    info = TEST_INFO if _tiny() else INFO
    engine = AnimeGamerEngine(EngineConfig.parse(spec, checkpoints=checkpoints, dtype=dtype.value), info=info)
    engine.load()
    return engine


def _results(name: str, times: TurnTimes, goal: bool = True, extra: str = "") -> list[BenchResult]:
    peak = times.peak / 1000**3
    return [
        BenchResult(f"{name}: turn (MLLM + decoder + VAE)", times.turn, "s",
                    goal=f"<= {GOAL_TURN_SECONDS} s" if goal else "",
                    met=(times.turn <= GOAL_TURN_SECONDS) if goal else None,
                    note=f"{times.split()}; KV reused {times.reused} tokens{extra}"),
        BenchResult(f"{name}: peak GPU memory", peak, "GB", goal="<= 24 GB" if goal else "",
                    met=(times.peak <= GOAL_PEAK_BYTES) if goal else None,
                    note=f"per stage: {times.peak_split()}"),
    ]


def _median_seconds(fn: Callable[[], object], repeat: int = 5, warmup: int = 2) -> float:
    for _ in range(warmup):
        fn()
    _sync()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        _sync()
        samples.append(time.perf_counter() - start)
    return sorted(samples)[len(samples) // 2]


def _relative(a: torch.Tensor, b: torch.Tensor) -> float:
    return float((a.float() - b.float()).norm() / b.float().norm().clamp_min(1e-12))


def _decoder_inputs(engine: AnimeGamerEngine) -> tuple[torch.Tensor, ...]:
    """One CFG batch at 480 x 720 x 17 frames (random latents and condition, t = 500)."""
    assert engine._decoder is not None and engine._size is not None
    size = engine._size
    device = engine._decoder.device
    generator = torch.Generator(device).manual_seed(1)
    height, width = (4, 6) if _tiny() else (60, 90)
    latents = torch.randn(2, 5 if not _tiny() else 3, size.decoder.in_channels, height, width, device=device,
                          generator=generator)
    condition = torch.randn(2, 226, size.decoder.hidden, device=device, generator=generator)
    return latents, torch.full((2,), 500, device=device), torch.full((2,), 10.0, device=device), condition


def _decoder_pass(engine: AnimeGamerEngine, inputs: tuple[torch.Tensor, ...]) -> torch.Tensor:
    assert engine._decoder is not None
    with torch.inference_mode():
        out: torch.Tensor = engine._decoder(*inputs)
        return out


def _attention_table(engine: AnimeGamerEngine) -> tuple[list[BenchResult], torch.Tensor]:
    """One decoder pass per attention kernel; returns the rows and the ``auto`` output."""
    assert engine._decoder is not None
    device = engine._decoder.device
    inputs = _decoder_inputs(engine)
    default = _decoder_pass(engine, inputs)
    default_time = _median_seconds(lambda: _decoder_pass(engine, inputs))
    rows = [BenchResult("Decoder pass (CFG batch of 2), PyTorch's attention choice", default_time, "s",
                        note="eager fp16, t = 500; 50 steps take 50 of these")]
    auto = default
    for name in ("auto", "cudnn", "flash", "efficient"):
        try:
            with speed.attention_kernel(name, device):
                out = _decoder_pass(engine, inputs)
                seconds = _median_seconds(lambda: _decoder_pass(engine, inputs))
        except RuntimeError as error:
            rows.append(BenchResult(f"Decoder pass, attention {name}", 0.0, "s", note=f"failed: {error}"[:160]))
            continue
        if name == "auto":
            auto = out
        rows.append(BenchResult(f"Decoder pass, attention {name}", seconds, "s", baseline=f"{default_time:.3f} s",
                                ratio=default_time / seconds,
                                note=f"relative difference {_relative(out, default):.1e}"))
    return rows, auto


def _vae_table(engine: AnimeGamerEngine) -> list[BenchResult]:
    """The VAE decode of random latents (5 x 60 x 90) three ways: time, memory above the weights."""
    vae = engine._vae
    assert vae is not None and engine._size is not None
    device = next(vae.parameters()).device
    frames = 3 if _tiny() else 5
    height, width = (4, 6) if _tiny() else (60, 90)
    z = torch.randn(1, engine._size.vae.latent_channels, frames, height, width, device=device,
                    generator=torch.Generator(device).manual_seed(2)).to(next(vae.parameters()).dtype)
    vae.disable_tiling()
    rows = []
    base: torch.Tensor | None = None
    for name, lean, autotune in (("diffusers' decode", False, False), ("lean decode", True, False),
                                 ("lean decode, autotuned convolutions", True, True)):
        def once(lean: bool = lean) -> torch.Tensor:
            with torch.inference_mode():
                out: torch.Tensor = lean_vae.decode(vae, z) if lean else vae.decode(z).sample
                return out

        with speed.cudnn_autotune(autotune):
            once()  # autotunes on the first call
            _sync()
            before = torch.cuda.memory_allocated() if torch.cuda.is_available() else 0
            if torch.cuda.is_available():
                torch.cuda.reset_peak_memory_stats()
            out = once()
            peak = (torch.cuda.max_memory_allocated() - before) if torch.cuda.is_available() else 0
            seconds = _median_seconds(once, repeat=3, warmup=0)
        if base is None:
            base = out
        rows.append(BenchResult(f"VAE decode, {name}", seconds, "s",
                                note=f"{peak / 1024**3:.2f} GiB above the weights; relative difference to "
                                     f"diffusers' {_relative(out, base):.1e}"))
        del out
    return rows


def _compile_check(engine: AnimeGamerEngine, eager: torch.Tensor) -> BenchResult:
    assert engine._decoder is not None
    inputs = _decoder_inputs(engine)
    with speed.attention_kernel("auto", engine._decoder.device):
        compiled = _decoder_pass(engine, inputs)
        seconds = _median_seconds(lambda: _decoder_pass(engine, inputs))
    return BenchResult("Decoder pass (CFG batch of 2), compiled blocks", seconds, "s",
                       note=f"relative difference to eager (same kernels otherwise) {_relative(compiled, eager):.1e}")


def _checkpoints(scratch: Path, size: ModelSize, device: str) -> Path:
    kept = os.environ.get("KAMISHIBAI_BENCH_CHECKPOINTS", "")
    checkpoints = Path(kept) if kept else scratch / "checkpoints"
    if not (layout.engine_folder(checkpoints) / "qiqi" / layout.MODEL_FILE).is_file():
        write_random_checkpoints(checkpoints, size, device)
    return checkpoints


def _echo(rows: list[BenchResult]) -> None:
    for r in rows:  # as each part ends: a run cut short still shows what it measured
        print(f"   {r.name}: {r.value:.4g} {r.unit}  {r.note}", flush=True)


def run(quick: bool) -> list[BenchResult]:
    tiny = _tiny()
    if not tiny and not torch.cuda.is_available():
        return [BenchResult("skipped", 0.0, "", note="needs a CUDA GPU")]
    device = "cpu" if tiny else "cuda:0"
    size = TINY if tiny else FULL
    turns = TURNS[:3] if quick else TURNS
    parts = _parts()
    small = {"height": 32, "width": 48, "frames": 9, "steps": 3} if tiny else {}
    reference = AnimeGamerSettings.from_values(small, preset="" if tiny else "reference")
    space = (TEST_INFO if tiny else INFO).capabilities.representation.space
    results: list[BenchResult] = []
    ours: TurnTimes | None = None
    with tempfile.TemporaryDirectory(prefix="animegamer-bench-") as scratch:
        started = time.perf_counter()
        checkpoints = _checkpoints(Path(scratch), size, device)
        print(f"   random weights ready in {time.perf_counter() - started:.0f} s", flush=True)

        if "reference" in parts:
            engine = _engine(checkpoints, device)
            ours = _play(engine, reference, turns, None, space)
            results += _results("Reference preset", ours)
            _echo(results[-2:])
            eager = None
            if os.environ.get("KAMISHIBAI_BENCH_TABLES", "1") == "1":
                rows, eager = _attention_table(engine)
                rows += _vae_table(engine)
                results += rows
                _echo(rows)
            if "resident" in parts or tiny:
                resident_settings = AnimeGamerSettings.from_values({**small, "park_decoder": False},
                                                                   preset="" if tiny else "reference")
                resident = _play(engine, resident_settings, turns, None, space)
                results += _results("Reference, transformer kept on the GPU during the VAE", resident)
                _echo(results[-2:])
            compiled_settings = AnimeGamerSettings.from_values({**small, "compile": True},
                                                               preset="" if tiny else "reference")
            if not tiny and "compiled" in parts:
                compiled = _play(engine, compiled_settings, turns, None, space)
                results += _results("Reference, compiled transformer blocks", compiled,
                                    extra=f"; first turn (compiles) {compiled.first_turn:.1f} s")
                if eager is not None:
                    results.append(_compile_check(engine, eager))
                _echo(results[-3:])
            engine.unload()

        if "naive" in parts:
            baseline_engine = _engine(checkpoints, device, DType.FLOAT16 if not tiny else DType.FLOAT32)
            assert baseline_engine._predictor is not None
            baseline_engine._predictor.cache.capacity = 0  # no KV reuse: the history is encoded every turn
            naive_settings = AnimeGamerSettings.from_values({**small, "lean_vae": False, "park_decoder": False,
                                                             "mllm_attention": "auto"},
                                                            preset="" if tiny else "reference")
            with _t5_resident(True, device) as t5:
                naive = _play(baseline_engine, naive_settings, turns, t5, space)
            rows = _results("Naive baseline (fp16, eager, no KV cache, T5-XXL resident, diffusers' VAE decode)",
                            naive, goal=False)
            if ours is not None:
                rows[0] = BenchResult(rows[0].name, rows[0].value, "s", ratio=naive.turn / ours.turn,
                                      baseline=f"Reference: {ours.turn:.2f} s", note=rows[0].note)
                rows[1] = BenchResult(rows[1].name, rows[1].value, "GB", ratio=naive.peak / max(ours.peak, 1),
                                      baseline=f"Reference: {ours.peak / 1000**3:.1f} GB", note=rows[1].note)
            results += rows
            _echo(rows)
            baseline_engine.unload()

        if "fastest" in parts:
            fast_settings = AnimeGamerSettings.from_values(
                {**({"height": 32, "width": 48, "frames": 9, "fp8": False, "compile": False} if tiny else {})},
                preset="fastest")
            fast_engine = _engine(checkpoints, device)
            fast = _play(fast_engine, fast_settings, turns, None, space)
            row = BenchResult("Fastest preset: clip (MLLM + decoder + VAE)", fast.turn, "s",
                              goal=f"<= {GOAL_FAST_CLIP_SECONDS:.2f} s (the clip's length)",
                              met=fast.turn <= GOAL_FAST_CLIP_SECONDS,
                              baseline=f"Reference: {ours.turn:.2f} s" if ours else "",
                              ratio=ours.turn / fast.turn if ours and fast.turn else None,
                              note=f"{fast.split()}; first clip (FP8, compiles, autotunes) {fast.first_turn:.1f} s; "
                                   f"peak {fast.peak / 1000**3:.1f} GB; changes the output")
            results.append(row)
            _echo([row])
            fast_engine.unload()

        if "offload" in parts and not tiny:
            total = torch.cuda.get_device_properties(0).total_memory
            torch.cuda.empty_cache()
            torch.cuda.set_per_process_memory_fraction(OFFLOAD_CAP_BYTES / total, 0)
            try:
                offloaded_engine = _engine(checkpoints, "cuda:0+offload")
                offloaded = _play(offloaded_engine, reference, turns, None, space)
                row = BenchResult("Reference, offloaded, under a 16 GiB cap: turn", offloaded.turn, "s",
                                  goal="runs", met=True,
                                  note=f"{offloaded.split()} (each stage's upload included); peak "
                                       f"{offloaded.peak / 1024**3:.1f} GiB ({offloaded.peak_split()})")
                results.append(row)
                _echo([row])
                offloaded_engine.unload()
            except torch.cuda.OutOfMemoryError as error:
                results.append(BenchResult("Reference, offloaded, under a 16 GiB cap", 0.0, "s", goal="runs",
                                           met=False, note=f"out of memory: {error}"[:200]))
            finally:
                torch.cuda.set_per_process_memory_fraction(1.0, 0)
    return results
