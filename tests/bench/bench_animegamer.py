"""AnimeGamer on one GPU: seconds per turn (MLLM, decoder, VAE) and peak memory, full size.

Random weights of the released names, shapes and dtypes are made on the GPU as the engine
loads them (no files written or read: the engine's ``read`` hook); the released weights
would take the same time per turn. Parts (``KAMISHIBAI_BENCH_PARTS``, comma-separated, in
this order; default all):

- ``reference``: the Reference preset (the release's sampler: 50 steps, dynamic CFG 6,
  480 x 720, 17 frames), MLLM in bf16, DiT and VAE in fp16, history window 4 with the KV
  cache, lean VAE decode, the transformer parked in RAM while the VAE runs; peak GPU memory
  per stage. Then (unless ``KAMISHIBAI_BENCH_TABLES=0``) one decoder pass (the CFG batch of
  two) under each attention kernel, and the VAE decode three ways (diffusers', lean, lean
  with autotuned convolutions): time, memory, difference;
- ``resident``: the same with the transformer kept on the GPU;
- ``compiled``: the same with compiled transformer blocks (compile time apart, steady turns,
  and the relative difference of one decoder pass against eager);
- ``naive``: a baseline as the release runs it: fp16 everywhere, eager, no KV cache (the
  history re-encoded every turn), a T5-XXL encoder resident and run once per turn,
  diffusers' VAE decode;
- ``fastest``: the Fastest preset (watching speed: a clip within the clip's own 2.1 s);
- ``offload``: the Reference preset offloaded (weights in pinned RAM, visiting the GPU)
  under a 16 GiB cap;
- ``variants`` (only when named): candidates for the Fastest preset, each on a fresh engine,
  so that one call measures which of the speed tools pay: :data:`FASTEST_VARIANTS`, or a JSON
  object ``{"label": {setting: value, ...}}`` in ``KAMISHIBAI_BENCH_VARIANTS``, each applied
  over the Fastest preset.

Every stage prints a line (flushed) as it ends, so a run cut short still shows what it did.
``KAMISHIBAI_BENCH_PART_SECONDS`` limits each part (``240``, or per part:
``reference=200,naive=120``); ``KAMISHIBAI_BENCH_DEADLINE`` limits the whole run (seconds from
its start; a part gets at most what is left, less a margin to write the results). A part
that runs out of time or fails is reported as such and the next part runs.

Needs CUDA. ``KAMISHIBAI_ANIMEGAMER_TOKENIZER`` points at AnimeGamer's tokenizer when it is
not at ``../shared/fixtures/animegamer/tokenizer`` or ``checkpoints/animegamer/tokenizer``.
``KAMISHIBAI_BENCH_CHECKPOINTS`` names a checkpoints folder with converted weights
(``kamishibai checkpoints convert``) to measure those instead of random ones.
``KAMISHIBAI_BENCH_TINY=1`` runs the same code with tiny weights on the CPU (a smoke test;
there offloading is simulated on the CPU and FP8 is left out). docs/ANIMEGAMER.md
("Measuring on a GPU") gives the calls that fit a remote machine's time limit.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import signal
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Mapping
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
from studio.engines.config import DType, EngineConfig, Placement
from studio.engines.info import Stage

TITLE = "AnimeGamer on one GPU: seconds per turn and peak memory (full-size random weights)"
GOAL_TURN_SECONDS = 5.5
GOAL_PEAK_BYTES = 24 * 1000**3
GOAL_FAST_CLIP_SECONDS = 17 / 8  # the clip's own duration
OFFLOAD_CAP_BYTES = 16 * 1024**3
RESULTS_MARGIN_SECONDS = 10.0
"""Kept back from the deadline so the results are still returned and written."""

TURNS = (
    "Character: Qiqi; Motion: quickly flying on broomstick; Background: day sky.",
    "Character: Qiqi; Motion: smoothly fly on broomstick; Background: day countryside.",
    "Character: Qiqi; Motion: gently sit on railing; Background: day town.",
    "Character: Qiqi; Motion: gently turn head; Background: day town.",
    "Character: Qiqi; Motion: gently lie down; Background: day grass.",
)
REPO = Path(__file__).resolve().parents[2]
PARTS = ("reference", "resident", "compiled", "naive", "fastest", "offload", "variants")
DEFAULT_PARTS = PARTS[:-1]
"""What runs when ``KAMISHIBAI_BENCH_PARTS`` is not set (the variants only when asked for)."""

FASTEST_VARIANTS: dict[str, dict[str, object]] = {
    "12 steps, guidance on 6, first-block cache, FP8, eager (the earlier Fastest)": {
        "steps": 12, "guidance_steps": 6, "step_cache": "first_block", "fp8": True, "compile": False},
    "8 steps, guidance on 4, eager": {"steps": 8, "guidance_steps": 4, "step_cache": "none", "fp8": False,
                                      "compile": False},
    "8 steps, guidance on 4, FP8, eager": {"steps": 8, "guidance_steps": 4, "step_cache": "none", "fp8": True,
                                           "compile": False},
    "6 steps, guidance on 3, compiled": {"steps": 6, "guidance_steps": 3, "step_cache": "none", "fp8": False,
                                         "compile": True},
    "10 steps, guidance on 5, compiled": {"steps": 10, "guidance_steps": 5, "step_cache": "none", "fp8": False,
                                          "compile": True},
}
"""Candidates around the Fastest preset (8 steps, guidance on 4, compiled blocks: 1.92 s a clip on
one H200, 2026-12-01), each applied over it; every setting a label names is set here, so a label
stays true if the preset changes. In this order, so that a run cut short keeps the comparisons:
the earlier Fastest preset (eager, first-block cache, FP8: 3.44 s in another run) measured
beside it in the same run; the same 8 steps eager (what the compiler buys, and a first clip
without its 23 s) and eager with FP8 (whether FP8 pays without the compiler: it quantises the
activations with kernels of its own); then fewer and more steps compiled (6 steps: how much
faster; 10: whether more steps still fit in the clip's 2.1 s). Left out: FP8 compiled (its
first clip waited about 7 minutes for the compiler) and a step cache compiled (its states
multiply the graphs: over 9 minutes with FP8)."""


def _tiny() -> bool:
    return os.environ.get("KAMISHIBAI_BENCH_TINY") == "1"


_clock = [time.perf_counter()]


def _say(message: str) -> None:
    """One progress line, flushed at once, with the seconds since the bench started."""
    print(f"   [{time.perf_counter() - _clock[0]:6.1f} s] {message}", flush=True)


def _tokenizer() -> Path:
    for candidate in (os.environ.get("KAMISHIBAI_ANIMEGAMER_TOKENIZER", ""),
                      str(REPO.parent / "shared" / "fixtures" / "animegamer" / "tokenizer"),
                      str(REPO / "checkpoints" / "animegamer" / "tokenizer")):
        if candidate and (Path(candidate) / "tokenizer.model").is_file():
            return Path(candidate)
    raise FileNotFoundError("AnimeGamer's tokenizer not found: set KAMISHIBAI_ANIMEGAMER_TOKENIZER")


# -- random weights, made where the engine puts them ------------------------------------------
_NORMS = ("norm.weight", "layernorm.weight", "norm_layer.weight")


def _is_norm(key: str) -> bool:
    return key.endswith(_NORMS) or ".norm_q." in key or ".norm_k." in key


class _LazyTensors(Mapping[str, torch.Tensor]):
    """A file's keys; each tensor is made when it is read, so a 14 GB file never exists at once."""

    def __init__(self, shapes: Mapping[str, tuple[int, ...]], make: Callable[[str, tuple[int, ...]], torch.Tensor]):
        self._shapes = shapes
        self._make = make

    def __getitem__(self, key: str) -> torch.Tensor:
        return self._make(key, self._shapes[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._shapes)

    def __len__(self) -> int:
        return len(self._shapes)


class RandomWeights:
    """Stands in for reading our layout's weights files: the same keys and shapes, random
    values (norms 1, the rest normal with std 0.5 / sqrt(fan-in)), in the released dtypes
    (bf16 MLLM, fp16 decoder and VAE; float32 on the CPU), made on ``device`` by an
    on-device generator. The engine moves them where their stage lives (RAM when offloaded)."""

    def __init__(self, size: ModelSize, device: str, seed: int = 0) -> None:
        self.size = size
        self.device = torch.device(device)
        self.generator = torch.Generator(self.device).manual_seed(seed)
        self.bytes_made = 0
        self.seconds = 0.0

    @staticmethod
    def target(path: Path) -> Target:
        name = path.as_posix()
        for suffix, target in ((layout.BASE_FILE, Target.BASE), (layout.VAE_FILE, Target.VAE),
                               (f"/{layout.MLLM_FILE}", Target.MLLM), (f"/{layout.DECODER_FILE}", Target.DECODER)):
            if name.endswith(suffix):
                return target
        raise ValueError(f"{path} is not a weights file of the AnimeGamer layout")

    def __call__(self, path: Path) -> Mapping[str, torch.Tensor]:
        target = self.target(path)
        if self.device.type == "cpu":
            dtype = torch.float32
        else:
            dtype = torch.bfloat16 if target in (Target.BASE, Target.MLLM) else torch.float16

        def make(key: str, shape: tuple[int, ...]) -> torch.Tensor:
            started = time.perf_counter()
            if _is_norm(key):
                value = torch.ones(shape, dtype=dtype, device=self.device)
            else:
                fan = shape[1] if len(shape) > 1 else 1
                value = torch.empty(shape, dtype=dtype, device=self.device)
                value.normal_(0.0, 0.5 / max(fan, 1) ** 0.5, generator=self.generator)
            self.bytes_made += value.numel() * value.element_size()
            self.seconds += time.perf_counter() - started
            return value

        return _LazyTensors(expected_keys(target, self.size), make)


def write_skeleton(checkpoints: Path, size: ModelSize) -> None:
    """Our layout with the tokenizer and ``model.json`` but empty weights files: enough for the
    engine to find a complete character; :class:`RandomWeights` supplies the tensors."""
    folder = layout.engine_folder(checkpoints)
    shutil.copytree(_tokenizer(), folder / "tokenizer", dirs_exist_ok=True)
    for relative in (layout.BASE_FILE, layout.VAE_FILE, f"qiqi/{layout.MLLM_FILE}", f"qiqi/{layout.DECODER_FILE}"):
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).touch()
    record = {"engine": layout.ENGINE, "character": "qiqi", "size": size.to_json(), "sources": {}, "files": {},
              "note": "benchmark skeleton: the weights files are empty, random tensors stand in for them"}
    (folder / "qiqi" / layout.MODEL_FILE).write_text(json.dumps(record))


# -- parts, limits, deadline -------------------------------------------------------------------
def _parts() -> tuple[str, ...]:
    chosen = tuple(p.strip() for p in os.environ.get("KAMISHIBAI_BENCH_PARTS", ",".join(DEFAULT_PARTS)).split(",")
                   if p.strip())
    unknown = set(chosen) - set(PARTS)
    if unknown:
        raise ValueError(f"unknown bench parts {sorted(unknown)}; choose from {PARTS}")
    return tuple(p for p in PARTS if p in chosen)


def _part_limits() -> dict[str, float]:
    """``KAMISHIBAI_BENCH_PART_SECONDS``: one number for every part, or ``part=seconds,...``."""
    text = os.environ.get("KAMISHIBAI_BENCH_PART_SECONDS", "").strip()
    if not text:
        return {}
    try:
        if "=" not in text:
            return dict.fromkeys(PARTS, float(text))
        limits = {}
        for item in text.split(","):
            name, _, value = item.partition("=")
            if name.strip() not in PARTS:
                raise ValueError(f"unknown part {name.strip()!r}")
            limits[name.strip()] = float(value)
        return limits
    except ValueError as error:
        raise ValueError(f"KAMISHIBAI_BENCH_PART_SECONDS={text!r}: {error}; write 240 or "
                         f"reference=200,naive=120") from None


def _deadline() -> float | None:
    """Seconds from the bench's start by which every part must be done (None: no deadline)."""
    text = os.environ.get("KAMISHIBAI_BENCH_DEADLINE", "").strip()
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"KAMISHIBAI_BENCH_DEADLINE={text!r} is not a number of seconds") from None


REARM_SECONDS = 2.0


class PartTimeoutError(Exception):
    """A part ran out of its time."""


@contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`PartTimeoutError` in this (main) thread after ``seconds``, and again every
    :data:`REARM_SECONDS` until the part has stopped: code that catches every exception (torch's
    compiler does, around its compiler processes, and logs it as a failed compilation) can
    swallow the first. Python runs the handler between bytecodes, so a long kernel delays it."""
    usable = seconds is not None and hasattr(signal, "setitimer") \
        and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return
    assert seconds is not None

    def expire(_signum: int, _frame: object) -> None:
        raise PartTimeoutError(f"{seconds:.0f} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.01), REARM_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _free_gpu() -> None:
    gc.collect()
    if torch.cuda.is_available():
        torch.cuda.empty_cache()


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
          space: str, label: str) -> TurnTimes:
    """Play ``turns`` as one branch; the first turn warms up and is not counted. Prints a
    line per turn (and, in the warm-up turn, when its first and last denoising steps end, and
    after any step that took over 5 s: compilation shows where it happens)."""
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

        def mark(progress: Progress, stamps: list[float] = stamps, peaks: dict[str, int] = peaks,
                 warm_up: bool = index == 0, predicted: float = predicted) -> None:
            _sync()
            stamps.append(time.perf_counter())
            if progress.step == progress.total - 1:  # the last denoising step is done
                peaks["decoder"] = _peak_since_reset()
            slow = len(stamps) > 1 and stamps[-1] - stamps[-2] > 5.0  # e.g. a recompile for a new batch size
            if warm_up and (progress.step in (1, progress.total - 1) or slow):
                _say(f"{label}: warm-up turn, denoising step {progress.step}/{progress.total - 1} done "
                     f"{stamps[-1] - predicted:.1f} s after the MLLM")

        clip = engine.decode(prediction, settings, index, mark)
        _sync()
        peaks["vae"] = _peak_since_reset()
        assert clip.frames.shape[0] == settings.frames
        mllm, decoder, vae = predicted - start, stamps[-2] - predicted, stamps[-1] - stamps[-2]
        if index:  # the first turn compiles and warms the caches
            times.mllm.append(mllm)
            times.decoder.append(decoder)
            times.vae.append(vae)
            times.reused.append(int(prediction.conditioning["reused_tokens"]))
            for stage, value in peaks.items():
                times.peaks[stage] = max(times.peaks[stage], value)
        else:
            times.first_turn = stamps[-1] - start
        _say(f"{label}: turn {index}{' (warm-up)' if not index else ''}: MLLM {mllm:.2f} s, decoder {decoder:.2f} s, "
             f"VAE {vae:.2f} s; peak {max(peaks.values()) / 1000**3:.1f} GB; "
             f"KV reused {prediction.conditioning['reused_tokens']} tokens")
        if settings.compile and index in (0, len(turns) - 1):
            _say(f"{label}: {_compiled_so_far()}")
        history.append(TurnContext(instruction=parse_instruction(text), state=CharacterState(),
                                   deltas=prediction.deltas, motion_level=prediction.motion_level,
                                   engine="animegamer", representation_space=space,
                                   representation=prediction.representation))
    times.peak = max(times.peaks.values())
    return times


def _compiled_so_far() -> str:
    """torch's compiler counters for this process (graphs compiled, graph breaks): more graphs
    than the few shapes and cache states of a clip means recompiles (``TORCH_LOGS=recompiles``)."""
    try:
        from torch._dynamo.utils import counters
    except ImportError:
        return "no compiler counters in this torch"
    stats = counters.get("stats", {})
    return (f"compiled so far: {stats.get('unique_graphs', 0)} graphs, {sum(counters.get('graph_break', {}).values())} "
            f"graph breaks, frames {dict(counters.get('frames', {}))}")


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


def _unpark(engine: AnimeGamerEngine) -> torch.device:
    """Put the transformer back on its GPU when the last clip parked it in RAM (the Reference
    preset does, during the VAE): the single decoder passes below would otherwise run on the CPU."""
    assert engine._decoder is not None
    device = torch.device(engine._placement(Stage.DECODE).device)
    parked = engine._hosts.get(id(engine._decoder))
    if parked is not None:
        parked.visit(device)
    return device


def _decoder_inputs(engine: AnimeGamerEngine) -> tuple[torch.Tensor, ...]:
    """One CFG batch at 480 x 720 x 17 frames (random latents and condition, t = 500), on the
    transformer's GPU (brought back from RAM if it was parked)."""
    assert engine._decoder is not None and engine._size is not None
    size = engine._size
    device = _unpark(engine)
    assert engine._decoder.device.type == device.type, (engine._decoder.device, device)
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
    inputs = _decoder_inputs(engine)
    device = engine._decoder.device
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


def _cpu_offload() -> Placement:
    """The tiny smoke test's stand-in for ``cuda:0+offload``: the engine's offload code paths
    (RAM copies, visits, leaving) on the CPU, where a visit changes nothing. A real placement
    refuses offloading onto the CPU, so this one is built without its check."""
    placement = object.__new__(Placement)
    object.__setattr__(placement, "device", "cpu")
    object.__setattr__(placement, "offload", True)
    return placement


def _versions() -> str:
    import importlib.metadata as metadata

    found = []
    for name in ("torch", "diffusers", "transformers", "peft", "torchao"):
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"no {name}")
    return ", ".join(found)


@dataclass
class _Bench:
    """What the parts share: the device, sizes, weights, turns, and the Reference engine."""

    tiny: bool
    quick: bool
    checkpoints: Path
    read: RandomWeights | None
    results: list[BenchResult] = field(default_factory=list)
    reference_times: TurnTimes | None = None
    eager_pass: torch.Tensor | None = None
    _reference: AnimeGamerEngine | None = None

    @property
    def device(self) -> str:
        return "cpu" if self.tiny else "cuda:0"

    @property
    def turns(self) -> tuple[str, ...]:
        return TURNS[:3] if self.quick else TURNS

    @property
    def space(self) -> str:
        return (TEST_INFO if self.tiny else INFO).capabilities.representation.space

    def settings(self, preset: str = "reference", **values: object) -> AnimeGamerSettings:
        small: dict[str, object] = {"height": 32, "width": 48, "frames": 9, "steps": 3} if self.tiny else {}
        return AnimeGamerSettings.from_values({**small, **values}, preset="" if self.tiny else preset)

    def add(self, rows: list[BenchResult]) -> None:
        self.results += rows
        for r in rows:  # as each part ends: a run cut short still shows what it measured
            print(f"   {r.name}: {r.value:.4g} {r.unit}  {r.note}", flush=True)

    def engine(self, spec: str, dtype: DType = DType.AUTO, label: str = "") -> AnimeGamerEngine:
        info = TEST_INFO if self.tiny else INFO
        if spec == "offload":
            config = EngineConfig(checkpoints=self.checkpoints, device=_cpu_offload()) if self.tiny else \
                EngineConfig.parse("cuda:0+offload", checkpoints=self.checkpoints, dtype=dtype.value)
        else:
            config = EngineConfig.parse(spec, checkpoints=self.checkpoints, dtype=dtype.value)
        engine = AnimeGamerEngine(config, info=info, read=self.read)
        started = time.perf_counter()
        made = (self.read.bytes_made, self.read.seconds) if self.read else (0, 0.0)
        engine.load(progress=lambda p: _say(f"{label or spec}: loaded {p.message} ({p.step}/{p.total})"))
        _sync()
        note = ""
        if self.read:
            note = (f"; {(self.read.bytes_made - made[0]) / 1000**3:.1f} GB of random weights made in "
                    f"{self.read.seconds - made[1]:.1f} s")
        _say(f"{label or spec}: engine ready in {time.perf_counter() - started:.1f} s{note}")
        return engine

    def reference_engine(self) -> AnimeGamerEngine:
        if self._reference is None:
            self._reference = self.engine(self.device, label="reference engine")
        return self._reference

    def drop_reference(self) -> None:
        if self._reference is not None:
            self._reference.unload()
            self._reference = None
        self.eager_pass = None
        _free_gpu()


def _part_reference(bench: _Bench) -> None:
    engine = bench.reference_engine()
    ours = _play(engine, bench.settings(), bench.turns, None, bench.space, "reference")
    bench.reference_times = ours
    bench.add(_results("Reference preset", ours))
    if os.environ.get("KAMISHIBAI_BENCH_TABLES", "1") == "1":
        rows, bench.eager_pass = _attention_table(engine)
        bench.add(rows)
        bench.add(_vae_table(engine))


def _part_resident(bench: _Bench) -> None:
    engine = bench.reference_engine()
    resident = _play(engine, bench.settings(park_decoder=False), bench.turns, None, bench.space, "resident")
    bench.add(_results("Reference, transformer kept on the GPU during the VAE", resident))


def _part_compiled(bench: _Bench) -> None:
    engine = bench.reference_engine()
    if bench.eager_pass is None:  # the compiled pass is compared with this eager one
        with speed.attention_kernel("auto", torch.device(bench.device)):
            bench.eager_pass = _decoder_pass(engine, _decoder_inputs(engine))
    compiled = _play(engine, bench.settings(compile=True), bench.turns, None, bench.space, "compiled")
    rows = _results("Reference, compiled transformer blocks", compiled,
                    extra=f"; first turn (compiles) {compiled.first_turn:.1f} s")
    if bench.reference_times is not None:
        ours = bench.reference_times
        rows[0] = BenchResult(rows[0].name, rows[0].value, "s", goal=rows[0].goal, met=rows[0].met,
                              baseline=f"Reference, eager: {ours.turn:.2f} s", ratio=ours.turn / compiled.turn,
                              note=rows[0].note)
    rows.append(_compile_check(engine, bench.eager_pass))
    bench.add(rows)
    bench.drop_reference()  # compiled code holds the weights: gone with the engine


def _part_naive(bench: _Bench) -> None:
    bench.drop_reference()
    engine = bench.engine(bench.device, DType.FLOAT16 if not bench.tiny else DType.FLOAT32, label="naive engine")
    try:
        assert engine._predictor is not None
        engine._predictor.cache.capacity = 0  # no KV reuse: the history is encoded every turn
        settings = bench.settings(lean_vae=False, park_decoder=False, mllm_attention="auto")
        with _t5_resident(True, bench.device) as t5:
            _say("naive: T5-XXL encoder resident")
            naive = _play(engine, settings, bench.turns, t5, bench.space, "naive")
    finally:
        engine.unload()
    rows = _results("Naive baseline (fp16, eager, no KV cache, T5-XXL resident, diffusers' VAE decode)", naive,
                    goal=False)
    ours = bench.reference_times
    if ours is not None:
        rows[0] = BenchResult(rows[0].name, rows[0].value, "s", ratio=naive.turn / ours.turn,
                              baseline=f"Reference: {ours.turn:.2f} s", note=rows[0].note)
        rows[1] = BenchResult(rows[1].name, rows[1].value, "GB", ratio=naive.peak / max(ours.peak, 1),
                              baseline=f"Reference: {ours.peak / 1000**3:.1f} GB", note=rows[1].note)
    bench.add(rows)


def _fastest_row(bench: _Bench, name: str, label: str, values: Mapping[str, object]) -> BenchResult:
    """Play ``values`` over the Fastest preset on a fresh engine (FP8 and compilation change the
    model in place) and make its row. On the CPU: no FP8 (it needs a recent GPU)."""
    small: dict[str, object] = {"height": 32, "width": 48, "frames": 9, "fp8": False} if bench.tiny else {}
    settings = AnimeGamerSettings.from_values({**values, **small}, preset="fastest")
    engine = bench.engine(bench.device, label=f"{label} engine")
    try:
        timed = _play(engine, settings, bench.turns, None, bench.space, label)
    finally:
        engine.unload()
        speed.forget_compiled()
        _free_gpu()
    ours = bench.reference_times
    return BenchResult(name, timed.turn, "s", goal=f"<= {GOAL_FAST_CLIP_SECONDS:.2f} s (the clip's length)",
                       met=timed.turn <= GOAL_FAST_CLIP_SECONDS,
                       baseline=f"Reference: {ours.turn:.2f} s" if ours else "",
                       ratio=ours.turn / timed.turn if ours and timed.turn else None,
                       note=f"{timed.split()}; first clip ({_first_clip_work(settings)}) {timed.first_turn:.1f} s; "
                            f"peak {timed.peak / 1000**3:.1f} GB; changes the output")


def _part_fastest(bench: _Bench) -> None:
    bench.drop_reference()
    named = AnimeGamerSettings.preset("fastest").label.replace("Fastest", "Fastest preset", 1)
    bench.add([_fastest_row(bench, f"{named}: clip (MLLM + decoder + VAE)", "fastest", {})])


def _first_clip_work(settings: AnimeGamerSettings) -> str:
    """What the first clip of ``settings`` does once (shown beside its time)."""
    work = [name for name, on in (("quantises to FP8", settings.fp8), ("compiles", settings.compile),
                                  ("autotunes the VAE", settings.vae_autotune)) if on]
    return ", ".join(work) or "warms up"


def _part_offload(bench: _Bench) -> None:
    bench.drop_reference()
    capped = torch.cuda.is_available() and not bench.tiny
    if capped:
        total = torch.cuda.get_device_properties(0).total_memory
        torch.cuda.set_per_process_memory_fraction(OFFLOAD_CAP_BYTES / total, 0)
        _say(f"offload: GPU memory capped at {OFFLOAD_CAP_BYTES / 1024**3:.0f} GiB of {total / 1024**3:.0f} GiB")
    try:
        engine = bench.engine("offload", label="offloaded engine")
        try:
            offloaded = _play(engine, bench.settings(), bench.turns, None, bench.space, "offload")
        finally:
            engine.unload()
        bench.add([BenchResult("Reference, offloaded, under a 16 GiB cap: turn", offloaded.turn, "s", goal="runs",
                               met=True, note=f"{offloaded.split()} (each stage's upload included); peak "
                                              f"{offloaded.peak / 1024**3:.1f} GiB ({offloaded.peak_split()})")])
    except torch.cuda.OutOfMemoryError as error:
        bench.add([BenchResult("Reference, offloaded, under a 16 GiB cap", 0.0, "s", goal="runs", met=False,
                               note=f"out of memory: {error}"[:200])])
    finally:
        if capped:
            torch.cuda.set_per_process_memory_fraction(1.0, 0)


def _variants() -> dict[str, dict[str, object]]:
    text = os.environ.get("KAMISHIBAI_BENCH_VARIANTS", "").strip()
    if not text:
        return FASTEST_VARIANTS
    try:
        chosen = json.loads(text)
    except ValueError as error:
        raise ValueError(f"KAMISHIBAI_BENCH_VARIANTS is not JSON: {error}") from None
    if not isinstance(chosen, dict) or not all(isinstance(v, dict) for v in chosen.values()):
        raise ValueError('KAMISHIBAI_BENCH_VARIANTS must be an object {"label": {"setting": value, ...}}')
    return chosen


def _part_variants(bench: _Bench) -> None:
    """Each variant on a fresh engine, a row as each one ends (a part cut short keeps the
    variants it measured)."""
    bench.drop_reference()
    for label, values in _variants().items():
        bench.add([_fastest_row(bench, f"Fastest candidate: {label}: clip", f"variant {label}", values)])


_PART_CODE: dict[str, Callable[[_Bench], None]] = {
    "reference": _part_reference, "resident": _part_resident, "compiled": _part_compiled, "naive": _part_naive,
    "fastest": _part_fastest, "offload": _part_offload, "variants": _part_variants}


def _run_part(bench: _Bench, name: str, limit: float | None) -> None:
    """Run one part under ``limit`` seconds; a timeout or an error becomes a row, and the run goes on."""
    _say(f"part {name}: start" + (f" (limit {limit:.3g} s)" if limit is not None else ""))
    started = time.perf_counter()
    outcome = ""
    try:
        with _time_limit(limit):
            _PART_CODE[name](bench)
    except PartTimeoutError:
        outcome = f"stopped at its limit of {limit:.3g} s; the lines printed before show how far it got"
    except Exception as error:  # one part's failure must not cost the other parts' numbers
        traceback.print_exc()
        outcome = f"failed: {type(error).__name__}: {error}"[:300]
    if outcome:
        if name != "reference" or bench.reference_times is None:
            bench.drop_reference()  # a half-finished reference engine may hold compiled code or a cache
        bench.add([BenchResult(f"Part {name}: not finished", time.perf_counter() - started, "s", goal="finishes",
                               met=False, note=outcome)])
    _free_gpu()
    _say(f"part {name}: {'ended' if not outcome else 'NOT finished'} after {time.perf_counter() - started:.1f} s")


def run(quick: bool) -> list[BenchResult]:
    _clock[0] = time.perf_counter()
    tiny = _tiny()
    if not tiny and not torch.cuda.is_available():
        return [BenchResult("skipped", 0.0, "", note="needs a CUDA GPU")]
    parts = _parts()
    limits = _part_limits()
    deadline = _deadline()
    _say(f"parts {', '.join(parts)}; {'quick (3 turns)' if quick else '5 turns'}; {_versions()}")
    with tempfile.TemporaryDirectory(prefix="animegamer-bench-") as scratch:
        kept = os.environ.get("KAMISHIBAI_BENCH_CHECKPOINTS", "")
        if kept and layout.complete_characters(layout.engine_folder(Path(kept))):
            checkpoints, read = Path(kept), None
            _say(f"converted weights from {kept}")
        else:
            checkpoints = Path(scratch) / "checkpoints"
            write_skeleton(checkpoints, TINY if tiny else FULL)
            read = RandomWeights(TINY if tiny else FULL, "cpu" if tiny else "cuda:0")
        bench = _Bench(tiny=tiny, quick=quick, checkpoints=checkpoints, read=read)
        if not tiny:
            props = torch.cuda.get_device_properties(0)
            bench.results.append(BenchResult("GPU", props.total_memory / 1024**3, "GiB",
                                             note=f"{props.name}, compute capability {props.major}.{props.minor}; "
                                                  f"{_versions()}"))
        try:
            for name in parts:
                limit = limits.get(name)
                if deadline is not None:
                    left = deadline - (time.perf_counter() - _clock[0]) - RESULTS_MARGIN_SECONDS
                    if left < 5:
                        bench.add([BenchResult(f"Part {name}: not started", 0.0, "s", goal="finishes", met=False,
                                               note=f"the run's deadline of {deadline:.0f} s was reached")])
                        continue
                    limit = left if limit is None else min(limit, left)
                _run_part(bench, name, limit)
        finally:
            bench.drop_reference()
    _say("done")
    return bench.results
