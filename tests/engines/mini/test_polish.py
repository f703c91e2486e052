"""The ``polish`` stage: the autoencoder's decoder tuned on what the video decoder makes,
at toy size on the CPU. Only the autoencoder's decoder changes; the latent space (its encoder,
its scale) and the video decoder stay as they were; the stage resumes and starts again after
the video decoder trains on; a checkpoint continued with ``--init`` and ``--stages polish``
ships the tuned decoder."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")

from studio.engines.mini import weights  # noqa: E402
from studio.engines.mini.config import PolishTraining, StageConfig, TrainConfig, load_train_config, named_config  # noqa: E402
from studio.engines.mini.latent_ae import cell_average  # noqa: E402
from studio.engines.mini.train import run  # noqa: E402

BEFORE = ("autoencoder", "decoder", "judge", "lm", "adapt")


def _config(steps: int) -> TrainConfig:
    config = load_train_config(named_config("tiny_latent"))
    return dataclasses.replace(config, polish_stage=StageConfig(steps=steps, batch=2, lr=1e-2, warmup=1, log_every=1),
                               polish=PolishTraining(times=(0.5, 0.75), noise_share=0.3, noise=0.5, blur_share=0.3))


def _tensors(folder: Path, name: str) -> dict[str, torch.Tensor]:
    return {k: v.float() for k, v in weights.load_tensors(folder / name).items()}


def _same(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_polish_tunes_only_the_autoencoders_decoder(tmp_path: Path) -> None:
    base = tmp_path / "base"
    run(_config(0), tmp_path / "run0", device="cpu", stages=BEFORE, export=base, log=lambda _m: None)
    lines: list[str] = []
    state = run(_config(4), tmp_path / "run1", device="cpu", stages=("polish",), init=base,
                export=tmp_path / "polished", log=lines.append)
    assert state.stages["polish"].done and state.stages["polish"].steps == 4
    assert any("polishing times=0.5,0.75" in line for line in lines), lines
    polished = tmp_path / "polished"
    assert not _same(_tensors(base, weights.LATENT_DECODER), _tensors(polished, weights.LATENT_DECODER))
    for unchanged in (weights.LATENT_ENCODER, weights.DECODER, weights.DECODER_IO, weights.LM):
        assert _same(_tensors(base, unchanged), _tensors(polished, unchanged)), unchanged
    record = weights.read_manifest(polished)["training"]["run"]["stages"]["polish"]
    assert record["steps"] == 4 and record["done"]
    assert weights.read_manifest(polished)["training"]["run"]["latent_scale"] == pytest.approx(
        weights.read_manifest(base)["training"]["run"]["latent_scale"])


def test_polish_is_skipped_without_steps_and_starts_again_after_the_decoder_trains_on(tmp_path: Path) -> None:
    lines: list[str] = []
    state = run(_config(0), tmp_path / "run", device="cpu", stages=(*BEFORE, "polish"), log=lines.append)
    assert state.stages["polish"].done and state.stages["polish"].steps == 0
    assert any("stage polish skipped" in line for line in lines)

    polished = run(_config(2), tmp_path / "p", device="cpu", stages=(*BEFORE, "polish"), log=lambda _m: None)
    assert polished.stages["polish"].steps == 2
    export = tmp_path / "export"
    run(_config(2), tmp_path / "p", device="cpu", stages=(), export=export, log=lambda _m: None)
    lines.clear()
    again = run(_config(2), tmp_path / "again", device="cpu", stages=("adapt", "polish"), init=export,
                restart=("adapt",), log=lines.append)
    assert any("stage polish starts again" in line for line in lines)
    assert again.stages["polish"].done and again.stages["polish"].steps == 2


def test_cell_average_keeps_the_mean_of_each_cell_and_smooths_within_it() -> None:
    canvas = torch.arange(2 * 3 * 2 * 4 * 6, dtype=torch.float32).reshape(2, 3, 2, 4, 6)
    smooth = cell_average(canvas)
    assert smooth.shape == canvas.shape
    assert torch.allclose(torch.nn.functional.avg_pool3d(smooth, (1, 2, 2)),
                          torch.nn.functional.avg_pool3d(canvas, (1, 2, 2)))
    cell = smooth[0, 0, 0, :2, :2]
    assert torch.all(cell == cell[0, 0]) and not torch.equal(smooth, canvas)
