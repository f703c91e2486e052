"""Where does a checkpoint lose the motion? The judge's reading, stage by stage.

``kamishibai eval mini`` says how often the judge reads the instructed motion in generated
clips; this says which part of the path loses it, on one set of turns (held-out, or the
first episodes the decoder was trained on):

- ``truth``: the ground-truth clips (the judge's ceiling);
- ``autoencoder``: the clips encoded and decoded by the video autoencoder, the best any latent
  decoder can do (needs the training-only ``latent_encoder.safetensors``);
- ``autoencoder_noise0.2``, ``autoencoder_noise0.5``: the same latents with Gaussian noise of
  that share of the latent's spread added, and ``autoencoder_smoothed``: each latent frame
  averaged over 2 x 2 cells (what a prediction made under doubt looks like): how much a
  departure from true latents costs in the autoencoder's decoder alone;
- ``from_encoder``: decoded from the clip encoder's representation of the true clip, what the
  decoder was trained on (needs the training-only ``encoder.safetensors``);
- ``from_lm``: decoded from the LM's predicted representation, the engine's path;
- ``one_shot_t0.25`` ... : the decoder's single clean-canvas prediction from the true canvas
  mixed with noise at flow time t (0: noise, 1: the clip), given the LM's representation: how
  much noise the decoder can undo while keeping the motion. Reading these from the noisy
  end shows where a sampler starting from noise loses it.

Each row is the judge's motion / location / character / all-three accuracy.

``python -m studio.engines.mini.diagnose --checkpoints DIR [--split train|heldout]
[--episodes 20] [--steps 4] [--guidance 1]`` prints them as JSON (DIR holds ``mini/``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from studio.engines.mini import weights
from studio.engines.mini.canvas import from_canvas, to_canvas
from studio.engines.mini.data import Split, Turn
from studio.engines.mini.dataset import text_tensor, to_float
from studio.engines.mini.evaluate import decode_turns, judge_metrics, predict_episodes, read_clips
from studio.engines.mini.judge import Judge
from studio.engines.mini.report import load_held_out, measurement_parser
from studio.engines.mini.runtime import MiniRuntime, to_uint8
from studio.engines.mini.tokenizer import PAD

NOISE_TIMES = (0.25, 0.5, 0.75)
"""Flow times of the one-shot rows (the sampler's first steps lie below 0.25)."""

LATENT_NOISES = (0.2, 0.5)
"""Shares of the latent's spread added as noise in the autoencoder's robustness rows."""

READINGS = ("motion", "location", "character", "all")


def _load_optional(folder: Path, name: str, module: nn.Module, manifest: dict[str, Any]) -> nn.Module | None:
    """``module`` with the weights of ``folder/name``, or None when the checkpoint does not
    ship that (training-only) file."""
    if name not in manifest.get("files", {}) or not (folder / name).is_file():
        return None
    path = weights.verify_file(folder, name, manifest)
    weights.load_float_into(module, path)
    return module.eval()


def _reading(judge: Judge, clips: torch.Tensor, turns: Sequence[Turn]) -> dict[str, float]:
    metrics = judge_metrics(read_clips(judge, clips, torch.device("cpu")), turns, "judge")
    return {key: round(float(metrics[f"judge_{key}"]), 3) for key in READINGS}


@torch.no_grad()
def encoder_representations(runtime: MiniRuntime, encoder: nn.Module, turns: Sequence[Turn], clips: torch.Tensor,
                            batch: int = 16) -> np.ndarray:
    """The clip encoder's representation of each true clip (its action text and first frame)."""
    ids, valid = text_tensor([t.action_text for t in turns], runtime.vocab.encode, runtime.config.encoder.max_text,
                             runtime.vocab.id(PAD))
    out = [encoder(ids[s:s + batch], valid[s:s + batch], to_float(clips[s:s + batch, :1])[:, :, 0])
           for s in range(0, len(turns), batch)]
    return torch.cat(out).float().numpy()


@torch.no_grad()
def true_canvases(runtime: MiniRuntime, latent_encoder: nn.Module | None, clips: torch.Tensor,
                  batch: int = 8) -> torch.Tensor | None:
    """The decoder's target canvas for each clip (the normalised latent, or the pixels);
    None for a latent decoder whose autoencoder's encoder is not shipped."""
    if runtime.config.latent is None:
        return to_float(clips)
    if latent_encoder is None:
        return None
    latents = torch.cat([latent_encoder(to_float(clips[s:s + batch])) for s in range(0, clips.shape[0], batch)])
    return to_canvas(runtime.config, latents)


@torch.no_grad()
def to_clips(runtime: MiniRuntime, canvases: torch.Tensor, batch: int = 8) -> torch.Tensor:
    """uint8 clips from canvases (through the autoencoder's decoder for a latent decoder)."""
    if runtime.latent_decoder is None:
        return to_uint8(canvases.clamp(-1, 1))
    return torch.cat([to_uint8(runtime.latent_decoder(from_canvas(runtime.config, canvases[s:s + batch])))
                      for s in range(0, canvases.shape[0], batch)])


@torch.no_grad()
def one_shot(runtime: MiniRuntime, canvases: torch.Tensor, reps: np.ndarray, levels: Sequence[int], t: float,
             seed: int = 0, batch: int = 8) -> torch.Tensor:
    """The decoder's clean-canvas prediction from each true canvas noised to flow time ``t``."""
    generator = torch.Generator().manual_seed(seed)
    rep = torch.as_tensor(reps, dtype=torch.float32)
    level = torch.tensor(list(levels), dtype=torch.long)
    out = []
    for s in range(0, canvases.shape[0], batch):
        clean = canvases[s:s + batch]
        noise = torch.randn(clean.shape, generator=generator)
        noisy = t * clean + (1 - t) * noise
        out.append(runtime.decoder(noisy, torch.full((clean.shape[0],), t), level[s:s + batch], rep[s:s + batch]))
    return torch.cat(out)


def diagnose(checkpoints: Path, *, split: Split = Split.HELDOUT, episodes: int = 20, steps: int = 4,
             guidance: float = 1.0, seed: int | None = None, batch: int = 8,
             log: Callable[[str], None] = lambda _m: None) -> dict[str, Any]:
    cpu = torch.device("cpu")
    held = load_held_out(checkpoints, episodes=episodes, seed=seed, device=cpu, alt=False, log=log, split=split)
    runtime, evalset, judge = held.runtime, held.evalset, held.judge
    turns, clips = evalset.table.turns, evalset.clips
    folder = checkpoints / "mini"
    from studio.engines.mini.encoder import ClipEncoder
    from studio.engines.mini.latent_ae import Encoder, cell_average

    encoder = _load_optional(folder, weights.ENCODER, ClipEncoder(runtime.config), held.manifest)
    latent_encoder = None
    if runtime.config.latent is not None:
        latent_encoder = _load_optional(folder, weights.LATENT_ENCODER, Encoder(runtime.config.latent), held.manifest)
    seeds, rows = [t.seed for t in turns], {}
    rows["truth"] = _reading(judge, clips, turns)
    canvases = true_canvases(runtime, latent_encoder, clips)
    if canvases is not None and runtime.config.latent is not None:
        rows["autoencoder"] = _reading(judge, to_clips(runtime, canvases), turns)
        noise = torch.randn(canvases.shape, generator=torch.Generator().manual_seed(0))
        for share in LATENT_NOISES:
            rows[f"autoencoder_noise{share}"] = _reading(judge, to_clips(runtime, canvases + share * noise), turns)
        rows["autoencoder_smoothed"] = _reading(judge, to_clips(runtime, cell_average(canvases)), turns)
    outputs = predict_episodes(runtime, evalset.table)
    if encoder is not None:
        reps = encoder_representations(runtime, encoder, turns, clips)
        as_encoded = [dataclasses.replace(o, representation=rep) for o, rep in zip(outputs, reps, strict=True)]
        rows["from_encoder"] = _reading(judge, decode_turns(runtime, as_encoded, seeds, steps=steps, batch=batch,
                                                            guidance=guidance), turns)
        log("decoded from the clip encoder's representations")
    rows["from_lm"] = _reading(judge, decode_turns(runtime, outputs, seeds, steps=steps, batch=batch,
                                                   guidance=guidance), turns)
    log("decoded from the LM's representations")
    if canvases is not None:
        lm_reps = np.stack([o.representation for o in outputs])
        for t in NOISE_TIMES:
            predicted = one_shot(runtime, canvases, lm_reps, [o.level for o in outputs], t, batch=batch)
            rows[f"one_shot_t{t}"] = _reading(judge, to_clips(runtime, predicted), turns)
    return {"split": split.value, "turns": len(turns), "steps": steps, "guidance": guidance,
            "seed": held.seed, "readings": rows}


def main(argv: list[str] | None = None) -> int:
    parser = measurement_parser("python -m studio.engines.mini.diagnose",
                                "Where a mini checkpoint loses the motion, stage by stage.", episodes=20)
    parser.add_argument("--split", choices=[s.value for s in Split], default=Split.HELDOUT.value,
                        help="held-out episodes, or the first episodes the decoder was trained on")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    result = diagnose(args.checkpoints, split=Split(args.split), episodes=args.episodes, steps=args.steps,
                      guidance=args.guidance, seed=args.seed, log=print)
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
