"""The sketch engine as the studio knows it before importing it: settings, needs, words."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from studio.engines.catalog.reasons import hardest_first
from studio.engines.config import EngineConfig
from studio.engines.info import (
    MIB,
    DeviceKind,
    EngineCapabilities,
    EngineInfo,
    EngineVocabulary,
    RepresentationSpec,
    Stage,
    StageNeeds,
)
from studio.engines.requirements import Requirement, check_devices, check_packages
from studio.engines.settings import EngineSettings, Preset, setting

NAME = "sketch"
VERSION = "1.9.0"
"""Bump when rendering or rules change: takes record the version that made them."""

REPRESENTATION = RepresentationSpec(space="sketch/226x64-v1", shape=(226, 64), dtype="float32")
CAMERAS = ("auto", "static", "pan", "follow", "zoom", "orbit")
VOCABULARY_FILE = Path(__file__).with_name("sketch_vocabulary.json")


@dataclass(frozen=True, slots=True)
class SketchSettings(EngineSettings):
    ENGINE = "Sketch"
    PRESETS = (
        Preset("studio", "Studio (720 × 480)", {"height": 480, "width": 720},
               help="The studio's clip size, the same as AnimeGamer's."),
        Preset("draft", "Quick draft (360 × 240)", {"height": 240, "width": 360},
               help="Quarter the pixels: four times faster to render and export.", changes_output=True),
    )

    height: int = setting(480, label="Height", minimum=32, maximum=2160, step=8, unit="px",
                          help="Clip height in pixels.")
    width: int = setting(720, label="Width", minimum=32, maximum=2160, step=8, unit="px",
                         help="Clip width in pixels.")
    frames: int = setting(17, label="Frames", minimum=1, maximum=240,
                          help="Frames per clip (AnimeGamer makes 17).")
    fps: float = setting(8.0, label="Frames per second", minimum=1.0, maximum=120.0, step=1.0, unit="fps",
                         help="Playback speed of the clip; the motion covers frames / fps seconds.")
    camera: str = setting("auto", label="Camera", choices=CAMERAS,
                          help="Force a camera move for every turn; auto follows the instruction.")


def check(config: EngineConfig) -> list[Requirement]:
    return hardest_first([*check_packages(("numpy", "PIL"), engine=NAME, extra="engines"),
                          *check_devices(config, INFO.capabilities, engine=NAME)])


@cache
def vocabulary() -> EngineVocabulary:
    """The words the engine understands, from the file the engine's test keeps in step."""
    try:
        data = json.loads(VOCABULARY_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return EngineVocabulary()
    return _words(data)


def _words(data: dict[str, Any]) -> EngineVocabulary:
    """The vocabulary of the file's ``data``, with the words of each language it lists."""
    languages = data.get("languages", {})
    return EngineVocabulary(
        **{key: tuple(data.get(key, ())) for key in ("motions", "locations", "cameras", "adverbs")},
        languages=tuple((language, _words(words)) for language, words in languages.items()
                        if isinstance(words, dict)) if isinstance(languages, dict) else ())


INFO = EngineInfo(
    name=NAME,
    version=VERSION,
    label="Sketch (draft)",
    description="Procedural 2D anime world (numpy/Pillow): instant drafts, deterministic, any character in any "
                "built-in or image location. The training world and ground truth of the mini engine.",
    capabilities=EngineCapabilities(
        devices=(DeviceKind.CPU,),
        memory={Stage.PREDICT: StageNeeds(host_bytes=16 * MIB), Stage.DECODE: StageNeeds(host_bytes=96 * MIB)},
        history_window=1,
        default_size=(480, 720), default_frames=17, default_fps=8.0,
        representation=REPRESENTATION,
    ),
    settings=SketchSettings,
    entry_point="studio.engines.sketch.engine:SketchEngine",
    check=check,
    vocabulary=vocabulary,
    draft=True,
)
