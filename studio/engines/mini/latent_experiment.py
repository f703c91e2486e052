"""CPU experiment at reduced scale: does a small latent video autoencoder keep what the judge needs?

``python -m studio.engines.mini.latent_experiment prepare --out DATA`` renders sketch-world
episodes (the same file as ``experiment.py prepare``: clips of 17 frames area-downsampled to
the judge's 64 x 96, held-out combinations and templates, the character's occupancy grid,
labels). ``run --data DATA --out OUT.json --tflops N --variant JSON`` trains one autoencoder
(``latent.VideoAutoencoder``) to a fixed budget of training FLOPs (forward + backward, counted
by ``torch.utils.flop_counter`` on the first step, so runs compare at equal compute whatever
else the machine is doing) and scores the held-out clips' reconstructions: PSNR on the whole
clip and on the character's region, the shipped judge's accuracy on reconstructions against
its accuracy on the ground truth at the same size, how much the reconstructions change from
frame to frame against the ground truth, encode / decode seconds per clip on one thread, and
parameters.

Training reads random windows of ``crop_frames`` frames and ``crop_height`` x ``crop_width``
pixels (the network is convolutional and causal, so a window is a valid shorter clip); half
of the windows are placed on the character, so that its weighting has pixels to act on.

On a GPU lease (``--device cuda --minutes N``) the same run trains to a wall-clock budget in
bf16 autocast with the clips on the GPU, saves its weights and progress every few minutes
(``OUT.state.safetensors``, ``OUT.progress.json``) and resumes from them when started again;
``prepare --height 128 --width 192 --no-reps`` renders full-size clips for it.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F  # noqa: N812

from studio.engines.mini.config import LatentConfig, from_dict
from studio.engines.mini.dataset import to_float
from studio.engines.mini.latent_ae import (
    VideoAutoencoder,
    Windows,
    character_mask,
    parameter_count,
    reconstruction_loss,
)
from studio.engines.mini.research import (
    Budget,
    TrainingLog,
    accuracy,
    frame_changes,
    judge_readings,
    load_judge,
    psnr,
    train_to_budget,
)

__all__ = ["Variant", "character_mask", "main", "reconstruction_loss", "run", "variant_from_json"]


@dataclasses.dataclass
class Variant:
    """One autoencoder recipe: its shape and its training loss."""

    latent: LatentConfig = dataclasses.field(default_factory=LatentConfig)
    batch: int = 8
    lr: float = 2e-3
    warmup: int = 30
    loss: str = "l1"
    """Per-pixel reconstruction loss: ``l1`` or ``l2``."""
    temporal_weight: float = 0.0
    """Weight of the same loss on frame-to-frame differences (reconstruction's against the clip's)."""
    temporal_loss: str = ""
    """Loss on the frame differences: ``l1``, ``l2`` or empty (the same as ``loss``)."""
    fg_weight: float = 0.0
    """Extra weight on the character's region (pixel weight 1 + fg_weight inside it)."""
    latent_penalty: float = 1e-4
    """L2 on the latent: keeps its scale bounded for a generator (instead of a KL term)."""
    crop_frames: int = 9
    crop_height: int = 32
    crop_width: int = 48
    on_character: float = 0.5
    """Share of training windows centred on a cell the character occupies."""


def variant_from_json(text: str) -> Variant:
    fields = json.loads(text)
    latent = from_dict(LatentConfig, fields.pop("latent", {}))
    return Variant(latent=latent, **fields)


def _median_seconds(fn: Any, repeats: int) -> float:
    fn()
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return sorted(times)[len(times) // 2]


def speed(model: VideoAutoencoder, frames: int, height: int, width: int, repeats: int) -> dict[str, float]:
    """Encode / decode seconds of one clip (batch 1, current thread count) and their forward GFLOPs."""
    from torch.utils.flop_counter import FlopCounterMode

    clip = torch.zeros(1, 3, frames, height, width)
    with torch.no_grad():
        latent = model.encode(clip)
        counter = FlopCounterMode(display=False)
        with counter:
            model.encode(clip)
        encode_flops = counter.get_total_flops()
        counter = FlopCounterMode(display=False)
        with counter:
            model.decode(latent)
        decode_flops = counter.get_total_flops()
        return {"encode_s": round(_median_seconds(lambda: model.encode(clip), repeats), 4),
                "decode_s": round(_median_seconds(lambda: model.decode(latent), repeats), 4),
                "encode_gflops": round(encode_flops / 1e9, 3), "decode_gflops": round(decode_flops / 1e9, 3)}


def run(data_path: Path, variant: Variant, budget: Budget, out: Path, seed: int, speed_repeats: int = 5,
        full_size: tuple[int, int] | None = (128, 192), device: str = "cpu", checkpoint_minutes: float = 3.0
        ) -> dict[str, Any]:
    """Train one autoencoder to ``budget`` (resuming from ``OUT.state.safetensors`` when a
    previous call left one), then score it (:func:`evaluate`)."""
    from safetensors.torch import load_model, save_model

    chosen = torch.device(device)
    data = torch.load(data_path)
    train, held = data["train"], data["heldout"]
    torch.manual_seed(seed)
    model = VideoAutoencoder(variant.latent).to(chosen)
    state, progress_file = out.with_suffix(".state.safetensors"), out.with_suffix(".progress.json")
    done = TrainingLog()
    if state.is_file() and progress_file.is_file():
        load_model(model, str(state), device=str(chosen))
        done = TrainingLog(**json.loads(progress_file.read_text()))
        print(f"resuming at step {done.steps} ({done.seconds:.0f} s trained)", flush=True)
    params = list(model.parameters())
    optimizer = torch.optim.AdamW(params, lr=variant.lr, betas=(0.9, 0.99), weight_decay=0.01,
                                  fused=chosen.type == "cuda")
    generator = torch.Generator().manual_seed(seed * 1000 + done.steps)
    windows = Windows(train["clips"].to(chosen), train["occupancy"], variant, variant.batch, variant.latent.spatial,
                      generator)
    autocast = (torch.autocast("cuda", dtype=torch.bfloat16) if chosen.type == "cuda"
                else contextlib.nullcontext())

    def step_loss() -> torch.Tensor:
        clip, mask = windows.batch()
        with autocast:
            recon, latent = model(clip)
        return reconstruction_loss(variant, recon.float(), clip, mask, latent.float())

    def checkpoint(log: TrainingLog) -> None:
        save_model(model, str(state))  # diffusers' Downsample2D aliases its conv
        progress_file.write_text(json.dumps({"steps": log.steps, "seconds": log.seconds,
                                             "step_gflops": log.step_gflops, "losses": log.losses[-50:]}))

    log = train_to_budget(step_loss, params, optimizer, budget, lr=variant.lr, warmup=variant.warmup,
                          start_step=done.steps, spent_seconds=done.seconds, checkpoint=checkpoint,
                          checkpoint_minutes=checkpoint_minutes if chosen.type == "cuda" else 0.0,
                          synchronize=(lambda: torch.cuda.synchronize(chosen)) if chosen.type == "cuda" else None)
    log.losses = done.losses + log.losses
    training = log.to_json(seed=seed, tflops=budget.tflops, minutes=budget.minutes, device=str(chosen),
                           clips_seen=log.steps * variant.batch)
    return evaluate(model, variant, held, out, training, speed_repeats, full_size)


def evaluate(model: VideoAutoencoder, variant: Variant, held: dict[str, torch.Tensor], out: Path,
             training: dict[str, Any], speed_repeats: int = 5, full_size: tuple[int, int] | None = (128, 192)
             ) -> dict[str, Any]:
    """Score the held-out clips' reconstructions; write ``out`` (JSON), a sheet and the weights."""
    model.eval()
    device = next(model.parameters()).device
    gt = to_float(held["clips"])
    _n, _c, frames, height, width = gt.shape
    mask = character_mask(held["occupancy"], height, width) > 0.5
    recon_parts, latents = [], []
    with torch.no_grad():
        for s in range(0, gt.shape[0], 10):
            recon, latent = model(gt[s:s + 10].to(device))
            recon_parts.append(recon.clamp(-1, 1).float().cpu())
            latents.append(latent.float().cpu())
    recon = torch.cat(recon_parts)
    latent_all = torch.cat(latents)
    judge = load_judge(device)
    labels = held["labels"]
    truth_reading, recon_reading = judge_readings(judge, gt), judge_readings(judge, recon)
    change_gt, change_recon = frame_changes(gt), frame_changes(recon)
    fg_change_gt, fg_change_recon = frame_changes(gt, mask), frame_changes(recon, mask)
    result: dict[str, Any] = {
        "variant": json.loads(json.dumps(dataclasses.asdict(variant))), **training,
        "params_m": round(parameter_count(model) / 1e6, 4),
        "encoder_params_m": round(parameter_count(model.encoder) / 1e6, 4),
        "latent_shape": list(latent_all.shape[1:]), "clip_shape": list(gt.shape[1:]),
        "compression": round(gt[0].numel() / latent_all[0].numel(), 2),
        "latent_std": round(float(latent_all.std()), 4),
        "heldout_clips": gt.shape[0],
        "psnr": round(psnr(recon, gt), 3), "fg_psnr": round(psnr(recon, gt, mask.float()), 3),
        "judge_truth": accuracy(truth_reading, labels), "judge_recon": accuracy(recon_reading, labels),
        "judge_agreement": {h: round(float((truth_reading[h] == recon_reading[h]).float().mean()), 4)
                            for h in truth_reading},
        "frame_change": {"truth": round(float(change_gt.mean()), 5), "recon": round(float(change_recon.mean()), 5),
                         "ratio": round(float(change_recon.mean() / change_gt.mean()), 4),
                         "fg_truth": round(float(fg_change_gt.mean()), 5),
                         "fg_recon": round(float(fg_change_recon.mean()), 5),
                         "fg_ratio": round(float(fg_change_recon.mean() / fg_change_gt.mean()), 4)},
    }
    # frame-to-frame change inside a latent group (frames 4t+1..4t+4) against across groups
    span = variant.latent.temporal
    if span > 1 and frames > span:
        # diff index d is the change from frame d to d + 1; it crosses into the next latent when d % span == 0
        d_gt, d_rc = gt.diff(dim=2).abs(), recon.diff(dim=2).abs()
        for name, keep in (("inside_group", False), ("across_groups", True)):
            ds = [d for d in range(frames - 1) if (d % span == 0) == keep]
            result["frame_change"][f"ratio_{name}"] = round(float(d_rc[:, :, ds].mean() / d_gt[:, :, ds].mean()), 4)
    model = model.cpu()  # speed: one clip on this machine's CPU
    result["speed"] = speed(model, frames, height, width, speed_repeats) | {"threads": torch.get_num_threads()}
    if full_size is not None and full_size[0] % variant.latent.spatial == 0:
        result["speed_full_size"] = speed(model, 17, full_size[0], full_size[1], max(1, speed_repeats // 2))
    _save_sheet(gt[:4], recon[:4], out.with_suffix(".png"))
    out.write_text(json.dumps(result, indent=1))
    from safetensors.torch import save_model

    save_model(model, str(out.with_suffix(".safetensors")))  # diffusers' Downsample2D aliases its conv
    print(json.dumps(result), flush=True)
    return result


def naive_codecs(clips: torch.Tensor, spatial: int, temporal: int) -> dict[str, torch.Tensor]:
    """Untrained references for what the latent grid alone costs: area-downsampling by ``spatial``
    then bilinear upsampling (``blur``), each latent group's frames replaced by their mean
    (``hold``: frame 0 alone, then groups of ``temporal``), and both."""
    b, c, t, h, w = clips.shape
    flat = clips.transpose(1, 2).reshape(b * t, c, h, w)
    small = F.interpolate(flat, size=(h // spatial, w // spatial), mode="area")
    up = F.interpolate(small, size=(h, w), mode="bilinear", align_corners=False)
    blur = up.reshape(b, t, c, h, w).transpose(1, 2)

    def hold(x: torch.Tensor) -> torch.Tensor:
        groups = [x[:, :, :1]] + [x[:, :, s:s + temporal].mean(2, keepdim=True).expand(-1, -1, temporal, -1, -1)
                                  for s in range(1, t, temporal)]
        return torch.cat(groups, dim=2)[:, :, :t]

    return {"blur": blur, "hold": hold(clips), "blur_hold": hold(blur)}


def references(data_path: Path, out: Path, spatial: int, temporal: int) -> dict[str, Any]:
    """Judge, PSNR and frame change of the naive codecs on the held-out clips (no training)."""
    held = torch.load(data_path)["heldout"]
    gt = to_float(held["clips"])
    mask = character_mask(held["occupancy"], gt.shape[3], gt.shape[4]) > 0.5
    judge = load_judge()
    labels = held["labels"]
    truth = judge_readings(judge, gt)
    result: dict[str, Any] = {"spatial": spatial, "temporal": temporal, "judge_truth": accuracy(truth, labels)}
    for name, clips in naive_codecs(gt, spatial, temporal).items():
        reading = judge_readings(judge, clips)
        result[name] = {"psnr": round(psnr(clips, gt), 3), "fg_psnr": round(psnr(clips, gt, mask.float()), 3),
                        "judge": accuracy(reading, labels),
                        "motion_agreement": round(float((reading["motion"] == truth["motion"]).float().mean()), 4),
                        "frame_change_ratio": round(float(frame_changes(clips).mean() / frame_changes(gt).mean()), 4),
                        "fg_frame_change_ratio": round(float(frame_changes(clips, mask).mean()
                                                             / frame_changes(gt, mask).mean()), 4)}
    out.write_text(json.dumps(result, indent=1))
    print(json.dumps(result), flush=True)
    return result


def _save_sheet(truth: torch.Tensor, recon: torch.Tensor, path: Path) -> None:
    """Pairs of rows (ground truth, reconstruction), every other frame left to right, as a PNG."""
    from PIL import Image

    rows = torch.stack([truth[:, :, ::2], recon[:, :, ::2]], dim=1).flatten(0, 1)
    b, _c, t, h, w = rows.shape
    grid = ((rows.clamp(-1, 1) + 1) * 127.5).round().to(torch.uint8).permute(0, 3, 2, 4, 1).reshape(b * h, t * w, 3)
    Image.fromarray(grid.numpy()).save(path)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m studio.engines.mini.latent_experiment")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare", help="render the data file (the same as experiment.py prepare)")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--train", type=int, default=500)
    p.add_argument("--heldout", type=int, default=50)
    p.add_argument("--height", type=int, default=64)
    p.add_argument("--width", type=int, default=96)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--no-reps", action="store_true", help="skip the shipped encoder's representations")
    r = sub.add_parser("run")
    r.add_argument("--data", type=Path, required=True)
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--tflops", type=float, default=8.0, help="training compute budget (forward + backward)")
    r.add_argument("--minutes", type=float, default=0.0, help="a wall-clock budget instead (a GPU lease)")
    r.add_argument("--device", default="cpu", help="cpu, cuda or cuda:N (bf16 autocast on CUDA)")
    r.add_argument("--checkpoint-minutes", type=float, default=3.0, help="on CUDA: save the state this often")
    r.add_argument("--variant", default="{}", help="JSON: Variant fields, 'latent' a dict of LatentConfig fields")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--speed-repeats", type=int, default=5)
    r.add_argument("--no-full-size", action="store_true", help="skip timing the network at 128 x 192")
    f = sub.add_parser("reference", help="naive codecs (area-down + up, group means) as untrained references")
    f.add_argument("--data", type=Path, required=True)
    f.add_argument("--out", type=Path, required=True)
    f.add_argument("--spatial", type=int, default=4)
    f.add_argument("--temporal", type=int, default=4)
    e = sub.add_parser("score", help="score saved weights again (the run's evaluation, no training)")
    e.add_argument("--data", type=Path, required=True)
    e.add_argument("--weights", type=Path, required=True, help="a run's .safetensors (its .json gives the variant)")
    e.add_argument("--out", type=Path, required=True)
    e.add_argument("--speed-repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1, help="CPU threads (1: comparable timings when shared)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    if args.command == "prepare":
        from studio.engines.mini.experiment import prepare

        prepare(args.out, args.train, args.heldout, args.height, args.width, args.workers, with_reps=not args.no_reps)
    elif args.command == "reference":
        references(args.data, args.out, args.spatial, args.temporal)
    elif args.command == "score":
        from safetensors.torch import load_model

        previous = json.loads(args.weights.with_suffix(".json").read_text())
        variant = variant_from_json(json.dumps(previous["variant"]))
        model = VideoAutoencoder(variant.latent)
        load_model(model, str(args.weights))
        training = {k: previous[k] for k in ("seed", "tflops", "steps", "step_gflops", "train_seconds", "final_loss")}
        evaluate(model, variant, torch.load(args.data)["heldout"], args.out, training, args.speed_repeats)
    else:
        budget = Budget(minutes=args.minutes) if args.minutes > 0 else Budget(tflops=args.tflops)
        run(args.data, variant_from_json(args.variant), budget, args.out, args.seed, args.speed_repeats,
            None if args.no_full_size else (128, 192), device=args.device, checkpoint_minutes=args.checkpoint_minutes)


if __name__ == "__main__":
    main()
