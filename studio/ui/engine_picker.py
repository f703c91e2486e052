"""Engine picker for the toolbar, with the device's status (CPU/GPU, memory, loaded engine)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from studio.ui.device_status import describe_device

STATUS_REFRESH_MS = 3000


class EnginePicker(QWidget):
    engine_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.combo = QComboBox(self)
        self.combo.setToolTip("Engine used for new takes")
        self.combo.setMinimumWidth(110)
        self.status = QLabel("", self)
        self.status.setObjectName("dimLabel")
        self.service: Any = None
        self.device = "cpu"
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        layout.addWidget(QLabel("Engine", self))
        layout.addWidget(self.combo)
        layout.addWidget(self.status)
        self.combo.currentTextChanged.connect(self._changed)
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.refresh_status)
        self._timer.start(STATUS_REFRESH_MS)

    def set_engines(self, names: list[str], current: str) -> None:
        self.combo.blockSignals(True)
        self.combo.clear()
        self.combo.addItems(names)
        if current in names:
            self.combo.setCurrentText(current)
        self.combo.blockSignals(False)

    def set_service(self, service: Any, device: str) -> None:
        self.service = service
        self.device = device
        self.refresh_status()

    def _changed(self, name: str) -> None:
        if name:
            self.engine_changed.emit(name)
            self.refresh_status()

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
        elif self.service is None:
            loaded = "generation unavailable"
        self.status.setText(" · ".join(p for p in (device, loaded) if p))
