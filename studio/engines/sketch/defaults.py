"""The default cast and world shipped in ``resources/cast.json`` and ``resources/world.json``."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from studio.core.model import CastMember, Location
from studio.engines.base import EngineError
from studio.shipped import shipped

RESOURCES = shipped("resources")
CAST_FILE = RESOURCES / "cast.json"
WORLD_FILE = RESOURCES / "world.json"


def _read_list(path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise EngineError(f"Could not read {path}: {exc.strerror or exc}.",
                          hint="Reinstall Kamishibai Studio or restore the resources folder.") from None
    except json.JSONDecodeError as exc:
        raise EngineError(f"{path} is not valid JSON (line {exc.lineno}: {exc.msg}).") from None
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise EngineError(f"{path} must hold a list of objects.")
    return data


@lru_cache(maxsize=1)
def load_default_cast() -> tuple[CastMember, ...]:
    """Qiqi, Sosuke and our own characters, as cast members."""
    return tuple(
        CastMember(id=str(item.get("id", "")), name=str(item.get("name", "")), params=dict(item.get("params", {})),
                   reference_images=tuple(str(p) for p in item.get("reference_images", [])))
        for item in _read_list(CAST_FILE)
    )


@lru_cache(maxsize=1)
def load_default_world() -> tuple[Location, ...]:
    """Every built-in location, as world locations."""
    return tuple(
        Location(id=str(item.get("id", "")), name=str(item.get("name", "")), kind=str(item.get("kind", "builtin")),
                 params=dict(item.get("params", {})), image_path=str(item.get("image_path", "")))
        for item in _read_list(WORLD_FILE)
    )
