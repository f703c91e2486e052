"""What an engine is, needs and offers, known without importing it.

An :class:`EngineInfo` is plain data (plus two light callables): the app lists engines,
checks whether they can run, renders their settings form and offers their vocabulary
before any engine package (and torch with it) is imported. Each engine's info lives in
``studio.engines.catalog``; the engine package holds the implementation that
``entry_point`` names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from studio.engines.capabilities import (
    GIB,
    MIB,
    CheckpointFile,
    DeviceKind,
    EngineCapabilities,
    RepresentationSpec,
    Stage,
    StageNeeds,
)
from studio.engines.settings import EngineSettings

__all__ = [
    "GIB",
    "MIB",
    "CheckpointFile",
    "DeviceKind",
    "EngineCapabilities",
    "EngineInfo",
    "EngineVocabulary",
    "RepresentationSpec",
    "Stage",
    "StageNeeds",
    "no_vocabulary",
]

if TYPE_CHECKING:
    from studio.engines.config import EngineConfig
    from studio.engines.requirements import Requirement

@dataclass(frozen=True, slots=True)
class EngineVocabulary:
    """Words an engine understands, offered by editors as completions."""

    motions: tuple[str, ...] = ()
    locations: tuple[str, ...] = ()
    cameras: tuple[str, ...] = ()
    adverbs: tuple[str, ...] = ()
    languages: tuple[tuple[str, EngineVocabulary], ...] = ()
    """The same kinds of words in the other languages the engine reads a turn in, by language
    ('ja', 'zh' for Simplified Chinese, 'zh-hant' for Traditional): offered for a turn written
    in that language, where English words would change its language."""

    def in_language(self, language: str) -> EngineVocabulary | None:
        """The words for a turn in ``language`` ('' is English: these), None where the engine
        offers none in it."""
        if not language:
            return self
        return dict(self.languages).get(language)


def no_vocabulary() -> EngineVocabulary:
    return EngineVocabulary()


def _no_requirements(_config: EngineConfig) -> list[Requirement]:
    return []


@dataclass(frozen=True, slots=True)
class EngineInfo:
    """An engine's static description, registered without importing the engine.

    ``entry_point`` is ``"package.module:Class"``; the class is constructed with an
    :class:`~studio.engines.config.EngineConfig`. ``check`` and ``vocabulary`` must stay
    light: no torch import for engines that can't run anyway, no model loading.
    """

    name: str
    version: str
    label: str
    description: str
    capabilities: EngineCapabilities
    settings: type[EngineSettings]
    entry_point: str
    check: Callable[[EngineConfig], list[Requirement]] = _no_requirements
    vocabulary: Callable[[], EngineVocabulary] = no_vocabulary
    checkpoints: tuple[CheckpointFile, ...] = ()
    """Files under ``<checkpoints>/<name>/`` the engine loads (listed by the doctor)."""
    license: str = ""
    """The weights' license, named where the engine is chosen ("" for our own)."""
    draft: bool = False
    """A draft engine: instant, shown as 'Draft' in the picker."""
