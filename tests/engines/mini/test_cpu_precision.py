"""The mini decoder's compute type on a CPU: bfloat16 autocast where the CPU computes it in
hardware (a faster turn, frames within a level or so of float32's), float32 elsewhere or when
the user asks for it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.composition import default_checkpoints  # noqa: E402
from studio.engines.config import DType, EngineConfig  # noqa: E402
from studio.engines.mini import runtime as runtime_module  # noqa: E402
from studio.engines.mini.engine import MiniEngine  # noqa: E402
from studio.engines.mini.runtime import MiniRuntime, autocasts, default_decoder_dtype  # noqa: E402

CPU = torch.device("cpu")


def _cpu(monkeypatch: pytest.MonkeyPatch, *, bf16: bool, amx: bool) -> None:
    monkeypatch.setattr(torch.cpu, "_is_avx512_bf16_supported", lambda: bf16, raising=False)
    monkeypatch.setattr(torch.cpu, "_is_amx_tile_supported", lambda: amx, raising=False)


@pytest.mark.parametrize(("bf16", "amx", "expected"), [(True, False, torch.bfloat16), (False, True, torch.bfloat16),
                                                       (False, False, torch.float32)])
def test_the_default_follows_the_cpus_bfloat16_hardware(monkeypatch: pytest.MonkeyPatch, bf16: bool, amx: bool,
                                                        expected: torch.dtype) -> None:
    _cpu(monkeypatch, bf16=bf16, amx=amx)
    assert default_decoder_dtype(CPU) == expected
    assert default_decoder_dtype(torch.device("cuda")) == torch.bfloat16
    engine = MiniEngine(EngineConfig(checkpoints=default_checkpoints(), threads=1))
    assert engine._dtype(CPU) == expected
    chosen = MiniEngine(EngineConfig(checkpoints=default_checkpoints(), threads=1, dtype=DType.FLOAT32))
    assert chosen._dtype(CPU) == torch.float32, "a chosen float32 is kept"


def test_a_probe_that_fails_counts_as_no_hardware(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> bool:
        raise RuntimeError("cpuinfo could not be read")

    monkeypatch.setattr(torch.cpu, "_is_avx512_bf16_supported", broken, raising=False)
    monkeypatch.setattr(torch.cpu, "_is_amx_tile_supported", broken, raising=False)
    assert not runtime_module.cpu_has_native_bfloat16()


def test_only_bfloat16_autocasts_on_a_cpu() -> None:
    assert autocasts(CPU, torch.bfloat16)
    assert not autocasts(CPU, torch.float16) and not autocasts(CPU, torch.float32)
    assert autocasts(torch.device("cuda"), torch.float16)


def test_the_shipped_decoder_in_bfloat16_draws_what_float32_draws_within_a_level() -> None:
    torch.set_num_threads(1)
    folder = default_checkpoints() / "mini"
    full = MiniRuntime.load(Path(folder), CPU, CPU, torch.float32)
    half = MiniRuntime(full.config, full.vocab, full.lm, full.decoder, CPU, CPU, torch.bfloat16, full.latent_decoder)
    rep = torch.randn(1, full.config.representation.tokens, full.config.representation.dim,
                      generator=torch.Generator().manual_seed(4))
    a = full.decode(rep, [3], [7], steps=2).numpy().astype(np.int16)
    b = half.decode(rep, [3], [7], steps=2).numpy().astype(np.int16)
    difference = float(np.abs(a - b).mean())
    assert 0.0 < difference < 2.0, difference
