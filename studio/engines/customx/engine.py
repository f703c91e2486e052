"""The CustomX engine behind protocol v2.

``predict`` (the text stage) resolves the turn's character (four reference views), location
(a scene clip, or a still image made a static clip) and previous clip, builds the prompt and
runs the text encoders; the representation is CLIP-L's pooled output. ``decode`` encodes the
views, the scene and mask clips and the previous clip's last frames with the VAE, samples the
transformer with real guidance and decodes the clip. The text encoders' output is kept for
the decode of the same prediction (computed again if the engine was restarted in between).
"""

from __future__ import annotations

import gc
import json
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch

from studio.core.instruction import Instruction
from studio.core.model import CastMember, Location
from studio.core.progress import CancelCheck, Progress, ProgressCallback, check_cancelled, never_cancelled, no_progress
from studio.core.state import StateDeltas, written_key
from studio.engines import acceleration
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
from studio.engines.catalog import customx as catalog
from studio.engines.catalog.customx import INFO, CustomXSettings
from studio.engines.config import DType
from studio.engines.customx import media, prompt
from studio.engines.customx.components import Tokenizers, WeightsError, build, building, fill, load_tokenizers
from studio.engines.customx.preview import HUNYUAN_SCALING_FACTOR, HUNYUAN_VIDEO
from studio.engines.customx.sampler import Estimate, SamplerOptions, sample
from studio.engines.customx.sizes import VIEWS, ModelSize
from studio.engines.customx.text import view_pixels
from studio.engines.info import DeviceKind, Stage
from studio.engines.latent_preview import LatentPreviews, PreviewPacer, fit_to_decoder
from studio.engines.settings import EngineSettings, SettingsError

log = logging.getLogger(__name__)

LOAD_STEPS = 6
PREDICT_STEPS = 3
FP8_WITHIN = ("transformer_blocks.", "single_transformer_blocks.")
FP8_SKIP = ("norm", "norm1", "norm1_context")
"""FP8 covers the blocks' attention, MLP and output layers; the modulation layers (one row a
step, which scale and shift whole streams) and the embedders stay in bf16."""
COMPILED_BLOCKS = ("HunyuanVideoTransformerBlock", "HunyuanVideoSingleTransformerBlock")
"""The 20 double and 40 single blocks: nearly all of a step. Each class compiles once and every
block of it reuses the code (the embedders and the token refiner, a few milliseconds, stay eager)."""
COMPILE_OPTIONS: dict[str, Any] = {"dynamic": True}
"""Sequence lengths are symbolic: the conditional row's text length changes with every prompt
and the video's with the clip size, and with fixed shapes each new length would compile again."""


def options_of(settings: EngineSettings) -> CustomXSettings:
    chosen = CustomXSettings.coerce(settings)
    if chosen.frames % 4 != 1:
        raise SettingsError(f"CustomX makes 4k + 1 frames (the VAE packs 4 frames per latent); got {chosen.frames}.",
                            hint="Try 129 (the release), 93, 33 ...")
    for name in ("height", "width"):
        if getattr(chosen, name) % 16:
            raise SettingsError(f"CustomX's {name} must be a multiple of 16; got {getattr(chosen, name)}.")
    carried = chosen.continuation_frames
    if carried and (carried % 4 != 1 or carried >= chosen.frames):
        raise SettingsError(f"Frames carried over must be 4k + 1 and fewer than the clip's {chosen.frames}; got "
                            f"{carried}.", hint="The release carries 33 of 129.")
    return chosen


@dataclass(frozen=True, slots=True)
class Encoded:
    key: str
    text: torch.Tensor
    mask: torch.Tensor
    pooled: torch.Tensor


def choose_member(cast: tuple[CastMember, ...], name: str, views: int) -> tuple[CastMember | None, list[str]]:
    """The cast member the instruction names (else the first with reference images, with a
    warning when the instruction named someone else).

    Names are matched as turns match them elsewhere (:func:`written_key`: case, spacing and
    the way accents are typed aside). A member with reference images, but not ``views`` of
    them, is refused with the reason and the views it lacks; a named member without any is
    animated as a grey stand-in, with a warning, as when the cast has no one."""
    key = written_key(name)
    named = next((m for m in cast if key and written_key(m.name) == key), None)
    member = named or next((m for m in cast if m.reference_images), None)
    if member is None or not member.reference_images:
        if named is not None:
            who = f"{named.name} has none"
        elif key:
            who = f"{name!r} is not in the cast"
        else:
            who = "the cast has no character with reference images"
        return None, [f"CustomX animates a character from {views} reference views; {who}, so a grey stand-in "
                      f"is used."]
    warnings = []
    if key and named is None:
        warnings.append(f"{name!r} is not in the cast; CustomX animates {member.name} (the first character with "
                        f"reference views) instead.")
    member = replace(member, reference_images=order_views(member.reference_images))
    count = len(member.reference_images)
    if count != views:
        raise EngineError(f"CustomX needs {views} reference views of {member.name} ({', '.join(VIEWS)}); "
                          f"{member.name} has {count}{_sides_told(member.reference_images)}.",
                          hint=f"Add the character's front, left, back and right views in the cast panel (select "
                               f"{member.name}, then Reference views…).")
    return member, warnings


def side_named(path: str) -> int | None:
    """Which view a file's name says it is, by whole words (``aoi_back.png``, ``AoiBack.png``,
    ``back-view-1a2b.png`` -> 2), or None when it names none or several. Words only: the
    "right" in ``bright.png`` or the "back" in ``backpack.png`` say nothing."""
    words = {word.lower() for word in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", Path(path).stem)}
    found = [index for index, view in enumerate(VIEWS) if view in words]
    return found[0] if len(found) == 1 else None


def _sides_told(paths: tuple[str, ...]) -> str:
    """``" (front, left, right; the back view is missing)"`` when every file's name says its
    side, else nothing."""
    sides = [side_named(p) for p in paths]
    if not paths or None in sides or len(set(sides)) != len(sides):
        return ""
    have = [VIEWS[i] for i in sorted(i for i in sides if i is not None)]
    lacking = [view for view in VIEWS if view not in have]
    if not lacking:
        return ""
    missing = lacking[0] if len(lacking) == 1 else f"{', '.join(lacking[:-1])} and {lacking[-1]}"
    return f" ({', '.join(have)}; the {missing} view{'s are' if len(lacking) > 1 else ' is'} missing)"


def order_views(paths: tuple[str, ...]) -> tuple[str, ...]:
    """The views in the order front, left, back, right when their file names say which is
    which (``aoi_back.png`` ...); otherwise in the order the author added them."""
    sides = [side for side in map(side_named, paths) if side is not None]
    if len(paths) == len(VIEWS) and len(set(sides)) == len(VIEWS):
        return tuple(p for _i, p in sorted(zip(sides, paths, strict=True)))
    return paths


def choose_scene(locations: tuple[Location, ...], instruction: Instruction
                 ) -> tuple[str, dict[str, str], list[str]]:
    """The world of the turn: a scene clip or still (a file) or a built-in location of the
    sketch world (rendered as a scene clip through the instruction's camera path).

    The location the instruction names comes first, then the built-in location its
    Background names, then the first location with a file, then the first built-in one."""
    from studio.engines.sketch.scene_clip import location_of

    background = instruction.background.strip().lower()

    def source(location: Location) -> str:
        return str(location.params.get("scene_clip") or location.image_path or "")

    def world(name: str) -> dict[str, str]:
        time = instruction.time_of_day.strip().lower() or "day"
        return {"location": name, "time": time if time in ("day", "sunset", "night") else "day",
                "camera": instruction.camera.strip().lower()}

    named = [loc for loc in locations if background and background in loc.name.strip().lower()]
    for location in named:
        built_in = location_of(location.params, location.name)
        if source(location) or built_in:
            return (source(location), {}, []) if source(location) else ("", world(str(built_in)), [])
    built_in = location_of({}, background) if background else None
    if built_in:
        return "", world(built_in), []
    for location in locations:
        if source(location):
            return source(location), {}, []
    for location in locations:
        built_in = location_of(location.params, location.name)
        if built_in:
            return "", world(built_in), []
    return "", {}, ["CustomX places the character in a world given as a scene clip; no location has a scene clip "
                    "or image, so a grey scene is used."]


def world_clip(world: dict[str, str], frames: int, height: int, width: int) -> np.ndarray:
    """A built-in location rendered by the sketch world as a scene clip of the turn's size."""
    from studio.engines.sketch.scene_clip import SceneShot, camera_of, render_scene_clip

    shot = SceneShot(world["location"], world.get("time", "day"), camera_of(world.get("camera", "")), frames, height,
                     width)
    return render_scene_clip(shot)


class CustomXEngine:
    """AniX / CustomX on diffusers' HunyuanVideo components (see the package docs)."""

    def __init__(self, config: EngineConfig, info: EngineInfo = INFO) -> None:
        self.config = config
        self.info = info
        self.folder = config.engine_folder(catalog.NAME)
        self._size: ModelSize | None = None
        self._tokenizers: Tokenizers | None = None
        self._llava: Any = None
        self._clip: Any = None
        self._transformer: Any = None
        self._vae: Any = None
        self._encoded: Encoded | None = None
        self._fp8 = False
        self._mask_latents: dict[tuple[int, int, int, bool], torch.Tensor] = {}
        self._previews: LatentPreviews | None = None
        """The loaded VAE's colour map for previews (made at the first preview)."""

    # -- loading ---------------------------------------------------------------------------
    @property
    def loaded(self) -> bool:
        return self._vae is not None

    def _device(self, stage: Stage) -> torch.device:
        place = self.config.place(stage)
        if place.kind not in self.info.capabilities.devices:
            raise EngineLoadError(f"The CustomX engine runs on a CUDA GPU; its {stage.value} stage is placed on "
                                  f"{place.device}.", hint="Choose cuda:N with --device or in Settings.")
        return torch.device(place.device)

    def _dtype(self, stage: Stage, part: str) -> torch.dtype:
        chosen = self.config.dtype
        if chosen is not DType.AUTO:
            return {DType.FLOAT32: torch.float32, DType.FLOAT16: torch.float16, DType.BFLOAT16: torch.bfloat16}[chosen]
        if self.config.place(stage).kind is DeviceKind.CPU:
            return torch.float32
        return torch.bfloat16 if part == "transformer" else torch.float16  # as the release runs them

    def _read_size(self) -> ModelSize:
        path = self.folder / catalog.MODEL_FILE
        if self.folder.exists() and not self.folder.is_dir():
            raise EngineLoadError(f"{self.folder} is a file, not the folder of CustomX's converted weights.",
                                  hint=f"Move or rename that file, then convert the weights into the folder "
                                       f"{self.folder} (kamishibai checkpoints convert-customx ...).")
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            size = ModelSize.from_json(record.get("size") if isinstance(record, dict) else None)
        except FileNotFoundError:
            raise EngineLoadError(f"No converted CustomX weights: missing {path}.",
                                  hint="kamishibai checkpoints convert-customx ...; kamishibai checkpoints doctor "
                                       "lists what is there.") from None
        except OSError as error:
            raise EngineLoadError(f"{path} can't be read: {error.strerror or error}.",
                                  hint="Convert the weights again (kamishibai checkpoints convert-customx).") from None
        except (ValueError, KeyError, TypeError) as error:
            raise EngineLoadError(f"{path} can't be read: {error}.",
                                  hint="Convert the weights again (kamishibai checkpoints convert-customx).") from None
        expected = tuple(self.info.capabilities.representation.shape)
        if (size.transformer.pooled_dim,) != expected:
            raise EngineLoadError(f"{self.folder} holds {size.name}-size weights; this engine expects "
                                  f"{expected[0]}-wide pooled text.", hint="Convert the released weights again.")
        return size

    def load(self, progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> None:
        if self.loaded:
            return
        check_cancelled(cancelled)
        text_device, video_device = self._device(Stage.PREDICT), self._device(Stage.DECODE)
        try:
            size = self._read_size()
            tokenizers = load_tokenizers(self.folder)
            progress(Progress(1, LOAD_STEPS, "tokenizers"))
            parts = (("text_encoder", text_device, Stage.PREDICT, catalog.TEXT_ENCODER_FILE),
                     ("text_encoder_2", text_device, Stage.PREDICT, catalog.TEXT_ENCODER_2_FILE),
                     ("transformer", video_device, Stage.DECODE, catalog.TRANSFORMER_FILE),
                     ("vae", video_device, Stage.DECODE, catalog.VAE_FILE))
            built: dict[str, Any] = {}
            for step, (part, device, stage, file) in enumerate(parts, start=2):
                check_cancelled(cancelled)
                with torch.inference_mode(False), building(device, self._dtype(stage, part)):
                    model = build(part, size, tokenizers)
                fill(model, self.folder / file)
                built[part] = model.eval().requires_grad_(False)
                progress(Progress(step, LOAD_STEPS, part.replace("_", " ")))
            check_cancelled(cancelled)
            self._size, self._tokenizers = size, tokenizers
            self._llava, self._clip = built["text_encoder"], built["text_encoder_2"]
            self._transformer, self._vae = built["transformer"], built["vae"]
            progress(Progress(LOAD_STEPS, LOAD_STEPS, "ready"))
        except WeightsError as error:
            self.unload()
            raise EngineLoadError(str(error), hint="Convert the weights again (kamishibai checkpoints "
                                                   "convert-customx).") from None
        except BaseException:
            self.unload()
            raise

    def adopt(self, size: ModelSize, tokenizers: Tokenizers, models: dict[str, Any]) -> None:
        """Use models built elsewhere (the GPU benchmark's full-size random weights, which would
        take minutes to write and read back as files)."""
        self._size, self._tokenizers = size, tokenizers
        self._llava, self._clip = models["text_encoder"], models["text_encoder_2"]
        self._transformer, self._vae = models["transformer"], models["vae"]
        self._fp8 = False
        self._mask_latents = {}
        self._previews = None

    def unload(self) -> None:
        self._size = self._tokenizers = None
        self._llava = self._clip = self._transformer = self._vae = None
        self._encoded = None
        self._fp8 = False
        self._mask_latents = {}
        self._previews = None
        gc.collect()
        if torch.cuda.is_available():
            torch.cuda.empty_cache()

    def _require(self) -> tuple[ModelSize, Tokenizers]:
        if self._size is None or self._tokenizers is None:
            raise EngineLoadError("The CustomX engine is not loaded.")
        return self._size, self._tokenizers

    # -- text ------------------------------------------------------------------------------
    def encode_text(self, sentence: str, views: np.ndarray, guided: bool) -> Encoded:
        """The LLaVA states (unconditional row first when ``guided``) and CLIP's pooled output."""
        size, tokenizers = self._require()
        sentence = sentence.encode("utf-8", "replace").decode("utf-8")  # a lone surrogate, which tokenizers refuse
        sentence = prompt.plain_text(sentence, tokenizers.llava, tokenizers.clip)
        text = size.text
        crop = text.crop_start or prompt.crop_start(tokenizers.llava)
        build_args: dict[str, Any] = {"max_length": text.max_length, "image_tokens": text.image_tokens, "crop": crop}
        rows = [prompt.build(tokenizers.llava, sentence, **build_args)]
        if guided:
            rows.insert(0, prompt.build(tokenizers.llava, "", masked_images=True, **build_args))
        pixels = view_pixels(views, text.image_size)
        with torch.inference_mode():
            hidden, mask = self._llava(rows, pixels)
            pooled = self._clip(tokenizers.clip, ([""] if guided else []) + [sentence])
        return Encoded(sentence, hidden, mask, pooled)

    # -- predict ---------------------------------------------------------------------------
    def predict(self, context: GenerationContext, instruction: Instruction, settings: EngineSettings, seed: int,
                progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> Prediction:
        s = options_of(settings)
        size, _tokenizers = self._require()
        check_cancelled(cancelled)
        member, warnings = choose_member(context.cast, instruction.character, len(VIEWS))
        scene, scene_world, scene_notes = choose_scene(context.locations, instruction)
        warnings += scene_notes
        view_paths = list(member.reference_images) if member else []
        views = self._views(view_paths, s, member.name if member else "")
        progress(Progress(1, PREDICT_STEPS, "reference views"))
        check_cancelled(cancelled)
        sentence = prompt.describe(instruction)
        try:
            encoded = self.encode_text(sentence, views, s.guidance > 1.0)
        except prompt.PromptError as error:
            raise EngineError(f"The instruction can't be encoded: {error}", hint="Shorten the instruction.") from None
        progress(Progress(2, PREDICT_STEPS, "text encoders"))
        check_cancelled(cancelled)
        self._encoded = Encoded(_key(sentence, view_paths, s.guidance > 1.0), encoded.text, encoded.mask,
                                encoded.pooled)
        previous = context.previous_clip
        if previous is not None and s.continuation_frames and previous.frame_count < s.continuation_frames:
            warnings.append(f"The previous clip has {previous.frame_count} frames, fewer than the "
                            f"{s.continuation_frames} to carry over; its first frame is repeated.")
        representation = encoded.pooled[-1].float().cpu().numpy().astype(np.float32)
        progress(Progress(3, PREDICT_STEPS, "done"))
        return Prediction(
            deltas=StateDeltas(), motion_level=3, representation=representation, warnings=tuple(warnings),
            conditioning={"prompt": sentence, "views": view_paths, "character": member.name if member else "",
                          "scene": scene, "scene_world": scene_world,
                          "previous_clip": str(previous.path) if previous else "",
                          "text_tokens": int(encoded.text.shape[1]), "model": size.name})

    def _views(self, paths: list[str], s: CustomXSettings, who: str) -> np.ndarray:
        """The character's views, front, left, back, right (grey without a character); a
        picture that can't be read is refused naming the character and the view."""
        if not paths:
            return media.grey(len(VIEWS), s.height, s.width)
        frames = []
        for index, path in enumerate(paths):
            try:
                frames.append(media.read_image(Path(path), s.height, s.width))
            except media.MediaInputError as error:
                view = f"{VIEWS[index]} view" if len(paths) == len(VIEWS) else f"reference picture {index + 1}"
                raise EngineError(f"The {view} of {who} can't be used: {error}",
                                  hint=f"Choose the {view} of {who} again in the cast panel (select {who}, then "
                                       f"Reference views…).") from None
        return np.stack(frames)

    # -- decode ----------------------------------------------------------------------------
    def decode(self, prediction: Prediction, settings: EngineSettings, seed: int,
               progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> Clip:
        s = options_of(settings)
        size, _tokenizers = self._require()
        condition = prediction.conditioning
        view_paths = [str(p) for p in condition.get("views", [])]
        sentence = str(condition.get("prompt", ""))
        guided = s.guidance > 1.0
        total = 2 + s.steps + 1
        check_cancelled(cancelled)
        views = self._views(view_paths, s, str(condition.get("character", "")) or "the character")
        encoded = self._encoded
        if encoded is None or encoded.key != _key(sentence, view_paths, guided):
            encoded = self.encode_text(sentence, views, guided)
        try:
            scene = self._scene(condition, s)
        except media.MediaInputError as error:
            raise EngineError(f"The scene of this turn's location can't be used: {error}",
                              hint="Choose the location's image or video again in the Cast & world panel "
                                   "(Location from image or video…).") from None
        previous = None
        if condition.get("previous_clip") and s.continuation_frames:
            try:
                previous = media.last_frames(Path(str(condition["previous_clip"])), s.continuation_frames,
                                             s.height, s.width)
            except media.MediaInputError as error:
                raise EngineError(f"The previous turn's clip, which this one continues, can't be used: {error}",
                                  hint="Re-roll the previous turn to make its clip again.") from None
        progress(Progress(1, total, "reading the views and the scene"))
        check_cancelled(cancelled)
        transformer = self._transformer
        device = transformer.device
        with torch.inference_mode():
            self._tiling(s.vae_tiling)
            view_latents = torch.cat([self.encode_video(f[None]) for f in views], dim=2)
            count, tall, wide = scene.shape[:3]
            scene_latents = torch.cat([self.encode_video(scene), self.mask_latents(count, tall, wide, s.vae_tiling)],
                                      dim=1)
            keep = self.encode_video(previous) if previous is not None else None
            progress(Progress(2, total, "encoding the views and the scene"))
            check_cancelled(cancelled)
            latent_frames = (s.frames - 1) // size.vae.temporal + 1
            shape = (1, size.vae.latent_channels, latent_frames, s.height // size.vae.spatial,
                     s.width // size.vae.spatial)
            generator = torch.Generator("cpu").manual_seed(generator_seed(seed))
            noise = torch.randn(shape, generator=generator).to(device)
            rows = 2 if guided else 1
            text, mask = encoded.text.to(device), encoded.mask.to(device)
            pooled = encoded.pooled.to(device)
            views_in = view_latents.to(device).expand(rows, -1, -1, -1, -1)
            scene_in = scene_latents.to(device).expand(rows, -1, -1, -1, -1)
            self.accelerate(s)
            transformer = self._transformer  # a new one if it was reloaded in bf16
            transformer.forget()
            self._cache(transformer, s.step_cache)

            def denoise(x: torch.Tensor, t: torch.Tensor, reuse: bool) -> torch.Tensor:
                return self.velocity(x, t, text, mask, pooled, views_in, scene_in, reuse, batched=s.batched_guidance)

            pacer = PreviewPacer(s.steps)

            def on_step(index: int, estimate: Estimate) -> None:
                preview = self._preview(estimate()) if progress is not no_progress and pacer.due(index) else None
                progress(Progress(3 + index, total, f"denoising {index + 1}/{s.steps}", preview=preview))
                check_cancelled(cancelled)

            options = SamplerOptions(steps=s.steps, guidance=s.guidance, shift=s.shift,
                                     deepcache=s.step_reuse == "deepcache")
            try:
                latents = sample(denoise, noise, options, keep.to(device) if keep is not None else None, on_step)
            finally:
                transformer.forget()
                if getattr(transformer, "is_cache_enabled", False):
                    transformer.disable_cache()
            frames = self.decode_latents(latents)
            if self._previews is not None:  # the next previews follow what the model draws
                self._previews.learn(latents[0], frames, size.vae.temporal)
        progress(Progress(total, total, "decoding the video"))
        return Clip(frames=frames, fps=s.fps)

    def _preview(self, latents: torch.Tensor) -> np.ndarray:
        """A few frames of the clip as the sampler now sees it (``latents``: 1 x C x T x H x W,
        the clean estimate): HunyuanVideo's published colour map for its VAE, else a map
        fitted to the loaded VAE (at the first preview, then to every clip it decodes)."""
        size = self._size
        assert size is not None
        if self._previews is None:
            hunyuan = (size.vae.latent_channels == HUNYUAN_VIDEO.channels
                       and size.vae.scaling_factor == HUNYUAN_SCALING_FACTOR)
            device = latents.device
            self._previews = LatentPreviews(
                lambda: fit_to_decoder(self.decode_latents, channels=size.vae.latent_channels,
                                       scale=size.vae.spatial, device=device),
                published=HUNYUAN_VIDEO if hunyuan else None)
        return self._previews.frames(latents[0])

    def _scene(self, condition: Mapping[str, Any], s: CustomXSettings) -> np.ndarray:
        """The scene clip of a prediction: its file, else its built-in location, else grey."""
        if condition.get("scene"):
            return media.scene_clip(str(condition["scene"]), s.frames, s.height, s.width)
        world = condition.get("scene_world")
        if isinstance(world, dict) and world.get("location"):
            return world_clip({str(k): str(v) for k, v in world.items()}, s.frames, s.height, s.width)
        return media.grey(s.frames, s.height, s.width)

    def velocity(self, x: torch.Tensor, t: torch.Tensor, text: torch.Tensor, mask: torch.Tensor,
                 pooled: torch.Tensor, views: torch.Tensor, scene: torch.Tensor, reuse: bool,
                 batched: bool = False) -> torch.Tensor:
        """The transformer on every guidance row. By default each row runs alone with its
        padding (and the unconditional row's masked view tokens) cut from the text, so that no
        attention mask is needed and the fast attention kernels run: the same result as one
        masked batch (``batched``), up to rounding."""
        transformer = self._transformer
        if batched:
            out: torch.Tensor = transformer(x, t, text, mask, pooled, views, scene, reuse=reuse)
            return out
        rows = []
        for row in range(x.shape[0]):
            keep = mask[row].bool()
            with self._row_context(transformer, row):
                rows.append(transformer(x[row:row + 1], t[row:row + 1], text[row:row + 1, keep],
                                        mask[row:row + 1, keep], pooled[row:row + 1], views[row:row + 1],
                                        scene[row:row + 1], reuse=reuse, slot=row))
        return torch.cat(rows)

    def _row_context(self, transformer: Any, row: int) -> Any:
        from contextlib import nullcontext

        if getattr(transformer, "is_cache_enabled", False):
            return transformer.cache_context(f"row{row}")
        return nullcontext()

    def accelerate(self, s: CustomXSettings) -> None:
        """Put the transformer in the precision, attention kernel and compile state ``s`` asks for.

        FP8 replaces the layers' weights in place; going back to bf16 reloads the transformer
        from its file."""
        transformer = self._transformer
        if s.fp8 != self._fp8:
            acceleration.uncompile(transformer)
            if s.fp8:
                try:
                    acceleration.to_fp8(transformer, acceleration.fp8_layers(transformer, FP8_WITHIN, FP8_SKIP))
                except acceleration.AccelerationError as error:
                    raise EngineError(str(error), hint="Turn FP8 layers off.") from None
            else:
                transformer = self._reload_transformer()
            self._fp8 = s.fp8
        if s.attention != "auto" and transformer.device.type != "cuda":
            raise EngineError(f"The {s.attention} attention kernel runs on a CUDA GPU; the transformer is on "
                              f"{transformer.device}.", hint="Choose the attention kernel auto.")
        acceleration.set_attention(transformer, s.attention)
        if s.torch_compile and not acceleration.is_compiled(transformer):
            try:
                acceleration.compile_blocks(transformer, COMPILED_BLOCKS, **COMPILE_OPTIONS)
            except acceleration.AccelerationError as error:
                raise EngineError(str(error), hint="Turn Compile off.") from None
        elif not s.torch_compile and acceleration.is_compiled(transformer):
            acceleration.uncompile(transformer)

    def _reload_transformer(self) -> Any:
        size, _tokenizers = self._require()
        path = self.folder / catalog.TRANSFORMER_FILE
        if not path.is_file():
            raise EngineError("The transformer runs in FP8 since an earlier clip and its bf16 weights can't be read "
                              f"again: missing {path}.", hint="Keep FP8 layers on, or reload the engine.")
        device = self._transformer.device
        self._transformer = None
        gc.collect()
        if torch.cuda.is_available():
            torch.cuda.empty_cache()
        with torch.inference_mode(False), building(device, self._dtype(Stage.DECODE, "transformer")):
            model = build("transformer", size)
        fill(model, path)
        self._transformer = model.eval().requires_grad_(False)
        return self._transformer

    def mask_latents(self, frames: int, height: int, width: int, tiling: bool) -> torch.Tensor:
        """The latents of the all-white mask clip (kept: the same for every clip of a size)."""
        key = (frames, height, width, tiling)
        if key not in self._mask_latents:
            self._mask_latents = {key: self.encode_video(media.mask_clip(frames, height, width))}
        return self._mask_latents[key]

    def _tiling(self, on: bool) -> None:
        if on:
            self._vae.enable_tiling()
        else:
            self._vae.disable_tiling()

    def encode_video(self, frames: np.ndarray) -> torch.Tensor:
        """T x H x W x 3 uint8 -> 1 x C x T' x h x w scaled latent means."""
        vae = self._vae
        pixels = torch.from_numpy(frames).to(vae.device).permute(3, 0, 1, 2)[None]
        pixels = pixels.to(vae.dtype) / 127.5 - 1.0
        latents = vae.encode(pixels).latent_dist.mode()
        return (latents * vae.config.scaling_factor).float()  # type: ignore[no-any-return]

    def decode_latents(self, latents: torch.Tensor) -> np.ndarray:
        vae = self._vae
        video = vae.decode((latents / vae.config.scaling_factor).to(vae.dtype), return_dict=False)[0]
        frames = ((video[0].float().clamp(-1, 1) + 1) * 127.5).round().to(torch.uint8)
        return frames.permute(1, 2, 3, 0).cpu().numpy()  # type: ignore[no-any-return]

    def _cache(self, transformer: Any, kind: str) -> None:
        if kind == "first_block" and not getattr(transformer, "is_cache_enabled", False):
            from diffusers import FirstBlockCacheConfig

            transformer.enable_cache(FirstBlockCacheConfig(threshold=0.05))  # type: ignore[no-untyped-call]


def _key(sentence: str, views: list[str], guided: bool) -> str:
    return json.dumps([sentence, views, guided])
