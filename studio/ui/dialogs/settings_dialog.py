"""Preferences: each engine's settings (a form from its schema), the device and CPU threads,
auto re-queue, appearance, and where model weights are looked for."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from studio.core.errors import StudioError
from studio.engines import config as engine_config
from studio.engines import devices
from studio.engines.checkpoints_folder import app_checkpoints, own_folder
from studio.engines.config import EngineConfig, Placement
from studio.engines.devices import DeviceProbe
from studio.engines.info import EngineInfo
from studio.engines.registry import EngineRegistry
from studio.engines.weights_search import hf_hub_cache
from studio.ui.cluster_settings import ClusterChoice
from studio.ui.dialogs.engine_settings_form import EngineSettingsForm
from studio.ui.engine_picker import EngineChecks
from studio.ui.settings import APPEARANCES, StudioSettings, check_device_list, foreign_engine_values
from studio.ui.window_state import fit_on_screen

APPEARANCE_LABELS = {"system": "Follow the system", "light": "Light", "dark": "Dark"}
AUTOMATIC_THREADS_LABEL = "Automatic (all cores but one)"
COMMAND_LINE_WORDS = (("use --cluster auto", "choose auto"), ("Use --cluster local, auto,", "Choose local or auto,"),
                      ("several workers are --devices cpu,cuda:0", "several workers go in Devices (cpu,cuda:0)"))
"""The command line's options that the engines' and the cluster's messages name, and what a
user of this dialog does instead."""


def in_dialog_words(text: str) -> str:
    """``text`` (a refusal's message or hint) saying this dialog's choices where it names a
    command-line option."""
    for command_line, dialog in COMMAND_LINE_WORDS:
        text = text.replace(command_line, dialog)
    return text


def checkpoints_problem(text: str, saved: str, engines: Iterable[EngineInfo]) -> str:
    """Why the checkpoints folder typed as ``text`` can't be used ("": it can, or it is empty).

    A relative path would be read from wherever the app was started, a file is no folder, and
    a folder that doesn't exist is most likely mistyped: the engines then said only that their
    weights were missing. A saved folder that is missing now (a drive not plugged in) is kept,
    so that the rest of the dialog can still be changed. An engine's own weights folder
    (checkpoints/mini) is refused as ``--checkpoints`` refuses it (``engines``: those the window
    was handed)."""
    typed = text.strip()
    if not typed:
        return ""
    folder = Path(typed).expanduser()
    fix = "Choose… picks a folder; leave it empty to use the default folders."
    if not folder.is_absolute():
        return f"The checkpoints folder {typed!r} is not a whole path (like /home/me/weights). {fix}"
    if folder.exists() and not folder.is_dir():
        return f"The checkpoints folder {typed} is a file, not a folder. {fix}"
    if not folder.exists() and typed != saved.strip():
        return f"The checkpoints folder {typed} doesn't exist: check its spelling, or create it first. {fix}"
    own = own_folder(folder, engines)
    if own is not None:  # the words `--checkpoints` is refused with
        return f"{own.message(f'The checkpoints folder {typed}')} {own.hint('Choose the folder that holds it: ')}"
    return ""


def checkpoints_tooltip(defaults: list[Path]) -> str:
    """What the checkpoints folder does: which folders it replaces, and that the app's own mini
    weights still run when it has no mini/ (it said only where weights are looked for, and a
    folder chosen for the AnimeGamer weights seemed to switch the mini engine off)."""
    app = app_checkpoints()
    return (f"Model weights are looked for in ENGINE/ inside this folder, instead of in {defaults[0]}, then "
            f"{defaults[1]}. An engine this folder has no folder for is looked for in the app's own {app} (the "
            f"shipped mini weights, {app / 'mini'}, keep working). Empty: {defaults[0]}, then {defaults[1]}.")


def named_gpus(texts: list[str]) -> list[Placement]:
    """Every GPU placement that ``texts`` name (a device, or a device list of workers parted by
    commas and stages by semicolons), each once, in the order written. The texts must already
    be valid (``EngineConfig.parse`` / ``check_device_list`` accepted them)."""
    seen: dict[int, Placement] = {}
    for text in texts:
        for worker in (item.strip() for item in text.split(",")):
            if not worker:
                continue
            for place in EngineConfig.parse(worker, separator=";").placements().values():
                index = place.index
                if index is not None and index not in seen:
                    seen[index] = place
    return list(seen.values())


def missing_gpus(texts: list[str], present: int) -> list[str]:
    """The GPUs ``texts`` name that a machine with ``present`` GPUs does not have (``cuda:3``
    when it has two)."""
    return [f"cuda:{place.index}" for place in named_gpus(texts) if (place.index or 0) >= present]


ENGINE_FORM_MIN_HEIGHT = 100
"""The least height of the engine's form (it scrolls below its own height)."""


class SettingsDialog(QDialog):
    def __init__(self, settings: StudioSettings, registry: EngineRegistry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # OK writes back every value shown: they are read as they are on file now, so that
        # what another studio window saved meanwhile is shown, and kept, not undone
        settings.reload()
        self.settings = settings
        self.registry = registry
        self.setWindowTitle("Settings")
        self.engine = QComboBox(self)
        self.engine.setAccessibleName("Engine")
        self.forms: dict[str, EngineSettingsForm] = {}
        self.stack = QStackedWidget(self)
        for info in registry.infos():
            form = EngineSettingsForm(info.settings, settings.engine_values(info.name),
                                      license_text=info.license, parent=self.stack)
            unreadable = settings.engine_values_problem(info.name)
            if unreadable:
                form.show_problem(unreadable)
            self.forms[info.name] = form
            self.stack.addWidget(form)
            self.engine.addItem(info.label, info.name)
            self.engine.setItemData(self.engine.count() - 1, info.description, 3)  # 3: Qt.ToolTipRole
        self.engine.currentIndexChanged.connect(self._show_engine)
        self._checks = EngineChecks(self)
        self._checks.done.connect(self._show_availability)
        self._checks.start(registry, self._check_config())
        current = settings.engine
        self._show_engine(list(self.forms).index(current) if current in self.forms else 0)
        self.engine.setCurrentIndex(self.stack.currentIndex())
        # The longest engine form scrolls rather than set the dialog's height: the dialog fits
        # a 1280 x 720 screen with its buttons in view.
        scroll = QScrollArea(self)
        scroll.setWidget(self.stack)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # no Tab stop that shows no focus: Tab scrolls to an editor
        # three rows of the form at least: on an 800 x 600 screen the dialog, fitted to the
        # screen (see showEvent), needs every other part whole and the form gives way
        scroll.setMinimumHeight(ENGINE_FORM_MIN_HEIGHT)
        # ...but it is as wide as the widest form, so that no form scrolls sideways
        widest = max((form.sizeHint().width() for form in self.forms.values()), default=0)
        scroll.setMinimumWidth(min(900, widest + scroll.verticalScrollBar().sizeHint().width() + 4))
        self.engine_scroll = scroll
        engines = QGroupBox("Engine settings", self)
        engine_layout = QVBoxLayout(engines)
        engine_layout.addWidget(self.engine)
        engine_layout.addWidget(scroll, 1)
        note = QLabel("New takes use these values; each take keeps the values it was made with.", engines)
        note.setObjectName("dimLabel")
        note.setWordWrap(True)
        engine_layout.addWidget(note)

        self.device = QComboBox(self)
        self.device.setEditable(True)
        self.device.addItems(["cpu", "cuda", "cuda:0", "cuda:1", "predict=cuda:0,decode=cuda:1", "cuda:0+offload"])
        self.device.setCurrentText(settings.device)
        self.device.setToolTip("Where engines run: cpu, cuda:N, per stage (predict=cuda:0,decode=cuda:1), or "
                               "cuda:N+offload to keep weights in RAM. Engines that only run on the CPU stay there.")
        self.device_error = self._refused_label(settings.device_problem(), "device", "the CPU is used")
        self.device.currentTextChanged.connect(self.device_error.hide)  # a new choice replaces the refused one
        self.devices = QLineEdit(settings.devices, self)
        self.gpu_probe: DeviceProbe | None = None
        """Lists this machine's GPUs for the check on OK (None: ask torch; tests hand a fake)."""
        self.devices.setPlaceholderText("one worker, on the device above")
        self.devices.setToolTip("Run several workers at once, one per device, separated by commas (cpu,cpu or "
                                "cuda:0,cuda:1); a worker's stages are separated by semicolons "
                                "(predict=cuda:0;decode=cuda:1,cpu). Empty: one worker, on the device above.")
        self.devices_error = self._refused_label(settings.devices_problem(), "device list",
                                                 "one worker runs, on the device above")
        self.devices.textChanged.connect(self.devices_error.hide)  # a new list replaces the refused one
        self.cpu_threads = self._threads_box(settings.cpu_threads)
        self.threads_error = QLabel("", self)
        self.threads_error.setObjectName("errorLabel")
        self.threads_error.setWordWrap(True)
        problem = settings.cpu_threads_problem()
        if problem:
            self.threads_error.setText(f"The saved CPU threads were refused and reset: {problem}")
        self.threads_error.setVisible(bool(problem))
        self.cpu_threads.valueChanged.connect(self.threads_error.hide)  # a new choice replaces the refused one
        general = QFormLayout()
        general.addRow("Device", self.device)
        general.addRow("", self.device_error)
        general.addRow("Devices", self.devices)
        general.addRow("", self.devices_error)
        general.addRow("CPU threads", self.cpu_threads)
        general.addRow("", self.threads_error)
        self.cluster = ClusterChoice(settings.cluster, settings.cluster_actors, self)
        general.addRow("Render farm", self.cluster)
        # made in the order they are laid out in, which is the order Tab goes through them
        self.auto_requeue = QCheckBox("Re-queue jobs interrupted by a crash when a project opens", self)
        self.auto_requeue.setChecked(settings.auto_requeue)
        self.reroll_selects = QCheckBox("Re-roll switches to the new take even when later turns follow it", self)
        self.reroll_selects.setChecked(settings.reroll_selects)
        self.reroll_selects.setToolTip("Off: the new take is added beside the chosen one and nothing below it "
                                       "becomes stale until you choose it.")
        general.addRow("", self.auto_requeue)
        general.addRow("", self.reroll_selects)
        device_note = QLabel("The device, the devices, the CPU threads and the checkpoints folder apply to the "
                             "next project you open.", self)
        device_note.setWordWrap(True)
        device_note.setObjectName("dimLabel")
        general.addRow("", device_note)
        self.appearance = QComboBox(self)
        for key in APPEARANCES:
            self.appearance.addItem(APPEARANCE_LABELS[key], key)
        self.appearance.setCurrentIndex(APPEARANCES.index(settings.appearance))
        general.addRow("Appearance", self.appearance)
        self.checkpoints = QLineEdit(settings.checkpoints_folder, self)
        self.checkpoints.setAccessibleName("Checkpoints folder")  # its row holds a button too: no buddy
        defaults = settings.paths.default_checkpoint_dirs()
        self.checkpoints.setPlaceholderText(f"{defaults[0]}, then {defaults[1]}")
        self.checkpoints.setToolTip(checkpoints_tooltip(defaults))
        browse = QPushButton("Choose…", self)
        browse.clicked.connect(self._choose_checkpoints)
        folder = QHBoxLayout()
        folder.addWidget(self.checkpoints, 1)
        folder.addWidget(browse)
        general.addRow("Checkpoints folder", folder)
        self.hf_cache = QCheckBox("Also use weights already in the Hugging Face cache", self)
        self.hf_cache.setToolTip(f"The cache is {hf_hub_cache()}")
        self.hf_cache.setChecked(settings.use_hf_cache)
        general.addRow("", self.hf_cache)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                   parent=self)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        # said before anything is changed: a read-only file was only said after OK
        self.unsaved_note = QLabel(settings.write_access_problem(), self)
        self.unsaved_note.setObjectName("errorLabel")
        self.unsaved_note.setWordWrap(True)
        self.unsaved_note.setVisible(bool(self.unsaved_note.text()))
        layout = QVBoxLayout(self)
        layout.addWidget(self.unsaved_note)
        layout.addWidget(engines, 1)
        layout.addLayout(general)
        layout.addWidget(buttons)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        # on a small screen (800 x 600) the engine's form scrolls, OK and Cancel stay in reach
        fit_on_screen(self)

    def _refused_label(self, problem: str, what: str, instead: str) -> QLabel:
        """Says why the saved ``what`` was refused (and what is used ``instead``); hidden if
        it wasn't."""
        label = QLabel(f"The saved {what} was refused ({instead}): {problem}" if problem else "", self)
        label.setObjectName("errorLabel")
        label.setWordWrap(True)
        label.setVisible(bool(problem))
        return label

    def _threads_box(self, threads: int | None) -> QSpinBox:
        """0 (shown as :data:`AUTOMATIC_THREADS_LABEL`) or a count up to the usable cores:
        the box itself refuses a number past them."""
        cores = engine_config.usable_cores()
        box = QSpinBox(self)
        box.setRange(0, cores)
        box.setSpecialValueText(AUTOMATIC_THREADS_LABEL)
        box.setValue(threads or 0)
        box.setToolTip(f"CPU threads each engine process uses for inference, from 1 to {cores} (the cores this "
                       "computer lets the studio use). Automatic keeps a core for the window, and shares the "
                       "cores out when several devices run at once.")
        return box

    def threads(self) -> int | None:
        """The chosen CPU threads (None: automatic); raises for a count this computer can't run."""
        value = self.cpu_threads.value()
        return engine_config.check_threads(value) if value else None

    def _show_engine(self, index: int) -> None:
        """Show one engine's form, the stack sized to it (not to the longest form)."""
        for position, form in enumerate(self.forms.values()):
            policy = QSizePolicy.Policy.Preferred if position == index else QSizePolicy.Policy.Ignored
            form.setSizePolicy(policy, policy)
        self.stack.setCurrentIndex(index)
        self.stack.adjustSize()

    def _check_config(self) -> EngineConfig:
        """The configuration the engines are checked with: the saved device (the CPU if it
        was refused) and checkpoints folders, as the next project opens with."""
        folders = self.settings.checkpoint_dirs()
        try:
            return EngineConfig.parse(self.settings.device or "cpu", checkpoints=folders)
        except StudioError:
            return EngineConfig.parse("cpu", checkpoints=folders)

    def _show_availability(self, reasons: dict[str, list[str]]) -> None:
        """Each engine's form says why the engine can't run here, if it can't."""
        for name, form in self.forms.items():
            form.show_unavailable(reasons.get(name, []))

    def _choose_checkpoints(self) -> None:
        start = self.checkpoints.text() or str(self.settings.checkpoint_dirs()[0])
        folder = QFileDialog.getExistingDirectory(self, "Checkpoints folder", start)
        if folder:
            self.checkpoints.setText(folder)

    def _refuse(self, error: StudioError, field: QWidget, intro: str = "") -> None:
        field.setFocus()
        QMessageBox.warning(self, "Settings", in_dialog_words(f"{intro}{error.message}\n{error.hint}".strip()))

    def _accept(self) -> None:
        try:
            EngineConfig.parse(self.device.currentText().strip() or "cpu")
        except StudioError as error:
            self._refuse(error, self.device)
            return
        try:
            check_device_list(self.devices.text())
        except StudioError as error:
            self._refuse(error, self.devices, "The device list can't be used: ")
            return
        try:
            self.threads()
        except StudioError as error:
            self._refuse(error, self.cpu_threads)
            return
        try:
            self.cluster.validated()
        except StudioError as error:
            self._refuse(error, self.cluster.where)
            return
        if not self._absent_gpus_confirmed():
            return
        problem = checkpoints_problem(self.checkpoints.text(), self.settings.checkpoints_folder,
                                      self.registry.infos())
        if problem:
            self.checkpoints.setFocus()
            QMessageBox.warning(self, "Settings", problem)
            return
        for name, form in self.forms.items():
            try:
                form.validated()
            except StudioError as error:
                self.engine.setCurrentIndex(list(self.forms).index(name))
                QMessageBox.warning(self, "Settings", error.message)
                return
        self.accept()

    def _absent_gpus_confirmed(self) -> bool:
        """Whether the Device and Devices fields name only GPUs this machine has, or the user
        keeps them anyway (set up for another machine, or a GPU plugged in later): the
        warning names the missing ones, and No (the default) goes back to the field.

        The GPUs are counted the way the engines' own checks count them
        (:func:`studio.engines.devices.cuda_devices`), and only when a GPU is named: the count
        imports torch."""
        device, workers = self.device.currentText().strip(), self.devices.text().strip()
        if not named_gpus([device, workers]):
            return True
        have = len((self.gpu_probe or devices.cuda_devices)())
        missing = missing_gpus([device, workers], have)
        if not missing:
            return True
        has = {0: "no GPU that the engines can use", 1: "one GPU (cuda:0)"}.get(
            have, f"{have} GPUs (cuda:0 to cuda:{have - 1})")
        names = ", ".join(missing)
        answer = QMessageBox.warning(
            self, "Settings",
            f"This machine has {has}, so {names} can't be used here: the engines would refuse to "
            f"run on {'it' if len(missing) == 1 else 'them'}.\n\nKeep {names} anyway (for another "
            "machine, or a GPU you will add)? No goes back to change it.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        if answer == QMessageBox.StandardButton.Yes:
            return True
        (self.device if missing_gpus([device], have) else self.devices).setFocus()
        return False

    def save(self) -> None:
        for name, form in self.forms.items():
            # another version's settings of this engine are kept for it, unseen here
            foreign = foreign_engine_values(form.settings_type, self.settings.engine_values(name))
            self.settings.set_engine_values(name, {**foreign, **form.overrides()})
        self.settings.device = self.device.currentText().strip() or "cpu"
        self.settings.devices = check_device_list(self.devices.text())
        self.settings.cpu_threads = self.threads()
        if self.cluster.available:  # without Ray the choice was greyed: keep what was there
            self.settings.cluster = self.cluster.address()
            self.settings.cluster_actors = self.cluster.actor_count()
        self.settings.auto_requeue = self.auto_requeue.isChecked()
        self.settings.reroll_selects = self.reroll_selects.isChecked()
        self.settings.appearance = str(self.appearance.currentData())
        self.settings.checkpoints_folder = self.checkpoints.text()
        self.settings.use_hf_cache = self.hf_cache.isChecked()
        self.settings.q.sync()
