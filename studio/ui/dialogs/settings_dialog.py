"""Preferences: clip size, frames and fps sent with every job; device; auto re-queue."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QWidget,
)

from studio.ui.settings import ClipSettings, StudioSettings


class SettingsDialog(QDialog):
    def __init__(self, settings: StudioSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.setWindowTitle("Settings")
        clip = settings.clip
        self.width = QSpinBox(self)
        self.width.setRange(32, 4096)
        self.width.setSingleStep(8)
        self.width.setValue(clip.width)
        self.height = QSpinBox(self)
        self.height.setRange(32, 4096)
        self.height.setSingleStep(8)
        self.height.setValue(clip.height)
        self.frames = QSpinBox(self)
        self.frames.setRange(1, 257)
        self.frames.setValue(clip.frames)
        self.fps = QDoubleSpinBox(self)
        self.fps.setRange(1, 60)
        self.fps.setValue(clip.fps)
        self.device = QComboBox(self)
        self.device.setEditable(True)
        self.device.addItems(["cpu", "cuda", "cuda:0", "cuda:1"])
        self.device.setCurrentText(settings.device)
        self.auto_requeue = QCheckBox("Re-queue jobs interrupted by a crash when a project opens", self)
        self.auto_requeue.setChecked(settings.auto_requeue)
        size = QHBoxLayout()
        size.addWidget(self.width)
        size.addWidget(QLabel("×", self))
        size.addWidget(self.height)
        form = QFormLayout(self)
        form.addRow("Clip size", size)
        form.addRow("Frames per clip", self.frames)
        form.addRow("Frames per second", self.fps)
        form.addRow("Device", self.device)
        form.addRow("", self.auto_requeue)
        note = QLabel("Device changes apply to the next project you open.", self)
        note.setObjectName("dimLabel")
        form.addRow("", note)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                   parent=self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def save(self) -> None:
        self.settings.clip = ClipSettings(self.width.value(), self.height.value(), self.frames.value(),
                                          self.fps.value())
        self.settings.device = self.device.currentText().strip() or "cpu"
        self.settings.auto_requeue = self.auto_requeue.isChecked()
        self.settings.q.sync()
