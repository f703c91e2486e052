"""AnimeGamer on one GPU: seconds per turn (MLLM, decoder, VAE) and peak memory, full size.

Random weights of the released sizes are written in our layout (no download needed); the
released weights would take the same time. Measured in one run:

- Reference preset (the release's sampler: 50 steps, dynamic CFG 6, 480 x 720, 17 frames),
  MLLM in bf16, DiT and VAE in fp16, history window 4 with the KV cache;
- a naive baseline as the release runs it: fp16 everywhere, eager, no KV cache (the
  history re-encoded every turn), a T5-XXL encoder resident and run once per turn;
- the fastest preset (the 2.1 s clip, watching speed);
- the Reference preset offloaded (weights in RAM, visiting the GPU) under a 16 GB cap.

Needs CUDA. ``KAMISHIBAI_ANIMEGAMER_TOKENIZER`` points at AnimeGamer's tokenizer when it is
not at ``../shared/fixtures/animegamer/tokenizer`` or ``checkpoints/animegamer/tokenizer``.
``KAMISHIBAI_BENCH_TINY=1`` runs the same code with tiny weights on the CPU (a smoke test).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import torch

from studio.benchmarks import BenchResult
from studio.core.instruction import parse_instruction
from studio.core.progress import Progress
from studio.core.state import CharacterState
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


@dataclass
class TurnTimes:
    mllm: list[float] = field(default_factory=list)
    decoder: list[float] = field(default_factory=list)
    vae: list[float] = field(default_factory=list)
    peak: int = 0
    reused: list[int] = field(default_factory=list)

    @staticmethod
    def mean(values: list[float]) -> float:
        return sum(values) / len(values) if values else float("nan")

    @property
    def turn(self) -> float:
        return self.mean(self.mllm) + self.mean(self.decoder) + self.mean(self.vae)


def _sync() -> None:
    if torch.cuda.is_available():
        torch.cuda.synchronize()


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
        start = time.perf_counter()
        if t5 is not None:
            with torch.inference_mode():
                t5(input_ids=torch.ones(1, 30, dtype=torch.long, device=next(t5.parameters()).device))  # type: ignore[attr-defined]
        prediction: Prediction = engine.predict(GenerationContext(history=tuple(history)), parse_instruction(text),
                                                settings, index)
        _sync()
        predicted = time.perf_counter()
        stamps: list[float] = []

        def mark(progress: Progress, stamps: list[float] = stamps) -> None:
            _sync()
            stamps.append(time.perf_counter())

        clip = engine.decode(prediction, settings, index, mark)
        assert clip.frames.shape[0] == settings.frames
        if index:  # the first turn compiles and warms the caches
            times.mllm.append(predicted - start)
            times.decoder.append(stamps[-2] - predicted)
            times.vae.append(stamps[-1] - stamps[-2])
            times.reused.append(int(prediction.conditioning["reused_tokens"]))
        history.append(TurnContext(instruction=parse_instruction(text), state=CharacterState(),
                                   deltas=prediction.deltas, motion_level=prediction.motion_level,
                                   engine="animegamer", representation_space=space,
                                   representation=prediction.representation))
    if torch.cuda.is_available():
        times.peak = torch.cuda.max_memory_allocated()
    return times


def _engine(checkpoints: Path, spec: str, dtype: DType = DType.AUTO) -> AnimeGamerEngine:
    info = TEST_INFO if _tiny() else INFO
    engine = AnimeGamerEngine(EngineConfig.parse(spec, checkpoints=checkpoints, dtype=dtype.value), info=info)
    engine.load()
    return engine


def _results(name: str, times: TurnTimes, goal: bool = True) -> list[BenchResult]:
    peak = times.peak / 1000**3
    return [
        BenchResult(f"{name}: turn (MLLM + decoder + VAE)", times.turn, "s",
                    goal=f"<= {GOAL_TURN_SECONDS} s" if goal else "",
                    met=(times.turn <= GOAL_TURN_SECONDS) if goal else None,
                    note=f"MLLM {times.mean(times.mllm):.2f} s, decoder {times.mean(times.decoder):.2f} s, "
                         f"VAE {times.mean(times.vae):.2f} s; KV reused {times.reused} tokens"),
        BenchResult(f"{name}: peak GPU memory", peak, "GB", goal="<= 24 GB" if goal else "",
                    met=(times.peak <= GOAL_PEAK_BYTES) if goal else None),
    ]


def run(quick: bool) -> list[BenchResult]:
    tiny = _tiny()
    if not tiny and not torch.cuda.is_available():
        return [BenchResult("skipped", 0.0, "", note="needs a CUDA GPU")]
    device = "cpu" if tiny else "cuda:0"
    size = TINY if tiny else FULL
    turns = TURNS[:3] if quick else TURNS
    reference = AnimeGamerSettings.from_values({"height": 32, "width": 48, "frames": 9, "steps": 3} if tiny else {},
                                               preset="" if tiny else "reference")
    space = (TEST_INFO if tiny else INFO).capabilities.representation.space
    results: list[BenchResult] = []
    with tempfile.TemporaryDirectory(prefix="animegamer-bench-") as scratch:
        checkpoints = Path(scratch) / "checkpoints"
        write_random_checkpoints(checkpoints, size, device)

        engine = _engine(checkpoints, device)
        ours = _play(engine, reference, turns, None, space)
        results += _results("Reference preset", ours)
        engine.unload()

        baseline_engine = _engine(checkpoints, device, DType.FLOAT16 if not tiny else DType.FLOAT32)
        assert baseline_engine._predictor is not None
        baseline_engine._predictor.cache.capacity = 0  # no KV reuse: the history is encoded every turn
        with _t5_resident(True, device) as t5:
            naive = _play(baseline_engine, reference, turns, t5, space)
        results += _results("Naive baseline (fp16, eager, no KV cache, T5-XXL resident)", naive, goal=False)
        results[-2] = BenchResult(results[-2].name, results[-2].value, "s", baseline="",
                                  ratio=naive.turn / ours.turn if ours.turn else None, note=results[-2].note)
        baseline_engine.unload()

        fast_settings = AnimeGamerSettings.from_values(
            {**({"height": 32, "width": 48, "frames": 9} if tiny else {})}, preset="fastest")
        fast_engine = _engine(checkpoints, device)
        fast = _play(fast_engine, fast_settings, turns, None, space)
        results.append(BenchResult("Fastest preset: clip (MLLM + decoder + VAE)", fast.turn, "s",
                                   goal=f"<= {GOAL_FAST_CLIP_SECONDS:.2f} s (the clip's length)",
                                   met=fast.turn <= GOAL_FAST_CLIP_SECONDS,
                                   baseline=f"Reference: {ours.turn:.2f} s",
                                   ratio=ours.turn / fast.turn if fast.turn else None,
                                   note=f"peak {fast.peak / 1000**3:.1f} GB; changes the output"))
        fast_engine.unload()

        if not tiny:
            total = torch.cuda.get_device_properties(0).total_memory
            torch.cuda.set_per_process_memory_fraction(OFFLOAD_CAP_BYTES / total, 0)
            try:
                offloaded_engine = _engine(checkpoints, "cuda:0+offload")
                offloaded = _play(offloaded_engine, reference, turns[:3], None, space)
                results.append(BenchResult("Reference, offloaded, under a 16 GiB cap: turn", offloaded.turn, "s",
                                           note=f"peak {offloaded.peak / 1000**3:.1f} GB; MLLM "
                                                f"{offloaded.mean(offloaded.mllm):.2f} s, decoder "
                                                f"{offloaded.mean(offloaded.decoder):.2f} s"))
                offloaded_engine.unload()
            except torch.cuda.OutOfMemoryError as error:
                results.append(BenchResult("Reference, offloaded, under a 16 GiB cap", 0.0, "s", met=False,
                                           note=f"out of memory: {error}"[:200]))
            finally:
                torch.cuda.set_per_process_memory_fraction(1.0, 0)
    return results
