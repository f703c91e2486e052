"""The GPU benchmark's code, run on the CPU with tiny weights: a typo must not wait for a GPU."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from .released_files import ANIMEGAMER_FIXTURES

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_animegamer.py"


def test_the_animegamer_bench_runs_its_parts_on_tiny_weights(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    tokenizer = ANIMEGAMER_FIXTURES / "tokenizer"
    if not (tokenizer / "tokenizer.model").is_file():
        pytest.skip(f"AnimeGamer's tokenizer is not at {tokenizer}")
    monkeypatch.setenv("KAMISHIBAI_BENCH_TINY", "1")
    monkeypatch.setenv("KAMISHIBAI_ANIMEGAMER_TOKENIZER", str(tokenizer))
    monkeypatch.setenv("KAMISHIBAI_BENCH_PARTS", "reference,naive,fastest")
    monkeypatch.setenv("KAMISHIBAI_BENCH_CHECKPOINTS", str(tmp_path / "checkpoints"))
    spec = importlib.util.spec_from_file_location("bench_animegamer_smoke", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    results = module.run(quick=True)
    names = [r.name for r in results]
    for expected in ("Reference preset: turn (MLLM + decoder + VAE)", "Decoder pass, attention cudnn",
                     "VAE decode, lean decode", "Reference, transformer kept on the GPU during the VAE: turn "
                     "(MLLM + decoder + VAE)", "Fastest preset: clip (MLLM + decoder + VAE)"):
        assert expected in names, names
    assert any(name.startswith("Naive baseline") for name in names)
    assert all(r.value > 0 for r in results if r.unit == "s")
    lean = next(r for r in results if r.name == "VAE decode, lean decode")
    assert "relative difference to diffusers' " in lean.note
    monkeypatch.setenv("KAMISHIBAI_BENCH_PARTS", "reference,warp")
    with pytest.raises(ValueError, match="unknown bench parts"):
        module.run(quick=True)
