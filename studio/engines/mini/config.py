"""Configuration of the mini model and of its training, read from and written to JSON.

Plain dataclasses (no torch): the training command reads a config file
(``studio/engines/mini/configs/*.json``), the checkpoint folder stores the model part as
``config.json`` so that the engine rebuilds exactly the networks the weights belong to.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

CONFIG_DIR = Path(__file__).with_name("configs")

REP_SPACE = "mini/32x64-v1"
"""The representation space name engines tag takes with; bump with the layout."""


@dataclass(frozen=True)
class VideoSpec:
    """The clips the model makes natively (upscaled for display and export)."""

    height: int = 128
    width: int = 192
    frames: int = 17
    fps: float = 8.0


@dataclass(frozen=True)
class RepresentationConfig:
    """The action-aware representation: text tokens from the action text, image tokens
    from the first frame (a grid), ``dim`` wide."""

    text_tokens: int = 8
    image_grid: tuple[int, int] = (4, 6)
    dim: int = 64

    @property
    def tokens(self) -> int:
        return self.text_tokens + self.image_grid[0] * self.image_grid[1]


@dataclass(frozen=True)
class EncoderConfig:
    hidden: int = 128
    text_layers: int = 2
    heads: int = 4
    max_text: int = 16
    channels: tuple[int, ...] = (32, 64, 128)


@dataclass(frozen=True)
class LMConfig:
    """A tiny Llama (transformers) reading the branch; ``history`` earlier turns."""

    hidden: int = 256
    layers: int = 4
    heads: int = 4
    intermediate: int = 512
    max_positions: int = 512
    history: int = 2
    max_instruction: int = 40
    aux_heads: bool = False
    """Also classify the instruction's motion, location, character and time from the hidden
    state at ``<ML>`` (a training signal that ties the words to the world's categories)."""


@dataclass(frozen=True)
class DecoderConfig:
    """A small adaLN DiT over pixel patches (``patch`` x ``patch`` pixels x ``tpatch`` frames)."""

    hidden: int = 256
    layers: int = 8
    heads: int = 4
    mlp_ratio: float = 3.0
    patch: int = 16
    tpatch: int = 4
    head_hidden: int = 512
    null_rate: float = 0.1
    """Share of training samples whose representation is dropped (for guidance)."""
    rep_noise: float = 0.1
    """Gaussian noise added to the representation while training (robustness to the LM's errors)."""
    t_mean: float = -0.6
    t_std: float = 1.0
    """Logit-normal noise-level sampling while training (mean < 0: more noisy samples)."""
    min_noise: float = 0.05
    fg_weight: float = 3.0
    """Extra loss weight on the patches the character covers (the motion is there)."""
    spatial_rep: bool = False
    """Add the representation's first-frame grid, resized to the token grid, to every
    time slice's tokens (a spatially aligned path beside adaLN and cross-attention)."""
    text_cond: bool = False
    """Also condition adaLN on the mean of the representation's text tokens alone (the motion
    lives there; the pooled vector over all tokens dilutes it with the image grid)."""
    refine: int = 0
    """Channels of a small per-frame conv net that refines the per-token head's pixels across
    patch borders, from those pixels and the noisy input (0: none, as the first leases)."""
    loss_space: str = "velocity"
    """``velocity``: the x-prediction error divided by the noise left (the rectified flow's
    velocity loss); ``x``: the plain clean-clip error (more weight on noisy samples' layout)."""
    motion_path: str = ""
    """A conditioning path from the mean of the representation's text tokens (where the encoder's
    motion loss puts the motion) that differs from one time slice of tokens to the next, so the
    decoder is told how each part of the clip should differ from the others: ``tokens`` adds a
    per-slice vector to every token of that slice; ``adaln`` adds it to the adaLN conditioning of
    that slice (per-frame modulation). ``""``: none (as the shipped weights). Zero-initialised."""
    temporal_loss: float = 0.0
    """Weight of an extra loss on the differences between consecutive frames (prediction against
    clip, same pixel weights and noise-level weighting as the main loss): the frame-to-frame
    change is a small share of a clip's pixels, so the plain loss barely asks for it (0: off)."""


@dataclass(frozen=True)
class JudgeConfig:
    """The evaluation classifier (motion, location, character, time) on sketch clips."""

    height: int = 64
    width: int = 96
    frames: int = 9
    channels: tuple[int, ...] = (32, 64, 128, 192)


@dataclass(frozen=True)
class ModelConfig:
    """Everything the engine needs to rebuild the networks (stored as config.json)."""

    video: VideoSpec = field(default_factory=VideoSpec)
    representation: RepresentationConfig = field(default_factory=RepresentationConfig)
    encoder: EncoderConfig = field(default_factory=EncoderConfig)
    lm: LMConfig = field(default_factory=LMConfig)
    decoder: DecoderConfig = field(default_factory=DecoderConfig)
    judge: JudgeConfig = field(default_factory=JudgeConfig)
    vocab_size: int = 1024


@dataclass(frozen=True)
class DataConfig:
    train_episodes: int = 12000
    """Rendered episodes (clips for the decoder, representations for the LM)."""
    text_episodes: int = 40000
    """Extra episodes without clips: state targets only."""
    eval_episodes: int = 256
    turns: int = 3
    heldout_fraction: float = 0.1
    seed: int = 14
    workers: int = 0
    """Processes that render (0: all cores)."""


@dataclass(frozen=True)
class StageConfig:
    steps: int = 1000
    batch: int = 64
    lr: float = 3e-4
    warmup: int = 200
    minutes: float = 0.0
    """Wall-clock cap for the stage (0: none); the stage ends at steps or minutes."""
    ema: float = 0.999
    log_every: int = 50
    token_noise: float = 0.0
    """LM stage: share of the instruction's tokens replaced by random word tokens or
    ``<unk>`` in each batch, so that the LM finds the content words whatever the phrasing
    around them."""


@dataclass(frozen=True)
class TrainConfig:
    name: str = "mini"
    seed: int = 14
    model: ModelConfig = field(default_factory=ModelConfig)
    data: DataConfig = field(default_factory=DataConfig)
    decoder_stage: StageConfig = field(default_factory=StageConfig)
    lm_stage: StageConfig = field(default_factory=StageConfig)
    adapt_stage: StageConfig = field(default_factory=StageConfig)
    judge_stage: StageConfig = field(default_factory=StageConfig)
    checkpoint_minutes: float = 3.0
    eval_steps: int = 4
    compile: bool = False
    rendered_episodes: int = 0
    """Render only this many of the training episodes (0: all): a short lease spends less of
    itself on rendering. The episodes themselves (and the text cache) do not change."""
    encoder_motion_loss: float = 0.0
    """Weight of an auxiliary loss in the decoder stage: the motion and the motion level
    classified from the mean of the representation's text tokens (a training-only linear
    head), so that the representation carries the motion from the start instead of waiting
    for the decoder to ask for it (0: off, as in the first leases)."""
    freeze_encoder: bool = False
    """Keep the clip encoder fixed in the decoder stage (a lease that trains the decoder but
    keeps the LM: the LM predicts the encoder's representations, so they must not move)."""
    render_before_training: bool = False
    """Render every training clip before the first step (else the decoder starts on the clips
    already there while the rest arrive)."""


T = TypeVar("T")


def from_dict(cls: type[T], data: dict[str, Any]) -> T:
    """A (nested) config dataclass from a dict; unknown keys are refused by name."""
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls} is not a dataclass")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = set(data) - set(fields)
    if unknown:
        raise ValueError(f"{cls.__name__} has no field(s) {sorted(unknown)}")
    values: dict[str, Any] = {}
    for name, value in data.items():
        spec = fields[name]
        factory = spec.default_factory
        default = factory() if callable(factory) else spec.default
        if dataclasses.is_dataclass(default) and isinstance(value, dict):
            values[name] = from_dict(type(default), value)
        elif isinstance(default, tuple) and isinstance(value, list):
            values[name] = tuple(value)
        else:
            values[name] = value
    return cls(**values)


def to_dict(config: Any) -> dict[str, Any]:
    return dataclasses.asdict(config)


def load_train_config(path: str | Path) -> TrainConfig:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return from_dict(TrainConfig, data)


def named_config(name: str) -> Path:
    """``configs/<name>.json`` beside this module (``tiny``, ``h200``)."""
    path = CONFIG_DIR / f"{name}.json"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in CONFIG_DIR.glob("*.json")))
        raise FileNotFoundError(f"No mini training config {name!r} (known: {known}).")
    return path
