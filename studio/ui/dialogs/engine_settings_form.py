"""A form rendered from an engine's settings schema: one editor per setting, presets, reset.

The form starts from the engine's own defaults with the user's changes on top; only the
values that differ from the defaults are saved, so an engine's defaults keep holding
for everything the user did not touch.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from studio.core.errors import StudioError
from studio.engines.settings import EngineSettings, SettingKind, SettingSpec
from studio.ui.settings import usable_engine_values

Editor = QSpinBox | QDoubleSpinBox | QCheckBox | QComboBox | QLineEdit
CUSTOM_PRESET = "Custom"
PRESET_NAME_CHARS = 36
"""The preset box's width, in characters (its list shows every name in full)."""
MIN_DECIMALS = 2
MAX_DECIMALS = 6
"""A decimal setting shows at least 2 decimals, and as many as its value, step or range
need up to 6: a saved 23.976 fps is shown, and kept, as 23.976, not rounded to 23.98."""


def decimals_for(*numbers: float | None) -> int:
    """The fewest decimals (from :data:`MIN_DECIMALS` to :data:`MAX_DECIMALS`) that show every
    one of ``numbers`` exactly."""
    places = MIN_DECIMALS
    for number in numbers:
        if number is None:
            continue
        while places < MAX_DECIMALS and abs(round(float(number), places) - float(number)) > 1e-12:
            places += 1
    return places


def display_order(specs: tuple[SettingSpec, ...]) -> list[SettingSpec]:
    """The settings in the order the form shows them: the schema's, except that Width comes
    right before Height, as sizes are written everywhere else (720 × 480, the export dialog)."""
    ordered = list(specs)
    names = [spec.name for spec in ordered]
    if "width" in names and "height" in names and names.index("height") < names.index("width"):
        width = ordered.pop(names.index("width"))
        ordered.insert(names.index("height"), width)
    return ordered


def _editor(spec: SettingSpec, parent: QWidget) -> Editor:
    editor: Editor
    if spec.kind is SettingKind.INT:
        editor = QSpinBox(parent)
        editor.setRange(int(spec.minimum if spec.minimum is not None else -2**31),
                        int(spec.maximum if spec.maximum is not None else 2**31 - 1))
        editor.setSingleStep(int(spec.step or 1))
    elif spec.kind is SettingKind.FLOAT:
        editor = QDoubleSpinBox(parent)
        editor.setDecimals(decimals_for(spec.step, spec.minimum, spec.maximum, spec.default))
        editor.setRange(spec.minimum if spec.minimum is not None else -1e9,
                        spec.maximum if spec.maximum is not None else 1e9)
        editor.setSingleStep(spec.step or 0.1)
    elif spec.kind is SettingKind.BOOL:
        editor = QCheckBox(parent)
    elif spec.kind is SettingKind.CHOICE:
        editor = QComboBox(parent)
        editor.addItems(list(spec.choices))
    else:
        editor = QLineEdit(parent)
    if spec.unit and isinstance(editor, (QSpinBox, QDoubleSpinBox)):
        editor.setSuffix(f" {spec.unit}")
    tip = spec.help
    if spec.describe_range():
        tip = f"{tip}\n{spec.describe_range().capitalize()}; default {spec.default}." if tip else ""
    editor.setToolTip(tip)
    return editor


def _set(editor: Editor, value: Any) -> None:
    if isinstance(editor, QSpinBox):
        editor.setValue(int(value))
    elif isinstance(editor, QDoubleSpinBox):
        # more decimals first: the box rounds what it is given to the decimals it shows
        editor.setDecimals(decimals_for(editor.singleStep(), editor.minimum(), editor.maximum(), float(value)))
        editor.setValue(float(value))
    elif isinstance(editor, QCheckBox):
        editor.setChecked(bool(value))
    elif isinstance(editor, QComboBox):
        editor.setCurrentText(str(value))
    else:
        editor.setText(str(value))


def _get(editor: Editor) -> Any:
    if isinstance(editor, (QSpinBox, QDoubleSpinBox)):
        return editor.value()
    if isinstance(editor, QCheckBox):
        return editor.isChecked()
    if isinstance(editor, QComboBox):
        return editor.currentText()
    return editor.text()


class EngineSettingsForm(QWidget):
    """Editors for one engine's settings. ``overrides()`` gives what differs from defaults."""

    changed = Signal()

    def __init__(self, settings_type: type[EngineSettings], values: Mapping[str, Any] | None = None,
                 license_text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings_type = settings_type
        self.editors: dict[str, Editor] = {}
        self.error = QLabel("", self)
        self.error.setObjectName("errorLabel")
        self.error.setWordWrap(True)
        self.error.hide()
        self.unavailable = QLabel("", self)
        """Why the engine can't run here (its settings can still be set for when it can)."""
        self.unavailable.setObjectName("errorLabel")
        self.unavailable.setWordWrap(True)
        self.unavailable.hide()
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(self.unavailable)
        self.presets = QComboBox(self)
        self.presets.setAccessibleName("Preset")  # its row holds a button too: no buddy
        self.presets.addItem(CUSTOM_PRESET, "")
        for preset in settings_type.PRESETS:
            label = preset.label + (" — changes the output" if preset.changes_output else "")
            self.presets.addItem(label, preset.name)
            self.presets.setItemData(self.presets.count() - 1, preset.help, 3)  # 3: Qt.ToolTipRole
        self._fit_preset_names()
        reset = QPushButton("Engine defaults", self)
        reset.setToolTip("Forget your changes: the engine's own defaults hold again.")
        reset.clicked.connect(self.reset)
        top = QHBoxLayout()
        top.addWidget(self.presets, 1)
        top.addWidget(reset)
        if settings_type.PRESETS:
            form.addRow("Preset", top)
        else:
            form.addRow("", reset)
            self.presets.hide()
        for spec in display_order(settings_type.schema()):
            editor = _editor(spec, self)
            self.editors[spec.name] = editor
            form.addRow(spec.label, editor)
            for signal_name in ("valueChanged", "toggled", "currentTextChanged", "textChanged"):
                signal = getattr(editor, signal_name, None)
                if signal is not None:
                    signal.connect(self._edited)
                    break
        if license_text:
            note = QLabel(license_text, self)
            note.setObjectName("dimLabel")
            note.setWordWrap(True)
            form.addRow("Weights", note)
        form.addRow("", self.error)
        self.presets.activated.connect(self._apply_preset)
        self._loading = False
        self.load(values or {})

    def _fit_preset_names(self) -> None:
        """The preset box is as wide as a usual name, its list as wide as the longest: a long
        name ("... — changes the output") would otherwise widen the whole form, past what the
        Settings dialog gives its widest form (it then scrolled sideways)."""
        self.presets.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.presets.setMinimumContentsLength(PRESET_NAME_CHARS)
        view = self.presets.view()
        view.setMinimumWidth(view.sizeHintForColumn(0) + view.verticalScrollBar().sizeHint().width())

    def load(self, values: Mapping[str, Any]) -> None:
        """Show the defaults with ``values`` on top (each value the engine refuses is dropped,
        and said; the others hold)."""
        kept, problems = usable_engine_values(self.settings_type, values)
        chosen = self.settings_type.from_values(kept, ignore_unknown=True)
        if problems:
            self._show_error("A saved setting was refused and reset to the engine's default: "
                             + " ".join(problems))
        else:
            self.error.hide()  # the values shown now are valid: an earlier edit's complaint no longer holds
        self._loading = True
        for name, value in chosen.to_values().items():
            _set(self.editors[name], value)
        self._loading = False
        self._match_preset()

    def reset(self) -> None:
        self.load({})
        self.changed.emit()

    def values(self) -> dict[str, Any]:
        return {name: _get(editor) for name, editor in self.editors.items()}

    def validated(self) -> EngineSettings:
        """The form's values as the engine's settings (raises with the engine's message)."""
        return self.settings_type.from_values(self.values())

    def overrides(self) -> dict[str, Any]:
        return self.validated().overrides()

    def _edited(self, *_: object) -> None:
        if self._loading:
            return
        try:
            self.validated()
        except StudioError as error:
            self._show_error(error.message)
        else:
            self.error.hide()
        self._match_preset()
        self.changed.emit()

    def show_problem(self, text: str) -> None:
        """Say ``text`` under the form (why saved values were not used, say) until the next
        edit that is valid."""
        self._show_error(text)

    def show_unavailable(self, reasons: list[str]) -> None:
        """Say, above the settings, why the engine can't run here (the first reason, and how many
        more, all of them in the tooltip); nothing once ``reasons`` is empty."""
        if not reasons:
            self.unavailable.hide()
            return
        more = len(reasons) - 1
        also = f"\n{more} more reason{'s' if more != 1 else ''}: point here to read them all." if more else ""
        self.unavailable.setText(f"{self.settings_type.ENGINE} can't run here: {reasons[0]}{also}\n"
                                 "Its settings can still be changed: new takes use them once it can run.")
        self.unavailable.setToolTip("\n".join(reasons))
        self.unavailable.show()

    def _show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.show()

    def _apply_preset(self, index: int) -> None:
        name = self.presets.itemData(index)
        if not name:
            return
        preset = self.settings_type.preset(str(name))
        self.load({**self.values(), **preset.values})
        self.changed.emit()

    def _match_preset(self) -> None:
        """Show a preset whose values the form holds, else Custom: the one shown if it still
        holds (the user's choice), else the one that changes most from the defaults (a size
        preset that only restates the defaults does not hide "Best of 4")."""
        current = self.values()
        defaults = self.settings_type().to_values()

        def holds(index: int) -> bool:
            preset = self.settings_type.preset(str(self.presets.itemData(index)))
            return all(current.get(k) == v for k, v in preset.values.items())

        def changes(index: int) -> int:
            preset = self.settings_type.preset(str(self.presets.itemData(index)))
            return sum(defaults.get(k) != v for k, v in preset.values.items())

        shown = self.presets.currentIndex()
        if shown > 0 and holds(shown):
            return
        matching = [index for index in range(1, self.presets.count()) if holds(index)]
        self.presets.setCurrentIndex(max(matching, key=changes) if matching else 0)
