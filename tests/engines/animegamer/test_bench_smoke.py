"""The GPU benchmark's code, run on the CPU with tiny weights: a typo must not wait for a GPU."""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest
import torch

from studio.engines.animegamer.released import Target, expected_keys
from studio.engines.animegamer.sizes import TINY
from studio.engines.catalog import animegamer_layout as layout

from .released_files import ANIMEGAMER_FIXTURES

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_animegamer.py"
TOKENIZER = ANIMEGAMER_FIXTURES / "tokenizer"


def _bench(monkeypatch: pytest.MonkeyPatch, parts: str) -> ModuleType:
    if not (TOKENIZER / "tokenizer.model").is_file():
        pytest.skip(f"AnimeGamer's tokenizer is not at {TOKENIZER}")
    monkeypatch.setenv("KAMISHIBAI_BENCH_TINY", "1")
    monkeypatch.setenv("KAMISHIBAI_ANIMEGAMER_TOKENIZER", str(TOKENIZER))
    monkeypatch.setenv("KAMISHIBAI_BENCH_PARTS", parts)
    for name in ("KAMISHIBAI_BENCH_PART_SECONDS", "KAMISHIBAI_BENCH_DEADLINE", "KAMISHIBAI_BENCH_CHECKPOINTS",
                 "KAMISHIBAI_BENCH_TABLES"):
        monkeypatch.delenv(name, raising=False)
    spec = importlib.util.spec_from_file_location("bench_animegamer_smoke", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_the_animegamer_bench_runs_every_part_on_tiny_weights(monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Every part end to end through the bench's code: the Fastest preset (compiled blocks, guidance
    on the first half of the steps) and offloading (its code paths, on the CPU) included."""
    module = _bench(monkeypatch, ",".join(("reference", "resident", "compiled", "naive", "fastest", "offload")))
    results = module.run(quick=True)
    names = [r.name for r in results]
    assert not [r for r in results if r.name.startswith("Part ")], [r.note for r in results]
    for expected in ("Reference preset: turn (MLLM + decoder + VAE)", "Decoder pass, attention cudnn",
                     "VAE decode, lean decode", "Reference, transformer kept on the GPU during the VAE: turn "
                     "(MLLM + decoder + VAE)", "Reference, compiled transformer blocks: turn (MLLM + decoder + VAE)",
                     "Decoder pass (CFG batch of 2), compiled blocks",
                     "Fastest preset (8 steps, guidance on 4, compiled): clip (MLLM + decoder + VAE)",
                     "Reference, offloaded, under a 16 GiB cap: turn"):
        assert expected in names, names
    assert any(name.startswith("Naive baseline") for name in names)
    assert all(r.value > 0 for r in results if r.unit == "s")
    lean = next(r for r in results if r.name == "VAE decode, lean decode")
    assert "relative difference to diffusers' " in lean.note
    naive = next(r for r in results if r.name.startswith("Naive baseline") and r.unit == "s")
    assert naive.baseline.startswith("Reference: ") and naive.ratio is not None
    printed = capsys.readouterr().out
    for line in ("part fastest: ended", "offload: turn 2:", "reference engine: engine ready in",
                 "fastest: warm-up turn, denoising step 1/8 done"):
        assert line in printed, printed[-2000:]


def test_the_fastest_variants_run_each_on_its_own_engine(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    module = _bench(monkeypatch, "variants")
    monkeypatch.setenv("KAMISHIBAI_BENCH_VARIANTS", '{"two steps": {"steps": 2, "guidance_steps": 1}, '
                                                    '"cached": {"step_cache": "first_block", "compile": false}}')
    results = module.run(quick=True)
    assert [r.name for r in results if r.unit == "s"] == ["Fastest candidate: two steps: clip",
                                                          "Fastest candidate: cached: clip"], results
    assert all(r.value > 0 for r in results if r.unit == "s")
    printed = capsys.readouterr().out
    assert "variant two steps: warm-up turn, denoising step 1/2 done" in printed, printed[-2000:]
    monkeypatch.setenv("KAMISHIBAI_BENCH_VARIANTS", "[1, 2]")
    with pytest.raises(ValueError, match="must be an object"):
        module._variants()
    monkeypatch.delenv("KAMISHIBAI_BENCH_VARIANTS")
    assert module._variants() == module.FASTEST_VARIANTS
    monkeypatch.delenv("KAMISHIBAI_BENCH_PARTS")
    assert "variants" not in module._parts()


def test_each_default_variant_sets_what_its_label_says_over_the_fastest_preset(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.engines.catalog.animegamer import AnimeGamerSettings

    module = _bench(monkeypatch, "variants")
    fastest = AnimeGamerSettings.from_values({}, preset="fastest")
    assert module.FASTEST_VARIANTS
    for label, values in module.FASTEST_VARIANTS.items():
        assert {"steps", "guidance_steps", "step_cache", "fp8", "compile"} <= set(values), label
        played = AnimeGamerSettings.from_values(values, preset="fastest")
        assert played.to_values() != fastest.to_values(), f"{label} is the Fastest preset itself"
        assert label.startswith(f"{played.steps} steps, guidance on {played.guidance_steps}, "), label
        assert ("compiled" in label) == played.compile and ("eager" in label) == (not played.compile), label
        assert ("FP8" in label) == played.fp8 and ("cache" in label) == (played.step_cache != "none"), label
        assert not (played.compile and (played.fp8 or played.step_cache != "none")), (
            f"{label}: its first clip would wait minutes for the compiler")


def test_parts_are_checked_and_run_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    module = _bench(monkeypatch, "offload,reference")
    assert module._parts() == ("reference", "offload")
    monkeypatch.setenv("KAMISHIBAI_BENCH_PARTS", "reference,warp")
    with pytest.raises(ValueError, match="unknown bench parts"):
        module.run(quick=True)
    monkeypatch.setenv("KAMISHIBAI_BENCH_PART_SECONDS", "reference=20,fast=3")
    with pytest.raises(ValueError, match="unknown part 'fast'"):
        module._part_limits()
    monkeypatch.setenv("KAMISHIBAI_BENCH_PART_SECONDS", "90")
    assert module._part_limits() == dict.fromkeys(module.PARTS, 90.0)


def test_a_part_that_runs_out_of_time_or_fails_is_reported_and_the_next_runs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    module = _bench(monkeypatch, "reference,naive,fastest")
    ran: list[str] = []

    def slow(bench: object) -> None:
        ran.append("reference")
        try:
            time.sleep(30)
        except Exception:  # as torch's compiler swallows errors around its compiler processes
            pass
        time.sleep(30)

    def broken(bench: object) -> None:
        ran.append("naive")
        raise RuntimeError("CUBLAS_STATUS_NOT_SUPPORTED")

    def fine(bench: object) -> None:
        ran.append("fastest")

    monkeypatch.setattr(module, "_PART_CODE", {"reference": slow, "naive": broken, "fastest": fine})
    monkeypatch.setattr(module, "REARM_SECONDS", 0.2)
    monkeypatch.setenv("KAMISHIBAI_BENCH_PART_SECONDS", "reference=0.3")
    started = time.perf_counter()
    results = module.run(quick=True)
    assert time.perf_counter() - started < 10
    assert ran == ["reference", "naive", "fastest"]
    notes = {r.name: r.note for r in results}
    assert notes["Part reference: not finished"].startswith("stopped at its limit of 0.3 s")
    assert notes["Part naive: not finished"] == "failed: RuntimeError: CUBLAS_STATUS_NOT_SUPPORTED"
    assert len(results) == 2

    monkeypatch.setenv("KAMISHIBAI_BENCH_DEADLINE", str(module.RESULTS_MARGIN_SECONDS + 1))
    ran.clear()
    results = module.run(quick=True)
    assert ran == [] and [r.name for r in results] == [f"Part {p}: not started" for p in ("reference", "naive",
                                                                                             "fastest")]


def test_random_weights_have_the_released_keys_shapes_and_dtypes_and_are_made_when_read(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    module = _bench(monkeypatch, "reference")
    weights = module.RandomWeights(TINY, "cpu")
    folder = layout.engine_folder(tmp_path)
    files = {Target.BASE: folder / layout.BASE_FILE, Target.MLLM: folder / "qiqi" / layout.MLLM_FILE,
             Target.DECODER: folder / "qiqi" / layout.DECODER_FILE, Target.VAE: folder / layout.VAE_FILE}
    for target, path in files.items():
        tensors = weights(path)
        assert weights.bytes_made == 0 or target is not Target.BASE  # nothing made before it is read
        shapes = expected_keys(target, TINY)
        assert list(tensors) == list(shapes)
        for key, shape in shapes.items():
            value = tensors[key]
            assert tuple(value.shape) == shape and value.dtype == torch.float32
            if key.endswith("norm.weight"):
                assert bool((value == 1).all()), key
            elif value.numel() > 16:
                assert 0 < float(value.std()) < 1, key
    assert weights.bytes_made > 0
    with pytest.raises(ValueError, match="not a weights file"):
        weights(folder / "qiqi" / "model.json")
    module.write_skeleton(tmp_path, TINY)
    assert layout.complete_characters(folder) == ["qiqi"]


def test_the_single_decoder_passes_bring_a_parked_transformer_back_to_its_gpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a Reference clip the transformer lives in RAM; the attention table and the compile
    check must not run a full-size pass there."""
    from types import SimpleNamespace

    from studio.engines.config import Placement

    module = _bench(monkeypatch, "reference")
    visits: list[torch.device] = []
    decoder = object()
    parked = SimpleNamespace(visit=visits.append)
    engine = SimpleNamespace(_decoder=decoder, _hosts={id(decoder): parked},
                             _placement=lambda stage: Placement("cuda:0"))
    assert module._unpark(engine) == torch.device("cuda:0")
    assert visits == [torch.device("cuda:0")]
    engine = SimpleNamespace(_decoder=decoder, _hosts={}, _placement=lambda stage: Placement("cuda:0"))
    assert module._unpark(engine) == torch.device("cuda:0") and len(visits) == 1
