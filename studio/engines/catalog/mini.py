"""The mini engine as the studio knows it before importing it: settings, files, needs, words.

Light on purpose: no torch, transformers or diffusers here (the check asks importlib
whether they are installed, it does not import them).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

from studio.core.digest import file_sha256
from studio.engines.catalog import sketch as sketch_catalog
from studio.engines.catalog.reasons import folder_reason, hardest_first
from studio.engines.config import EngineConfig
from studio.engines.file_kinds import foreign_kind
from studio.engines.info import (
    MIB,
    CheckpointFile,
    DeviceKind,
    EngineCapabilities,
    EngineInfo,
    EngineVocabulary,
    RepresentationSpec,
    Stage,
    StageNeeds,
)
from studio.engines.requirements import (
    Requirement,
    RequirementKind,
    check_devices,
    check_files,
    check_packages,
    not_safetensors,
)
from studio.engines.settings import EngineSettings, Preset, setting

NAME = "mini"
VERSION = "0.5.0"
"""Bump when the model or its weights change: takes record the version that made them
(0.2: the decoder on a latent of our own, lease 9; 0.3: a turn written in Japanese is read in
English words, and decoding sends previews; 0.4: Korean turns; 0.5: the rebuilt decoder of
lease 31, and words the model never learnt given to it as the sketch world reads them)."""

MANIFEST_FORMAT = "kamishibai-mini/1"
"""config.json's ``format``: the engine loads no other (``weights.FORMAT`` is this one)."""
REPRESENTATION = RepresentationSpec(space="mini/32x64-v1", shape=(32, 64), dtype="float32")
PACKAGES = ("torch", "transformers", "diffusers", "tokenizers", "safetensors")
NATIVE_SIZE = (128, 192)
NATIVE_FRAMES = 17

CHECKPOINTS = (
    CheckpointFile("config.json", description="model config and the list of weight files with their sizes"),
    CheckpointFile("tokenizer.json", description="the LM's tokenizer (about 60 KB)"),
    CheckpointFile("lm.safetensors", description="the LM: state tokens and representation (fp16, about 7 MB)"),
    CheckpointFile("decoder.safetensors",
                   description="the video decoder's transformer blocks (int8 matrices with a scale per row, the rest "
                               "fp16; about 11 MB)"),
    CheckpointFile("decoder_io.safetensors",
                   description="the video decoder's patch embedding, conditioning and output head (fp16, 2-7 MB)"),
)
CRITIC = CheckpointFile(
    "critic.safetensors",
    description="the motion critic: picks the best of several candidate clips (fp16, about 1.2 MB; optional: "
                "without it each turn makes one candidate)")
"""Optional: when present, checked against config.json's size like the others."""
LATENT_DECODER = CheckpointFile(
    "latent_decoder.safetensors",
    description="the latent autoencoder's decoder: the video decoder's latents to pixels (fp16, about 3 MB; "
                "only for a model whose config.json has a latent, as the shipped one)")
"""Also needed when config.json's model has a ``latent`` (weights.engine_files says the same)."""


@dataclass(frozen=True, slots=True)
class MiniSettings(EngineSettings):
    ENGINE = "Mini"
    PRESETS = (
        Preset("studio", "Studio (720 × 480)", {"height": 480, "width": 720},
               help="Made at 128 x 192 and upscaled to the studio's clip size."),
        Preset("native", "Native (192 × 128)", {"height": 128, "width": 192},
               help="The model's own size, without upscaling."),
        Preset("fast", "Fast (2 steps)", {"steps": 2}, changes_output=True,
               help="Half the denoising steps: the decoder's part of a turn halves; blurrier clips, and the "
                    "motion read right a little less often (0.63 against 0.66 on held-out turns)."),
        Preset("quality", "Quality (8 steps)", {"steps": 8}, changes_output=True,
               help="Twice the denoising steps: about one to one and a half seconds more a turn on one core; "
                    "clips a little closer to the sketch world's (the same motions read right)."),
        Preset("best_motion", "Best of 4 (slower)", {"candidates": 4}, changes_output=True,
               help="Four clips per turn, the one whose motion best matches the instruction kept: more motions "
                    "read right (about 0.70 against 0.67 on held-out turns); about four times the decoding time "
                    "on a CPU, little more on a GPU, where the four are made as one batch."),
    )

    height: int = setting(480, label="Height", minimum=32, maximum=2160, step=8, unit="px",
                          help="Clip height; the model makes 128 x 192 and scales to this size.")
    width: int = setting(720, label="Width", minimum=32, maximum=2160, step=8, unit="px",
                         help="Clip width; the model makes 128 x 192 and scales to this size.")
    frames: int = setting(17, label="Frames", minimum=1, maximum=NATIVE_FRAMES,
                          help="Frames per clip: the model makes 17; fewer are picked evenly from them.")
    fps: float = setting(8.0, label="Frames per second", minimum=1.0, maximum=60.0, step=1.0, unit="fps",
                         help="Playback speed of the clip.")
    steps: int = setting(4, label="Denoising steps", minimum=1, maximum=16,
                         help="Decoder steps per clip: each one costs about 0.4 s on one core (about 0.25 s on a CPU "
                              "that computes bfloat16 in hardware). "
                              "The shipped decoder is distilled for 4.")
    guidance: float = setting(1.0, label="Guidance", minimum=1.0, maximum=8.0, step=0.5, advanced=True,
                              help="Classifier-free guidance; 1 turns it off. Above 1 each step costs twice. "
                                   "The shipped decoder was distilled with guidance 3 built in.")
    temperature: float = setting(0.0, label="State temperature", minimum=0.0, maximum=2.0, step=0.1, advanced=True,
                                 help="0 predicts the most likely motion level and deltas (the sketch world's rule). "
                                      "Above 0 the level is sampled from the model (sure of most turns' level, it "
                                      "seldom changes), and each delta other than 0 moves one step up or down by "
                                      "the take's seed, as the world's own variation does (never changing "
                                      "its sign): at 1 as often as the world's (a quarter of the turns each way), "
                                      "at 2 on every turn.")
    history_window: int = setting(2, label="History", minimum=0, maximum=2,
                                  help="Earlier turns of the branch the model reads.")
    candidates: int = setting(1, label="Candidates", minimum=1, maximum=8, advanced=True,
                              help="Clips sampled per turn; the model's motion critic keeps the one whose motion "
                                   "best matches the instruction. On a CPU each extra candidate costs about as much "
                                   "as the first (the denoising steps run once per candidate); on a GPU they are "
                                   "made as one batch, for little more than one.")


def check(config: EngineConfig) -> list[Requirement]:
    """Missing packages, missing, damaged or wrongly sized files, devices. A file that
    config.json's size or SHA-256 finds wrong is reported once, with that (not also with
    ``check_files``' safetensors header check)."""
    folder = config.engine_folder(NAME)
    moved = folder_reason(folder, "mini")
    if moved is not None:
        return hardest_first([*check_packages(PACKAGES, engine=NAME, extra="engines"), moved,
                              *check_devices(config, INFO.capabilities, engine=NAME)])
    files = checkpoint_files(folder)
    listed = _check_manifest(folder, files + ((CRITIC,) if (folder / CRITIC.path).is_file() else ()))
    named = {reason.path for reason in listed}  # its size or SHA-256 says more than the header check
    unmet = [*check_packages(PACKAGES, engine=NAME, extra="engines"),
             *(reason for reason in check_files(folder, files, engine=NAME) if reason.path not in named), *listed]
    if not unmet:
        unmet += _check_model(folder)
    if not unmet:
        unmet += _check_depths(folder)
    if not unmet:
        unmet += _check_trained(folder)
    unmet += check_devices(config, INFO.capabilities, engine=NAME)
    return hardest_first(unmet)


def restore_hint(folder: Path, what: str = "the file", *, together: bool = False) -> str:
    """How to repair mini weights in ``folder``, naming the app's own copy: "Restore … from the
    repository" was said for any folder, and for installed copies, which have no repository.
    ``what``: the file or files to put back; ``together``: config.json and the weights must come
    from one model."""
    from studio.engines.checkpoints_folder import app_checkpoints
    from studio.shipped import source_checkout

    app = app_checkpoints() / NAME
    both = " (config.json and the weights together)" if together else ""
    try:
        own = folder.resolve() == app.resolve()
    except OSError:
        own = False
    if not own:
        return f"Copy {what} from the app's own mini weights in {app}{both}, or leave the checkpoints folder " \
               "empty to use that copy."
    if source_checkout() is not None:
        return f"Restore {what} from the repository: git restore {app.relative_to(app.parents[1])}{both}."
    return f"Reinstall the studio: {what} in its own copy of the mini weights ({app}) is damaged."


def _check_model(base: Path) -> list[Requirement]:
    """config.json's model section as the engine reads it (field names, types, sizes): a
    hand-edited value is reported here, before a turn loads it (pure Python: no torch)."""
    from studio.engines.mini.config import ModelConfig, check_limits, check_values, from_dict

    path = base / "config.json"
    try:
        model = json.loads(path.read_text(encoding="utf-8")).get("model")
        if not isinstance(model, dict):
            raise ValueError(f"'model' should be a group of fields ({{...}}), not {model!r}")
        config = from_dict(ModelConfig, model)
        check_values(config, "model.")
        check_limits(config)
    except (OSError, UnicodeDecodeError, AttributeError, TypeError, ValueError) as error:
        return [Requirement(RequirementKind.CONFIG, f"{path} has a bad model config: {error}.",
                            hint=restore_hint(base, "config.json", together=True), path=str(path))]
    return []


DEPTHS = (("decoder.safetensors", "decoder", re.compile(r"^blocks\.(\d+)\.")),
          ("lm.safetensors", "lm", re.compile(r"^backbone\.layers\.(\d+)\.")))
"""Weight files, the config section whose ``layers`` they hold, and how their keys number them."""


def _check_depths(base: Path) -> list[Requirement]:
    """config.json's layer counts against the layers the weight files hold (read from the
    safetensors headers, a few kilobytes): a config edited or taken from another model
    would otherwise pass every check and fail only when a turn loads it."""
    try:
        model = json.loads((base / "config.json").read_text(encoding="utf-8")).get("model", {})
    except (OSError, ValueError, AttributeError):
        return []  # reported by the manifest's check
    if not isinstance(model, dict):
        return []  # reported by the model's check
    unmet = []
    for name, section, pattern in DEPTHS:
        wanted = model.get(section, {}).get("layers") if isinstance(model.get(section), dict) else None
        held = _layers_in(base / name, pattern)
        if isinstance(wanted, int) and held is not None and held != wanted:
            unmet.append(Requirement(
                RequirementKind.FILE, f"{base / name} holds {held} layers, but {base / 'config.json'} describes "
                f"{wanted} ({section}.layers): the weights and the config are from different models.",
                hint=restore_hint(base, "the folder's files", together=True), path=str(base / name)))
    return unmet


UNSEEN_BY_WEIGHTS = ("video", "latent_scale", "latent_mean", "latent_std", "lm.history", "lm.max_instruction",
                     "lm.max_positions", "decoder.param")
"""config.json model fields (groups by their prefix) whose value no weight's shape shows: edited
by hand, they load and make clips the model never learnt to make (a 33-frame clip of a model
trained on 17, the latent read at another scale) without a word. :func:`trained_edits` compares
them with the training record before a turn; loading compares every field, once the weights
have been found to fit."""


def trained_edits(base: Path, prefixes: tuple[str, ...] | None = UNSEEN_BY_WEIGHTS) -> list[str]:
    """The fields of config.json's model (those under ``prefixes``; None: all) whose value differs
    from the model its weights were trained as (``training.config.model``, written with them),
    each as "model.video.frames is 33, trained as 17"; empty when the file records no training
    config (a folder written by other means) or can't be read (reported by the other checks).
    The motion critic's widths are left out: they are set when the critic is exported."""
    try:
        manifest = json.loads((base / "config.json").read_text(encoding="utf-8"))
        model, trained = manifest.get("model"), manifest.get("training", {}).get("config", {}).get("model")
    except (OSError, ValueError, AttributeError):
        return []
    if not isinstance(model, dict) or not isinstance(trained, dict):
        return []
    now, then = _flat(model, "model."), _flat(trained, "model.")
    edits = []
    for key in sorted(set(now) | set(then)):
        field = key.removeprefix("model.")
        if field == "critic" or field.startswith("critic."):
            continue
        if prefixes is not None and not any(field == p or field.startswith(p + ".") for p in prefixes):
            continue
        if now.get(key, _ABSENT) != then.get(key, _ABSENT):
            edits.append(f"{key} is {_shown(now.get(key, _ABSENT))}, trained as {_shown(then.get(key, _ABSENT))}")
    return edits


_ABSENT = object()


def _shown(value: object) -> str:
    return "absent" if value is _ABSENT else json.dumps(value)


def _flat(value: object, prefix: str) -> dict[str, object]:
    """A JSON group's leaves by dotted name (lists are leaves)."""
    if not isinstance(value, dict):
        return {prefix.rstrip("."): value}
    out: dict[str, object] = {}
    for key, item in value.items():
        out.update(_flat(item, f"{prefix}{key}."))
    return out


def edited_config_message(base: Path, edits: list[str]) -> str:
    """The sentence that names a config.json edited since its weights were trained."""
    shown = "; ".join(edits[:4]) + (f"; and {len(edits) - 4} more" if len(edits) > 4 else "")
    return (f"{base / 'config.json'} was edited since its weights were trained ({shown}): the weights hold the "
            "model as it was trained, and under another config it would make clips it never learnt to make")


EDITED_HINT = ("Undo the edit, or restore checkpoints/mini/ from the repository (config.json and the weights "
               "together); the clip's size and length are the settings' Height, Width and Frames.")


def _check_trained(base: Path) -> list[Requirement]:
    """config.json's fields that no weight's shape shows, against the training record (see
    :data:`UNSEEN_BY_WEIGHTS`)."""
    edits = trained_edits(base)
    if not edits:
        return []
    return [Requirement(RequirementKind.CONFIG, edited_config_message(base, edits) + ".", hint=EDITED_HINT,
                        path=str(base / "config.json"))]


def _layers_in(path: Path, pattern: re.Pattern[str]) -> int | None:
    """How many layers the safetensors file's keys number (None when it can't be read)."""
    try:
        with path.open("rb") as file:
            size = int.from_bytes(file.read(8), "little")
            if not 0 < size <= 16 * MIB:
                return None
            keys = json.loads(file.read(size))
    except (OSError, ValueError):
        return None
    found = {int(match.group(1)) for key in keys if (match := pattern.match(key))}
    return max(found) + 1 if found else None


def checkpoint_files(base: Path) -> tuple[CheckpointFile, ...]:
    """The files the folder's model needs: :data:`CHECKPOINTS`, and the latent autoencoder's
    decoder when its config.json describes a latent decoder (the motion critic is optional)."""
    try:
        model = json.loads((base / "config.json").read_text(encoding="utf-8")).get("model", {})
        latent = isinstance(model, dict) and model.get("latent") is not None
    except (OSError, ValueError, AttributeError):
        latent = False  # a missing or unreadable config.json is reported on its own
    return CHECKPOINTS + ((LATENT_DECODER,) if latent else ())


def _check_manifest(base: Path, checkpoints: tuple[CheckpointFile, ...] = CHECKPOINTS) -> list[Requirement]:
    """Present files whose size or SHA-256 differs from the one config.json lists (each file
    hashed once per version of it)."""
    manifest_path = base / "config.json"
    if not manifest_path.is_file():
        return []
    try:
        files = json.loads(manifest_path.read_text(encoding="utf-8")).get("files", {})
    except (OSError, ValueError, AttributeError):
        return [Requirement(RequirementKind.FILE, f"{manifest_path} can't be read.",
                            hint=restore_hint(base, "config.json"), path=str(manifest_path))]
    if not isinstance(files, dict):
        return [Requirement(RequirementKind.FILE, f"{manifest_path}: its 'files' entry should map each file name to "
                            f"its size and SHA-256, not {type(files).__name__}.",
                            hint=restore_hint(base, "config.json"), path=str(manifest_path))]
    unmet = []
    manifest_format = _manifest_format(manifest_path)
    if manifest_format != MANIFEST_FORMAT:  # the engine refuses to load any other (weights.read_manifest)
        unmet.append(Requirement(
            RequirementKind.FILE, f"{manifest_path} is not a mini checkpoint's config.json: "
            + (f"its \"format\" entry reads {json.dumps(manifest_format)}, where a mini checkpoint's reads "
               f"\"{MANIFEST_FORMAT}\"." if manifest_format is not None else
               f"it has no \"format\" entry (a mini checkpoint's reads \"{MANIFEST_FORMAT}\")."),
            hint=restore_hint(base, "config.json", together=True), path=str(manifest_path)))
    for item in checkpoints[1:]:
        path = base / item.path
        listed = files.get(item.path)
        if not path.is_file():
            continue
        if not isinstance(listed, dict) or not isinstance(listed.get("sha256"), str) or "bytes" not in listed:
            # the engine loads only files the manifest lists with their size and SHA-256 (weights.verify_file)
            what = (f"does not list {item.path}" if not isinstance(listed, dict)
                    else f"lists {item.path} without its size in bytes and SHA-256")
            unmet.append(Requirement(
                RequirementKind.FILE, f"{manifest_path} {what}: the engine can't check the file, and refuses to "
                "load it.",
                hint=restore_hint(base, "config.json", together=True), path=str(manifest_path)))
            continue
        expected = listed.get("bytes")
        if isinstance(expected, bool) or not isinstance(expected, int):
            unmet.append(Requirement(
                RequirementKind.FILE, f"{manifest_path} lists {item.path} with a size of {expected!r}, not a number "
                f"of bytes.", hint=restore_hint(base, "config.json"), path=str(manifest_path)))
            continue
        try:
            size = path.stat().st_size
            digest = _digest(path, size, path.stat().st_mtime_ns) if size == expected else ""
        except OSError as error:  # unreadable: its permissions (a copy made by another user), a failing disk
            unmet.append(Requirement(
                RequirementKind.FILE, f"{path} can't be read: {error.strerror or error}.",
                hint=f"Make the file readable by the user who runs the studio. Or: {restore_hint(base, item.path)}",
                path=str(path), expected_bytes=expected))
            continue
        if size != expected and (kind := foreign_kind(path)) is not None:  # not "an incomplete copy"
            unmet.append(Requirement(RequirementKind.FILE, not_safetensors(path, kind),
                                     hint=restore_hint(base, item.path), path=str(path),
                                     expected_bytes=expected))
        elif size != expected:
            unmet.append(Requirement(
                RequirementKind.FILE, f"{path} is {size:,} bytes, expected {expected:,} (incomplete copy?).",
                hint=restore_hint(base, item.path), path=str(path), expected_bytes=expected))
        elif digest != listed["sha256"]:
            unmet.append(Requirement(
                RequirementKind.FILE, f"{path} is corrupt: its SHA-256 does not match {manifest_path}.",
                hint=restore_hint(base, item.path), path=str(path), expected_bytes=expected))
    return unmet


def _manifest_format(path: Path) -> object:
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return manifest.get("format") if isinstance(manifest, dict) else None


@functools.lru_cache(maxsize=64)
def _digest(path: Path, size: int, mtime_ns: int) -> str:
    """SHA-256 of a checkpoint file, computed once per version of it (its size and time: about
    60 ms for the whole shipped folder)."""
    return file_sha256(path)


def vocabulary() -> EngineVocabulary:
    """The sketch world's words: the mini model was trained on them."""
    return sketch_catalog.vocabulary()


INFO = EngineInfo(
    name=NAME,
    version=VERSION,
    label="Mini (built-in model)",
    description="Our own small model of AnimeGamer's design (a tiny transformers LM that predicts the state tokens "
                "and the clip's representation, and a small diffusers video decoder), trained on the sketch world. "
                "Runs on any CPU in one to two seconds per turn; knows the default cast and the sketch world's places.",
    capabilities=EngineCapabilities(
        devices=(DeviceKind.CPU, DeviceKind.CUDA),
        memory={Stage.PREDICT: StageNeeds(device_bytes=96 * MIB, host_bytes=96 * MIB),
                Stage.DECODE: StageNeeds(device_bytes=512 * MIB, host_bytes=384 * MIB)},
        history_window=2,
        default_size=(480, 720), default_frames=NATIVE_FRAMES, default_fps=8.0,
        representation=REPRESENTATION,
        preview_frames=True,
    ),
    settings=MiniSettings,
    entry_point="studio.engines.mini.engine:MiniEngine",
    check=check,
    vocabulary=vocabulary,
    checkpoints=CHECKPOINTS,
    license="Our own weights, trained on the procedural sketch world (Apache-2.0, as the app).",
)
