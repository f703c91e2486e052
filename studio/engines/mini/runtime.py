"""The trained mini model at work: the LM's prediction and the decoder's sampling, batched.

Used by the engine (one turn at a time, with progress and cancel), by the training's
evaluation and by ``kamishibai eval mini`` (many turns at once).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import torch
from torch import nn

from studio.core.progress import CancelCheck, check_cancelled, never_cancelled
from studio.engines.base import EngineLoadError, generator_seed
from studio.engines.mini import weights
from studio.engines.mini.canvas import from_canvas
from studio.engines.mini.config import ModelConfig
from studio.engines.mini.critic import MotionCritic
from studio.engines.mini.data import LOCATION_NAMES, MOTION_NAMES, TIMES, characters
from studio.engines.mini.decoder import sample
from studio.engines.mini.decoders import DecoderNet, build_decoder
from studio.engines.mini.lm import LMBatch, MiniLM, collate
from studio.engines.mini.sequence import FIELD_INDEX, PastTurn, build_input, value_order
from studio.engines.mini.tokenizer import PAD, Vocab, decode_delta, decode_level

PREDICT_STEPS = 5
"""Forward passes of one prediction: the motion level, three deltas, the representation."""


@dataclass(frozen=True)
class TurnQuery:
    """What the LM reads for one turn. ``state`` is (stamina, social, entertainment)."""

    text: str
    state: tuple[int, int, int]
    history: tuple[PastTurn, ...] = ()
    level_caps: Mapping[str, int] = field(default_factory=dict)
    """The highest level a motion is drawn at, by its name (an exhausted character's strenuous
    motions: :func:`~studio.engines.mini.world_rules.level_caps`): where the motion the LM reads
    is one of them, a level it chooses above is lowered to it before it predicts the deltas and
    the representation, which then follow the level drawn."""


@dataclass(frozen=True)
class TurnOutput:
    level: int
    deltas: tuple[int, int, int]
    """(stamina, social, entertainment)"""
    representation: np.ndarray
    motions: tuple[tuple[str, float], ...] = ()
    """The motions the LM's auxiliary head reads in the instruction, most likely first, with
    their probabilities (:data:`MOTION_CHOICES` at most, each at least :data:`MOTION_FLOOR`;
    empty for an LM without that head). The decoder's candidates are judged against them."""
    reading: tuple[tuple[str, str], ...] = ()
    """The most likely motion, place, character and time of day by the LM's auxiliary heads,
    under the sketch engine's conditioning keys (``motion``, ``location``, ``character``,
    ``time_of_day``): what the model understood the instruction to ask for (empty without the heads)."""
    asked_level: int = 0
    """The level the LM chose before :attr:`TurnQuery.level_caps` lowered it (0: not lowered)."""


READING_KEYS = ("motion", "location", "character", "time_of_day")
"""The keys of :attr:`TurnOutput.reading`, in the order of the LM's auxiliary heads."""
MOTION_CHOICES = 5
MOTION_FLOOR = 0.01


StepHook = Callable[[int], None]
PreviewHook = Callable[[int, np.ndarray], None]
"""Given a preview of the clip after a denoising step: that step (1-based) and its frames."""

PREVIEW_SHARE = 0.08
"""The most of a clip's decoding time its previews may take. Each costs a small decode: about
0.1 s against a denoising step's 0.5 s (one thread of a two-core Xeon, float32, shipped model),
so a clip of the default 4 steps sends one after each of its first three (about 8 % of a turn),
and a clip whose previews cost more, relative to its steps, sends fewer."""
PREVIEW_SHRINK = 2
"""A preview's sides are the clip's over this (64 x 96 for the shipped model's 128 x 192)."""
PREVIEW_MIN_SIDE = 4
"""A canvas side below this twice over is previewed at its own size."""


class PreviewPacer:
    """Which denoising steps send a preview: none after the last step (the clip comes next), the
    first step when no preview was timed yet, and later ones only while the previews' time (the
    ``cost`` of the last one, measured) stays within :data:`PREVIEW_SHARE` of the clip's decoding
    time, projected from its steps so far (its steps, and the final decode of about one more)."""

    def __init__(self, steps: int, cost: float | None = None, clock: Callable[[], float] = time.perf_counter) -> None:
        self.steps = steps
        self.cost = cost
        """Seconds the last preview took (None: none was made yet)."""
        self.spent = 0.0
        self._clock = clock
        self._began = clock()

    def due(self, index: int) -> bool:
        """Whether step ``index`` (0-based, just done) sends a preview."""
        if index >= self.steps - 1:
            return False
        if self.cost is None:
            return True
        denoising = self._clock() - self._began - self.spent
        projected = denoising / (index + 1) * (self.steps + 1)
        return self.spent + self.cost <= PREVIEW_SHARE * projected

    def made(self, seconds: float) -> None:
        """A preview was made in ``seconds``."""
        self.spent += seconds
        self.cost = seconds


def cpu_has_native_bfloat16() -> bool:
    """Whether this CPU computes bfloat16 in hardware (x86's AVX-512 BF16 or AMX). There, the
    decoder under bfloat16 autocast runs a turn about 1.5 times as fast as in float32, its frames
    within about half a level of 255 of float32's; elsewhere bfloat16 is emulated and slower."""
    for name in ("_is_avx512_bf16_supported", "_is_amx_tile_supported"):
        probe = getattr(torch.cpu, name, None)
        try:
            if callable(probe) and probe():
                return True
        except RuntimeError:
            continue
    return False


def default_decoder_dtype(device: torch.device) -> torch.dtype:
    """The decoder's compute type when the user has not chosen one: bfloat16 on a GPU and on a
    CPU that computes it in hardware, else float32."""
    if device.type == "cuda" or (device.type == "cpu" and cpu_has_native_bfloat16()):
        return torch.bfloat16
    return torch.float32


def autocasts(device: torch.device, dtype: torch.dtype) -> bool:
    """Whether the decoder runs under autocast for ``dtype`` on ``device``: any lower type on a
    GPU, bfloat16 on a CPU (float16 on a CPU stays float32: PyTorch's CPU float16 is slow)."""
    if dtype == torch.float32:
        return False
    return device.type == "cuda" or (device.type == "cpu" and dtype == torch.bfloat16)


def load_vocab(path: Path) -> Vocab:
    """The tokenizer in ``path``, with every special token the model's sequences use."""
    try:
        vocab = Vocab.load(path)
        vocab.special_ids()
    except KeyError as error:  # a tokenizer without one of our special tokens
        raise EngineLoadError(f"{path} is not the mini model's tokenizer: {error.args[0]}.",
                              hint=weights.RESTORE) from None
    except Exception as error:  # the tokenizers library raises a bare Exception for a bad file
        raise EngineLoadError(f"{path} is not a readable tokenizer file: {error}.", hint=weights.RESTORE) from None
    return vocab


_M = TypeVar("_M", bound=nn.Module)


def build_checked(build: Callable[[], _M], state: Mapping[str, torch.Tensor], path: Path, folder: Path,
                  parts: Sequence[tuple[Path, Mapping[str, torch.Tensor]]] = (),
                  split: Callable[[Mapping[str, torch.Tensor]], Sequence[Mapping[str, torch.Tensor]]] | None = None
                  ) -> _M:
    """``build()``, the network config.json describes, once its tensor shapes are known to fit
    the weights in ``path`` (``state``): a shell on the meta device is compared first, so that a
    config edited to absurd sizes is refused before any memory is taken, and a config no network
    can be built from is reported with the file, not as an error from deep inside torch.

    A network stored in several files gives them as ``parts`` (each file and its tensors, in the
    order ``split`` divides the network's own tensors among them): each file is compared with its
    own share, so that a mismatch names the file that holds it."""
    config_path = folder / weights.CONFIG
    try:
        with torch.device("meta"):
            shell = build()
    except Exception as error:
        raise EngineLoadError(f"{config_path} describes a network that can't be built: {str(error).rstrip('.')}.",
                              hint=weights.RESTORE) from None
    own = shell.state_dict()
    shares: list[tuple[Path, Mapping[str, torch.Tensor], Mapping[str, torch.Tensor]]] = [(path, own, state)]
    if parts and split is not None:
        shares = [(file, share, found) for (file, found), share in zip(parts, split(own), strict=True)]
    del shell
    for file, expected, found in shares:
        details = weights.state_mismatch({k: tuple(v.shape) for k, v in expected.items()},
                                         {k: tuple(v.shape) for k, v in found.items()})
        if details:
            raise EngineLoadError(f"{file} does not fit the model in its config.json: {details}.",
                                  hint="Keep the config.json that came with these weights (or restore "
                                       "checkpoints/mini/ from the repository).")
        weights.check_kinds({k: v.dtype for k, v in expected.items()}, found, file)
    try:
        return build()
    except Exception as error:
        raise EngineLoadError(f"{config_path} describes a network that can't be built: {str(error).rstrip('.')}.",
                              hint=weights.RESTORE) from None


class MiniRuntime:
    """The tokenizer, the LM and the decoder, on their devices. Weights stay in float32;
    ``decoder_dtype`` below float32 runs the decoder under autocast (:func:`autocasts`). With a latent
    in the config, ``latent_decoder`` (the autoencoder's decoder half, on the decoder's device)
    turns the DiT's latents into pixels. With a ``critic`` (the motion critic, when the config
    lists one), :meth:`decode` can sample several candidates of a clip and keep one."""

    def __init__(self, config: ModelConfig, vocab: Vocab, lm: MiniLM, decoder: DecoderNet,
                 lm_device: torch.device, decoder_device: torch.device,
                 decoder_dtype: torch.dtype = torch.float32, latent_decoder: nn.Module | None = None,
                 critic: MotionCritic | None = None) -> None:
        if (config.latent is None) != (latent_decoder is None):
            raise ValueError("a latent config needs the autoencoder's decoder, a pixel config none")
        self.config = config
        self.vocab = vocab
        self.lm = lm.eval()
        self.decoder = decoder.eval()
        self.latent_decoder = latent_decoder.eval() if latent_decoder is not None else None
        self.lm_device = lm_device
        self.decoder_device = decoder_device
        self.decoder_dtype = decoder_dtype
        self.critic = critic.eval() if critic is not None else None
        self.preview_cost: float | None = None
        """Seconds the last preview took (the next clip's first preview is paced by it)."""

    # -- loading ----------------------------------------------------------------------------------
    @staticmethod
    def load_steps() -> int:
        return 6

    @classmethod
    def load(cls, folder: Path, lm_device: torch.device, decoder_device: torch.device,
             decoder_dtype: torch.dtype = torch.float32, step: StepHook | None = None,
             cancelled: CancelCheck = never_cancelled) -> MiniRuntime:
        """Read and check every engine file in ``folder``; ``step(k)`` after each of
        :meth:`load_steps` steps, ``cancelled`` polled between them."""
        def done(k: int) -> None:
            if step is not None:
                step(k)
            check_cancelled(cancelled)

        check_cancelled(cancelled)
        manifest = weights.read_manifest(folder)
        config = weights.model_config(manifest, folder)
        if config.decoder.channel_norm and config.latent is not None and not config.latent_std:
            # its decoder was trained on each channel's own statistics: under one spread its clips' colours are wrong
            raise EngineLoadError(f"{folder / weights.CONFIG} has a bad model config: decoder.channel_norm is on but "
                                  "model.latent_std and model.latent_mean are missing.", hint=weights.RESTORE)
        done(1)
        vocab = load_vocab(weights.verify_file(folder, weights.TOKENIZER, manifest))
        if vocab.size != config.vocab_size:
            raise EngineLoadError(f"{folder / weights.TOKENIZER} has {vocab.size} entries; the model was built "
                                  f"for {config.vocab_size}.", hint=weights.RESTORE)
        done(2)
        lm_path = weights.verify_file(folder, weights.LM, manifest)
        lm_state = weights.load_tensors(lm_path)
        done(3)
        lm = build_checked(lambda: MiniLM(config), lm_state, lm_path, folder)
        weights.load_into(lm, lm_state, lm_path)
        del lm_state
        lm = lm.to(lm_device)
        done(4)
        blocks_path = weights.verify_file(folder, weights.DECODER, manifest)
        io_path = weights.verify_file(folder, weights.DECODER_IO, manifest)
        blocks, rest = weights.load_tensors(blocks_path), weights.load_tensors(io_path)
        state = {**blocks, **rest}
        done(5)
        decoder = build_checked(lambda: build_decoder(config), state, blocks_path, folder,
                                parts=((blocks_path, blocks), (io_path, rest)),
                                split=lambda own: weights.split_decoder(own, config.decoder.kind))
        del blocks, rest
        weights.load_into(decoder, state, blocks_path)
        del state
        decoder = decoder.to(decoder_device)
        latent_decoder = cls._load_latent_decoder(folder, manifest, config, decoder_device)
        critic = cls._load_critic(folder, manifest, config, decoder_device)
        runtime = cls(config, vocab, lm, decoder, lm_device, decoder_device, decoder_dtype, latent_decoder, critic)
        if step is not None:
            step(6)
        return runtime

    @staticmethod
    def _load_latent_decoder(folder: Path, manifest: Mapping[str, Any], config: ModelConfig,
                             device: torch.device) -> nn.Module | None:
        """The autoencoder's decoder half from ``latent_decoder.safetensors`` (None: a pixel decoder)."""
        if config.latent is None:
            return None
        from studio.engines.mini.latent_ae import Decoder

        path = weights.verify_file(folder, weights.LATENT_DECODER, manifest)
        latent = config.latent
        module = build_checked(lambda: Decoder(latent), weights.load_tensors(path), path, folder)
        weights.load_float_into(module, path)
        return module.to(device)

    @staticmethod
    def _load_critic(folder: Path, manifest: Mapping[str, Any], config: ModelConfig,
                     device: torch.device) -> MotionCritic | None:
        """The motion critic from ``critic.safetensors``: None when the config lists none or the
        file is absent (it is optional: one candidate per turn then); refused when damaged."""
        if not config.critic or not (folder / weights.CRITIC).is_file():
            return None
        path = weights.verify_file(folder, weights.CRITIC, manifest)
        try:
            module = MotionCritic(config.canvas()[0], config.critic, len(MOTION_NAMES))
        except (ValueError, TypeError, RuntimeError, ZeroDivisionError) as error:
            raise EngineLoadError(f"{folder / weights.CONFIG} lists a critic that can't be built: {error}.",
                                  hint=weights.RESTORE) from None
        weights.load_float_into(module, path)
        return module.to(device)

    # -- predict ----------------------------------------------------------------------------------
    def inputs(self, queries: Sequence[TurnQuery]) -> LMBatch:
        cfg = self.config
        items = [build_input(self.vocab, history=q.history[-cfg.lm.history:] if cfg.lm.history else (),
                             state=q.state, text=q.text, tokens=cfg.representation.tokens,
                             max_instruction=cfg.lm.max_instruction) for q in queries]
        return collate(items, cfg.representation.tokens, cfg.representation.dim, self.vocab.id(PAD))

    @torch.no_grad()
    def predict(self, queries: Sequence[TurnQuery], *, temperature: float = 0.0, seed: int = 0,
                step: StepHook | None = None, cancelled: CancelCheck = never_cancelled) -> list[TurnOutput]:
        """The motion level, the deltas and the representation of each turn: the value tokens
        one after another (greedy, or sampled at ``temperature``), then the query block."""
        batch = self.inputs(queries).to(self.lm_device)
        generator = torch.Generator().manual_seed(generator_seed(seed))
        allowed = [torch.tensor(self.vocab.level_ids())] + [torch.tensor(self.vocab.delta_ids())] * 3
        rows = torch.arange(len(queries), device=self.lm_device)
        chosen: list[list[int]] = []
        motions: list[tuple[tuple[str, float], ...]] = [()] * len(queries)
        readings: list[tuple[tuple[str, str], ...]] = [()] * len(queries)
        asked = [0] * len(queries)
        for k in range(4):
            check_cancelled(cancelled)
            logits, _, aux = self.lm.forward_all(batch)
            if k == 0 and aux:  # read at the level's marker: the value tokens after it do not change it
                motions = [likely_motions(row) for row in torch.softmax(aux[0].float(), dim=-1).cpu()]
                readings = read_heads(aux)
            options = logits[:, k, allowed[k].to(self.lm_device)].float().cpu()
            if temperature > 0:
                pick = torch.multinomial(torch.softmax(options / temperature, dim=-1), 1, generator=generator)[:, 0]
            else:
                pick = options.argmax(dim=-1)
            tokens = allowed[k][pick]
            if k == 0:
                tokens = self._capped(queries, readings, tokens, asked)
            batch.ids[rows, batch.value_positions[:, k] + 1] = tokens.to(self.lm_device)
            chosen.append(tokens.tolist())
            if step is not None:
                step(k + 1)
        check_cancelled(cancelled)
        _, representation = self.lm(batch)
        reps = representation.float().cpu().numpy()
        if step is not None:
            step(PREDICT_STEPS)
        order = value_order()
        outputs = []
        for b in range(len(queries)):
            by_field = {name: decode_delta(self.vocab, chosen[1 + i][b]) for i, name in enumerate(order)}
            deltas = tuple(by_field[name] for name in sorted(FIELD_INDEX, key=FIELD_INDEX.__getitem__))
            outputs.append(TurnOutput(decode_level(self.vocab, chosen[0][b]), (deltas[0], deltas[1], deltas[2]),
                                      reps[b].astype(np.float32), motions[b], readings[b], asked[b]))
        return outputs

    def _capped(self, queries: Sequence[TurnQuery], readings: Sequence[tuple[tuple[str, str], ...]],
                tokens: torch.Tensor, asked: list[int]) -> torch.Tensor:
        """The level tokens ``tokens``, each lowered to its query's cap for the motion its LM reads
        (:attr:`TurnQuery.level_caps`); ``asked`` gets the level chosen where it was lowered."""
        out = tokens.clone()
        for b, query in enumerate(queries):
            motion = dict(readings[b]).get("motion", "") if readings[b] else ""
            cap = query.level_caps.get(motion) if query.level_caps else None
            level = decode_level(self.vocab, int(tokens[b]))
            if cap is not None and level > cap:
                out[b] = self.vocab.level_id(cap)
                asked[b] = level
        return out

    # -- decode -----------------------------------------------------------------------------------
    def noise(self, seeds: Sequence[int]) -> torch.Tensor:
        """One seeded noise canvas per seed (pixels, or the latent's shape)."""
        shape = self.decoder.canvas
        return torch.stack([torch.randn(shape, generator=torch.Generator().manual_seed(generator_seed(s)))
                            for s in seeds])

    @torch.no_grad()
    def decode(self, representations: np.ndarray | torch.Tensor, levels: Sequence[int], seeds: Sequence[int], *,
               steps: int, guidance: float = 1.0, candidates: int = 1,
               motions: Sequence[Sequence[tuple[str, float]]] | None = None, step: StepHook | None = None,
               cancelled: CancelCheck = never_cancelled, preview: PreviewHook | None = None) -> torch.Tensor:
        """uint8 clips (B, T, H, W, 3) at the native size. A latent decoder samples the latent,
        then the autoencoder's decoder makes its pixels (after the last step's hook).

        With ``candidates`` above 1, a critic and each clip's ``motions`` (:attr:`TurnOutput.motions`),
        each clip is sampled that many times (from :func:`candidate_seeds`, the first its own
        seed) and the candidate whose motion the critic reads most like ``motions`` is kept
        (:meth:`pick`); clips without motions keep their first candidate. Otherwise, and with
        ``candidates`` 1, one sample per clip, as before.

        With a ``preview`` hook, steps that :class:`PreviewPacer` picks are previewed (the first
        clip's first candidate, see :meth:`preview_frames`) before ``step`` is told of them; the
        clips are the same with previews or without."""
        device = self.decoder_device
        rep = torch.as_tensor(np.asarray(representations) if not isinstance(representations, torch.Tensor)
                              else representations).to(device, torch.float32)
        level = torch.tensor(list(levels), dtype=torch.long, device=device)
        if motions is not None and len(motions) != len(seeds):
            raise ValueError(f"{len(motions)} rows of motions for {len(seeds)} clips")
        judged = motions is not None and any(motions)  # a clip without motions keeps its first candidate
        count = candidates if candidates > 1 and self.critic is not None and judged else 1
        if count > 1:
            rep, level = rep.repeat(count, *([1] * (rep.ndim - 1))), level.repeat(count)
        noise = self.noise(candidate_seeds(seeds, count)).to(device)

        pacer = PreviewPacer(steps, self.preview_cost)

        def on_step(k: int, x: torch.Tensor) -> None:
            if preview is not None and pacer.due(k):
                began = time.perf_counter()
                frames = self.preview_frames(x[0])
                pacer.made(time.perf_counter() - began)
                self.preview_cost = pacer.cost
                preview(k + 1, frames)
            if step is not None:
                step(k + 1)
            if k + 1 < steps:
                check_cancelled(cancelled)

        check_cancelled(cancelled)
        lower = autocasts(device, self.decoder_dtype)
        with torch.autocast(device.type, dtype=self.decoder_dtype, enabled=lower):
            canvas = sample(self.decoder, rep, level, noise, steps, guidance, on_step,
                            clamp=self.latent_decoder is None)
            if count > 1:
                assert motions is not None
                canvas = canvas[self.pick(canvas, motions, count)]
            if self.latent_decoder is not None:
                canvas = self.latent_decoder(from_canvas(self.config, canvas))
        return to_uint8(canvas)

    @torch.no_grad()
    def preview_frames(self, canvas: torch.Tensor) -> np.ndarray:
        """uint8 frames (T, h, w, 3) of one clip's clean-canvas estimate ``canvas`` (C, T, H, W),
        cheaply: every other frame of the canvas, its sides shrunk by :data:`PREVIEW_SHRINK` (an
        average of each cell), then, for a latent, the autoencoder's decode of that small latent
        (9 frames of 64 x 96 for the shipped model). Never changes ``canvas``."""
        x = canvas[None, :, ::2].float()
        _b, _c, frames, height, width = x.shape
        if min(height, width) >= PREVIEW_MIN_SIDE * PREVIEW_SHRINK:
            size = (frames, height // PREVIEW_SHRINK, width // PREVIEW_SHRINK)
            x = torch.nn.functional.interpolate(x, size=size, mode="area")
        if self.latent_decoder is not None:
            x = self.latent_decoder(from_canvas(self.config, x.to(self.decoder_device)))
        return np.ascontiguousarray(to_uint8(x)[0].numpy())

    @torch.no_grad()
    def motion_scores(self, canvases: torch.Tensor, motions: Sequence[Sequence[tuple[str, float]]]) -> torch.Tensor:
        """(N,) how well the critic's reading of each canvas matches its row of ``motions``: the
        expected log-probability, under ``motions`` (renormalised), of the motion the critic reads."""
        if self.critic is None:
            raise RuntimeError("this checkpoint has no motion critic")
        target = torch.zeros(len(motions), len(MOTION_NAMES))
        for row, wanted in enumerate(motions):
            for name, probability in wanted:
                if name in MOTION_NAMES:
                    target[row, MOTION_NAMES.index(name)] = float(probability)
        target = target / target.sum(dim=1, keepdim=True).clamp(min=1e-12)
        with torch.autocast(canvases.device.type, enabled=False):
            logits, _features = self.critic(canvases.float())
        read = torch.log_softmax(logits.float(), dim=-1).cpu()
        return (target * read).sum(dim=1)

    def pick(self, canvases: torch.Tensor, motions: Sequence[Sequence[tuple[str, float]]], count: int) -> torch.Tensor:
        """Rows of ``canvases`` (``count`` candidates of B clips, candidate-major) to keep, one per
        clip: its best-scored candidate, or its first when it has no motions (all its scores are
        0, and argmax gives the first of equal maxima)."""
        clips = len(motions)
        repeated = [m for _ in range(count) for m in motions]
        scores = self.motion_scores(canvases, repeated).view(count, clips)
        return scores.argmax(dim=0) * clips + torch.arange(clips)


def candidate_seeds(seeds: Sequence[int], count: int) -> list[int]:
    """The noise seeds of ``count`` candidates of each clip, candidate-major: the first
    candidates are the clips' own seeds (one candidate decodes as before), the others derived."""
    return [int(s) if k == 0 else (int(s) + k * CANDIDATE_SEED_STRIDE) % 2**63 for k in range(count) for s in seeds]


CANDIDATE_SEED_STRIDE = 0x9E3779B97F4A7C15 % 2**61
"""An odd stride far from small seeds: a clip's later candidates don't reuse a neighbour's seed."""


def read_heads(aux: Sequence[torch.Tensor]) -> list[tuple[tuple[str, str], ...]]:
    """Each row's most likely class of every auxiliary head, named, as ``(key, name)`` pairs."""
    names = (MOTION_NAMES, LOCATION_NAMES, characters(), TIMES)
    picks = [logits.float().argmax(dim=-1).cpu().tolist() for logits in aux]
    return [tuple((key, options[pick[row]]) for key, options, pick in zip(READING_KEYS, names, picks, strict=True))
            for row in range(len(picks[0]) if picks else 0)]


def likely_motions(probabilities: torch.Tensor) -> tuple[tuple[str, float], ...]:
    """The :data:`MOTION_CHOICES` most likely motions of one row of the LM's motion head, each
    at least :data:`MOTION_FLOOR`, rounded to 4 decimals (kept in the take's JSON)."""
    top = torch.topk(probabilities, min(MOTION_CHOICES, probabilities.numel()))
    return tuple((MOTION_NAMES[int(i)], round(float(p), 4)) for p, i in zip(top.values, top.indices, strict=True)
                 if float(p) >= MOTION_FLOOR)


def to_uint8(clip: torch.Tensor) -> torch.Tensor:
    """(B, 3, T, H, W) in [-1, 1] -> (B, T, H, W, 3) uint8 on the CPU."""
    frames = ((clip.float().clamp(-1, 1) + 1) * 127.5).round().to(torch.uint8)
    return frames.permute(0, 2, 3, 4, 1).cpu()
