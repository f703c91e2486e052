"""What a checkpoints folder given by the user is: the folder that holds one folder per
engine, or (a common slip) one engine's own weights folder; and the app's own weights, which
a chosen folder does not hide.

Light: it stats files only, and knows the engines by their catalogue infos.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from studio.engines.config import EngineConfig
from studio.engines.info import EngineInfo


def app_checkpoints() -> Path:
    """The app's own checkpoints folder: the one that holds the shipped mini weights."""
    from studio.shipped import shipped

    return shipped("checkpoints")


def with_the_app_weights(chosen: Path) -> list[Path]:
    """The folders engines look in when the user chose ``chosen``: it first, then the app's own
    checkpoints folder, where only an engine folder that holds weights counts (see
    :meth:`studio.engines.config.EngineConfig.engine_folder`). A chosen folder holding only
    the AnimeGamer weights switched the shipped mini engine off: it then looked for mini there
    alone."""
    app = app_checkpoints()
    try:
        same = chosen.resolve() == app.resolve()
    except OSError:
        same = False
    return [chosen] if same else [chosen, app]


@dataclass(frozen=True, slots=True)
class OwnFolder:
    """A folder given as a checkpoints folder that is ``engine``'s own weights folder."""

    folder: Path
    engine: str

    def message(self, lead: str) -> str:
        """The sentence that refuses it; ``lead`` names where it was given ("--checkpoints
        DIR", "The checkpoints folder DIR"): the command line and Settings say the same."""
        return f"{lead} is the {self.engine} engine's own weights folder, not a checkpoints folder."

    def hint(self, how: str = "Give the folder that holds it: --checkpoints ") -> str:
        """What to give instead, after ``how`` ("Give the folder that holds it: --checkpoints "
        on the command line, "Choose the folder that holds it: " in Settings)."""
        return f"{how}{self.folder.parent}"


def own_folder(folder: Path, engines: Iterable[EngineInfo]) -> OwnFolder | None:
    """The engine whose own weights folder ``folder`` is (named after it and holding at least
    one of its files, or a config or weights file at its top), else None. The engines would
    look in ``mini/mini`` or ``animegamer/animegamer`` and list every file missing there."""
    for info in engines:
        if folder.name.lower() != info.name.lower():
            continue
        try:
            found = (any((folder / item.path).exists() for item in info.checkpoints)
                     or any((folder / name).is_file() for name in ("config.json", "model.json"))
                     or any(folder.glob("*.safetensors")))
        except OSError:
            return None
        return OwnFolder(folder, info.name) if found else None
    return None


def copy_note(config: EngineConfig, name: str) -> str:
    """Which copy of ``name``'s weights ``config`` uses, when it is not the one in its checkpoints
    folder ("" when it is): the app's own mini weights, found after a chosen folder without
    ``mini/``. The doctor, the engine picker and the welcome page say it, so that a user who
    chose a folder knows the mini engine still runs and from where."""
    if not config.uses_a_further_copy(name):
        return ""
    folder = config.engine_folder(name)
    try:
        own = folder.parent.resolve() == app_checkpoints().resolve()
    except OSError:
        own = False
    whose = "the app's own" if own else "the"
    return (f"Uses {whose} {name} weights in {folder}: the checkpoints folder {config.checkpoints} has no "
            f"{name} folder.")
