"""Preferences: clip size, frames and fps sent with every job; device; auto re-queue;
appearance; where model weights are looked for."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from studio.engines.weights_search import hf_hub_cache
from studio.ui.settings import APPEARANCES, ClipSettings, StudioSettings

APPEARANCE_LABELS = {"system": "Follow the system", "light": "Light", "dark": "Dark"}


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
        self.appearance = QComboBox(self)
        for key in APPEARANCES:
            self.appearance.addItem(APPEARANCE_LABELS[key], key)
        self.appearance.setCurrentIndex(APPEARANCES.index(settings.appearance))
        form.addRow("Appearance", self.appearance)
        self.checkpoints = QLineEdit(settings.checkpoints_folder, self)
        defaults = settings.paths.default_checkpoint_dirs()
        self.checkpoints.setPlaceholderText(f"{defaults[0]}, then {defaults[1]}")
        self.checkpoints.setToolTip("Model weights are looked for in ENGINE/ inside this folder. Empty: the "
                                    "checkpoints folder beside the app, then the one in the data folder.")
        browse = QPushButton("Choose…", self)
        browse.clicked.connect(self._choose_checkpoints)
        folder = QHBoxLayout()
        folder.addWidget(self.checkpoints, 1)
        folder.addWidget(browse)
        form.addRow("Checkpoints folder", folder)
        self.hf_cache = QCheckBox(f"Also use weights already in the Hugging Face cache ({hf_hub_cache()})", self)
        self.hf_cache.setChecked(settings.use_hf_cache)
        form.addRow("", self.hf_cache)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                   parent=self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _choose_checkpoints(self) -> None:
        start = self.checkpoints.text() or str(self.settings.checkpoint_dirs()[0])
        folder = QFileDialog.getExistingDirectory(self, "Checkpoints folder", start)
        if folder:
            self.checkpoints.setText(folder)

    def save(self) -> None:
        self.settings.clip = ClipSettings(self.width.value(), self.height.value(), self.frames.value(),
                                          self.fps.value())
        self.settings.device = self.device.currentText().strip() or "cpu"
        self.settings.auto_requeue = self.auto_requeue.isChecked()
        self.settings.appearance = str(self.appearance.currentData())
        self.settings.checkpoints_folder = self.checkpoints.text()
        self.settings.use_hf_cache = self.hf_cache.isChecked()
        self.settings.q.sync()
