"""Reading a Hugging Face ``config.json`` to tell which model a downloaded folder holds,
before any of its weights is read (no torch: the doctors read it too).

A folder of another model than the one a conversion expects is named by a few hundred bytes of
its config.json; its weights would be read for gigabytes before the difference showed, in words
about the converted file. Each engine's converter says which fields must hold which values.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path

CONFIG_FILE = "config.json"


class ConfigUnreadableError(Exception):
    """The config.json is there but is not a JSON object: ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def read_config(folder: Path) -> dict[str, object] | None:
    """``folder``'s config.json as a dict; None when there is none (the weights are still
    checked name by name and shape by shape). Raises :class:`ConfigUnreadableError`."""
    path = folder / CONFIG_FILE
    if not path.is_file():
        return None
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ConfigUnreadableError(f"can't be read as JSON ({error})") from None
    if not isinstance(config, dict):
        raise ConfigUnreadableError("is not a JSON object")
    return config


def with_rope_theta(fields: Mapping[str, object]) -> dict[str, object]:
    """``fields`` with a ``rope_theta`` that newer transformers write inside ``rope_parameters``
    lifted out."""
    out = dict(fields)
    rope = fields.get("rope_parameters")
    if "rope_theta" not in out and isinstance(rope, dict) and "rope_theta" in rope:
        out["rope_theta"] = rope["rope_theta"]
    return out


def mismatches(given: Mapping[str, object], expected: Mapping[str, float], model: str, label: str = "") -> list[str]:
    """Each field of ``expected`` that ``given`` holds with another value, in words ("hidden_size
    2048 where MODEL has 4096"); a field not given is not counted."""
    wrong = []
    for field, wanted in expected.items():
        value = given.get(field)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isclose(value, wanted):
            wrong.append(f"{label}{field} {value!r} where {model} has {number_text(wanted)}")
    return wrong


def number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
