"""The AnimeGamer engine as the studio knows it before importing it: settings, needs, checks.

``INFO`` is the engine the app registers: TencentARC's released weights, converted with
``kamishibai checkpoints convert``, on a CUDA GPU. Its check is light: it stats files, asks
importlib for packages and reads no weights; it imports torch only to probe the GPUs a
stage is placed on (to say whether they exist and have room).

The file layout lives beside this module (:mod:`.animegamer_layout`): the app lists and checks
the engine without importing ``studio.engines.animegamer``.

``TEST_INFO`` is the same engine for the contract suite: tiny random weights of the released
structure, allowed on the CPU. The app never registers it; the real engine refuses the
CPU, and refuses tiny weights under ``INFO`` (see docs/ANIMEGAMER.md).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from studio.engines.catalog import animegamer_layout as layout
from studio.engines.catalog.animegamer_tokenizer import damaged_tokenizer
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
from studio.engines.requirements import (
    Requirement,
    RequirementKind,
    beside_note,
    check_packages,
    damaged_file,
)
from studio.engines.settings import EngineSettings, Preset, setting

NAME = layout.ENGINE
VERSION = "1.0.0"
"""Bump when the prompt, the decoding or the sampler changes: takes record it."""

PACKAGES = ("torch", "transformers", "diffusers", "peft", "accelerate", "safetensors", "sentencepiece")
REPRESENTATION = RepresentationSpec(space="animegamer/226x1920-v1", shape=(226, 1920), dtype="float32")
LICENSE = ("Tencent's License Terms of AnimeGamer (its License.txt): not intended for use within the European "
           "Union; its third-party parts (Mistral-7B, CogVideoX ...) keep their own licenses")

CHARACTER_CHOICES = ("auto", *layout.CHARACTERS)
READOUTS = ("release", "queries")
STATE_PASSES = ("causal", "shared")
STEP_CACHES = ("none", "first_block", "pyramid", "faster")
ATTENTION = ("auto", "cudnn", "flash", "efficient", "math")

_REFERENCE = {"steps": 50, "guidance": 6.0, "dynamic_guidance": True, "guidance_steps": 0, "height": 480,
              "width": 720, "frames": 17, "fps": 8.0, "readout": "release", "state_pass": "causal",
              "step_cache": "none", "compile": False, "fp8": False, "attention": "auto", "lean_vae": True,
              "vae_autotune": False, "park_decoder": True, "mllm_attention": "efficient"}


@dataclass(frozen=True, slots=True)
class AnimeGamerSettings(EngineSettings):
    """The defaults are the release's ("Reference"); the other presets trade fidelity for speed."""

    ENGINE = "AnimeGamer"
    PRESETS = (
        Preset("reference", "Reference (the release's settings)", _REFERENCE,
               help="The released sampler: 50 steps, dynamic guidance 6, 480 x 720, 17 frames at 8 fps; the "
                    "representation and state read as the release's script does."),
        Preset("compiled", "Reference, compiled", {**_REFERENCE, "compile": True},
               help="The release's settings with the transformer blocks compiled (torch.compile): the first clip "
                    "waits about 20 s for the compiler, later clips run about 1.3 times faster (measured on an "
                    "H200). The same arithmetic; only the rounding differs (relative 9e-4).", changes_output=True),
        Preset("fast", "Fast (25 steps)", {**_REFERENCE, "steps": 25, "state_pass": "shared"},
               help="Half the denoising steps; the state continues from the representation's pass.",
               changes_output=True),
        Preset("fastest", "Fastest (8 steps, guidance on 4, compiled)",
               {**_REFERENCE, "steps": 8, "guidance_steps": 4, "state_pass": "shared", "step_cache": "none",
                "fp8": False, "compile": True, "vae_autotune": True, "park_decoder": False},
               help="For watching speed: 8 denoising steps instead of 50, guidance on the first 4 only, and the "
                    "transformer blocks compiled (torch.compile). The first clip after loading waits about 25 s "
                    "for the compiler on an H200; later clips take about 1.9 s there, less than the 2.1 s they "
                    "last. The clips differ from Reference's. FP8 and the step cache are left off: with FP8 the "
                    "first clip waited about 7 minutes for the compiler.",
               changes_output=True),
    )

    character: str = setting("auto", label="Character", choices=CHARACTER_CHOICES,
                             help="Which released model plays the turn; auto follows the instruction's Character "
                                  "field (Qiqi or Sosuke), else the first one converted.")
    history_window: int = setting(4, label="History (turns)", minimum=0, maximum=8,
                                  help="Earlier turns of the branch the model reads (their instructions, "
                                       "representations and states). 0 plays every turn on its own, as the "
                                       "release does; the model was trained on up to 5 turns.")
    steps: int = setting(50, label="Denoising steps", minimum=1, maximum=100,
                         help="The release uses 50; fewer is faster and changes the clip.")
    guidance: float = setting(6.0, label="Guidance", minimum=1.0, maximum=15.0, step=0.5,
                              help="Classifier-free guidance scale (the release: 6). 1 turns guidance off.")
    dynamic_guidance: bool = setting(True, label="Dynamic guidance", advanced=True,
                                     help="Ramp the guidance with the timestep, as the release does.")
    guidance_steps: int = setting(0, label="Guided steps", minimum=0, maximum=100, advanced=True,
                                  help="Use guidance on the first this many steps only (one model pass instead "
                                       "of two afterwards); 0: on every step, as the release.")
    height: int = setting(480, label="Height", minimum=32, maximum=960, step=16, unit="px",
                          help="Clip height; a multiple of 16. The model was trained at 480.")
    width: int = setting(720, label="Width", minimum=48, maximum=1440, step=16, unit="px",
                         help="Clip width; a multiple of 16. The model was trained at 720.")
    frames: int = setting(17, label="Frames", minimum=1, maximum=49, step=8,
                          help="Frames per clip: 8k + 1 (1, 9, 17, 25 ...). The VAE packs 4 frames per latent "
                               "and decodes an odd number of latents to 4n + 1 frames. The release: 17.")
    fps: float = setting(8.0, label="Frames per second", minimum=1.0, maximum=60.0, step=1.0, unit="fps",
                         help="Playback speed (the release: 8).")
    readout: str = setting("release", label="Representation read-out", choices=READOUTS, advanced=True,
                           help="release: the prompt's last 226 positions, as the release's script; queries: the "
                                "226 query slots, as its training code (changes the output).")
    state_pass: str = setting("causal", label="State pass", choices=STATE_PASSES, advanced=True,
                              help="causal: the state is read after a second, causal pass over the turn, as the "
                                   "release; shared: it continues from the representation's pass (one pass less, "
                                   "changes the state).")
    step_cache: str = setting("none", label="Step cache", choices=STEP_CACHES, advanced=True,
                              help="Reuse transformer work between denoising steps (diffusers' first-block cache, "
                                   "pyramid attention broadcast, or FasterCache, which also reuses the unguided row "
                                   "and needs guidance on every step): faster, changes the clip.")
    compile: bool = setting(False, label="Compile", advanced=True,
                            help="torch.compile the transformer blocks: the first clip waits for the compiler "
                                 "(20-25 s on an H200; about 7 minutes with FP8, more than 9 with FP8 and a step "
                                 "cache), the next ones run faster.")
    fp8: bool = setting(False, label="FP8 weights", advanced=True,
                        help="The transformer blocks' linear layers in FP8 with torchao, weights and activations "
                             "scaled per row (GPUs of compute capability 8.9 or newer; "
                             "changes the clip slightly).")
    attention: str = setting("auto", label="Attention kernel", choices=ATTENTION, advanced=True,
                             help="Which fused attention kernel the decoder runs on a GPU: auto prefers cuDNN's, "
                                  "then flash attention. The same attention; only the rounding differs.")
    mllm_attention: str = setting("efficient", label="Language model attention kernel", choices=ATTENTION,
                                  advanced=True,
                                  help="Which attention kernel the MLLM runs on a GPU. Its prompts have a new length "
                                       "every turn; cuDNN's kernel (PyTorch's usual choice there) plans each new "
                                       "shape anew, the memory-efficient one does not. Only the rounding differs.")
    lean_vae: bool = setting(True, label="Lean VAE decode", advanced=True,
                             help="Decode the video with less than half the memory (the same layers and "
                                  "frame batches, activations freed as soon as they are used; the last bits "
                                  "of some convolutions may differ). Off: diffusers' own decode.")
    park_decoder: bool = setting(True, label="Park the video transformer", advanced=True,
                                 help="While the VAE decodes, keep the video transformer's weights in RAM only "
                                      "(3.4 GB less GPU memory at the peak; about 0.1-0.3 s to bring them back). "
                                      "The same output.")
    vae_autotune: bool = setting(False, label="Autotune VAE convolutions", advanced=True,
                                 help="Let cuDNN time its convolution algorithms on the first clip and keep the "
                                      "fastest (faster VAE; the first clip is slower, the rounding may differ).")
    vae_tiling: bool = setting(False, label="VAE tiling", advanced=True,
                               help="Decode the video in tiles: less GPU memory, slower, may show seams.")


FILES = tuple(CheckpointFile(f.path, None, f.description) for f in layout.all_files())


def check_files(folder: Path) -> list[Requirement]:
    """The shared files, and a usable character: when none has all its files there and
    whole, every character file that is missing (each with its exact path and approximate
    size) or damaged (a safetensors file the loader would refuse: see
    :func:`~studio.engines.requirements.damaged_file`). A shared file that is damaged is
    always reported; a damaged character beside a usable one is not a reason the engine
    can't run, as a missing one is not."""
    unmet: list[Requirement] = []

    def problems(files: tuple[layout.OurFile, ...]) -> list[Requirement]:
        found = []
        for item in files:
            path = folder / item.path
            if not path.is_file():
                size = f" (about {item.approx_bytes / layout.GB:.1f} GB)" if item.approx_bytes else ""
                found.append(Requirement(RequirementKind.FILE,
                                         f"Missing {path}{size} — {item.description}{beside_note(path)}.",
                                         hint="Convert the released weights: kamishibai checkpoints convert "
                                              f"PATH/TO/AnimeGamer/checkpoints --checkpoints {into} (see "
                                              "kamishibai checkpoints doctor).",
                                         path=str(path), expected_bytes=item.approx_bytes))
            elif path not in tokenizer_files and (damaged := damaged_file(path)) is not None:
                found.append(damaged)  # a tokenizer file is named by damaged_tokenizer, with its cure
        return found

    tokenizer_files = {folder / "tokenizer" / name for name in layout.TOKENIZER_FILES}
    into = shlex.quote(str(folder.parent))  # the folder this engine's files are looked for in

    unmet.extend(problems(layout.shared_files()))
    if (tokenizer := damaged_tokenizer(folder / "tokenizer")) is not None:  # none of its files missing
        unmet.append(tokenizer)
    by_character = {character: problems(layout.character_files(character)) for character in layout.CHARACTERS}
    for character, found in by_character.items():
        if not found and (wrong := layout.model_json_problem(folder, character)) is not None:
            found.append(Requirement(RequirementKind.CONFIG, wrong, hint=f"Convert {layout.DISPLAY[character]} "
                                     "again: kamishibai checkpoints convert PATH/TO/AnimeGamer/checkpoints "
                                     f"--character {character} --checkpoints {into}.",
                                     path=str(folder / character / layout.MODEL_FILE)))
    if all(by_character.values()):
        for found in by_character.values():
            unmet.extend(found)
    return unmet


def _check(config: EngineConfig, info: EngineInfo) -> list[Requirement]:
    folder = config.engine_folder(NAME)
    moved = folder_reason(folder, "AnimeGamer")
    unmet = [*check_packages(PACKAGES, engine=NAME), *([moved] if moved else check_files(folder))]
    unmet.extend(check_cuda_only(config, info.capabilities, engine=NAME, label="AnimeGamer",
                                 gpu_hint="Use it on a machine with an NVIDIA GPU of 24 GB or more, or of 16 GB "
                                          "with --device cuda:0+offload."))
    return hardest_first(unmet)


def check(config: EngineConfig) -> list[Requirement]:
    return _check(config, INFO)


INFO = EngineInfo(
    name=NAME,
    version=VERSION,
    label="AnimeGamer (TencentARC, GPU)",
    description="TencentARC's AnimeGamer: Mistral-7B + LoRA predicts each turn's state and clip representation, "
                "CogVideoX-2B decodes the clip (480 x 720, 17 frames). One model per film character (Qiqi, "
                "Sosuke). Needs a CUDA GPU and the released weights, converted with `kamishibai checkpoints convert`.",
    capabilities=EngineCapabilities(
        devices=(DeviceKind.CUDA,),
        needs_gpu=True,
        memory={Stage.PREDICT: StageNeeds(device_bytes=16 * GIB, host_bytes=2 * GIB),
                Stage.DECODE: StageNeeds(device_bytes=9 * GIB, host_bytes=2 * GIB)},
        history_window=4,
        default_size=(480, 720), default_frames=17, default_fps=8.0,
        representation=REPRESENTATION,
        preview_frames=True,
    ),
    settings=AnimeGamerSettings,
    entry_point="studio.engines.animegamer.engine:AnimeGamerEngine",
    check=check,
    checkpoints=FILES,
    license=LICENSE,
)

TEST_INFO = replace(
    INFO,
    label="AnimeGamer (tiny random test weights)",
    capabilities=replace(
        INFO.capabilities, devices=(DeviceKind.CPU, DeviceKind.CUDA), needs_gpu=False,
        memory={Stage.PREDICT: StageNeeds(device_bytes=64 * MIB, host_bytes=64 * MIB),
                Stage.DECODE: StageNeeds(device_bytes=64 * MIB, host_bytes=64 * MIB)},
        representation=RepresentationSpec(space="animegamer/tiny-226x32", shape=(226, 32), dtype="float32"),
    ),
    license="Random test weights.",
)
"""The contract suite's variant: tiny random weights, allowed on the CPU. Never registered."""
TEST_INFO = replace(TEST_INFO, check=partial(_check, info=TEST_INFO))
