"""User preferences kept with QSettings: engine and its settings, queue behaviour, recent projects.

Everything goes through :class:`StudioSettings`, which wraps one QSettings object, so
tests can hand the window an ini file in a temporary folder instead of the user's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings

MAX_RECENT = 8


def _bool(value: Any, default: bool) -> bool:
    if value is None:
        return default
    if isinstance(value, str):
        return value.lower() in ("1", "true", "yes")
    return bool(value)


class StudioSettings:
    def __init__(self, qsettings: QSettings | None = None) -> None:
        self.q = qsettings or QSettings("Kamishibai", "Kamishibai Studio")

    @classmethod
    def at(cls, path: Path) -> StudioSettings:
        """Settings in an ini file (tests, portable installs)."""
        return cls(QSettings(str(path), QSettings.Format.IniFormat))

    # -- generation -----------------------------------------------------------------------

    def engine_values(self, engine: str) -> dict[str, Any]:
        """The settings the user changed for ``engine`` (its own defaults hold for the rest)."""
        raw = self.q.value(f"engines/{engine}/values", "")
        try:
            values = json.loads(str(raw)) if raw else {}
        except ValueError:
            return {}
        return dict(values) if isinstance(values, dict) else {}

    def set_engine_values(self, engine: str, values: Mapping[str, Any]) -> None:
        self.q.setValue(f"engines/{engine}/values", json.dumps(dict(values), sort_keys=True))
        self.q.sync()

    @property
    def engine(self) -> str:
        return str(self.q.value("engine/name", "") or "")

    @engine.setter
    def engine(self, name: str) -> None:
        self.q.setValue("engine/name", name)

    @property
    def device(self) -> str:
        return str(self.q.value("engine/device", "cpu") or "cpu")

    @device.setter
    def device(self, name: str) -> None:
        self.q.setValue("engine/device", name)

    @property
    def auto_requeue(self) -> bool:
        return _bool(self.q.value("queue/auto_requeue"), False)

    @auto_requeue.setter
    def auto_requeue(self, on: bool) -> None:
        self.q.setValue("queue/auto_requeue", on)

    # -- projects --------------------------------------------------------------------------

    @property
    def recent_projects(self) -> list[str]:
        value = self.q.value("projects/recent", [])
        if isinstance(value, str):
            return [value] if value else []
        return [str(v) for v in value] if isinstance(value, (list, tuple)) else []

    def add_recent(self, path: Path) -> None:
        entry = str(path)
        items = [entry, *(p for p in self.recent_projects if p != entry)][:MAX_RECENT]
        self.q.setValue("projects/recent", items)
        self.q.sync()

    @property
    def first_run_done(self) -> bool:
        return _bool(self.q.value("app/first_run_done"), False)

    def mark_first_run_done(self) -> None:
        self.q.setValue("app/first_run_done", True)
        self.q.sync()

    def geometry(self) -> Any:
        return self.q.value("window/geometry")

    def save_window(self, geometry: Any, state: Any) -> None:
        self.q.setValue("window/geometry", geometry)
        self.q.setValue("window/state", state)

    def window_state(self) -> Any:
        return self.q.value("window/state")
