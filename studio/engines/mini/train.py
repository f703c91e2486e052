"""Train the mini model from scratch: ``python -m studio.engines.mini.train --config h200 --out RUN``.

AnimeGamer's stages, each resumable:

0. ``autoencoder``: only when the model has a ``latent``: the latent video autoencoder on
   random windows of the training clips; every training clip is then encoded once into a
   latent table, whose standard deviation becomes the model's ``latent_scale`` (or, with
   ``decoder.channel_norm``, each channel's mean and spread: ``latent_mean`` / ``latent_std``),
   and the decoder stages train the DiT on the normalised latent (:mod:`.canvas`) instead of pixels (skipped,
   marked done, for a pixel decoder);
   ``critic``: only when the config gives it steps: the motion critic (:mod:`.critic`) on
   the training clips' latents, a training signal for the decoder stages (never shipped:
   a run started from an exported checkpoint trains it again, in about a minute);
1. ``decoder``: the clip encoder and the video decoder together, the decoder learning to
   make a clip from the encoder's representation of it (and the motion level);
2. ``judge``: the evaluation classifier, on ground-truth sketch clips only (it never sees
   a generated clip);
3. ``lm``: the LM on the branches, predicting the state tokens and the encoder's
   representations (frozen encoder);
4. ``adapt``: the decoder again, now on the LM's predicted representations;
5. ``distill``: only when the config gives it steps: the decoder learns to make in a few
   sampling steps what the adapted decoder makes in many (``distill.py``);
6. ``eval``: the held-out evaluation (``evaluate.py``).

Every random choice comes from the config's seeds. A run keeps its full state under
``RUN/state`` (fp32 weights and ``run.json``) and resumes from it; ``--export DIR``
also writes the shippable fp16 checkpoint there every few minutes (``--init DIR`` starts
from such a checkpoint on another machine). ``--minutes`` caps this invocation's wall time
so that a GPU lease of 10 minutes always returns weights.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import math
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

from studio.engines.mini import weights
from studio.engines.mini.adversary import Adversary, Discriminator
from studio.engines.mini.canvas import channel_stats, from_canvas, to_canvas
from studio.engines.mini.config import StageConfig, TrainConfig, load_train_config, named_config, to_dict
from studio.engines.mini.critic import CriticTerm, MotionCritic
from studio.engines.mini.critic import accuracy as critic_accuracy
from studio.engines.mini.critic import training_loss as critic_training_loss
from studio.engines.mini.data import MOTION_NAMES, Split, Turn, turn_labels
from studio.engines.mini.dataset import (
    ClipFiller,
    ClipSet,
    EpisodePool,
    cache_key,
    gather,
    read_text_cache,
    to_float,
    write_text_cache,
)
from studio.engines.mini.decoder import ADDED_PARTS, VideoDiT, block_count, flow_loss, interpolate_weight
from studio.engines.mini.decoders import DecoderNet, build_decoder
from studio.engines.mini.encoder import ClipEncoder
from studio.engines.mini.judge import HEADS, Judge
from studio.engines.mini.latent_ae import (
    VideoAutoencoder,
    Windows,
    cell_average,
    character_mask,
    encode_clips,
    reconstruction_loss,
)
from studio.engines.mini.lm import MiniLM, collate, collate_all, noisy_instruction
from studio.engines.mini.motion_focus import (
    MotionFocus,
    critic_rows,
    describe,
    measure,
    reader_rows,
    weights_from_accuracy,
)
from studio.engines.mini.runtime import MiniRuntime
from studio.engines.mini.sequence import LMInput, PastTurn, build_input
from studio.engines.mini.tokenizer import INSTR, PAD, UNK, Vocab, corpus, train_tokenizer
from studio.engines.mini.unet import VideoUNet

STAGES = ("autoencoder", "critic", "decoder", "judge", "lm", "adapt", "distill", "polish", "eval")
_SEED_INDEX = {"decoder": 0, "judge": 1, "lm": 2, "adapt": 3, "eval": 4, "autoencoder": 5, "distill": 6, "critic": 7,
               "polish": 8}
"""Each stage's share of the random streams: the first stages' numbers, kept when the
autoencoder stage came first, so that a pixel run draws what it drew before."""


@dataclass
class StageState:
    steps: int = 0
    done: bool = False
    seconds: float = 0.0
    loss: float = float("nan")


@dataclass
class RunState:
    stages: dict[str, StageState] = field(default_factory=lambda: {s: StageState() for s in STAGES})
    metrics: dict[str, Any] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)
    latent_scale: float | None = None
    """The standard deviation of the trained autoencoder's latents over the training clips
    (None: not measured yet, or no latent)."""
    latent_mean: list[float] | None = None
    latent_std: list[float] | None = None
    """Each latent channel's mean and spread (``decoder.channel_norm``; None: not measured)."""

    def to_json(self) -> dict[str, Any]:
        return {"stages": {k: vars(v) for k, v in self.stages.items()}, "metrics": self.metrics,
                "history": self.history[-400:], "latent_scale": self.latent_scale,
                "latent_mean": self.latent_mean, "latent_std": self.latent_std}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunState:
        state = cls()
        for name, values in data.get("stages", {}).items():
            if name in state.stages:
                state.stages[name] = StageState(**values)
        state.metrics = dict(data.get("metrics", {}))
        state.history = list(data.get("history", []))
        scale = data.get("latent_scale")
        state.latent_scale = float(scale) if scale is not None else None
        for name in ("latent_mean", "latent_std"):
            values = data.get(name)
            setattr(state, name, [float(v) for v in values] if values else None)
        return state


class Budget:
    """This invocation's wall-clock budget."""

    def __init__(self, minutes: float) -> None:
        self.start = time.monotonic()
        self.seconds = minutes * 60 if minutes > 0 else math.inf

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def left(self) -> float:
        return self.seconds - self.elapsed()


class StageClock:
    """A stage's training time against its cap, across invocations.

    The first step of each invocation is not counted: on a GPU it compiles the model (about a
    minute for the decoder, more for the distillation's teacher and student), so a stage capped
    at one minute would otherwise spend its whole minute compiling and train for a few steps."""

    def __init__(self, seconds_before: float, now: Callable[[], float] = time.monotonic) -> None:
        self.now = now
        self.seconds_before = seconds_before
        self.started = now()
        self.first_step_seconds: float | None = None

    def first_step_done(self) -> float:
        """Mark the end of this invocation's first step; returns how long it took."""
        if self.first_step_seconds is None:
            self.first_step_seconds = self.now() - self.started
        return self.first_step_seconds

    def spent(self) -> float:
        """Seconds of the stage so far, this invocation's first step left out."""
        return self.seconds_before + self.now() - self.started - (self.first_step_seconds or 0.0)


def schedule(stage: StageConfig, step: int, progress: float) -> float:
    """Linear warm-up (counted from where this invocation started: the optimiser's moments are
    new), then cosine down to a tenth over the stage's progress (steps or time)."""
    warm = min(1.0, (step + 1) / max(1, stage.warmup))
    return stage.lr * warm * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, progress))))


class EMA:
    """An exponential moving average of a module's weights, with a warm-up: the n-th update
    averages with weight at most (1 + n) / (10 + n), so that a short run is not mostly its
    initial weights."""

    def __init__(self, module: nn.Module, decay: float) -> None:
        self.module = copy.deepcopy(module).eval().requires_grad_(False)
        self.decay = decay
        self.updates = 0

    @torch.no_grad()
    def update(self, module: nn.Module) -> None:
        decay = min(self.decay, (1 + self.updates) / (10 + self.updates))
        self.updates += 1
        ema: list[torch.Tensor] = list(self.module.parameters())
        live: list[torch.Tensor] = [p.detach() for p in module.parameters()]
        torch._foreach_lerp_(ema, live, 1 - decay)


class Trainer:
    def __init__(self, config: TrainConfig, out: Path, device: torch.device, budget: Budget,
                 export: Path | None = None, init: Path | None = None, cache: Path | None = None,
                 log: Callable[[str], None] = print, restart: tuple[str, ...] = (),
                 stages: tuple[str, ...] = STAGES) -> None:
        if config.model.latent is not None and not config.render_before_training:
            raise ValueError("a latent decoder trains on a latent table of every training clip, encoded once "
                             "after the autoencoder stage: set render_before_training to true in the config "
                             "(clips rendered in the background would arrive unencoded)")
        self.config = config
        self.restart = restart  # stages trained again from their start after --init (lm: a new LM)
        self.stages = stages  # the stages this invocation runs
        self.cache = cache
        self.filling: threading.Thread | None = None
        self.filler: ClipFiller | None = None
        self.pool: EpisodePool | None = None
        self._compiled: nn.Module | None = None
        self.paused: str | None = None
        """The stage this invocation's budget paused; the stages after it wait for the next one."""
        self._examples: tuple[list[LMInput], torch.Tensor] | None = None
        self._aux_labels = torch.zeros(0, 4, dtype=torch.long)
        self.fill_error: BaseException | None = None
        self.out = out
        self.state_dir = out / "state"
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self.export_dir = export
        self.init = init
        self.device = device
        self.budget = budget
        self._log = log
        self.run = RunState()
        self.vocab: Vocab | None = None
        self.train: ClipSet | None = None
        self.text: ClipSet | None = None
        self.eval: ClipSet | None = None
        self.encoder: ClipEncoder | None = None
        self.encoder_aux: nn.Linear | None = None
        self.decoder: DecoderNet | None = None
        self.decoder_ema: EMA | None = None
        self.lm: MiniLM | None = None
        self.judge: Judge | None = None
        self.autoencoder: VideoAutoencoder | None = None
        self.critic: MotionCritic | None = None
        self.discriminator: Discriminator | None = None
        """The distillation's adversary (``config.adversary``), when its balance is above 0."""
        self.latents: torch.Tensor | None = None
        """The latent table: every training clip's latent (bf16 on a GPU), made after the autoencoder stage."""
        self.last_checkpoint = time.monotonic()
        self.samples: torch.Tensor | None = None
        self.source: Path | None = None
        self.teacher_back = False
        """A reopened decoder or adapt stage takes the distillation teacher's weights back."""
        self.focus: MotionFocus | None = None
        self._focus_rows: torch.Tensor | None = None

    # -- logging and state ----------------------------------------------------------------------------
    def log(self, message: str, **values: Any) -> None:
        stamp = f"[{self.budget.elapsed():7.1f}s]"
        if values:
            entry = {"t": round(self.budget.elapsed(), 1), "msg": message, **values}
            self.run.history.append(entry)
            message = f"{message} " + " ".join(f"{k}={_short(v)}" for k, v in values.items())
        self._log(f"{stamp} {message}")

    def autocast(self) -> AbstractContextManager[Any]:
        if self.device.type == "cuda":
            return torch.autocast("cuda", dtype=torch.bfloat16)
        return nullcontext()

    def save_state(self) -> None:
        """Full fp32 state for resuming on this machine."""
        parts: dict[str, nn.Module | None] = {
            "encoder": self.encoder, "decoder": self.decoder,
            "decoder_ema": self.decoder_ema.module if self.decoder_ema else None, "lm": self.lm, "judge": self.judge,
            "encoder_aux": self.encoder_aux, "autoencoder": self.autoencoder, "critic": self.critic,
            "discriminator": self.discriminator}
        for name, module in parts.items():
            if module is not None:
                _save_module(module, self.state_dir / f"{name}.safetensors")
        (self.state_dir / "run.json").write_text(json.dumps(self.run.to_json(), indent=1, default=_plain))
        (self.state_dir / "identity.json").write_text(json.dumps(run_identity(self.config), indent=1, default=_plain))
        self.export()
        self.last_checkpoint = time.monotonic()

    def export(self) -> None:
        """The shippable fp16 checkpoint (and a sample sheet) in the export folder."""
        if self.export_dir is None or self.vocab is None:
            return
        training = {"config": to_dict(self.config), "run": self.run.to_json()}
        decoder = self.decoder_ema.module if self.decoder_ema else self.decoder
        model, critic = self.config.model, None
        if self.critic is not None and self.run.stages["critic"].done:  # the engine picks candidates with it
            model, critic = dataclasses.replace(model, critic=tuple(self.config.critic.widths)), self.critic
        weights.save_checkpoint(self.export_dir, model, self.vocab.tokenizer.to_str(), lm=self.lm,
                                decoder=decoder, encoder=self.encoder, judge=self.judge, autoencoder=self.autoencoder,
                                critic=critic, training=training, int8_blocks=self.config.int8_decoder_blocks,
                                int8_lm=self.config.int8_lm)
        if self.samples is not None:
            save_sheet(self.samples, self.export_dir / "samples.png")
        self.log(f"exported to {self.export_dir}")

    def maybe_checkpoint(self) -> None:
        if time.monotonic() - self.last_checkpoint > self.config.checkpoint_minutes * 60:
            self.save_state()

    def _load_module(self, module: nn.Module, name: str, folder: Path) -> bool:
        path = folder / name
        if not path.is_file():
            return False
        weights.load_float_into(module, path)
        return True

    def restore_state(self) -> None:
        """The run's progress: from this run's state folder, else from ``--init`` (an exported
        checkpoint of another machine's run), else a fresh start."""
        run_file = self.state_dir / "run.json"
        if run_file.is_file():
            check_same_run(self.state_dir / "identity.json", self.config)
            self.run = RunState.from_json(json.loads(run_file.read_text()))
            self.reopen()
            self.source = self.state_dir
            self.log("resuming", stages={k: v.steps for k, v in self.run.stages.items()})
        elif self.init is not None:
            manifest = weights.read_manifest(self.init)
            self.run = RunState.from_json(manifest.get("training", {}).get("run", {}))
            self.run.stages["eval"] = StageState()
            self.run.stages["critic"] = StageState()  # never exported: trained again
            for name in self.restart:
                self.run.stages[name] = StageState()
            distilled = self.run.stages["distill"]
            if distilled.steps > 0 and (not distilled.done or (set(self.restart) | self.teacher_trains_on())
                                        & {"autoencoder", "decoder", "adapt"}):
                # an export keeps the student, not its teacher: the distillation starts again from it
                self.run.stages["distill"] = StageState()
                self.log("stage distill starts again: its teacher is not in the --init checkpoint; the exported "
                         "(distilled) decoder takes its place")
            self._polish_again(set(self.restart))
            if "autoencoder" in self.restart:
                self.forget_latent_stats()  # measured again on the new autoencoder's latents
            self.reopen()
            self.source = self.init
            self.log("starting from", folder=str(self.init), stages={k: v.steps for k, v in self.run.stages.items()})
        else:
            self.source = None
        if self.run.latent_scale is not None:
            self.set_latent_scale(self.run.latent_scale)
        if self.run.latent_std is not None and not self.config.model.decoder.channel_norm:
            if self.run.stages["decoder"].steps > 0:
                raise ValueError("decoder.channel_norm: the decoder of --init was trained on each latent channel's own "
                                 "mean and spread; keep decoder.channel_norm true in the config, or train it again "
                                 "(--restart decoder,adapt,distill)")
            self.run.latent_mean = self.run.latent_std = None  # a decoder trained anew under one spread
        if self.config.model.decoder.channel_norm and self.run.latent_std is not None:
            self.set_channel_stats(self.run.latent_mean or [0.0] * len(self.run.latent_std), self.run.latent_std)

    def set_latent_scale(self, scale: float) -> None:
        """Keep the latents' scale in the run state and in the model config (the export's)."""
        self.run.latent_scale = scale
        self.config = dataclasses.replace(self.config, model=dataclasses.replace(self.config.model, latent_scale=scale))

    def set_channel_stats(self, mean: Sequence[float], std: Sequence[float]) -> None:
        """Keep each latent channel's mean and spread in the run state and the model config."""
        self.run.latent_mean, self.run.latent_std = list(mean), list(std)
        model = dataclasses.replace(self.config.model, latent_mean=tuple(mean), latent_std=tuple(std))
        self.config = dataclasses.replace(self.config, model=model)

    def forget_latent_stats(self) -> None:
        """A new latent space: its scale (and channel statistics) are measured again."""
        self.run.latent_scale = None
        self.run.latent_mean = self.run.latent_std = None

    def reopen(self) -> None:
        """Stages that ended at a time cap the config has since raised go on training (the
        way a run continues over several GPU leases); the evaluation then runs again."""
        configs = {"autoencoder": self.config.autoencoder_stage, "decoder": self.config.decoder_stage,
                   "judge": self.config.judge_stage,
                   "lm": self.config.lm_stage, "adapt": self.config.adapt_stage,
                   "distill": self.config.distill_stage, "polish": self.config.polish_stage}
        reopened = set()
        for name, stage in configs.items():
            st = self.run.stages[name]
            if st.done and st.steps < stage.steps and stage.minutes > 0 and st.seconds < stage.minutes * 60 - 5:
                st.done = False
                reopened.add(name)
                self.run.stages["eval"] = StageState()
                self.log(f"stage {name} continues", minutes_done=round(st.seconds / 60, 2), cap=stage.minutes)
        trains_on = reopened | self.teacher_trains_on()
        if trains_on & {"autoencoder", "decoder"} and self.run.stages["adapt"].steps > 0:
            # the adaptation fine-tunes the decoder as it was: it runs again after the decoder
            self.run.stages["adapt"] = StageState()
            self.run.stages["eval"] = StageState()
            self.log("stage adapt starts again after the decoder trains on")
        if trains_on & {"autoencoder", "decoder", "adapt"} and self.run.stages["distill"].steps > 0:
            # the decoder and its average hold the student: the teacher's weights come back
            # (build_modules) and train on, and the distillation starts again after them
            self.run.stages["distill"] = StageState()
            self.run.stages["eval"] = StageState()
            self.teacher_back = True
            self.log("stage distill starts again after its teacher trains on")
        self._polish_again(trains_on | ({"distill"} if "distill" in reopened else set()))

    def _polish_again(self, trains_on: set[str]) -> None:
        """The polish stage tunes the autoencoder's decoder to the video decoder as it is: after
        either trains on, it starts again (from the tuned weights, which the autoencoder stage
        replaces when it trains)."""
        if trains_on & {"autoencoder", "decoder", "adapt", "distill"} and self.run.stages["polish"].steps > 0:
            self.run.stages["polish"] = StageState()
            self.run.stages["eval"] = StageState()
            self.log("stage polish starts again after the video decoder trains on")

    def teacher_trains_on(self) -> set[str]:
        """The stages before the distillation that this invocation trains further: unfinished
        (a run paused there, or a checkpoint distilled from a decoder whose stage had time
        left) and asked for. Their new weights make any earlier distillation stale."""
        return {name for name in ("autoencoder", "decoder", "adapt")
                if name in self.stages and not self.run.stages[name].done}

    def distills(self) -> bool:
        return self.config.distill_stage.steps > 0

    def build_modules(self) -> None:
        """The networks, with the weights of the run being resumed."""
        cfg = self.config.model
        self.encoder = ClipEncoder(cfg).to(self.device)
        self.decoder = build_decoder(cfg).to(self.device)
        self.lm = MiniLM(cfg).to(self.device)
        self.judge = Judge(cfg.judge).to(self.device)
        if cfg.latent is not None:
            self.autoencoder = VideoAutoencoder(cfg.latent).to(self.device)
        if self.config.encoder_motion_loss > 0:
            self.encoder_aux = nn.Linear(cfg.representation.dim, len(MOTION_NAMES) + 5).to(self.device)
        if self.config.critic_stage.steps > 0:
            self.critic = MotionCritic(cfg.canvas()[0], self.config.critic.widths, len(MOTION_NAMES)).to(self.device)
        if self.config.adversary.balance > 0 and self.adversary_stages():
            if cfg.latent is None:
                raise ValueError("the distillation's adversary reads latent canvases: this config's decoder "
                                 "makes pixels")
            with torch.random.fork_rng(devices=[]):  # the stages before it draw what they drew without it
                torch.manual_seed(self.config.seed * 1000 + 931)
                self.discriminator = Discriminator(cfg.canvas()[0], self.config.adversary.widths, len(MOTION_NAMES),
                                                   first_frame=self.config.adversary.first_frame).to(self.device)
        source = self.source
        if source is None:
            self.decoder_ema = EMA(self.decoder, self.config.decoder_stage.ema)
            return
        if source == self.state_dir:
            for name in ("encoder", "decoder", "lm", "judge", "encoder_aux", "autoencoder", "critic", "discriminator"):
                if getattr(self, name) is not None:
                    self._load_module(getattr(self, name), f"{name}.safetensors", source)
            self.decoder_ema = EMA(self.decoder, self.config.decoder_stage.ema)
            self._load_module(self.decoder_ema.module, "decoder_ema.safetensors", source)
            teacher = source / "distill_teacher.safetensors"
            if self.teacher_back and teacher.is_file():
                self._load_module(self.decoder, teacher.name, source)
                self._load_module(self.decoder_ema.module, teacher.name, source)
                teacher.unlink()
            return
        self._load_module(self.encoder, weights.ENCODER, source)
        if "lm" not in self.restart:
            self._load_module(self.lm, weights.LM, source)
        self._load_module(self.judge, weights.JUDGE, source)
        same_canvas = self._init_canvas_fits(source)
        if self.autoencoder is not None and same_canvas:  # restarted, it trains on from these weights
            self._load_module(self.autoencoder.encoder, weights.LATENT_ENCODER, source)
            self._load_module(self.autoencoder.decoder, weights.LATENT_DECODER, source)
        state: dict[str, torch.Tensor] = {}
        for name in (weights.DECODER, weights.DECODER_IO):
            if same_canvas and self._init_decoder_fits(source) and (source / name).is_file():
                state.update(weights.load_tensors(source / name))
        if state and isinstance(self.decoder, VideoUNet):
            weights.load_into(self.decoder, {k: v.float() for k, v in state.items()}, source / weights.DECODER)
        elif state:
            # parts a newer config adds start as the module made them (zero-initialised no-ops),
            # and so do the blocks of a deeper config (appended, then made identities)
            theirs, ours = block_count(state), self.config.model.decoder.layers
            grown = tuple(f"blocks.{index}." for index in range(theirs, ours))
            added = {k: v for k, v in self.decoder.state_dict().items()
                     if k.startswith(ADDED_PARTS + grown) and k not in state}
            weights.load_into(self.decoder, {**added, **{k: v.float() for k, v in state.items()}},
                              source / weights.DECODER)
            if grown:
                assert isinstance(self.decoder, VideoDiT)
                self.decoder.make_blocks_identity(range(theirs, ours))
                self.log("decoder grown", blocks_before=theirs, blocks=ours)
        self.decoder_ema = EMA(self.decoder, self.config.decoder_stage.ema)

    def _init_decoder_fits(self, source: Path) -> bool:
        """Whether the ``--init`` checkpoint's decoder is of this config's kind (a DiT's weights
        don't fit a U-Net). If not, it is not loaded, and its stages must be restarted."""
        theirs = weights.model_config(weights.read_manifest(source), source).decoder.kind
        if theirs == self.config.model.decoder.kind:
            return True
        stale = [s for s in ("decoder", "adapt") if s not in self.restart]
        if stale:
            raise ValueError(f"{source}'s decoder is a {theirs}, this config's a {self.config.model.decoder.kind}: "
                             f"add {','.join(stale)} to --restart")
        self.log("the decoder starts anew: the --init checkpoint's is of another kind", kind=theirs)
        return False

    def _init_canvas_fits(self, source: Path) -> bool:
        """Whether the ``--init`` checkpoint's decoder works on this config's canvas (the same
        latent, or pixels in both). If not, its decoder and autoencoder are not loaded, and the
        stages that train them must be restarted."""
        theirs = weights.model_config(weights.read_manifest(source), source).latent
        if theirs == self.config.model.latent:
            return True
        stale = [s for s in ("autoencoder", "decoder", "adapt")
                 if s not in self.restart and (s != "autoencoder" or self.config.model.latent is not None)]
        if stale:
            raise ValueError(f"{source}'s decoder works on another canvas ({'a latent' if theirs else 'pixels'}) "
                             f"than this config's: add {','.join(stale)} to --restart")
        self.log("the decoder starts anew: the --init checkpoint's works on another canvas")
        return False

    # -- data -----------------------------------------------------------------------------------------
    def text_episodes(self, pool: EpisodePool) -> ClipSet:
        """The unrendered episodes (LM state targets, the tokenizer's corpus), from the cache
        folder when it holds them (they are the same on every machine)."""
        data, video = self.config.data, self.config.model.video
        start = data.train_episodes
        key = cache_key(data, video, Split.TRAIN, start, data.text_episodes)
        path = self.cache / f"{key}.jsonl.gz" if self.cache is not None else None
        if path is not None and path.is_file():
            clipset = read_text_cache(path)
            self.log("text episodes from the cache", file=path.name, turns=len(clipset.table))
            return clipset
        clipset = gather(pool.episodes(data, video, Split.TRAIN, range(start, start + data.text_episodes),
                                       render=False), data.text_episodes, data.turns, video, torch.device("cpu"),
                         rendered=False)
        if path is not None:
            write_text_cache(path, clipset)
            self.log("wrote the text-episode cache", file=str(path))
        return clipset

    def make_data(self, pool: EpisodePool) -> None:
        """Text episodes and the tokenizer, the held-out set, then the training clips, which
        keep arriving in the background while the decoder trains on those already there."""
        cfg = self.config
        data, video = cfg.data, cfg.model.video
        started = time.monotonic()
        self.text = self.text_episodes(pool)
        tokenizer_file = self.state_dir / "tokenizer.json"
        if self.init is not None and (self.init / weights.TOKENIZER).is_file() and not tokenizer_file.is_file():
            tokenizer_file.write_text((self.init / weights.TOKENIZER).read_text())
        if tokenizer_file.is_file():
            self.vocab = Vocab.load(tokenizer_file)
        else:
            self.vocab = Vocab(train_tokenizer(corpus([t.text for t in self.text.table.turns]), cfg.model.vocab_size))
            self.vocab.save(tokenizer_file)
        if self.vocab.size != cfg.model.vocab_size:  # a small corpus can stop short of the size asked for
            self.log("tokenizer size", asked=cfg.model.vocab_size, trained=self.vocab.size)
            self.config = dataclasses.replace(cfg, model=dataclasses.replace(cfg.model, vocab_size=self.vocab.size))
        self.eval = gather(pool.episodes(data, video, Split.HELDOUT, range(data.eval_episodes), render=True,
                                         alt=True), data.eval_episodes, data.turns, video, torch.device("cpu"),
                           rendered=True, alt=True)
        self.log("held-out episodes ready", turns=len(self.eval.table), seconds=round(time.monotonic() - started, 1))
        clip_stages = ["autoencoder", "decoder", "judge", "lm", "adapt"]
        clip_stages += ["distill"] if self.distills() else []
        clip_stages += ["critic"] if "critic" in self.stages else []  # never exported: undone after --init
        clip_stages += ["polish"] if cfg.polish_stage.steps > 0 and "polish" in self.stages else []
        need_clips = not all(self.run.stages[s].done for s in clip_stages)
        clip_device = self.device if self.device.type == "cuda" else torch.device("cpu")
        rendered = min(data.train_episodes, cfg.rendered_episodes or data.train_episodes)
        capacity = rendered * data.turns
        enc = cfg.model.encoder
        self.text_ids = torch.full((capacity, enc.max_text), self.vocab.id(PAD), dtype=torch.long, device=clip_device)
        self.text_valid = torch.zeros((capacity, enc.max_text), dtype=torch.bool, device=clip_device)
        self.levels = torch.zeros(capacity, dtype=torch.long, device=clip_device)
        self.motions = torch.zeros(capacity, dtype=torch.long, device=clip_device)
        self.occupancy = torch.zeros((capacity, 196), dtype=torch.float32, device=clip_device)
        vocab = self.vocab

        def on_turn(row: int, turn: Turn) -> None:
            if row < 0:
                return
            ids = vocab.encode(turn.action_text, enc.max_text) or [vocab.id(PAD)]
            self.text_ids[row, :len(ids)] = torch.tensor(ids)
            self.text_valid[row, :len(ids)] = True
            self.levels[row] = turn.level
            self.motions[row] = MOTION_NAMES.index(turn.motion)
            self.occupancy[row] = torch.tensor(turn.occupancy)

        self.filler = ClipFiller(capacity, video, clip_device, rendered=need_clips, on_turn=on_turn)
        episodes = pool.episodes(data, video, Split.TRAIN, range(rendered), render=need_clips)

        filler = self.filler

        def fill() -> None:
            try:
                for episode in episodes:
                    filler.add(episode)
                    if filler.episodes % 2000 == 0:
                        self.log(f"training episodes: {filler.episodes}/{rendered}")
            except BaseException as error:  # surfaced by wait_for_data
                self.fill_error = error

        self.fill_error = None
        self.filling = threading.Thread(target=fill, name="mini-episodes", daemon=True)
        self.filling.start()
        self.pool = pool
        self.data_started = started
        if cfg.render_before_training:  # no training beside the renderers: neither slows the other
            self.wait_for_data()

    def wait_for_data(self) -> None:
        """Block until every training episode is in place (then the pool is closed)."""
        if self.filling is not None:
            self.filling.join()
            self.filling = None
            if self.fill_error is not None:
                raise self.fill_error
            assert self.filler is not None and self.pool is not None
            self.train = self.filler.result()
            self.pool.close()
            self.log("training episodes ready", clips=int(self.train.clips.shape[0]), turns=len(self.train.table),
                     seconds=round(time.monotonic() - self.data_started, 1))

    def rows(self) -> int:
        assert self.filler is not None
        return self.filler.rows

    def batch_indices(self, generator: torch.Generator, size: int, focused: bool = False) -> torch.Tensor:
        """A batch's training rows: uniform, or with ``focused`` and a measured motion focus,
        partly drawn by motion (:mod:`.motion_focus`)."""
        assert self.filler is not None
        while self.rows() < min(size, self.config.data.train_episodes):
            if self.fill_error is not None:
                raise self.fill_error
            time.sleep(0.2)
        if focused and self.focus is not None and self._focus_rows is not None:
            drawn = self.focus.draw(generator, size, self.rows(), self._focus_rows)
        else:
            drawn = torch.randint(0, self.rows(), (size,), generator=generator)
        return self.upload(drawn, self.filler.clips.device)

    def prepare_focus(self, reps: torch.Tensor | None) -> None:
        """The motion focus of this run (``config.motion_focus``): kept in the run's metrics once
        measured, else measured now on the decoder as it stands, from the clip encoder's
        representations of training turns."""
        share = self.config.motion_focus
        if share <= 0 or self.focus is not None:
            return
        assert self.decoder is not None and self.filler is not None
        self.wait_for_data()
        stored = self.run.metrics.get("motion_focus")
        if stored is None:
            if self.critic is None or not self.run.stages["critic"].done:
                raise RuntimeError("motion_focus reads the decoder's samples with the motion critic: run the critic "
                                   "stage first (--stages critic,decoder,...)")
            table = reps if reps is not None else self.encoder_targets()
            split = self.config.critic.split
            candidates = reader_rows(self.rows(), split)
            count = min(self.config.motion_focus_turns, candidates.numel())
            generator = torch.Generator().manual_seed(self.config.seed * 1000 + 917)
            rows = candidates[torch.randperm(candidates.numel(), generator=generator)[:count]]
            started = time.monotonic()
            correct, total = measure(self.decoder, self.critic.eval(), table[rows.to(table.device)].to(self.device),
                                     self.levels[rows].to(self.device), self.motions[rows],
                                     steps=self.config.eval_steps, classes=len(MOTION_NAMES), generator=generator,
                                     autocast=self.autocast)
            stored = {"weights": list(weights_from_accuracy(correct, total)), "turns": count,
                      "critic_accuracy": round(float(correct.sum()) / max(1, int(total.sum())), 3),
                      "rows": "odd rows, unseen by the critic" if split else "any training rows",
                      "seconds": round(time.monotonic() - started, 1)}
            self.run.metrics["motion_focus"] = stored
        self.focus = MotionFocus(tuple(float(w) for w in stored["weights"]), share)
        self._focus_rows = self.focus.row_weights(self.motions[:self.rows()])
        self.log("motion focus", share=share, critic_accuracy=stored.get("critic_accuracy"),
                 most=describe(self.focus.weights, MOTION_NAMES))

    def upload(self, tensor: torch.Tensor, device: torch.device | None = None) -> torch.Tensor:
        """``tensor`` (drawn on the CPU, from the stage's seeded generator) on ``device`` (the
        trainer's by default). Onto a GPU it goes through pinned memory without waiting: a plain
        copy from the CPU waits for all the GPU's queued work, so a step would not be queued while
        the one before runs."""
        target = device or self.device
        if target.type == "cuda" and tensor.device.type == "cpu":
            return tensor.pin_memory().to(target, non_blocking=True)
        return tensor.to(target)

    def forward_decoder(self) -> nn.Module:
        """The decoder as the training loss calls it: compiled on a GPU when the config asks."""
        assert self.decoder is not None
        if not (self.config.compile and self.device.type == "cuda"):
            return self.decoder
        if self._compiled is None:
            self._compiled = torch.compile(self.decoder)  # type: ignore[assignment]
        return self._compiled  # type: ignore[return-value]

    def clip_batch(self, index: torch.Tensor, first_frames: bool = True
                   ) -> tuple[torch.Tensor, torch.Tensor | None, torch.Tensor, torch.Tensor]:
        """(the DiT's target canvases: clips in [-1, 1] or normalised latents, the clips'
        first frames (B, 3, H, W) for the clip encoder (None when not asked for), levels, the
        canvas's cell weights)."""
        assert self.filler is not None
        model, dec = self.config.model, self.config.model.decoder
        _c, _t, height, width = model.canvas()
        first: torch.Tensor | None = None
        if model.latent is None:
            target = to_float(self.filler.clips[index].to(self.device, non_blocking=True))
            first = target[:, :, 0]
        else:
            latents = self.latent_table()
            target = to_canvas(model, latents[index.to(latents.device)].to(self.device).float())
            if first_frames:
                first = to_float(self.filler.clips[index, :1].to(self.device, non_blocking=True))[:, :, 0]
        weight = interpolate_weight(self.occupancy[index].to(self.device), height, width, dec.fg_weight)
        return target, first, self.levels[index].to(self.device), weight

    @torch.no_grad()
    def latent_table(self) -> torch.Tensor:
        """Every training clip's latent (encoded once per invocation, in batches); measures
        ``latent_scale`` (and with ``decoder.channel_norm`` each channel's mean and spread) the
        first time after the autoencoder was trained."""
        if self.latents is not None:
            return self.latents
        self.wait_for_data()
        assert self.autoencoder is not None and self.train is not None
        started = time.monotonic()
        clips = self.train.clips
        table = encode_clips(self.autoencoder.eval(), clips, self.config.autoencoder.encode_batch, device=self.device,
                             dtype=torch.bfloat16 if self.device.type == "cuda" else torch.float32,
                             autocast=self.autocast)
        self.latents = table
        if self.run.latent_scale is None:
            self.set_latent_scale(_std(table))
        if self.config.model.decoder.channel_norm and self.run.latent_std is None:
            if self.run.stages["decoder"].steps > 0:
                raise ValueError("decoder.channel_norm: this run's decoder was trained on latents under one spread "
                                 "for every channel; train it again (--restart decoder,adapt,distill)")
            self.set_channel_stats(*channel_stats(table))
            self.log("latent channels", mean=[round(v, 3) for v in self.config.model.latent_mean],
                     std=[round(v, 3) for v in self.config.model.latent_std])
        self.log("latent table", clips=clips.shape[0], shape=tuple(table.shape[1:]),
                 latent_scale=round(self.config.model.latent_scale, 4), seconds=round(time.monotonic() - started, 1))
        return table

    # -- stages ---------------------------------------------------------------------------------------
    def _loop(self, name: str, stage: StageConfig, params: list[nn.Parameter],
              step_fn: Callable[[torch.Generator], torch.Tensor], after: Callable[[], None] | None = None) -> None:
        """The common loop: AdamW, warm-up + cosine, gradient clipping, time caps, checkpoints."""
        st = self.run.stages[name]
        if st.done:
            return
        fused = self.device.type == "cuda"
        optimizer = torch.optim.AdamW(params, lr=stage.lr, betas=(0.9, 0.99), weight_decay=0.01, fused=fused)
        generator = torch.Generator().manual_seed(self.config.seed * 1000 + _SEED_INDEX[name] * 100 + st.steps)
        clock = StageClock(st.seconds)
        cap = stage.minutes * 60 if stage.minutes > 0 else math.inf
        last_loss: torch.Tensor | None = None
        self.log(f"stage {name}", start_step=st.steps, steps=stage.steps)
        first = st.steps
        while st.steps < stage.steps:
            spent = clock.spent()
            if spent > cap:
                self.log(f"stage {name} reached its time cap", minutes=stage.minutes)
                break
            if self.budget.left() < self.reserve():
                self.log(f"stage {name} paused: this run's time is up", step=st.steps)
                self.paused = name
                st.seconds = spent
                self.save_state()
                return
            progress = max(st.steps / stage.steps, spent / cap if cap < math.inf else 0.0)
            for group in optimizer.param_groups:
                group["lr"] = schedule(stage, st.steps - first, progress)
            loss = step_fn(generator)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()  # type: ignore[no-untyped-call]
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            optimizer.step()
            if after is not None:
                after()
            st.steps += 1
            last_loss = loss.detach()
            if st.steps == first + 1:
                self.log(f"stage {name}: first step", seconds=round(clock.first_step_done(), 1),
                         note="compiles on a GPU; not counted against the stage's minutes")
            if st.steps % stage.log_every == 0:
                st.loss = float(last_loss)
                rate = st.steps / max(1e-9, clock.spent())
                lr = schedule(stage, st.steps - first, progress)
                self.log(f"{name}", step=st.steps, loss=round(st.loss, 4), lr=f"{lr:.2e}", steps_per_s=round(rate, 2))
            self.maybe_checkpoint()
        st.seconds = clock.spent()
        if last_loss is not None:  # the last step's loss, also when the stage ends between log lines
            st.loss = float(last_loss)
        st.done = True
        self.log(f"stage {name} done", steps=st.steps, seconds=round(st.seconds, 1), loss=st.loss)
        self.save_state()

    def reserve(self) -> float:
        """Seconds kept for saving, the evaluation and the export at the end of a run."""
        return 75.0 if self.device.type == "cuda" else 5.0

    def stage_autoencoder(self) -> None:
        """The latent autoencoder on random windows of the training clips (L2 and a small latent
        penalty, ``config.autoencoder``); skipped, marked done, for a pixel decoder."""
        st = self.run.stages["autoencoder"]
        if st.done:
            return
        latent = self.config.model.latent
        if latent is None:
            st.done = True
            self.log("stage autoencoder skipped: the model has no latent")
            return
        self.wait_for_data()
        assert self.autoencoder is not None and self.train is not None
        recipe, stage = self.config.autoencoder, self.config.autoencoder_stage
        model = self.autoencoder.train()
        # the occupancy on the CPU (as in the lease that measured this autoencoder): picking a window's
        # cell there costs no device synchronisation per clip
        windows = Windows(self.train.clips, self.occupancy[: self.train.clips.shape[0]].cpu(), recipe, stage.batch,
                          latent.spatial)

        def step(generator: torch.Generator) -> torch.Tensor:
            clip, mask = windows.batch(generator)
            clip, mask = clip.to(self.device), mask.to(self.device)
            with self.autocast():
                recon, code = model(clip)
            return reconstruction_loss(recipe, recon.float(), clip, mask, code.float())

        self._loop("autoencoder", stage, list(model.parameters()), step)
        if st.done:  # a new latent space: its table and scale are made again
            self.latents = None
            self.forget_latent_stats()

    def _waits_for_autoencoder(self, name: str) -> bool:
        """A latent decoder's stage cannot start before the autoencoder is trained (its latents
        would change under it)."""
        if self.config.model.latent is None or self.run.stages["autoencoder"].done:
            return False
        self.log(f"stage {name} waits: the autoencoder stage is not done")
        return True

    def stage_critic(self) -> None:
        """The motion critic on the training clips' latents (skipped, marked done, when the
        config gives it no steps); its accuracy on the held-out clips is logged."""
        st = self.run.stages["critic"]
        if st.done or self._waits_for_autoencoder("critic"):
            return
        if self.critic is None:
            st.done = True
            self.log("stage critic skipped: the config gives it no steps")
            return
        if self.config.model.latent is None:
            raise ValueError("the motion critic reads the decoder's latent canvas: this config's decoder makes pixels")
        table = self.latent_table()
        critic, recipe, stage = self.critic.train(), self.config.critic, self.config.critic_stage

        def step(generator: torch.Generator) -> torch.Tensor:
            index = critic_rows(self.batch_indices(generator, stage.batch), recipe.split)
            canvas = to_canvas(self.config.model, table[index.to(table.device)].to(self.device).float())
            with self.autocast():
                return critic_training_loss(critic, canvas, self.motions[index].to(self.device), recipe.noise,
                                            generator)

        self._loop("critic", stage, list(critic.parameters()), step)
        critic.eval().requires_grad_(False)
        if st.done:
            self.log("critic", heldout_motion_accuracy=round(self.critic_heldout_accuracy(), 3))
            if recipe.split:
                unseen = reader_rows(self.rows(), True)[:self.config.motion_focus_turns]
                with torch.no_grad(), self.autocast():
                    canvas = to_canvas(self.config.model, table[unseen.to(table.device)].to(self.device).float())
                    read = critic_accuracy(critic, canvas, self.motions[unseen].to(self.device))
                self.log("critic", unseen_training_rows_accuracy=round(read, 3))

    @torch.no_grad()
    def critic_heldout_accuracy(self) -> float:
        """The trained critic's motion accuracy on the held-out clips' latents."""
        assert self.critic is not None and self.autoencoder is not None and self.eval is not None
        latents = encode_clips(self.autoencoder.eval(), self.eval.clips, self.config.autoencoder.encode_batch,
                               device=self.device, autocast=self.autocast)
        motions = torch.tensor([MOTION_NAMES.index(t.motion) for t in self.eval.table.turns], device=self.device)
        with self.autocast():
            return critic_accuracy(self.critic.eval(), to_canvas(self.config.model, latents.float()), motions)

    def critic_term(self, index: torch.Tensor, keep: torch.Tensor) -> CriticTerm | None:
        """The critic's term for a decoder batch (None without a trained critic or a balance)."""
        if self.critic is None or self.config.critic.balance <= 0:
            return None
        if not self.run.stages["critic"].done:
            raise RuntimeError("the decoder's critic term needs the critic stage done first (--stages critic,...)")
        self.critic.eval().requires_grad_(False)
        return CriticTerm(self.critic, self.motions[index].to(self.device), keep, self.config.critic)

    def stage_decoder(self) -> None:
        assert self.encoder is not None and self.decoder is not None and self.decoder_ema is not None
        if self.run.stages["decoder"].done or self._waits_for_autoencoder("decoder"):
            return
        cfg, stage = self.config.model, self.config.decoder_stage
        if cfg.latent is not None:
            self.latent_table()  # before the stage's clock starts
        frozen = self.config.freeze_encoder
        # a frozen encoder's representations are the same every epoch: with every clip rendered
        # they are computed once (a GPU step then skips the encoder and the first frames' copy)
        reps = self.representation_table()
        self.prepare_focus(reps)
        encoder, decoder = self.encoder.train(not frozen), self.decoder.train()
        forward = self.forward_decoder()
        adversary = self.stage_adversary("decoder")

        def step(generator: torch.Generator) -> torch.Tensor:
            index = self.batch_indices(generator, stage.batch, focused=True)
            clips, first, level, weight = self.clip_batch(index, first_frames=reps is None)
            keep = self.upload(torch.rand(stage.batch, generator=generator)) >= cfg.decoder.null_rate
            self.begin_adversary(adversary, "decoder", clips, index, keep)
            with self.autocast():
                if reps is not None:
                    rep = reps[index.to(reps.device)]
                else:
                    assert first is not None
                    with torch.no_grad() if frozen else nullcontext():
                        rep = encoder(self.text_ids[index].to(self.device), self.text_valid[index].to(self.device),
                                      first)
                if frozen:  # requires grad as a trained encoder's output does: the adaptation reuses the graph
                    rep = rep.detach().requires_grad_(True)
                aux = self.encoder_motion_loss(rep, index, level) if not frozen else torch.zeros((), device=rep.device)
                rep = rep + cfg.decoder.rep_noise * torch.randn_like(rep)
                rep, level = decoder.drop(rep, level, keep)
                return flow_loss(forward, clips, level, rep, weight,  # type: ignore[arg-type]
                                 critic=self.critic_term(index, keep), adversary=adversary) + aux

        extra = list(self.encoder_aux.parameters()) if self.encoder_aux is not None and not frozen else []
        trained = [] if frozen else list(encoder.parameters())
        self._loop("decoder", stage, [*trained, *decoder.parameters(), *extra], step,
                   after=self.after_decoder_step("decoder", adversary))

    def encoder_motion_loss(self, rep: torch.Tensor, index: torch.Tensor, level: torch.Tensor) -> torch.Tensor:
        """The auxiliary classification of the motion and its level from the mean of the
        representation's text tokens (``encoder_motion_loss`` x the two cross-entropies)."""
        if self.encoder_aux is None:
            return torch.zeros((), device=rep.device)
        text = rep[:, : self.config.model.representation.text_tokens].float().mean(dim=1)
        logits = self.encoder_aux(text).float()
        motions = self.motions[index].to(rep.device)
        loss = F.cross_entropy(logits[:, : len(MOTION_NAMES)], motions) + \
            F.cross_entropy(logits[:, len(MOTION_NAMES):], (level - 1).clamp(0, 4))
        return self.config.encoder_motion_loss * loss

    def stage_judge(self) -> None:
        self.wait_for_data()
        assert self.train is not None
        train = self.train
        if self.judge is None:
            self.judge = Judge(self.config.model.judge).to(self.device)
        judge, stage = self.judge.train(), self.config.judge_stage
        from studio.engines.mini.evaluate import labels

        truth = {h: torch.tensor([labels(t)[h] for t in self.train.table.turns], device=self.train.clips.device)
                 for h in HEADS}

        def step(generator: torch.Generator) -> torch.Tensor:
            index = self.batch_indices(generator, stage.batch)
            clips = to_float(train.clips[index].to(self.device))
            with self.autocast():
                reading = judge(clips)
                return sum((F.cross_entropy(reading.logits[h].float(), truth[h][index].to(self.device))
                            for h in HEADS), torch.zeros((), device=self.device))

        self._loop("judge", stage, list(judge.parameters()), step)

    def representation_table(self) -> torch.Tensor | None:
        """A frozen encoder's representation of every training clip, once every clip is
        rendered (None otherwise: the decoder stage then encodes each batch)."""
        if not self.config.freeze_encoder or self.filling is not None:
            return None
        reps = self.encoder_targets()
        self.log("representation table", clips=reps.shape[0], shape=tuple(reps.shape[1:]))
        return reps

    @torch.no_grad()
    def encoder_targets(self) -> torch.Tensor:
        """The (frozen) encoder's representation of every training clip."""
        assert self.encoder is not None and self.train is not None
        encoder = self.encoder.eval()
        out = []
        for start in range(0, self.train.clips.shape[0], 256):
            index = torch.arange(start, min(start + 256, self.train.clips.shape[0]), device=self.train.clips.device)
            first = to_float(self.train.clips[index, :1].to(self.device))[:, :, 0]
            with self.autocast():
                out.append(encoder(self.text_ids[index].to(self.device), self.text_valid[index].to(self.device),
                                   first).float())
        return torch.cat(out)

    def lm_examples(self, reps: torch.Tensor | None) -> tuple[list[LMInput], list[int]]:
        """Every turn of the rendered and the text-only episodes as an LM example, with the
        row of its target representation (-1: none)."""
        assert self.vocab is not None and self.train is not None and self.text is not None
        cfg = self.config.model
        cache: dict[str, list[int]] = {}
        texts = sorted({t.text for t in self.train.table.turns + self.text.table.turns})
        for text, enc in zip(texts, self.vocab.tokenizer.encode_batch(texts, add_special_tokens=False), strict=True):
            cache[text] = list(enc.ids)

        def encode(text: str, limit: int) -> list[int]:
            return (cache.get(text) or self.vocab.encode(text, limit))[:limit]  # type: ignore[union-attr]

        reps_np = reps.float().cpu().numpy() if reps is not None else None
        examples: list[LMInput] = []
        targets: list[int] = []
        aux: list[tuple[int, int, int, int]] = []
        for clipset, with_reps in ((self.train, reps_np is not None), (self.text, False)):
            table = clipset.table
            for i, turn in enumerate(table.turns):
                past = [PastTurn(table.turns[j].text, table.turns[j].level, table.turns[j].truth.deltas,
                                 reps_np[table.clip[j]] if with_reps and reps_np is not None else None)
                        for j in table.history(i, cfg.lm.history)]
                # the target is the rule's delta: the world's seeded variation cannot be read
                # from the branch, so it would only be label noise (the history keeps what happened)
                examples.append(build_input(self.vocab, history=past, state=turn.state, text=turn.text,
                                            tokens=cfg.representation.tokens, max_instruction=cfg.lm.max_instruction,
                                            level=turn.level, deltas=turn.truth.rule, encode=encode))
                targets.append(table.clip[i] if with_reps else -1)
                aux.append(turn_labels(turn))
        self._aux_labels = torch.tensor(aux, dtype=torch.long)
        return examples, targets

    def stage_lm(self) -> None:
        assert self.vocab is not None
        if self.run.stages["lm"].done:
            return
        self.wait_for_data()
        if self.lm is None:
            self.lm = MiniLM(self.config.model).to(self.device)
        reps = self.encoder_targets()
        examples, targets = self.lm_examples(reps)
        self._examples = (examples, reps)
        self.log("LM examples", count=len(examples), with_representation=sum(t >= 0 for t in targets),
                 longest=max(len(e.ids) for e in examples))
        lm, stage, cfg = self.lm.train(), self.config.lm_stage, self.config.model
        value_targets = self._value_targets(examples)
        aux_labels = self._aux_labels
        target_rows = torch.tensor(targets, device=self.device)
        pad = self.vocab.id(PAD)

        every = collate_all(examples, cfg.representation.tokens, cfg.representation.dim, pad, self.device)
        self.log("LM examples collated", shape=tuple(every.ids.shape))

        special = set(self.vocab.special_ids())
        word_ids = torch.tensor([i for i in range(self.vocab.size) if i not in special])
        instr_id, unk_id = self.vocab.id(INSTR), self.vocab.id(UNK)

        def step(generator: torch.Generator) -> torch.Tensor:
            index = torch.randint(0, len(examples), (stage.batch,), generator=generator)
            batch = noisy_instruction(every.select(index.to(self.device)), instr_id, word_ids, unk_id,
                                      stage.token_noise, generator)
            rows = target_rows[index.to(self.device)]
            with self.autocast():
                logits, rep, aux = lm.forward_all(batch)
                ce = F.cross_entropy(logits.float().flatten(0, 1), value_targets[index].to(self.device).flatten())
                if aux:
                    labels = aux_labels[index].to(self.device)
                    ce = ce + 0.25 * sum(F.cross_entropy(a.float(), labels[:, k]) for k, a in enumerate(aux))
                has = rows >= 0
                mse = ((rep.float() - reps[rows.clamp(min=0)]) ** 2).mean(dim=(1, 2))
                mse = (mse * has).sum() / has.sum().clamp(min=1)
                total: torch.Tensor = ce + mse
                return total

        self._loop("lm", stage, list(lm.parameters()), step)

    def _value_targets(self, examples: list[LMInput]) -> torch.Tensor:
        """The token after each value marker (the teacher-forced level and deltas)."""
        return torch.tensor([[e.ids[p + 1] for p in e.value_positions] for e in examples])

    @torch.no_grad()
    def lm_predictions(self) -> torch.Tensor:
        """The LM's representation of every training clip (teacher-forced history)."""
        assert self.lm is not None and self.vocab is not None and self.train is not None
        if self._examples is not None:
            examples, _reps = self._examples
        else:
            examples, _ = self.lm_examples(self.encoder_targets())
        count = self.train.clips.shape[0]
        cfg = self.config.model
        lm = self.lm.eval()
        out = torch.empty(count, cfg.representation.tokens, cfg.representation.dim, device=self.device)
        rendered = [i for i in range(len(self.train.table)) if self.train.table.clip[i] >= 0]
        for start in range(0, len(rendered), 512):
            chunk = rendered[start:start + 512]
            batch = collate([examples[i] for i in chunk], cfg.representation.tokens, cfg.representation.dim,
                            self.vocab.id(PAD)).to(self.device)
            with self.autocast():
                _, rep = lm(batch)
            out[torch.tensor([self.train.table.clip[i] for i in chunk], device=self.device)] = rep.float()
        return out

    def stage_adapt(self) -> None:
        assert self.decoder is not None and self.decoder_ema is not None
        if self.run.stages["adapt"].done or self._waits_for_autoencoder("adapt"):
            return
        self.wait_for_data()
        if self.config.model.latent is not None:
            self.latent_table()
        predicted = self.lm_predictions()
        self.prepare_focus(None)
        cfg, stage = self.config.model, self.config.adapt_stage
        if self.run.stages["adapt"].steps == 0:  # continue from the averaged stage-1 weights
            self.decoder.load_state_dict(self.decoder_ema.module.state_dict())
        decoder, ema = self.decoder.train(), self.decoder_ema
        ema.decay = stage.ema
        forward = self.forward_decoder()
        adversary = self.stage_adversary("adapt")

        def step(generator: torch.Generator) -> torch.Tensor:
            index = self.batch_indices(generator, stage.batch, focused=True)
            clips, _first, level, weight = self.clip_batch(index, first_frames=False)
            keep = self.upload(torch.rand(stage.batch, generator=generator)) >= cfg.decoder.null_rate
            self.begin_adversary(adversary, "adapt", clips, index, keep)
            with self.autocast():
                # the representation requires grad as the encoder's did in stage 1, so that the
                # compiled decoder's graph is reused instead of compiled again
                rep = predicted[index.to(self.device)].requires_grad_(True)
                rep, level = decoder.drop(rep, level, keep)
                return flow_loss(forward, clips, level, rep, weight,  # type: ignore[arg-type]
                                 critic=self.critic_term(index, keep), adversary=adversary)

        self._loop("adapt", stage, list(decoder.parameters()), step,
                   after=self.after_decoder_step("adapt", adversary))

    def stage_polish(self) -> None:
        """The autoencoder's decoder tuned on the video decoder's clean-canvas predictions from
        true canvases mixed with noise (and on noisy true canvases), towards the true clips
        (``config.polish``). Only the autoencoder's decoder trains: the latent space, its
        table and the video decoder stay as they are. Skipped when the config gives it no
        steps, or the model has no latent."""
        st = self.run.stages["polish"]
        if st.done:
            return
        if self.config.polish_stage.steps <= 0 or self.config.model.latent is None:
            st.done = True
            self.log("stage polish skipped", reason="no steps" if self.config.model.latent else "no latent")
            return
        if self._waits_for_autoencoder("polish"):
            return
        self.wait_for_data()
        assert self.autoencoder is not None and self.filler is not None
        filler = self.filler
        self.latent_table()
        predicted = self.lm_predictions()
        recipe, stage, cfg = self.config.polish, self.config.polish_stage, self.config.model
        video_decoder = (self.decoder_ema.module if self.decoder_ema is not None else self.decoder)
        assert video_decoder is not None
        video_decoder.eval().requires_grad_(False)
        self.autoencoder.encoder.requires_grad_(False)
        latent_decoder = self.autoencoder.decoder.train()
        times = torch.tensor(recipe.times, dtype=torch.float32)
        self.log("polishing", times=",".join(f"{t:g}" for t in recipe.times), noise_share=recipe.noise_share,
                 noise=recipe.noise, blur_share=recipe.blur_share)

        def step(generator: torch.Generator) -> torch.Tensor:
            index = self.batch_indices(generator, stage.batch)
            canvas, _first, level, _weight = self.clip_batch(index, first_frames=False)
            clips = to_float(filler.clips[index].to(self.device, non_blocking=True))
            count = canvas.shape[0]
            noise = torch.randn(canvas.shape, generator=generator).to(self.device)
            t = times[torch.randint(len(times), (count,), generator=generator)].to(self.device)
            kind = torch.rand(count, generator=generator).to(self.device).view(-1, 1, 1, 1, 1)
            share = torch.rand(count, generator=generator).to(self.device).view(-1, 1, 1, 1, 1)
            at = t.view(-1, 1, 1, 1, 1)
            with torch.no_grad(), self.autocast():
                made = video_decoder(at * canvas + (1 - at) * noise, t, level, predicted[index.to(self.device)])
            noisy = canvas + share * recipe.noise * noise
            smooth = canvas + share * (cell_average(canvas) - canvas)
            given = torch.where(kind < recipe.noise_share, noisy,
                                torch.where(kind < recipe.noise_share + recipe.blur_share, smooth, made.float()))
            mask = character_mask(self.occupancy[index].to(self.device), clips.shape[-2], clips.shape[-1])
            with self.autocast():
                recon = latent_decoder(from_canvas(cfg, given))
            return reconstruction_loss(self.config.autoencoder, recon.float(), clips, mask, given)

        self._loop("polish", stage, list(latent_decoder.parameters()), step)

    def distill_teacher(self) -> DecoderNet:
        """The frozen teacher: the adapted decoder's averaged weights when the distillation
        starts, kept in the run's state folder so that a resumed run distils from the same one."""
        assert self.decoder_ema is not None
        path = self.state_dir / "distill_teacher.safetensors"
        teacher = build_decoder(self.config.model).to(self.device)
        if self.run.stages["distill"].steps > 0 and path.is_file():
            self._load_module(teacher, path.name, self.state_dir)
        else:
            teacher.load_state_dict(self.decoder_ema.module.state_dict())
            _save_module(teacher, path)
        return teacher.eval().requires_grad_(False)

    def stage_distill(self) -> None:
        """The decoder learns to make in ``distill.student_steps`` steps what the adapted decoder
        makes in ``distill.teacher_steps`` (with its guidance), on the LM's predicted
        representations (:mod:`.distill`). Skipped when the config gives it no steps."""
        from studio.engines.mini.distill import distill_loss, teacher_trajectory

        assert self.decoder is not None and self.decoder_ema is not None
        if not self.distills() or self.run.stages["distill"].done or self._waits_for_autoencoder("distill"):
            return
        unfinished = [s for s in ("decoder", "adapt") if not self.run.stages[s].done]
        if unfinished:  # a run paused there (or a shipped checkpoint): training them again restarts this stage
            self.log("the teacher is the decoder as it is", unfinished=",".join(unfinished))
        self.wait_for_data()
        recipe, stage, cfg = self.config.distill, self.config.distill_stage, self.config.model
        predicted = self.lm_predictions()
        teacher = self.distill_teacher()
        if self.run.stages["distill"].steps == 0:  # the student starts as the teacher
            self.decoder.load_state_dict(teacher.state_dict())
            self.decoder_ema.module.load_state_dict(teacher.state_dict())
        decoder, ema = self.decoder.train(), self.decoder_ema
        ema.decay = stage.ema
        forward = self.forward_decoder()
        teacher_forward: nn.Module = teacher
        if self.config.compile and self.device.type == "cuda":
            teacher_forward = torch.compile(teacher)  # type: ignore[assignment]
        channels, frames, height, width = cfg.canvas()
        self.log("distilling", student_steps=recipe.student_steps, teacher_steps=recipe.teacher_steps,
                 guidance=recipe.guidance)
        adversary = self.stage_adversary("distill")

        def step(generator: torch.Generator) -> torch.Tensor:
            index = self.batch_indices(generator, stage.batch)
            if adversary is not None:
                self.begin_adversary(adversary, "distill", self.clip_batch(index, first_frames=False)[0], index)
            level = self.levels[index].to(self.device)
            rep = predicted[index.to(self.device)]
            weight = interpolate_weight(self.occupancy[index].to(self.device), height, width, cfg.decoder.fg_weight)
            shape = (stage.batch, channels, frames, height, width)
            # on a GPU drawn there, as the flow loss draws its noise (a pixel canvas is 80 M values a batch)
            noise = torch.randn(shape, device=self.device) if self.device.type == "cuda" else \
                torch.randn(shape, generator=generator)
            with self.autocast():
                path = teacher_trajectory(teacher_forward, teacher, rep, level, noise, recipe.student_steps,
                                          recipe.teacher_steps, recipe.guidance)
                critic = None
                if self.config.critic.in_distill:
                    critic = self.critic_term(index, torch.ones_like(level, dtype=torch.bool))
                return distill_loss(forward, path, rep.requires_grad_(True), level, weight, critic=critic,
                                    adversary=adversary)

        self._loop("distill", stage, list(decoder.parameters()), step,
                   after=self.after_decoder_step("distill", adversary))

    def adversary_stages(self) -> set[str]:
        """The stages of this run whose loss carries the adversary's term (``adversary.stages``;
        the distillation's only when this config distils)."""
        known = {"decoder", "adapt", "distill"}
        unknown = set(self.config.adversary.stages) - known
        if unknown:
            raise ValueError(f"adversary.stages names {', '.join(sorted(unknown))}: the adversary's term can be "
                             f"in {', '.join(sorted(known))}")
        stages = set(self.config.adversary.stages)
        return stages if self.distills() else stages - {"distill"}

    def begin_adversary(self, adversary: Adversary | None, name: str, real: torch.Tensor, index: torch.Tensor,
                        keep: torch.Tensor | None = None) -> None:
        """The batch's real canvases and motions given to ``adversary`` (if any); its term counts
        after the stage's first ``adversary.warmup`` steps."""
        if adversary is not None:
            adversary.begin(real, self.motions[index].to(self.device),
                            active=self.run.stages[name].steps >= self.config.adversary.warmup, keep=keep)

    def after_decoder_step(self, name: str, adversary: Adversary | None) -> Callable[[], None]:
        """What follows each step of a decoder stage: its weights' average, then the adversary's
        own step on what the decoder made (logged every ``log_every`` steps)."""
        assert self.decoder is not None and self.decoder_ema is not None
        decoder, ema = self.decoder, self.decoder_ema
        state, stage = self.run.stages[name], getattr(self.config, f"{name}_stage")

        # the average's warm-up counts this stage's steps before a resume too (its decay would
        # otherwise start low again with every call and never reach the configured one)
        ema.updates = max(ema.updates, state.steps)

        def after() -> None:
            ema.update(decoder)
            if adversary is None:
                return
            with self.autocast():
                adversary.update()
            finished = state.steps + 1  # the loop counts this step after its ``after``
            if finished % stage.log_every == 0 and adversary.last_loss is not None:
                self.log("adversary", step=finished, stage=name, loss=round(float(adversary.last_loss), 4),
                         term="on" if adversary.active else "warming up")

        return after

    def stage_adversary(self, name: str) -> Adversary | None:
        """The adversary of stage ``name`` (None when its loss has none), its discriminator
        starting from the trained motion critic when the stage starts (and the widths agree)."""
        if self.discriminator is None or name not in self.adversary_stages():
            return None
        recipe = self.config.adversary
        if self.run.stages[name].steps == 0:
            critic_ready = self.critic is not None and self.run.stages["critic"].done
            if critic_ready and tuple(recipe.widths) == tuple(self.config.critic.widths):
                assert self.critic is not None
                self.discriminator.start_from(self.critic)
                self.log("the adversary starts from the motion critic")
            else:
                self.log("the adversary starts untrained: no trained critic of its widths")
        self.discriminator.train()
        return Adversary.create(self.discriminator, recipe, len(MOTION_NAMES))

    def runtime(self) -> MiniRuntime:
        assert self.lm is not None and self.decoder_ema is not None and self.vocab is not None
        assert isinstance(self.decoder_ema.module, VideoDiT | VideoUNet)
        latent_decoder = self.autoencoder.decoder if self.autoencoder is not None else None
        return MiniRuntime(self.config.model, self.vocab, self.lm, self.decoder_ema.module, self.device,
                           self.device, torch.bfloat16 if self.device.type == "cuda" else torch.float32,
                           latent_decoder)

    def stage_eval(self) -> None:
        from studio.engines.mini.evaluate import evaluate, markdown_table

        if self.run.stages["eval"].done or self.eval is None or self.lm is None or self.judge is None:
            return
        started = time.monotonic()
        batch = 64 if self.device.type == "cuda" else 4
        metrics = evaluate(self.runtime(), self.judge, self.eval, steps=self.config.eval_steps, batch=batch,
                           device=self.device, log=self.log, guidance=self.config.eval_guidance)
        generated = metrics.pop("generated")
        self.samples = torch.stack([generated[:8], self.eval.clips[:8]], dim=1).flatten(0, 1)
        metrics.update(self.gpu_speed() if self.device.type == "cuda" else {})
        self.run.metrics = metrics
        self.run.stages["eval"] = StageState(steps=1, done=True, seconds=time.monotonic() - started)
        self.log("evaluation\n" + markdown_table(metrics))
        self.save_state()

    def gpu_speed(self) -> dict[str, Any]:
        """One turn (predict + decode, batch of one) on this GPU, median of 5 after a warm-up."""
        assert self.eval is not None
        from studio.engines.mini.runtime import TurnQuery

        runtime = self.runtime()
        turn = self.eval.table.turns[0]
        times = []
        for _ in range(6):
            torch.cuda.synchronize()
            started = time.perf_counter()
            out = runtime.predict([TurnQuery(turn.text, turn.state)])[0]
            runtime.decode(out.representation[None], [out.level], [1], steps=self.config.eval_steps)
            torch.cuda.synchronize()
            times.append(time.perf_counter() - started)
        return {"gpu_seconds_per_turn": float(np.median(times[1:])),
                "gpu_note": f"{torch.cuda.get_device_name()}, bf16, batch of one, {self.config.eval_steps} steps"}


def save_sheet(clips: torch.Tensor, path: Path, frames: tuple[int, ...] = (0, 4, 8, 12, 16)) -> None:
    """A PNG with one row per clip (uint8 N x T x H x W x 3), a few frames across."""
    from PIL import Image

    rows = []
    for clip in clips.cpu().numpy():
        picked = [clip[min(f, clip.shape[0] - 1)] for f in frames]
        rows.append(np.concatenate(picked, axis=1))
    Image.fromarray(np.concatenate(rows, axis=0)).save(path)


def _save_module(module: nn.Module, path: Path) -> None:
    """``module``'s weights as fp32 safetensors (cloned: diffusers' Downsample2D, in the
    autoencoder, holds one conv under two names, which safetensors refuses to share)."""
    from safetensors.torch import save_file

    save_file({k: v.detach().float().cpu().clone().contiguous() for k, v in module.state_dict().items()}, str(path))


def run_identity(config: TrainConfig) -> dict[str, Any]:
    """What a resumed run must share with the run in its folder: the seed, the data and the
    model (not the stage caps, which a later lease may raise to train on, nor the latent scale,
    which the run measures, nor the vocabulary size, which the tokenizer may stop short of, nor
    the number of processes that render, which changes how fast the same clips come, not which)."""
    model = to_dict(config.model)
    # the run sets these (a small corpus can stop the tokenizer short; the critic is listed when it is exported)
    for measured in ("latent_scale", "latent_mean", "latent_std", "vocab_size", "critic"):
        model.pop(measured, None)
    data = to_dict(config.data)
    data.pop("workers", None)
    return {"name": config.name, "seed": config.seed, "data": data, "model": model}


def check_same_run(path: Path, config: TrainConfig) -> None:
    """Refuse to resume a run folder that holds a run of another config: its weights and
    progress would be continued under the new config's name (``--init`` and ``--restart`` are
    not read when a run folder is resumed)."""
    if not path.is_file():
        return  # a run saved before this check existed
    stored = json.loads(path.read_text())
    wanted = json.loads(json.dumps(run_identity(config), default=_plain))
    differs = [key for key in ("seed", "data", "model") if stored.get(key) != wanted[key]]
    if differs:
        raise SystemExit(f"{path.parent.parent} holds a run of the config {stored.get('name', '?')!r}, which differs "
                         f"from {config.name!r} in: {', '.join(differs)}. Give a fresh --out folder to start this "
                         "one (with --init to continue that run's weights), or the same config to resume it.")


def _std(table: torch.Tensor, chunk: int = 256) -> float:
    """The standard deviation of every element of ``table``, in float64 over chunks of rows."""
    total = squares = 0.0
    for start in range(0, table.shape[0], chunk):
        part = table[start:start + chunk].double()
        total += float(part.sum())
        squares += float((part * part).sum())
    count = table.numel()
    return math.sqrt(max(squares / count - (total / count) ** 2, 0.0) * count / max(count - 1, 1))


def _short(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _plain(value: Any) -> Any:
    if isinstance(value, (np.floating, np.integer)):
        return value.item()
    return str(value)


def run(config: TrainConfig, out: Path, *, device: str = "auto", minutes: float = 0.0,
        stages: tuple[str, ...] = STAGES, export: Path | None = None, init: Path | None = None,
        cache: Path | None = None, log: Callable[[str], None] = print, restart: tuple[str, ...] = ()) -> RunState:
    """Train (or resume) ``config`` in ``out`` for at most ``minutes``; returns the run's state."""
    torch.manual_seed(config.seed)
    budget = Budget(minutes)
    pool = EpisodePool(config.data.workers)  # forks before CUDA is touched
    chosen = torch.device("cuda" if device == "auto" and torch.cuda.is_available() else
                          ("cpu" if device == "auto" else device))
    if chosen.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    trainer = Trainer(config, out, chosen, budget, export=export, init=init, cache=cache, log=log, restart=restart,
                      stages=stages)
    try:
        trainer.restore_state()
        trainer.make_data(pool)
        trainer.build_modules()
    except BaseException:
        pool.close()
        raise
    steps: dict[str, Callable[[], None]] = {
        "autoencoder": trainer.stage_autoencoder, "critic": trainer.stage_critic, "decoder": trainer.stage_decoder,
        "judge": trainer.stage_judge,
        "lm": trainer.stage_lm,
        "adapt": trainer.stage_adapt, "distill": trainer.stage_distill, "polish": trainer.stage_polish,
        "eval": trainer.stage_eval}
    for name in STAGES:
        if name not in stages:
            continue
        if trainer.paused is not None:
            # a later stage would train on (or evaluate) an unfinished earlier one
            if not trainer.run.stages[name].done:
                trainer.log(f"stage {name} not started: stage {trainer.paused} paused; the same command resumes")
        elif budget.left() > trainer.reserve() / 3:
            steps[name]()
        elif not trainer.run.stages[name].done:
            trainer.log(f"stage {name} not started: this run's time is up", seconds_left=round(budget.left(), 1))
    trainer.wait_for_data()
    trainer.save_state()
    return trainer.run


def _iter_stages(text: str) -> Iterator[str]:
    for name in (s.strip() for s in text.split(",") if s.strip()):
        if name not in STAGES:
            raise SystemExit(f"unknown stage {name!r}; stages: {', '.join(STAGES)}")
        yield name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m studio.engines.mini.train", description=__doc__.split("\n")[0])
    parser.add_argument("--config", default="h200", help="a config name (tiny, h200) or a JSON file")
    parser.add_argument("--out", required=True, type=Path, help="the run folder (resumed when it exists)")
    parser.add_argument("--export", type=Path, help="also write the fp16 checkpoint here (every few minutes)")
    parser.add_argument("--init", type=Path, help="start from an exported checkpoint (another machine's run)")
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N")
    parser.add_argument("--minutes", type=float, default=0.0, help="wall-clock budget of this invocation (0: none)")
    parser.add_argument("--stages", default=",".join(STAGES), help="stages to run, in order")
    parser.add_argument("--cache", type=Path, help="a folder for the unrendered episodes (made once, reused)")
    parser.add_argument("--restart", default="", help="with --init: stages to train again from their start "
                        "(the LM among them is then built anew)")
    parser.add_argument("--only-cache", action="store_true", help="write the episode cache and stop")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                        help="change one config field (dotted, e.g. critic.balance=1.0; repeatable): a variant "
                        "to run beside the recipe (give it its own --out)")
    args = parser.parse_args(argv)
    path = Path(args.config) if args.config.endswith(".json") else named_config(args.config)
    try:
        config = load_train_config(path, args.set)
    except ValueError as error:
        raise SystemExit(f"--set: {error}") from None
    if args.only_cache:
        if args.cache is None:
            raise SystemExit("--only-cache needs --cache")
        pool = EpisodePool(config.data.workers)
        try:
            Trainer(config, args.out, torch.device("cpu"), Budget(0), cache=args.cache).text_episodes(pool)
        finally:
            pool.close()
        return 0
    run(config, args.out, device=args.device, minutes=args.minutes, stages=tuple(_iter_stages(args.stages)),
        export=args.export, init=args.init, cache=args.cache, log=lambda m: print(m, flush=True),
        restart=tuple(_iter_stages(args.restart)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
