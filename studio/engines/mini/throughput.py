"""How fast a training config's decoder stage steps, on random data of the config's sizes.

A GPU lease is too short to find out by training: this measures the decoder stage's step
(random canvases, the flow loss, AdamW; compiled and in bf16 on a GPU, as ``train.py`` runs it)
at several batch sizes in one process, with the frozen clip encoder run on each batch or its
representations read from a table (what the trainer does once every clip is rendered)::

    python -m studio.engines.mini.throughput --config h200_latent2 --batch 128 256 --steps 60

Each row prints as it ends (JSON); the first step of each batch size compiles and is reported
apart.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import asdict, dataclass
from typing import Any

import torch

from studio.engines.mini.config import ModelConfig, load_train_config, named_config
from studio.engines.mini.decoder import VideoDiT, flow_loss, interpolate_weight
from studio.engines.mini.encoder import ClipEncoder

ROWS = 1024
"""Distinct random clips the batches are drawn from (enough to defeat caches, small in memory)."""


@dataclass(frozen=True, slots=True)
class StepRate:
    batch: int
    encode_each_batch: bool
    first_step_s: float
    steps_per_s: float
    clips_per_s: float


class _RandomData:
    """Canvases on the device, first frames in RAM (uint8, as the rendered clips are kept), text."""

    def __init__(self, model: ModelConfig, device: torch.device, generator: torch.Generator) -> None:
        channels, frames, height, width = model.canvas()
        video = model.video
        self.canvas = torch.randn((ROWS, channels, frames, height, width), generator=generator).to(device)
        self.first = torch.randint(0, 256, (ROWS, 3, video.height, video.width), generator=generator,
                                   dtype=torch.uint8)
        self.text = torch.randint(1, model.vocab_size, (ROWS, model.encoder.max_text), generator=generator)
        self.valid = torch.ones_like(self.text, dtype=torch.bool)
        self.occupancy = torch.rand((ROWS, 196), generator=generator)
        self.height, self.width = height, width


def _autocast(device: torch.device) -> Callable[[], AbstractContextManager[Any]]:
    if device.type == "cuda":
        return lambda: torch.autocast("cuda", dtype=torch.bfloat16)
    return nullcontext


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def measure(model: ModelConfig, batches: Sequence[int], steps: int, device: torch.device,
            compile_model: bool, report: Callable[[StepRate], None] = lambda _r: None) -> list[StepRate]:
    """The decoder step's rate for each batch size: per-batch encoding and the table, in turn."""
    generator = torch.Generator().manual_seed(0)
    data = _RandomData(model, device, generator)
    autocast = _autocast(device)
    encoder = ClipEncoder(model).to(device).eval().requires_grad_(False)
    decoder = VideoDiT(model).to(device).train()
    forward = torch.compile(decoder) if compile_model else decoder
    optimizer = torch.optim.AdamW(decoder.parameters(), lr=1e-4, fused=device.type == "cuda")
    with torch.no_grad(), autocast():
        table = torch.cat([encoder(data.text[i:i + 256].to(device), data.valid[i:i + 256].to(device),
                                   data.first[i:i + 256].to(device).float() / 127.5 - 1).float()
                           for i in range(0, ROWS, 256)])

    def step(batch: int, encode: bool) -> None:
        index = torch.randint(0, ROWS, (batch,), generator=generator)
        on_device = index.to(device)
        target = data.canvas[on_device]
        level = torch.randint(0, 6, (batch,), generator=generator).to(device)
        weight = interpolate_weight(data.occupancy[index].to(device), data.height, data.width, 3.0)
        with autocast():
            if encode:
                first = data.first[index].to(device, non_blocking=True).float() / 127.5 - 1
                with torch.no_grad():
                    rep = encoder(data.text[index].to(device), data.valid[index].to(device), first)
            else:
                rep = table[on_device]
            keep = torch.rand(batch, generator=generator).to(device) >= model.decoder.null_rate
            rep, level = decoder.drop(rep.detach().requires_grad_(True), level, keep)
            loss = flow_loss(forward, target, level, rep, weight)  # type: ignore[arg-type]
        optimizer.zero_grad(set_to_none=True)
        loss.backward()  # type: ignore[no-untyped-call]
        optimizer.step()

    rates = []
    for batch in batches:
        for encode in (True, False):
            started = time.perf_counter()
            step(batch, encode)
            _sync(device)
            first_step = time.perf_counter() - started
            for _ in range(min(5, steps)):
                step(batch, encode)
            _sync(device)
            started = time.perf_counter()
            for _ in range(steps):
                step(batch, encode)
            _sync(device)
            seconds = time.perf_counter() - started
            rate = StepRate(batch, encode, round(first_step, 2), round(steps / seconds, 3),
                            round(steps * batch / seconds, 1))
            report(rate)
            rates.append(rate)
    return rates


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m studio.engines.mini.throughput",
                                     description="Times a training config's decoder step on random data.")
    parser.add_argument("--config", default="h200_latent2", help="a training config's name (configs/NAME.json)")
    parser.add_argument("--batch", type=int, nargs="+", default=[128, 256])
    parser.add_argument("--steps", type=int, default=60, help="timed steps per row (after 5 untimed)")
    parser.add_argument("--device", default="auto")
    args = parser.parse_args(argv)
    device = torch.device("cuda" if args.device == "auto" and torch.cuda.is_available() else
                          ("cpu" if args.device == "auto" else args.device))
    config = load_train_config(named_config(args.config))
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    compiled = config.compile and device.type == "cuda"
    rates = measure(config.model, args.batch, args.steps, device, compile_model=compiled,
                    report=lambda r: print(json.dumps({"config": args.config, **asdict(r)}), flush=True))
    if device.type == "cuda":
        print(json.dumps({"peak_gb": round(torch.cuda.max_memory_allocated(device) / 1e9, 2)}), flush=True)
    return 0 if rates else 1


if __name__ == "__main__":
    raise SystemExit(main())
