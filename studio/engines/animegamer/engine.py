"""The AnimeGamer engine: predict (MLLM) and decode (DiT + VAE) on the converted checkpoints.

``load`` reads ``<checkpoints>/animegamer/``: the tokenizer, the shared base LLM and VAE, and
one character's MLLM and decoder (the first complete one; a turn for the other character
swaps that character's tensors in). The sizes come from the character's ``model.json``, so
the same code runs the released model on a GPU and tiny random models in tests. Stages are
placed per :class:`~studio.engines.config.EngineConfig`: both on one GPU, one GPU each, or
offloaded (the weights stay in RAM and visit the GPU while their stage runs).
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from studio.core.instruction import Instruction
from studio.core.progress import CancelCheck, Progress, ProgressCallback, check_cancelled, never_cancelled, no_progress
from studio.core.state import StateDeltas
from studio.engines.acceleration import AccelerationError
from studio.engines.animegamer import speed
from studio.engines.animegamer.mllm import AnimeGamerMLLM, WeightsError
from studio.engines.animegamer.offload import HostCopy
from studio.engines.animegamer.predictor import HistoryTurn, Predictor, Readout, StatePass, TurnOptions
from studio.engines.animegamer.schedule import SamplerOptions, sample
from studio.engines.animegamer.sizes import QUERY_TOKENS, ModelSize
from studio.engines.animegamer.tokens import TurnState, has_control_tokens
from studio.engines.animegamer.transformer import FLOW_OF_LEVEL, AnimeGamerTransformer
from studio.engines.animegamer.vae import decode_frames, drop_encoder, empty_vae, fill_vae
from studio.engines.base import (
    Clip,
    EngineConfig,
    EngineError,
    EngineInfo,
    EngineLoadError,
    GenerationContext,
    Prediction,
    generator_seed,
)
from studio.engines.catalog import animegamer_layout as layout
from studio.engines.catalog.animegamer import INFO, AnimeGamerSettings
from studio.engines.config import DType, Placement
from studio.engines.info import DeviceKind, Stage
from studio.engines.latent_preview import LatentPreviews, PreviewPacer, fit_to_decoder
from studio.engines.settings import EngineSettings, SettingsError

log = logging.getLogger(__name__)

LOAD_STEPS = 5

TensorSource = Callable[[Path], Mapping[str, torch.Tensor]]
"""One weights file of our layout -> its tensors by key (default: the safetensors file read)."""


@dataclass(frozen=True, slots=True)
class _Options:
    """Validated settings, in the engine's terms."""

    settings: AnimeGamerSettings

    @classmethod
    def of(cls, settings: EngineSettings) -> _Options:
        chosen = AnimeGamerSettings.coerce(settings)
        if chosen.frames % 8 != 1:
            raise SettingsError(f"AnimeGamer makes 8k + 1 frames (an odd number of latents of 4 frames); got "
                                f"{chosen.frames}.", hint="Try 17 (the release), 9, 25 ...")
        if chosen.step_cache == "faster" and (chosen.guidance_steps or chosen.guidance == 1.0):
            raise SettingsError("The FasterCache step cache needs guidance on every step (it reuses the unguided "
                                "row between steps).", hint="Set Guided steps to 0 and Guidance above 1, or choose "
                                                            "another step cache.")
        for name in ("height", "width"):
            if getattr(chosen, name) % 16:
                raise SettingsError(f"AnimeGamer's {name} must be a multiple of 16; got {getattr(chosen, name)}.")
        return cls(chosen)

    @property
    def turn(self) -> TurnOptions:
        return TurnOptions(readout=Readout(self.settings.readout), state_pass=StatePass(self.settings.state_pass))

    @property
    def sampler(self) -> SamplerOptions:
        s = self.settings
        return SamplerOptions(steps=s.steps, guidance=s.guidance, dynamic_guidance=s.dynamic_guidance,
                              guidance_steps=s.guidance_steps or None)


class AnimeGamerEngine:
    """TencentARC's AnimeGamer on transformers, peft and diffusers (see the package docs)."""

    def __init__(self, config: EngineConfig, info: EngineInfo = INFO, *, read: TensorSource | None = None) -> None:
        """``read`` stands in for reading a weights file (the files must still be present); the
        GPU benchmark passes random tensors made on the GPU, so that it needn't write 18 GB first."""
        self.config = config
        self.info = info
        self._read: TensorSource = read or _read
        self.folder = layout.engine_folder(config.checkpoints)
        self._mllm: AnimeGamerMLLM | None = None
        self._decoder: AnimeGamerTransformer | None = None
        self._vae: Any = None
        self._predictor: Predictor | None = None
        self._unconditional: torch.Tensor | None = None
        self._character = ""
        self._size: ModelSize | None = None
        self._compiled = False
        self._fp8 = False
        self._hosts: dict[int, HostCopy] = {}
        """RAM copies of offloaded (or parked) modules, by id of the module."""
        self._previews: LatentPreviews | None = None
        """The loaded VAE's colour map for previews (made at the first preview)."""

    # -- loading ---------------------------------------------------------------------------
    @property
    def loaded(self) -> bool:
        return self._predictor is not None

    @property
    def character(self) -> str:
        return self._character

    def _placement(self, stage: Stage) -> Placement:
        place = self.config.place(stage)
        if place.kind not in self.info.capabilities.devices:
            raise EngineLoadError(f"The AnimeGamer engine runs on a CUDA GPU; its {stage.value} stage is placed on "
                                  f"{place.device}.", hint="Choose cuda:N with --device or in Settings.")
        return place

    def _home(self, stage: Stage) -> torch.device:
        """Where a stage's weights live between runs (RAM when offloaded)."""
        place = self._placement(stage)
        return torch.device("cpu") if place.offload else torch.device(place.device)

    def _dtype(self, stage: Stage, part: str) -> torch.dtype:
        chosen = self.config.dtype
        if chosen is not DType.AUTO:
            return {DType.FLOAT32: torch.float32, DType.FLOAT16: torch.float16, DType.BFLOAT16: torch.bfloat16}[chosen]
        if self._placement(stage).kind is DeviceKind.CPU:
            return torch.float32
        return torch.bfloat16 if part == "mllm" else torch.float16  # as the release runs them

    def _files(self, character: str) -> dict[str, Path]:
        return {"base": self.folder / layout.BASE_FILE, "vae": self.folder / layout.VAE_FILE,
                "mllm": self.folder / character / layout.MLLM_FILE,
                "decoder": self.folder / character / layout.DECODER_FILE}

    def _first_character(self) -> str:
        complete = layout.complete_characters(self.folder)
        if not complete:
            missing = ", ".join(str(self.folder / f.path) for f in layout.shared_files()
                                if not (self.folder / f.path).is_file()) or "a complete character folder"
            raise EngineLoadError(f"No converted AnimeGamer weights in {self.folder} (missing: {missing}).",
                                  hint="kamishibai checkpoints convert PATH/TO/AnimeGamer/checkpoints; "
                                       "kamishibai checkpoints doctor lists what is there.")
        return complete[0]

    def _read_size(self, character: str) -> ModelSize:
        try:
            size = ModelSize.from_json(layout.read_model_json(self.folder, character)["size"])
        except KeyError as error:  # said in words, not as the bare key
            raise EngineLoadError(f"{self.folder / character / layout.MODEL_FILE} has no {error.args[0]!r} entry "
                                  "(the model's dimensions the conversion writes).",
                                  hint="Convert the character again.") from None
        except (OSError, ValueError) as error:
            raise EngineLoadError(f"{self.folder / character / layout.MODEL_FILE} can't be read: {error}.",
                                  hint="Convert the character again.") from None
        expected = self.info.capabilities.representation.shape
        if (QUERY_TOKENS, size.mllm.representation) != tuple(expected):
            raise EngineLoadError(f"{self.folder / character} holds {size.name}-size weights, which make "
                                  f"{(QUERY_TOKENS, size.mllm.representation)} representations; this engine "
                                  f"expects {tuple(expected)}.", hint="Convert the released weights again.")
        return size

    def load(self, progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> None:
        if self.loaded:
            return
        check_cancelled(cancelled)
        for stage in Stage:
            self._placement(stage)  # the released engine refuses the CPU before reading anything
        try:
            character = self._first_character()
            size = self._read_size(character)
            files = self._files(character)
            with torch.inference_mode():
                tokenizer = _load_tokenizer(self.folder / "tokenizer")
                progress(Progress(1, LOAD_STEPS, "tokenizer"))
                check_cancelled(cancelled)
                mllm = AnimeGamerMLLM.empty(size.mllm)
                home, dtype = self._home(Stage.PREDICT), self._dtype(Stage.PREDICT, "mllm")
                mllm.fill(self._read(files["base"]), device=home, dtype=dtype, where=str(files["base"]))
                self._mllm = mllm
                progress(Progress(2, LOAD_STEPS, "base language model"))
                check_cancelled(cancelled)
                mllm.fill(self._read(files["mllm"]), device=home, dtype=dtype, where=str(files["mllm"]))
                _complete(mllm.missing(), files["base"].parent.parent)
                mllm.eval()
                progress(Progress(3, LOAD_STEPS, f"{layout.DISPLAY[character]}'s MLLM"))
                check_cancelled(cancelled)
                self._decoder = self._build_decoder(size, files["decoder"])
                progress(Progress(4, LOAD_STEPS, f"{layout.DISPLAY[character]}'s video decoder"))
                check_cancelled(cancelled)
                vae = empty_vae(size.vae)
                fill_vae(vae, self._read(files["vae"]), device=self._home(Stage.DECODE),
                         dtype=self._dtype(Stage.DECODE, "vae"), where=str(files["vae"]))
                drop_encoder(vae)  # decoding never encodes
                self._vae = vae.eval()
                self._size, self._character = size, character
                self._predictor = Predictor(mllm, tokenizer, identity=character,
                                            describe=lambda token: repr(tokenizer.convert_ids_to_tokens(token)))
                progress(Progress(5, LOAD_STEPS, "VAE"))
        except WeightsError as error:
            self.unload()
            if " has shape " in str(error):  # the sizes model.json gives are not the weights': blame model.json
                record = self.folder / character / layout.MODEL_FILE
                raise EngineLoadError(
                    f"{record} does not describe these weights: {error}",
                    hint=f"{record} was edited or comes from another conversion: restore it, or convert "
                         f"{layout.DISPLAY[character]} again (kamishibai checkpoints convert … --character "
                         f"{character}), which writes it with the weights.") from None
            raise EngineLoadError(str(error), hint="Convert the weights again (kamishibai checkpoints convert).") \
                from None
        except BaseException:
            self.unload()
            raise

    def _build_decoder(self, size: ModelSize, path: Path) -> AnimeGamerTransformer:
        decoder = AnimeGamerTransformer.empty(size.decoder)
        decoder.fill(self._read(path), device=self._home(Stage.DECODE), dtype=self._dtype(Stage.DECODE, "decoder"),
                     where=str(path))
        _complete(decoder.missing(), path)
        decoder.eval()
        self._unconditional = decoder.conditioning.unconditional().detach()
        if self._compiled:
            speed.forget_compiled()  # compiled code holds the replaced decoder's weights
        self._compiled = self._fp8 = False
        self._hosts.clear()
        return decoder

    def unload(self) -> None:
        self._predictor = None
        self._mllm = self._decoder = self._vae = None
        self._unconditional = None
        self._character = ""
        self._size = None
        self._hosts.clear()
        self._previews = None
        if self._compiled:
            speed.forget_compiled()
            self._compiled = False
        self._fp8 = False
        gc.collect()  # modules hold reference cycles (hooks, parents); free them now, not later
        if torch.cuda.is_available():
            torch.cuda.empty_cache()

    def _switch(self, character: str) -> None:
        """Swap in another character's MLLM tensors and decoder (the base and VAE stay)."""
        if character == self._character:
            return
        assert self._mllm is not None and self._predictor is not None
        size = self._read_size(character)
        if size != self._size:
            raise EngineLoadError(f"{layout.DISPLAY[character]}'s weights were converted at another size.")
        files = self._files(character)
        self._hosts.clear()
        self._mllm.fill(self._read(files["mllm"]), device=self._home(Stage.PREDICT),
                        dtype=self._dtype(Stage.PREDICT, "mllm"), where=str(files["mllm"]))
        self._decoder = self._build_decoder(size, files["decoder"])
        self._predictor.identity = character
        self._character = character

    def _resolve_character(self, options: _Options, instruction: Instruction) -> tuple[str, list[str]]:
        complete = layout.complete_characters(self.folder) or [self._character]
        chosen = options.settings.character
        if chosen != "auto":
            if chosen not in complete:
                raise EngineLoadError(f"{layout.DISPLAY[chosen]}'s weights are not converted in {self.folder}.",
                                      hint="kamishibai checkpoints doctor lists them.")
            return chosen, []
        named = instruction.character.strip().lower()
        if named in complete:
            return named, []
        if named and named not in complete:
            return self._character, [f"AnimeGamer has no converted model for {instruction.character!r}; "
                                     f"{layout.DISPLAY[self._character]} plays this turn."]
        return self._character, []

    # -- predict ---------------------------------------------------------------------------
    def predict(self, context: GenerationContext, instruction: Instruction, settings: EngineSettings, seed: int,
                progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> Prediction:
        options = _Options.of(settings)
        if self._predictor is None:
            raise EngineLoadError("The AnimeGamer engine is not loaded.")
        character, warnings = self._resolve_character(options, instruction)
        if has_control_tokens(instruction.raw):
            warnings = [*warnings, "The instruction writes AnimeGamer's control tokens (such as <ML> or </TURN>); "
                                   "they were read as plain text, not as tokens the model acts on."]
        self._switch(character)
        history, notes = _history(context, options.settings.history_window, self.info.capabilities.representation.space)
        device = torch.device(self._placement(Stage.PREDICT).device)
        with torch.inference_mode(), self._visiting(Stage.PREDICT, self._mllm), \
                speed.attention_kernel(options.settings.mllm_attention, device):
            result = self._predictor.predict(history, instruction.raw, options.turn, progress, cancelled)
        state = result.state
        return Prediction(
            deltas=StateDeltas(stamina=state.stamina, social=state.social, entertainment=state.entertainment),
            motion_level=state.motion_level, representation=result.representation.astype(np.float32),
            warnings=(*warnings, *notes, *result.warnings),
            conditioning={"character": character, "flow": FLOW_OF_LEVEL[state.motion_level],
                          "history_turns": result.history_turns, "prompt_tokens": result.prompt_tokens,
                          "reused_tokens": result.reused_tokens},
        )

    @contextmanager
    def _visiting(self, stage: Stage, *modules: Any) -> Iterator[None]:
        """With +offload, the modules visit the stage's GPU while it runs and go back to RAM."""
        place = self._placement(stage)
        if not place.offload:
            yield
            return
        device = torch.device(place.device)
        copies = [self._host_copy(module) for module in modules]
        for copy in copies:
            copy.visit(device)
        try:
            yield
        finally:
            for copy in copies:
                copy.leave()
            torch.cuda.empty_cache()

    def _host_copy(self, module: torch.nn.Module) -> HostCopy:
        copy = self._hosts.get(id(module))
        if copy is None or copy.module is not module:
            copy = self._hosts[id(module)] = HostCopy(module, pin=torch.cuda.is_available())
        return copy

    # -- decode ----------------------------------------------------------------------------
    def decode(self, prediction: Prediction, settings: EngineSettings, seed: int,
               progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> Clip:
        options = _Options.of(settings)
        if self._decoder is None or self._unconditional is None or self._size is None:
            raise EngineLoadError("The AnimeGamer engine is not loaded.")
        character = str(prediction.conditioning.get("character") or self._character)
        if character not in layout.CHARACTERS:
            raise EngineLoadError(f"The prediction names an unknown AnimeGamer character {character!r}.")
        rep = np.asarray(prediction.representation)
        expected = tuple(self.info.capabilities.representation.shape)
        if rep.shape != expected:
            raise EngineError(f"The prediction's representation is {rep.shape}, not AnimeGamer's {expected}.",
                              hint="Predict the turn again with the AnimeGamer engine.")
        if not np.isfinite(rep).all():
            raise EngineError("The prediction's representation holds values that are not numbers (NaN or infinite): "
                              "a damaged take or a failed prediction.", hint="Predict the turn again.")
        self._switch(character)
        s = options.settings
        size = self._size
        latent_frames = (s.frames - 1) // size.vae.temporal_compression + 1
        scale = size.vae.spatial_compression
        shape = (1, latent_frames, size.decoder.in_channels, s.height // scale, s.width // scale)
        sampler = options.sampler
        total = sampler.steps + 1
        check_cancelled(cancelled)
        with torch.inference_mode(), self._visiting(Stage.DECODE, self._decoder, self._vae):
            device = torch.device(self._placement(Stage.DECODE).device)
            parked = None if self._placement(Stage.DECODE).offload else self._hosts.get(id(self._decoder))
            if parked is not None:
                parked.visit(device)  # parked in RAM after the last clip
            decoder = self._prepare_decoder(s, device)
            condition = torch.from_numpy(np.asarray(prediction.representation, dtype=np.float32)).to(device)
            uncond = self._unconditional.to(device)
            flow = float(FLOW_OF_LEVEL[prediction.motion_level])
            generator = torch.Generator("cpu").manual_seed(generator_seed(seed))

            def noise(noise_shape: tuple[int, ...]) -> torch.Tensor:
                return torch.randn(noise_shape, generator=generator).to(device)

            last_rows = [0]

            def denoise(x: torch.Tensor, timestep: torch.Tensor, guided: bool) -> torch.Tensor:
                self._current_timestep = int(timestep[0])
                rows = 2 if guided else 1
                if last_rows[0] and rows != last_rows[0]:
                    self._restart_cache(decoder, s)  # a step cache keeps tensors of the batch it saw
                last_rows[0] = rows
                tokens = torch.stack([uncond, condition]) if guided else condition[None]
                batch = x.repeat(rows, 1, 1, 1, 1).to(device)
                with self._cache_context(decoder, "cfg" if guided else "cond"):
                    velocity: torch.Tensor = decoder(batch, timestep.repeat(rows).to(device),
                                                     torch.full((rows,), flow, device=device), tokens)
                return velocity.float()

            pacer = PreviewPacer(sampler.steps)

            def on_step(index: int, steps: int, x0: torch.Tensor) -> None:
                preview = self._preview(x0) if progress is not no_progress and pacer.due(index) else None
                progress(Progress(index + 1, total, f"denoising {index + 1}/{steps}", preview=preview))
                check_cancelled(cancelled)

            try:
                with speed.attention_kernel(s.attention, device):
                    latents = sample(denoise, noise, shape, sampler, on_step)
            finally:
                self._release_decoder(decoder)
            if s.park_decoder and not self._placement(Stage.DECODE).offload:
                self._host_copy(decoder).leave()  # its GPU memory goes to the VAE; back next clip
            if s.vae_tiling:
                self._vae.enable_tiling()
            else:
                self._vae.disable_tiling()
            with speed.cudnn_autotune(s.vae_autotune):
                frames = decode_frames(self._vae, latents, lean=s.lean_vae)
            if self._previews is not None:  # the next previews follow what the model draws
                self._previews.learn(latents[0].permute(1, 0, 2, 3), frames, size.vae.temporal_compression)
            progress(Progress(total, total, "decoding the video"))
        return Clip(frames=frames, fps=s.fps)

    def _preview(self, x0: torch.Tensor) -> np.ndarray:
        """A few frames of the clip as the sampler now sees it (x0: 1 x T x C x H x W, the
        denoised estimate), through a linear map fitted to the loaded VAE (no table of
        CogVideoX's colours is published; see :mod:`studio.engines.latent_preview`)."""
        if self._previews is None:
            vae, size = self._vae, self._size
            assert size is not None
            self._previews = LatentPreviews(lambda: fit_to_decoder(
                lambda latent: decode_frames(vae, latent.permute(0, 2, 1, 3, 4), lean=False),
                channels=int(x0.shape[2]), scale=size.vae.spatial_compression, device=x0.device))
        return self._previews.frames(x0[0].permute(1, 0, 2, 3))

    def _prepare_decoder(self, s: AnimeGamerSettings, device: torch.device) -> AnimeGamerTransformer:
        """Apply the opt-in speed settings that change the transformer (cache, FP8, compile)."""
        assert self._decoder is not None
        decoder = self._decoder
        model = decoder.transformer
        if s.fp8 and not self._fp8:
            problem = speed.fp8_problem(device)
            if not problem and (self._placement(Stage.DECODE).offload or s.park_decoder):
                problem = ("FP8 layers stay on the GPU: turn off offloading and 'Park the video transformer' to "
                           "use them.")
            if problem:
                raise SettingsError(problem)
            speed.to_fp8(model)
            self._hosts.pop(id(decoder), None)  # a RAM copy of the fp16 weights is of no use now
            self._fp8 = True
        if self._fp8 and not s.fp8:
            raise SettingsError("The decoder was quantised to FP8 for an earlier clip; reload the engine to run it "
                                "without FP8.")
        if s.compile and not self._compiled:
            try:
                speed.compile_blocks(model)
            except AccelerationError as error:
                raise SettingsError(f"{error} Turn Compile off (advanced settings), or choose the Reference or "
                                    "Fast preset.") from None
            self._compiled = True
        if s.step_cache != "none":
            model.enable_cache(_cache_config(s.step_cache, lambda: self._current_timestep))
        return decoder

    _current_timestep: int = 999

    @contextmanager
    def _cache_context(self, decoder: AnimeGamerTransformer, name: str) -> Iterator[None]:
        model = decoder.transformer
        if getattr(model, "is_cache_enabled", False):
            with model.cache_context(name):
                yield
        else:
            with nullcontext():
                yield

    def _restart_cache(self, decoder: AnimeGamerTransformer, s: AnimeGamerSettings) -> None:
        model = decoder.transformer
        if getattr(model, "is_cache_enabled", False):
            model.disable_cache()
            model.enable_cache(_cache_config(s.step_cache, lambda: self._current_timestep))

    def _release_decoder(self, decoder: AnimeGamerTransformer) -> None:
        model = decoder.transformer
        if getattr(model, "is_cache_enabled", False):
            model.disable_cache()


FIRST_BLOCK_THRESHOLD = 0.05
"""diffusers' default: skip the other blocks while the first block's output changes less than this."""


def _cache_config(kind: str, timestep: Callable[[], int]) -> Any:
    if kind == "first_block":
        from diffusers import FirstBlockCacheConfig

        return FirstBlockCacheConfig(threshold=FIRST_BLOCK_THRESHOLD)  # type: ignore[no-untyped-call]
    if kind == "faster":
        from diffusers import FasterCacheConfig

        # FasterCache's settings for CogVideoX; the motion value ``ofs`` is batched like the
        # latents, so it is sliced with them when the unconditional row is skipped.
        return FasterCacheConfig(  # type: ignore[no-untyped-call]
            spatial_attention_block_skip_range=2, spatial_attention_timestep_skip_range=(-1, 681),
            current_timestep_callback=timestep, attention_weight_callback=lambda _: 0.3,
            unconditional_batch_skip_range=5, unconditional_batch_timestep_skip_range=(-1, 781), tensor_format="BFCHW",
            _unconditional_conditional_input_kwargs_identifiers=("hidden_states", "encoder_hidden_states", "timestep",
                                                                 "ofs"))
    from diffusers import PyramidAttentionBroadcastConfig

    return PyramidAttentionBroadcastConfig(spatial_attention_block_skip_range=2,  # type: ignore[no-untyped-call]
                                           spatial_attention_timestep_skip_range=(100, 800),
                                           current_timestep_callback=timestep)


def _load_tokenizer(folder: Path) -> Any:
    """AnimeGamer's tokenizer; a damaged file is a load error naming it (transformers' own
    error for one asked to install tiktoken, see :mod:`studio.engines.catalog.animegamer_tokenizer`)."""
    from transformers import AutoTokenizer

    from studio.engines.catalog.animegamer_tokenizer import tokenizer_problem

    hint = ("Convert the weights again (kamishibai checkpoints convert), which copies the tokenizer from the code "
            "release; kamishibai checkpoints doctor lists what is there.")
    problem = tokenizer_problem(folder)
    if problem is not None:
        raise EngineLoadError(f"AnimeGamer's tokenizer can't be loaded: {problem}.", hint=hint)
    try:
        return AutoTokenizer.from_pretrained(str(folder))
    except (OSError, ValueError, RuntimeError) as error:
        raise EngineLoadError(f"AnimeGamer's tokenizer in {folder} can't be loaded: {error}.", hint=hint) from None


def _read(path: Path) -> dict[str, torch.Tensor]:
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    if not path.is_file():
        raise EngineLoadError(f"Missing {path}.", hint="kamishibai checkpoints doctor lists what is needed.")
    try:
        return load_file(str(path))
    except (SafetensorError, OSError, ValueError) as error:  # cut short by an interrupted copy, or damaged
        raise EngineLoadError(f"{path} can't be read: {error}.",
                              hint="Convert the weights again (kamishibai checkpoints convert), or copy the file "
                                   "again.") from None


def _complete(missing: list[str], where: Path) -> None:
    if missing:
        raise WeightsError(f"{where}: {len(missing)} parameters have no weights in the files, e.g. {missing[0]!r}.")


def _history(context: GenerationContext, window: int, space: str) -> tuple[list[HistoryTurn], list[str]]:
    """The last ``window`` turns, as far back as each has a representation of our space."""
    turns = list(context.history[-window:]) if window else []
    kept: list[HistoryTurn] = []
    notes: list[str] = []
    for turn in reversed(turns):
        if turn.representation is None or turn.representation_space != space:
            notes.append("The history starts after a turn made by another engine (it has no AnimeGamer "
                         "representation).")
            break
        state = TurnState(motion_level=turn.motion_level, social=turn.deltas.social,
                          entertainment=turn.deltas.entertainment, stamina=turn.deltas.stamina)
        kept.append(HistoryTurn(turn.instruction.raw, state, np.asarray(turn.representation, dtype=np.float32)))
    kept.reverse()
    return kept, notes
