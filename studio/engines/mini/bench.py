"""Throughput probes for planning a training run on a GPU lease:
``python -m studio.engines.mini.bench --config h200``.

Measures the episode rendering rate with all cores, and the training step rate of the
decoder (several batch sizes, optionally compiled) and of the LM, on random data of the
config's shapes. Prints one line per figure.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Callable

import torch

from studio.engines.mini.config import TrainConfig, load_train_config, named_config
from studio.engines.mini.data import Split
from studio.engines.mini.dataset import EpisodePool
from studio.engines.mini.decoder import flow_loss, interpolate_weight
from studio.engines.mini.decoders import build_decoder
from studio.engines.mini.lm import LMBatch, MiniLM


def _rate(step: Callable[[], None], seconds: float, sync: Callable[[], None]) -> tuple[float, int]:
    step()
    sync()
    count, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        step()
        count += 1
    sync()
    return count / (time.perf_counter() - started), count


def render_rate(config: TrainConfig, episodes: int) -> float:
    pool = EpisodePool(config.data.workers)
    try:
        started = time.perf_counter()
        clips = sum(len(e.clips) for e in pool.episodes(config.data, config.model.video, Split.TRAIN,
                                                          range(episodes), render=True))
        return clips / (time.perf_counter() - started)
    finally:
        pool.close()


def decoder_rate(config: TrainConfig, device: torch.device, batch: int, seconds: float, compile: bool,
                 mode: str | None = None) -> float:
    model = build_decoder(config.model).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=device.type == "cuda")
    rep = config.model.representation
    canvas = model.canvas  # pixels, or the latent of a latent decoder
    clips = torch.rand(batch, *canvas, device=device) * 2 - 1
    reps = torch.randn(batch, rep.tokens, rep.dim, device=device)
    level = torch.randint(1, 6, (batch,), device=device)
    weight = interpolate_weight(torch.rand(batch, 196, device=device), canvas[2], canvas[3], 3.0)
    forward = torch.compile(model, mode=mode) if compile else model

    def step() -> None:
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
            loss = flow_loss(forward, clips, level, reps, weight)  # type: ignore[arg-type]
        optimizer.zero_grad(set_to_none=True)
        loss.backward()  # type: ignore[no-untyped-call]
        optimizer.step()

    started = time.perf_counter()
    step()
    if compile:
        print(f"compile + first step {time.perf_counter() - started:.1f} s", flush=True)
    rate, _ = _rate(step, seconds, torch.cuda.synchronize if device.type == "cuda" else lambda: None)
    return rate * batch


def lm_rate(config: TrainConfig, device: torch.device, batch: int, seconds: float, length: int = 200) -> float:
    cfg = dataclasses.replace(config.model, vocab_size=1024)
    model = MiniLM(cfg).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=device.type == "cuda")
    r = cfg.representation
    query = torch.full((batch, length), -1, dtype=torch.long)
    query[:, -r.tokens:] = torch.arange(r.tokens)
    data = LMBatch(torch.randint(0, 1024, (batch, length)), torch.ones(batch, length, dtype=torch.bool),
                   torch.zeros(batch, length, r.dim), torch.zeros(batch, length, dtype=torch.bool), query,
                   torch.tensor([[100, 102, 104, 106]] * batch), torch.arange(length - r.tokens, length)[None]
                   .expand(batch, -1).contiguous()).to(device)

    def step() -> None:
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
            logits, rep = model(data)
            loss = logits.float().logsumexp(-1).mean() + rep.float().pow(2).mean()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

    rate, _ = _rate(step, seconds, torch.cuda.synchronize if device.type == "cuda" else lambda: None)
    return rate * batch


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m studio.engines.mini.bench")
    parser.add_argument("--config", default="h200")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--batches", default="64,128,256")
    parser.add_argument("--render-episodes", type=int, default=160)
    parser.add_argument("--compile", action="store_true")
    parser.add_argument("--compile-modes", default="default",
                        help="torch.compile modes to time at the last batch size, comma-separated "
                             "(default, reduce-overhead: CUDA graphs, max-autotune-no-cudagraphs)")
    args = parser.parse_args(argv)
    config = load_train_config(named_config(args.config) if not args.config.endswith(".json") else args.config)
    print(f"render: {render_rate(config, args.render_episodes):.0f} clips/s", flush=True)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True
        print(torch.cuda.get_device_name(), flush=True)
    for batch in (int(b) for b in args.batches.split(",")):
        print(f"decoder batch {batch}: {decoder_rate(config, device, batch, args.seconds, False):.0f} clips/s",
              flush=True)
    if args.compile:
        batch = int(args.batches.split(",")[-1])
        for mode in args.compile_modes.split(","):
            rate = decoder_rate(config, device, batch, args.seconds, True, None if mode == "default" else mode)
            print(f"decoder compiled ({mode}) batch {batch}: {rate:.0f} clips/s", flush=True)
    print(f"lm batch 256: {lm_rate(config, device, 256, args.seconds):.0f} sequences/s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
