"""The CustomX (AniX) engine as the studio knows it before importing it: settings, files, checks.

CustomX animates any character, given four reference views of it (front, left, back,
right), in a world given as a scene clip, and continues each clip from the last frames of
the previous one. It runs HunyuanVideo components (a 12.5B transformer, a 3D VAE,
LLaVA-Llama-3 and CLIP-L text encoders) with the released LoRA merged in.

``INFO`` is the engine the app registers: the released weights, converted with
``kamishibai checkpoints convert-customx``, on a CUDA GPU. ``TEST_INFO`` is the same engine
with tiny random weights, allowed on the CPU, for the contract suite; the app never
registers it.

Our layout under ``<checkpoints>/customx/`` (safetensors only, written by the converter)::

    model.json               sizes and prompt constants; written last
    transformer.safetensors  the HunyuanCustom transformer with the LoRA merged, bg_in/bg_proj
    vae.safetensors          the HunyuanVideo 3D VAE
    text_encoder.safetensors LLaVA-Llama-3-8B: llm.*, vision.*, projector.*
    text_encoder_2.safetensors  CLIP-L's text model (pooled output for the modulation)
    tokenizer/               LLaVA-Llama-3's tokenizer
    tokenizer_2/             CLIP-L's tokenizer
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from studio.engines.acceleration import ATTENTION_KERNELS
from studio.engines.catalog.reasons import check_cuda_only, folder_reason, hardest_first
from studio.engines.config import EngineConfig
from studio.engines.info import (
    GIB,
    MIB,
    CheckpointFile,
    DeviceKind,
    EngineCapabilities,
    EngineInfo,
    RepresentationSpec,
    Stage,
    StageNeeds,
)
from studio.engines.requirements import Requirement, RequirementKind, check_files, check_packages
from studio.engines.settings import EngineSettings, Preset, setting

NAME = "customx"
VERSION = "1.0.0"
"""Bump when the prompt, the conditioning or the sampler changes: takes record it."""

PACKAGES = ("torch", "transformers", "diffusers", "safetensors", "tokenizers", "PIL")
LICENSE = ("Tencent Hunyuan Community License (HunyuanCustom, HunyuanVideo; not for use in the EU, UK or South "
           "Korea) and the AniX/CustomX LoRA's own terms; LLaVA-Llama-3 follows the Llama 3 license")
POOLED_DIM = 768
REPRESENTATION = RepresentationSpec(space="customx/clip-l-pooled-768", shape=(POOLED_DIM,), dtype="float32")

MODEL_FILE = "model.json"
TRANSFORMER_FILE = "transformer.safetensors"
VAE_FILE = "vae.safetensors"
TEXT_ENCODER_FILE = "text_encoder.safetensors"
TEXT_ENCODER_2_FILE = "text_encoder_2.safetensors"
TOKENIZER_FILE = "tokenizer/tokenizer.json"
TOKENIZER_2_FILE = "tokenizer_2/tokenizer.json"

STEP_REUSE = ("none", "deepcache")
STEP_CACHES = ("none", "first_block")

_REFERENCE = {"steps": 30, "guidance": 7.5, "shift": 13.0, "height": 352, "width": 624, "frames": 129,
              "fps": 25.0, "step_reuse": "none", "step_cache": "none", "vae_tiling": True, "fp8": False,
              "torch_compile": False}


@dataclass(frozen=True, slots=True)
class CustomXSettings(EngineSettings):
    """The defaults are the release's ("Reference"); the other presets trade fidelity for speed."""

    ENGINE = "CustomX"
    PRESETS = (
        Preset("reference", "Reference (the release's settings)", _REFERENCE,
               help="30 Euler steps with flow shift 13, real guidance 7.5, 352 x 624, 129 frames at 25 fps, "
                    "every step a full transformer pass."),
        Preset("deepcache", "DeepCache, compiled (22 full passes of 30, compiled blocks, untiled VAE)",
               {**_REFERENCE, "step_reuse": "deepcache", "vae_tiling": False, "torch_compile": True},
               help="The fastest preset that keeps Reference quality (70 s a turn against Reference's 111 s on "
                    "an H200, measured for clips of 93 frames at 360p; the default 129 frames take longer, not "
                    "timed). The release's DeepCache schedule: on 8 of the 30 steps only the "
                    "last single block runs, on the cached input of the step before; the transformer's blocks "
                    "are compiled (the first clip after loading waits about 30 s for the compiler, later "
                    "clips don't); the VAE works on whole frames (16 at a time), faster than in tiles and "
                    "without seams, using more GPU memory at 720p.",
               changes_output=True),
        Preset("fast", "Fast (20 steps)", {**_REFERENCE, "steps": 20},
               help="Fewer denoising steps.", changes_output=True),
        Preset("fastest", "Fastest (20 steps, first-block cache)", {**_REFERENCE, "steps": 20,
                                                                    "step_cache": "first_block"},
               help="Fewer steps and diffusers' first-block cache: steps whose first block barely changes "
                    "reuse the rest of the transformer.", changes_output=True),
    )

    steps: int = setting(30, label="Denoising steps", minimum=1, maximum=100,
                         help="The release uses 30; fewer is faster and changes the clip.")
    guidance: float = setting(7.5, label="Guidance", minimum=1.0, maximum=15.0, step=0.5,
                              help="Real classifier-free guidance (two transformer passes a step); 1 turns it off.")
    shift: float = setting(13.0, label="Flow shift", minimum=1.0, maximum=20.0, step=0.5, advanced=True,
                           help="The flow-matching schedule's shift (the release: 13).")
    height: int = setting(352, label="Height", minimum=32, maximum=720, step=16, unit="px",
                          help="Clip height, a multiple of 16 (the release: 352; 704 for 720p).")
    width: int = setting(624, label="Width", minimum=32, maximum=1280, step=16, unit="px",
                         help="Clip width, a multiple of 16 (the release: 624; 1248 for 720p).")
    frames: int = setting(129, label="Frames", minimum=1, maximum=129, step=4,
                          help="Frames per clip: 4k + 1 (the VAE packs 4 frames per latent). The release: 129, "
                               "the scene clip's length.")
    fps: float = setting(25.0, label="Frames per second", minimum=1.0, maximum=60.0, step=1.0, unit="fps",
                         help="Playback speed (the release: 25).")
    continuation_frames: int = setting(33, label="Frames carried over", minimum=0, maximum=65, step=4,
                                       advanced=True,
                                       help="The previous clip's last frames re-encoded and kept at the start of "
                                            "the new clip (the release: 33, i.e. 9 latent frames); 0 turns "
                                            "continuation off.")
    step_reuse: str = setting("none", label="Step reuse", choices=STEP_REUSE, advanced=True,
                              help="deepcache: the release's schedule that reruns only the last block on 8 of "
                                   "30 steps (changes the clip).")
    step_cache: str = setting("none", label="Step cache", choices=STEP_CACHES, advanced=True,
                              help="first_block: diffusers' first-block cache (changes the clip).")
    batched_guidance: bool = setting(False, label="Batched guidance", advanced=True,
                                     help="Run both guidance rows as one masked batch (diffusers' way) instead "
                                          "of one unmasked pass each: the same clip, usually slower.")
    vae_tiling: bool = setting(True, label="VAE tiling", advanced=True,
                               help="Encode and decode the video in tiles: far less GPU memory, may show seams.")
    attention: str = setting("auto", label="Attention kernel", choices=ATTENTION_KERNELS, advanced=True,
                             help="auto: PyTorch's choice; cudnn or flash force that fused kernel. The same "
                                  "attention (only rounding differs); which is fastest depends on the GPU.")
    fp8: bool = setting(False, label="FP8 layers", advanced=True,
                        help="Run the transformer blocks' linear layers in FP8 (torchao; a GPU of compute "
                             "capability 8.9 or newer): 9 GB less GPU memory, the clip changes slightly. On an "
                             "H200 it measured 10% slower without compiled blocks.")
    torch_compile: bool = setting(False, label="Compile the transformer", advanced=True,
                                  help="torch.compile the transformer's blocks: the first clip after loading waits "
                                       "for the compiler (about 30 s on an H200); later clips, of any prompt or "
                                       "size, reuse it and each step is about 1.2x faster. The same clip up to "
                                       "rounding.")


FILES = (
    CheckpointFile(MODEL_FILE, None, "sizes and prompt constants (written last by the converter)"),
    CheckpointFile(TRANSFORMER_FILE, None, "the HunyuanCustom transformer with the CustomX LoRA merged (~25 GB)"),
    CheckpointFile(VAE_FILE, None, "the HunyuanVideo 3D VAE (~0.5 GB)"),
    CheckpointFile(TEXT_ENCODER_FILE, None, "LLaVA-Llama-3-8B (~16 GB)"),
    CheckpointFile(TEXT_ENCODER_2_FILE, None, "CLIP-L's text model (~0.25 GB)"),
    CheckpointFile(TOKENIZER_FILE, None, "LLaVA-Llama-3's tokenizer"),
    CheckpointFile(TOKENIZER_2_FILE, None, "CLIP-L's tokenizer"),
)


def content_problem(folder: Path, name: str) -> str | None:
    """Why a JSON file of ours that reads as an object still isn't the one the engine loads: a
    model.json without the sizes the converter writes ({"model_type": "llama"}), a tokenizer.json
    without a tokenizer ({}). None when it is, or when it is missing or no JSON object (the file
    checks say so). Both were listed "ok", and the load failed later."""
    path = folder / name
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    if name == MODEL_FILE:
        from studio.engines.customx.sizes import ModelSize  # light: no torch

        try:
            ModelSize.from_json(data.get("size"))
        except ValueError as error:
            return f"{path} is not a CustomX conversion record: {error}."
    elif name in (TOKENIZER_FILE, TOKENIZER_2_FILE) and "model" not in data:
        return (f"{path} is not a tokenizer: it has no \"model\" entry, which every tokenizer.json of the "
                "tokenizers library holds.")
    return None


def _check(config: EngineConfig, info: EngineInfo) -> list[Requirement]:
    folder = config.engine_folder(NAME)
    hint = ("Convert the released weights: kamishibai checkpoints convert-customx ... (its --help names each "
            "released file).")
    moved = folder_reason(folder, "CustomX")
    files = [moved] if moved else [replace(r, hint=hint) for r in check_files(folder, info.checkpoints, engine=NAME)]
    if not moved:
        named = {reason.path for reason in files}
        files += [Requirement(RequirementKind.FILE, problem, hint=hint, path=str(folder / item.path))
                  for item in info.checkpoints if str(folder / item.path) not in named
                  and (problem := content_problem(folder, item.path)) is not None]
    unmet = [*check_packages(PACKAGES, engine=NAME), *files]
    unmet.extend(check_cuda_only(config, info.capabilities, engine=NAME, label="CustomX",
                                 gpu_hint="Use it on a machine with an NVIDIA GPU of 80 GB."))
    return hardest_first(unmet)


def check(config: EngineConfig) -> list[Requirement]:
    return _check(config, INFO)


INFO = EngineInfo(
    name=NAME,
    version=VERSION,
    label="CustomX / AniX (any character, GPU)",
    description="AniX (CustomX): any character from four reference views (front, left, back, right) in a world "
                "given as a scene clip, with the camera the instruction asks for, continuing each clip from the "
                "last frames of the previous one. HunyuanCustom with the CustomX LoRA; needs a CUDA GPU with "
                "80 GB and the released weights converted with `kamishibai checkpoints convert-customx`.",
    capabilities=EngineCapabilities(
        devices=(DeviceKind.CUDA,),
        needs_gpu=True,
        memory={Stage.PREDICT: StageNeeds(device_bytes=17 * GIB, host_bytes=2 * GIB),
                Stage.DECODE: StageNeeds(device_bytes=60 * GIB, host_bytes=4 * GIB)},
        history_window=1,  # the parent turn (its clip is what the engine continues from)
        default_size=(352, 624), default_frames=129, default_fps=25.0,
        representation=REPRESENTATION,
        continuation=True,
        reference_views=4,
        preview_frames=True,
    ),
    settings=CustomXSettings,
    entry_point="studio.engines.customx.engine:CustomXEngine",
    check=check,
    checkpoints=FILES,
    license=LICENSE,
)

TEST_INFO = replace(
    INFO,
    label="CustomX (tiny random test weights)",
    capabilities=replace(
        INFO.capabilities, devices=(DeviceKind.CPU, DeviceKind.CUDA), needs_gpu=False,
        memory={Stage.PREDICT: StageNeeds(device_bytes=64 * MIB, host_bytes=64 * MIB),
                Stage.DECODE: StageNeeds(device_bytes=64 * MIB, host_bytes=64 * MIB)},
        representation=RepresentationSpec(space="customx/tiny-pooled-16", shape=(16,), dtype="float32"),
    ),
    license="Random test weights.",
)
"""The contract suite's variant: tiny random weights, allowed on the CPU. Never registered."""
TEST_INFO = replace(TEST_INFO, check=partial(_check, info=TEST_INFO))
