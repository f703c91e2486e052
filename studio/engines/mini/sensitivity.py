"""Does a checkpoint's decoder draw the motion it is asked for?

The judge reads the motion of generated clips far less often than that of ground-truth ones,
while probes read it at 0.99 from the representation the decoder receives
(docs/mini/TRAINING_LOG.md, "CPU experiments, motion"). This measures, on held-out turns, how
the decoder's clips answer its motion conditioning:

- each turn is decoded twice with the same noise: with its own representation and level, and
  with the motion part of another turn's (the representation's text tokens and the motion level)
  whose motion differs; ``swap_change`` is the mean absolute change between the two clips,
  beside ``frame_change``, how much a generated clip changes from one frame to the next;
- the judge reads both: ``motion_own`` is its accuracy on the turn's own motion,
  ``swapped_read_as_partner`` how often it reads the swapped clip as the partner's motion;
- ``movement_correlation``: does a generated clip move as much as its ground truth does
  (Pearson correlation over the turns of the mean frame-to-frame change).

``python -m studio.engines.mini.sensitivity --checkpoints DIR [--episodes 40] [--steps 4]``
prints the numbers as JSON (DIR holds ``mini/``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from studio.engines.mini.data import MOTION_NAMES
from studio.engines.mini.evaluate import decode_turns, predict_episodes, read_clips
from studio.engines.mini.report import load_held_out, measurement_parser


def partners(motions: Sequence[str]) -> list[int]:
    """For each turn, the next turn (cyclically) whose motion differs; itself when all agree."""
    count = len(motions)
    chosen = []
    for i, motion in enumerate(motions):
        j = next((k % count for k in range(i + 1, i + count) if motions[k % count] != motion), i)
        chosen.append(j)
    return chosen


def frame_change(clips: torch.Tensor) -> np.ndarray:
    """Each uint8 clip's (N, T, H, W, 3) mean absolute change from one frame to the next, in [0, 1]."""
    x = clips.float() / 255.0
    return (x[:, 1:] - x[:, :-1]).abs().mean(dim=(1, 2, 3, 4)).numpy()


def measure(checkpoints: Path, *, episodes: int = 40, steps: int = 4, guidance: float = 1.0,
            seed: int | None = None, batch: int = 8, log: Callable[[str], None] = lambda _m: None) -> dict[str, Any]:
    cpu = torch.device("cpu")
    held = load_held_out(checkpoints, episodes=episodes, seed=seed, device=cpu, alt=False, log=log)
    runtime, evalset = held.runtime, held.evalset
    turns = evalset.table.turns
    outputs = predict_episodes(runtime, evalset.table)
    partner = partners([t.motion for t in turns])
    text_tokens = runtime.config.representation.text_tokens
    swapped = [dataclasses.replace(out, level=outputs[j].level, representation=np.concatenate(
        [outputs[j].representation[:text_tokens], out.representation[text_tokens:]]))
        for out, j in zip(outputs, partner, strict=True)]
    seeds = [t.seed for t in turns]
    own = decode_turns(runtime, outputs, seeds, steps=steps, batch=batch, guidance=guidance)
    log(f"decoded {len(turns)} clips with their own motion")
    other = decode_turns(runtime, swapped, seeds, steps=steps, batch=batch, guidance=guidance)
    log(f"decoded {len(turns)} clips with another turn's motion")
    truth_motion = np.array([MOTION_NAMES.index(t.motion) for t in turns])
    read_own = read_clips(held.judge, own, cpu).predictions["motion"]
    read_other = read_clips(held.judge, other, cpu).predictions["motion"]
    generated_change, truth_change = frame_change(own), frame_change(evalset.clips)
    correlation = float(np.corrcoef(generated_change, truth_change)[0, 1]) if len(turns) > 2 else float("nan")
    return {
        "turns": len(turns), "steps": steps, "guidance": guidance, "held_out_seed": held.seed,
        "swap_change": float((own.float() - other.float()).abs().mean() / 255.0),
        "frame_change_generated": float(generated_change.mean()),
        "frame_change_truth": float(truth_change.mean()),
        "motion_own": float((read_own == truth_motion).mean()),
        "swapped_read_as_partner": float((read_other == truth_motion[partner]).mean()),
        "swapped_read_as_own": float((read_other == truth_motion).mean()),
        "movement_correlation": correlation,
    }


def main(argv: list[str] | None = None) -> int:
    parser = measurement_parser("python -m studio.engines.mini.sensitivity",
                                "How a mini checkpoint's clips answer their motion conditioning.", episodes=40)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    result = measure(args.checkpoints, episodes=args.episodes, steps=args.steps, guidance=args.guidance,
                     seed=args.seed, log=print)
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
