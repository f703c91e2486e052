"""Engine picker for the toolbar, with the device's status (CPU/GPU, memory, loaded engine).

Engines that can't run here are greyed out with every reason in their tooltip. The
reasons come from each engine's ``check`` (files, packages, devices, memory), run on a
background thread because a GPU engine's check may import torch.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from studio.engines.checkpoints_folder import copy_note
from studio.engines.config import EngineConfig
from studio.engines.registry import EngineRegistry
from studio.engines.requirements import Requirement
from studio.ui.device_status import describe_device

MISSING_SHOWN = 4
"""At most this many "Missing …" lines in an engine's tooltip; the rest are counted."""


def tooltip_lines(unmet: Sequence[Requirement]) -> list[str]:
    """``unmet`` as the tooltip's lines: hardest first, each hint said once, after the last line it
    fixes, and the missing files past :data:`MISSING_SHOWN` counted. QA: AnimeGamer's tooltip
    repeated "Convert the released weights: …" on each of its 12 "Missing" lines (13 lines,
    3,543 characters)."""
    groups: dict[str, list[Requirement]] = {}
    for reason in unmet:
        groups.setdefault(reason.hint, []).append(reason)
    lines: list[str] = []
    for hint, reasons in groups.items():
        missing = [r for r in reasons if r.message.startswith("Missing ")]
        messages = [r.message for r in reasons]
        if len(missing) > MISSING_SHOWN:  # the biggest files named, the rest counted
            named = sorted(missing, key=lambda r: -(r.expected_bytes or 0))[:MISSING_SHOWN - 1]
            left = len(missing) - len(named)
            messages = [r.message for r in reasons if r not in missing or r in named]
            messages.append(f"And {left} more files missing (`kamishibai doctor` lists them).")
        lines += messages[:-1]
        lines.append(f"{messages[-1]} ({hint})" if hint else messages[-1])
    return lines


class EngineChecks(QObject):
    """Runs every engine's check off the GUI thread; ``done`` carries {name: [reason, ...]}."""

    done = Signal(object)
    copies = Signal(object)
    """{name: which copy of its weights it uses}, for the engines whose weights are not in the
    checkpoints folder (:func:`~studio.engines.checkpoints_folder.copy_note`); sent before ``done``."""

    def start(self, registry: EngineRegistry, config: EngineConfig) -> None:
        def work() -> None:
            reasons = {name: tooltip_lines(registry.check(name, config)) for name in registry.names()}
            copies = {name: note for name in registry.names() if (note := copy_note(config, name))}
            try:
                self.copies.emit(copies)
                self.done.emit(reasons)
            except RuntimeError:  # the window closed meanwhile
                pass

        threading.Thread(target=work, name="kamishibai-engine-checks", daemon=True).start()


class EnginePicker(QWidget):
    engine_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.combo = QComboBox(self)
        self.combo.setToolTip("Engine used for new takes")
        self.combo.setMinimumWidth(130)
        self.status = QLabel("", self)
        self.status.setObjectName("dimLabel")
        self.service: Any = None
        self.device = "cpu"
        self.compact = False
        """Whether the status is left out for room (:meth:`set_compact`)."""
        self.unavailable: dict[str, list[str]] = {}
        self._reasons: dict[str, list[str]] = {}
        self._tips: dict[str, str] = {}
        """Each engine's tooltip: description and the weights' license."""
        self._checks = EngineChecks(self)
        self.copies: dict[str, str] = {}
        """Which copy of its weights an engine uses, where not the checkpoints folder's."""
        self._checks.copies.connect(self.set_copies)
        self._checks.done.connect(self.set_availability)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        label = QLabel("Engine", self)
        label.setBuddy(self.combo)  # a screen reader names the drop-down after it
        layout.addWidget(label)
        layout.addWidget(self.combo)
        layout.addWidget(self.status)
        self.combo.currentIndexChanged.connect(self._changed)

    def set_engines(self, registry: EngineRegistry, current: str, config: EngineConfig | None = None) -> None:
        """List the registry's engines (label, description) and check them in the background."""
        self.combo.blockSignals(True)
        self.combo.clear()
        self._tips = {}
        for info in registry.infos():
            self.combo.addItem(info.label, info.name)
            tip = info.description + (f"\nWeights: {info.license}" if info.license else "")
            self._tips[info.name] = tip
            self.combo.setItemData(self.combo.count() - 1, tip, Qt.ItemDataRole.ToolTipRole)
        index = self.combo.findData(current)
        if index >= 0:
            self.combo.setCurrentIndex(index)
        self.combo.blockSignals(False)
        self.set_availability(self._reasons)  # what is known until the new check answers
        if config is not None:
            self._checks.start(registry, config)

    def current_engine(self) -> str:
        return str(self.combo.currentData() or "")

    def set_copies(self, copies: dict[str, str]) -> None:
        """Note which copy of its weights each engine uses (told in its tooltip)."""
        self.copies = dict(copies)

    def set_availability(self, reasons: dict[str, list[str]]) -> None:
        """Grey out engines with reasons (shown in the item's tooltip)."""
        self._reasons = dict(reasons)
        self.unavailable = {name: found for name, found in reasons.items() if found}
        model = self.combo.model()
        for index in range(self.combo.count()):
            name = str(self.combo.itemData(index))
            found = self.unavailable.get(name, [])
            if isinstance(model, QStandardItemModel):
                item = model.item(index)
                if item is not None:
                    item.setEnabled(not found)
            if found:  # the reasons first; the description and the weights' license stay below them
                text = "Can't run here:\n" + "\n".join(f"• {reason}" for reason in found)
                if self._tips.get(name):
                    text += "\n\n" + self._tips[name]
                self.combo.setItemData(index, text, Qt.ItemDataRole.ToolTipRole)
            elif name in self._tips:  # which weights it runs with, when not the chosen folder's
                copy = self.copies.get(name, "")
                tip = f"{copy}\n\n{self._tips[name]}" if copy else self._tips[name]
                self.combo.setItemData(index, tip, Qt.ItemDataRole.ToolTipRole)
        self.refresh_status()

    def set_service(self, service: Any, device: str) -> None:
        self.service = service
        self.device = device
        self.refresh_status()

    def _changed(self, _index: int) -> None:
        name = self.current_engine()
        if name:
            self.engine_changed.emit(name)
            self.refresh_status()

    def set_compact(self, compact: bool) -> None:
        """In a narrow window the device and engine status ("CPU · 2 cores · …") is left out of
        the toolbar and told by the picker's tooltip, so that the choice itself stays in sight."""
        self.compact = compact
        self.status.setVisible(not compact)
        self.setToolTip(self.status.text() if compact else "")

    def refresh_status(self) -> None:
        device = describe_device(self.device)
        loaded = ""
        if self.service is not None:
            try:
                status = self.service.engine_status()
                if status.name:
                    loaded = f"{status.name} {'loaded' if status.loaded else 'loading'}"
            except Exception:
                loaded = ""
        else:  # no project open: nothing is wrong with generating, there is nothing to generate yet
            loaded = "open a project to generate"
        current = self.current_engine()
        if current in self.unavailable:
            runnable = self.runnable_engines()
            loaded = f"{current} can't run here" + (f": choose {_either(runnable)}" if runnable else "")
        self.status.setText(" · ".join(p for p in (device, loaded) if p))
        self.status.setToolTip(self.unusable_message())
        if self.compact:
            self.setToolTip(self.status.text())

    def runnable_engines(self) -> list[str]:
        """The engines listed that can run here (checked, with no reason against them)."""
        names = [str(self.combo.itemData(index)) for index in range(self.combo.count())]
        return [name for name in names if name in self._reasons and name not in self.unavailable]

    def unusable_message(self) -> str:
        """What to do when the chosen engine (a saved one, from another machine) can't run here, in
        the window's words: why, and the engines that can run; "" when it can. The window opened
        with it chosen and greyed, without a word, and a re-roll then said only the command line's
        advice."""
        current = self.current_engine()
        reasons = self.unavailable.get(current)
        if not reasons:
            return ""
        runnable = self.runnable_engines()
        choose = (f" Choose {_either(runnable)} in the Engine list to generate here." if runnable else
                  " No engine can run here: File › Settings › Checkpoints folder and Device say where the weights "
                  "and the GPU are looked for.")
        return f"The {current} engine can't run here: {reasons[0]}{choose}"


def _either(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
