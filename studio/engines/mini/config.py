"""Configuration of the mini model and of its training, read from and written to JSON.

Plain dataclasses (no torch): the training command reads a config file
(``studio/engines/mini/configs/*.json``), the checkpoint folder stores the model part as
``config.json`` so that the engine rebuilds exactly the networks the weights belong to.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import UnionType
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

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
    """Channels of a small per-frame conv net that refines the per-token head's output across
    patch borders, from that output, the noisy input and the flow time (0: none, as the
    shipped decoders). On the shipped latent it is cheap (64 channels: 0.45 GFLOP a forward, 3 %
    of the 12-block DiT's 16.7) and sees every latent cell, where a token covers 2 x 2 of them."""
    loss_space: str = "velocity"
    """``velocity``: the x-prediction error divided by the noise left (the rectified flow's
    velocity loss); ``x``: the plain clean-clip error (more weight on noisy samples' layout);
    ``out``: divided by ``c_out(t)`` squared, the error of the ``skip`` network's own output (EDM's
    weighting: every flow time's target of unit variance)."""
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
    param: str = "x"
    """What the network's output is: ``x``, the clean canvas itself (as the shipped decoders);
    ``skip``, preconditioned as EDM's: the prediction is ``c_skip(t) * noisy + c_out(t) * F`` with
    the network's input scaled to unit variance, so that near the clip (t -> 1) keeping the
    noisy input costs nothing and the network only adds what is missing (a plain x-prediction
    must rebuild every detail there through its patch tokens, and smooths them)."""
    channel_norm: bool = False
    """Measure each latent channel's mean and spread over the training clips (the model's
    ``latent_mean`` / ``latent_std``) instead of one spread for all: with one spread, a flow time
    leaves channels at signal-to-noise ratios up to 12 times apart."""
    kind: str = "dit"
    """The network: ``dit`` (:class:`.decoder.VideoDiT`, the fields above) or ``unet``
    (:class:`.unet.VideoUNet`: convolutions at the latent's own resolution, space-time attention
    at the coarser levels; ``widths``, ``attn_levels`` and ``mid_blocks`` below, ``hidden`` the
    conditioning's width, ``heads`` and ``mlp_ratio`` its attention blocks')."""
    widths: tuple[int, ...] = (96, 192, 256)
    """The U-Net's channels per level; each level after the first halves the space."""
    attn_levels: int = 2
    """How many of the U-Net's coarsest levels also have a space-time transformer block (down
    and up)."""
    mid_blocks: int = 1
    """Transformer blocks in the U-Net's middle, at its coarsest level."""


@dataclass(frozen=True)
class JudgeConfig:
    """The evaluation classifier (motion, location, character, time) on sketch clips."""

    height: int = 64
    width: int = 96
    frames: int = 9
    channels: tuple[int, ...] = (32, 64, 128, 192)


@dataclass(frozen=True)
class LatentConfig:
    """Shape of the latent video autoencoder (``latent_ae.VideoAutoencoder``).

    ``channels[i]`` is the width at level ``i``; level 0 runs at ``1 / patch`` of the clip's
    size and each further level halves it, so ``spatial = patch * 2 ** (len(channels) - 1)``.
    """

    channels: tuple[int, ...] = (32, 64)
    patch: int = 2
    """Pixels per side folded into channels before the first convolution."""
    temporal: int = 4
    """Frames per latent frame after the first (a power of two: 1, 2, 4, ...)."""
    latent_channels: int = 16
    blocks: int = 1
    """ResNet blocks per level (encoder and decoder each)."""
    temporal_blocks: int = 1
    """(2+1)-D causal blocks after each temporal down-sampling (and before each up-sampling)."""
    temporal_kernel: int = 3
    groups: int = 8

    def __post_init__(self) -> None:
        if self.temporal < 1 or self.temporal & (self.temporal - 1):
            raise ValueError(f"temporal factor must be a power of two, not {self.temporal}")
        if any(c % self.groups for c in self.channels):
            raise ValueError(f"channels {self.channels} must be multiples of groups {self.groups}")

    @property
    def spatial(self) -> int:
        """Spatial down-sampling factor of the latent grid."""
        return self.patch << (len(self.channels) - 1)

    def latent_shape(self, frames: int, height: int, width: int) -> tuple[int, int, int, int]:
        """(C, T, H, W) of the latent of a clip of this size."""
        if (frames - 1) % self.temporal or height % self.spatial or width % self.spatial:
            raise ValueError(f"a {frames} x {height} x {width} clip does not fit factors "
                             f"{self.temporal} (time, 1 + k x factor frames) and {self.spatial} (space)")
        return (self.latent_channels, 1 + (frames - 1) // self.temporal, height // self.spatial,
                width // self.spatial)


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
    latent: LatentConfig | None = None
    """The decoder's canvas: ``None``, pixels (as the first leases); else the DiT works on this
    autoencoder's latent and the autoencoder's decoder turns it into pixels."""
    latent_scale: float = 1.0
    """The latents' standard deviation over the training clips: the DiT sees ``latent /
    latent_scale`` (about unit variance, as its noise), and its samples are multiplied back."""
    latent_mean: tuple[float, ...] = ()
    latent_std: tuple[float, ...] = ()
    """Per-channel mean and spread of the latents over the training clips (``decoder.channel_norm``;
    empty: one spread, ``latent_scale``, for every channel, as the shipped decoders): the canvas is
    ``(latent - mean) / std`` channel by channel (:mod:`.canvas`)."""
    critic: tuple[int, ...] = ()
    """The motion critic's widths when the checkpoint ships one (``critic.safetensors``; empty:
    none). The engine then samples several candidate clips on request and keeps the one whose
    motion, as the critic reads it, best matches the motion the LM predicted."""

    def canvas(self) -> tuple[int, int, int, int]:
        """(C, T, H, W) of what the decoder makes: the clip's pixels, or its latent."""
        video = self.video
        if self.latent is None:
            return (3, video.frames, video.height, video.width)
        return self.latent.latent_shape(video.frames, video.height, video.width)


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
class AutoencoderTraining:
    """The autoencoder stage's recipe beyond its :class:`StageConfig`: random training windows
    (the network is convolutional and causal, so a window is a valid shorter clip; ``crop_frames``
    is ``1 + temporal * k``, the crop a multiple of the latent's ``spatial``) and the loss (the
    field names of ``latent_experiment.Variant``, which shares the windows and the loss)."""

    crop_frames: int = 9
    crop_height: int = 64
    crop_width: int = 96
    on_character: float = 0.5
    """Share of windows centred on a cell the character occupies."""
    loss: str = "l2"
    """Per-pixel reconstruction loss: ``l1`` or ``l2``."""
    fg_weight: float = 0.0
    """Extra weight on the character's region (pixel weight 1 + fg_weight inside it)."""
    temporal_weight: float = 0.0
    """Weight of the same loss on frame-to-frame differences."""
    temporal_loss: str = ""
    latent_penalty: float = 1e-4
    """L2 on the latent: keeps its scale bounded for the DiT (instead of a KL term)."""
    encode_batch: int = 64
    """Clips per batch when the training clips are encoded into the latent table."""


@dataclass(frozen=True)
class DistillTraining:
    """The distillation stage's recipe beyond its :class:`StageConfig` (see :mod:`.distill`)."""

    student_steps: int = 4
    """The sampling steps the student learns to make (the engine's default is 4)."""
    teacher_steps: int = 16
    """The teacher's sampling steps; a multiple of ``student_steps``."""
    guidance: float = 1.0
    """The teacher's classifier-free guidance (1: none); the student learns it without the
    unconditional pass, so guidance costs nothing at sampling time."""


@dataclass(frozen=True)
class AdversaryTraining:
    """The distillation's adversary (:mod:`.adversary`): a discriminator of latent canvases,
    conditioned on the motion, that tells the training clips from the student's predictions;
    its term asks the student for canvases it cannot tell apart."""

    balance: float = 0.0
    """The adversary term's gradient on the student's prediction, as a multiple of the
    distillation's squared error's (0: no adversary)."""
    widths: tuple[int, ...] = (48, 64, 96, 128)
    """Its 3-D convolution levels (the motion critic's layout; it starts from the trained critic
    when the widths agree)."""
    lr: float = 1e-4
    noise: float = 0.3
    """Most Gaussian noise mixed into the canvases it reads (a share, uniform per clip), real
    and predicted alike, so that it cannot tell them apart by single latent cells."""
    warmup: int = 50
    """Distillation steps in which only the discriminator trains (its term is off)."""
    stages: tuple[str, ...] = ("distill",)
    """The stages whose loss carries the term: ``distill``, and ``decoder`` and ``adapt`` for the
    teacher's own flow loss (there it reads the decoder's clean-canvas prediction at each
    sampled flow time, for the clips whose conditioning was kept)."""
    first_frame: bool = False
    """The discriminator also reads the turn's true first latent frame beside the canvas's later
    frames (real and predicted alike), so that it judges the motion of this character in this
    place rather than of any; the canvas's own first frame is then not read (beside the true
    one a real clip would be told by its first frame alone)."""


@dataclass(frozen=True)
class CriticTraining:
    """The motion critic (:mod:`.critic`): a small classifier of the motion on the decoder's
    canvas, trained in the ``critic`` stage, then a term in the decoder's stages' loss."""

    widths: tuple[int, ...] = (48, 64, 96, 128)
    """Channels of its 3-D convolution levels (the second halves the space, the later ones
    halve time and space)."""
    noise: float = 0.3
    """Most Gaussian noise mixed into a canvas while the critic trains (a share, uniform per clip)."""
    balance: float = 0.0
    """The critic term's gradient on the decoder's prediction, as a multiple of the squared
    error's (0: no critic term)."""
    feature_weight: float = 1.0
    """Weight of the feature match beside the motion's cross-entropy inside the critic term."""
    in_distill: bool = False
    """Also add the term in the distillation stage (the teacher's final canvas as the clip)."""
    split: bool = False
    """Train the critic on the even training rows only, so that the motion focus can read the
    decoder's samples of odd rows, turns the critic never saw: a critic that has memorised a
    turn reads its motion from the place and the character and misses what the decoder lacks."""


@dataclass(frozen=True)
class PolishTraining:
    """The ``polish`` stage's recipe beyond its :class:`StageConfig`: the autoencoder's decoder
    tuned to turn what the (distilled) video decoder makes into the clips it should have made.

    The video decoder's last sampling step returns its clean-canvas prediction from the
    trajectory at flow time 0.5 (4 steps), which is softer than a true latent; the autoencoder's
    decoder was trained on true latents only, and reading the motion of its clips falls fast
    with any departure from them (the motion of held-out ground truth read 0.97 through the
    autoencoder, 0.80 with Gaussian noise of a third of the latent's spread added). So it learns
    from pairs of (the video decoder's prediction from the true canvas mixed with noise at one
    of ``times``, the true clip), and from true canvases with noise added."""

    times: tuple[float, ...] = (0.5,)
    """Flow times of the video decoder's predictions (0: noise, 1: the clip)."""
    noise_share: float = 0.25
    """Share of each batch given the true canvas with Gaussian noise instead."""
    noise: float = 0.5
    """Most noise (uniform per clip, in the canvas's units) on those true canvases."""
    blur_share: float = 0.0
    """Share of each batch given the true canvas smoothed: mixed, by a share uniform per clip,
    with its average over 2 x 2 latent cells (a prediction made under doubt is such an average;
    decoding that average read the motion of held-out ground truth at 0.07)."""


@dataclass(frozen=True)
class TrainConfig:
    name: str = "mini"
    seed: int = 14
    model: ModelConfig = field(default_factory=ModelConfig)
    data: DataConfig = field(default_factory=DataConfig)
    autoencoder_stage: StageConfig = field(default_factory=StageConfig)
    """Trains ``model.latent``'s autoencoder (skipped when the model has no latent)."""
    autoencoder: AutoencoderTraining = field(default_factory=AutoencoderTraining)
    decoder_stage: StageConfig = field(default_factory=StageConfig)
    lm_stage: StageConfig = field(default_factory=StageConfig)
    adapt_stage: StageConfig = field(default_factory=StageConfig)
    judge_stage: StageConfig = field(default_factory=StageConfig)
    distill_stage: StageConfig = field(default_factory=lambda: StageConfig(steps=0))
    """Few-step distillation of the adapted decoder (0 steps, the default: skipped)."""
    distill: DistillTraining = field(default_factory=DistillTraining)
    critic_stage: StageConfig = field(default_factory=lambda: StageConfig(steps=0))
    """Trains the motion critic (0 steps, the default: skipped, and no critic term)."""
    critic: CriticTraining = field(default_factory=CriticTraining)
    adversary: AdversaryTraining = field(default_factory=AdversaryTraining)
    """An adversarial term in the distillation (off unless its balance is above 0)."""
    polish_stage: StageConfig = field(default_factory=lambda: StageConfig(steps=0))
    """Tunes the autoencoder's decoder on the video decoder's predictions (0 steps, the
    default: skipped)."""
    polish: PolishTraining = field(default_factory=PolishTraining)
    checkpoint_minutes: float = 3.0
    eval_steps: int = 4
    eval_guidance: float = 1.0
    """Classifier-free guidance of the evaluation's sampler (1: none, as the engine's default)."""
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
    motion_focus: float = 0.0
    """Share of each decoder and adaptation batch drawn by motion, in proportion to how often the
    motion critic misreads the decoder's own samples of it on training turns (0: uniform
    batches, as before; see :mod:`.motion_focus`). Needs the critic stage."""
    motion_focus_turns: int = 2048
    """Training turns sampled to measure the misreading."""
    int8_decoder_blocks: bool = False
    """Export the decoder blocks' matrices as int8 with row scales (half the bytes of fp16:
    room under the checkpoint's size cap for a larger decoder)."""
    int8_lm: bool = False
    """Export the LM's matrices as int8 too (its file from 6.5 to 3.3 MB at the shipped size;
    the state measures on 600 held-out turns of two seeds the same within one turn)."""


T = TypeVar("T")


def _nested_dataclass(hint: Any) -> type | None:
    """The dataclass a field's type names, alone or in an optional (``X | None``), else None."""
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return hint
    if get_origin(hint) in (Union, UnionType):
        found = [a for a in get_args(hint) if isinstance(a, type) and dataclasses.is_dataclass(a)]
        return found[0] if len(found) == 1 else None
    return None


def from_dict(cls: type[T], data: dict[str, Any]) -> T:
    """A (nested) config dataclass from a dict; unknown keys are refused by name. A dict for a
    field whose type is a dataclass (also ``X | None``, default None) becomes that dataclass."""
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls} is not a dataclass")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = set(data) - set(fields)
    if unknown:
        raise ValueError(f"{cls.__name__} has no field(s) {sorted(unknown)}")
    hints = get_type_hints(cls)
    values: dict[str, Any] = {}
    for name, value in data.items():
        spec = fields[name]
        factory = spec.default_factory
        default = factory() if callable(factory) else spec.default
        nested = type(default) if dataclasses.is_dataclass(default) else _nested_dataclass(hints.get(name))
        if nested is not None and isinstance(value, dict):
            values[name] = from_dict(nested, value)
        elif isinstance(default, tuple) and isinstance(value, list):
            values[name] = tuple(value)
        else:
            values[name] = value
    return cls(**values)


def check_values(config: Any, where: str = "") -> None:
    """Refuse, by dotted field name, a value of ``config`` (a nested config dataclass, as
    :func:`from_dict` makes it from a hand-edited JSON file) that its field's type does not allow:
    a whole number that is text, a fraction, a boolean or below 0; a number that is not finite;
    a group of fields that is not one; a tuple of the wrong length or items. A model built from
    such a value would fail deep inside torch with a message that names neither field nor file."""
    hints = get_type_hints(type(config))
    for spec in dataclasses.fields(config):
        _check_value(getattr(config, spec.name), hints[spec.name], f"{where}{spec.name}")


MAX_DEPTH = 256
"""Most layers or blocks a network of the mini config may stack (the shipped ones have 12 at most):
a config edited to millions would take minutes to build before its weights could be compared."""
MAX_CANVAS = 1 << 24
"""Most frames x height x width of the clips a mini model makes (40 times the shipped 17 x 128 x 192)."""
DEPTH_FIELDS = (("encoder", "text_layers"), ("lm", "layers"), ("decoder", "layers"), ("decoder", "mid_blocks"),
                ("decoder", "attn_levels"), ("latent", "blocks"), ("latent", "temporal_blocks"))


def check_limits(config: ModelConfig) -> None:
    """Refuse sizes no mini model has (see :data:`MAX_DEPTH`, :data:`MAX_CANVAS`), after :func:`check_values`."""
    for group, name in DEPTH_FIELDS:
        part = getattr(config, group)
        value = getattr(part, name) if part is not None else 0
        if value > MAX_DEPTH:
            raise ValueError(f"model.{group}.{name} is {value:,}; a mini model has at most {MAX_DEPTH}")
    for group in ("encoder", "decoder", "judge", "latent"):
        part = getattr(config, group)
        for name in ("channels", "widths"):
            value = getattr(part, name, ()) if part is not None else ()
            if len(value) > MAX_DEPTH:
                raise ValueError(f"model.{group}.{name} lists {len(value):,} levels; at most {MAX_DEPTH}")
    _check_channel_stats(config)
    video = config.video
    if video.frames * video.height * video.width > MAX_CANVAS or min(video.frames, video.height, video.width) < 1:
        raise ValueError(f"model.video is {video.frames} frames of {video.height} x {video.width} pixels; a mini "
                         f"model makes 1 to {MAX_CANVAS:,} frames x height x width")


def _check_channel_stats(config: ModelConfig) -> None:
    """``latent_mean`` and ``latent_std`` are both empty, or hold one value per latent channel
    (each spread above 0): a canvas scaled by the wrong number of channels fails inside torch."""
    mean, std = config.latent_mean, config.latent_std
    if not mean and not std:
        return
    channels = config.latent.latent_channels if config.latent is not None else 0
    if not channels:
        raise ValueError("model.latent_mean and model.latent_std are for a latent decoder; this model has no latent")
    for name, values in (("latent_mean", mean), ("latent_std", std)):
        if len(values) != channels:
            raise ValueError(f"model.{name} holds {len(values)} values; the latent has {channels} channels")
    if min(std) <= 0:
        raise ValueError(f"model.latent_std should be above 0 for every channel, not {min(std)}")


def _check_value(value: Any, hint: Any, where: str) -> None:
    origin = get_origin(hint)
    if origin in (Union, UnionType):
        options = [a for a in get_args(hint) if a is not type(None)]
        if value is None and len(options) < len(get_args(hint)):
            return
        if len(options) == 1:
            _check_value(value, options[0], where)
        return
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, hint):
            raise ValueError(f"{where} should be a group of fields ({{...}}), not {value!r}")
        check_values(value, where + ".")
        return
    if origin is tuple:
        if not isinstance(value, tuple):
            raise ValueError(f"{where} should be a list, not {value!r}")
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            items = [args[0]] * len(value)
        elif len(value) != len(args):
            raise ValueError(f"{where} should hold {len(args)} values, not {len(value)} ({list(value)})")
        else:
            items = list(args)
        for index, (item, item_hint) in enumerate(zip(value, items, strict=True)):
            _check_value(item, item_hint, f"{where}[{index}]")
        return
    if hint is bool:
        if not isinstance(value, bool):
            raise ValueError(f"{where} should be true or false, not {value!r}")
    elif hint is int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{where} should be a whole number, 0 or more, not {value!r}")
    elif hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"{where} should be a finite number, not {value!r}")
    elif hint is str and not isinstance(value, str):
        raise ValueError(f"{where} should be text, not {value!r}")


def to_dict(config: Any) -> dict[str, Any]:
    return dataclasses.asdict(config)


def load_train_config(path: str | Path, overrides: Sequence[str] = ()) -> TrainConfig:
    """The config in ``path``, with ``overrides`` (``critic.balance=1.0``, ``data.workers=8``:
    dotted field names, JSON values, a bare word taken as a string) applied on top, so that a
    variant of a recipe can run beside it without a config file of its own."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    for override in overrides:
        _apply_override(data, override)
    config = from_dict(TrainConfig, data)
    for override in overrides:
        _check_override_type(config, override.partition("=")[0])
    return config


def _check_override_type(config: TrainConfig, key: str) -> None:
    """An overridden field must hold what its default holds (a number for a number...)."""
    default: Any = TrainConfig()
    value: Any = config
    for name in key.split("."):
        default, value = getattr(default, name.strip(), None), getattr(value, name.strip())
    if dataclasses.is_dataclass(default):
        if not dataclasses.is_dataclass(value):
            raise ValueError(f"{key} is a group of fields: set one of them (e.g. {key}.FIELD=VALUE)")
        return
    if default is None:
        return
    expected = type(default)
    fits = isinstance(value, expected) or (expected is float and isinstance(value, int))
    if isinstance(value, bool) and expected is not bool:
        fits = False
    if not fits:
        raise ValueError(f"{key} takes a {expected.__name__}, not {value!r}")


def _apply_override(data: dict[str, Any], override: str) -> None:
    key, sep, text = override.partition("=")
    names = [name.strip() for name in key.split(".")]
    if not sep or not all(names):
        raise ValueError(f"a config override is written FIELD=VALUE (e.g. critic.balance=1.0), not {override!r}")
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = text
    place = data
    for name in names[:-1]:
        nested = place.setdefault(name, {})
        if not isinstance(nested, dict):
            raise ValueError(f"{key}: {name} is a value, not a group of fields")
        place = nested
    place[names[-1]] = value


def named_config(name: str) -> Path:
    """``configs/<name>.json`` beside this module (``tiny``, ``h200``)."""
    path = CONFIG_DIR / f"{name}.json"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in CONFIG_DIR.glob("*.json")))
        raise FileNotFoundError(f"No mini training config {name!r} (known: {known}).")
    return path
