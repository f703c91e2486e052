"""Settings and export notes as a user reads them: sizes written width × height, a device list
naming GPUs this machine lacks warned about, and an export's notes in the dialog's words."""

from __future__ import annotations

import re
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from studio.engines.devices import DeviceInfo
from studio.ui.settings import StudioSettings

SIZE_IN_LABEL = re.compile(r"(\d+)\s*[x×]\s*(\d+)")


def _registry():  # type: ignore[no-untyped-def]
    from studio.composition import default_registry

    return default_registry()


def test_every_size_preset_is_labelled_width_by_height() -> None:
    checked = 0
    for info in _registry().infos():
        for preset in info.settings.PRESETS:
            if "width" not in preset.values or "height" not in preset.values:
                continue
            found = SIZE_IN_LABEL.search(preset.label)
            if not found:  # a preset of many settings ("Reference") names no size
                continue
            shown = (int(found.group(1)), int(found.group(2)))
            assert shown == (preset.values["width"], preset.values["height"]), (info.name, preset.label)
            assert "×" in preset.label, preset.label
            checked += 1
    assert checked >= 3  # the sketch's two and mini's two at least


def test_the_form_shows_and_tabs_width_before_height(qtbot: Any) -> None:
    from PySide6.QtWidgets import QFormLayout

    from studio.engines.catalog.sketch import SketchSettings
    from studio.ui.dialogs.engine_settings_form import EngineSettingsForm

    form = EngineSettingsForm(SketchSettings)
    qtbot.addWidget(form)
    assert form.presets.findText("Studio (720 × 480)") >= 0
    layout = form.layout()
    assert isinstance(layout, QFormLayout)
    width_row = layout.getWidgetPosition(form.editors["width"])[0]
    height_row = layout.getWidgetPosition(form.editors["height"])[0]
    assert width_row < height_row
    # made in the order shown, so Tab (Qt's default order: the order widgets were made) goes
    # from Width to Height
    assert list(form.editors)[:2] == ["width", "height"]
    # the values still land where they belong
    form.load({"width": 360, "height": 240})
    assert form.values()["width"] == 360 and form.values()["height"] == 240


class _Answers:
    """Stands in for QMessageBox.warning: records each text, answers ``answer``."""

    def __init__(self, answer: QMessageBox.StandardButton) -> None:
        self.answer = answer
        self.texts: list[str] = []

    def __call__(self, _parent: object, _title: str, text: str, *_args: object) -> QMessageBox.StandardButton:
        self.texts.append(text)
        return self.answer


class _MessageBox:
    """The dialog's QMessageBox with its ``warning`` answered by a test (the Qt class itself is
    left alone: a Python callable set on a Qt class outlives the test in the bindings)."""

    StandardButton = QMessageBox.StandardButton

    def __init__(self, answers: _Answers) -> None:
        self.warning = answers


def _answer_with(monkeypatch: pytest.MonkeyPatch, answers: _Answers) -> None:
    from studio.ui.dialogs import settings_dialog

    monkeypatch.setattr(settings_dialog, "QMessageBox", _MessageBox(answers))


def _dialog(qtbot: Any, settings: StudioSettings, gpus: int):  # type: ignore[no-untyped-def]
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    dialog = SettingsDialog(settings, _registry())
    qtbot.addWidget(dialog)
    dialog.gpu_probe = lambda: [DeviceInfo(f"cuda:{i}", "Test GPU", 8 << 30, 8 << 30) for i in range(gpus)]
    return dialog


def test_a_device_list_naming_a_missing_gpu_is_warned_and_kept_only_when_confirmed(
        qtbot: Any, settings: StudioSettings, monkeypatch: pytest.MonkeyPatch) -> None:
    dialog = _dialog(qtbot, settings, gpus=1)
    dialog.devices.setText("cuda:0,predict=cuda:99;decode=cpu")
    refuse = _Answers(QMessageBox.StandardButton.No)
    _answer_with(monkeypatch, refuse)
    dialog._accept()
    assert dialog.result() != dialog.DialogCode.Accepted
    assert len(refuse.texts) == 1
    assert "cuda:99" in refuse.texts[0] and "one GPU (cuda:0)" in refuse.texts[0]
    assert "cuda:0," not in refuse.texts[0]  # the GPU it has is not named as missing
    dialog.save()  # what a caller that ignored the refusal would write: nothing was lost meanwhile
    keep = _Answers(QMessageBox.StandardButton.Yes)
    _answer_with(monkeypatch, keep)
    dialog._accept()
    assert dialog.result() == dialog.DialogCode.Accepted
    assert len(keep.texts) == 1


def test_the_device_field_is_checked_too_and_present_gpus_pass_silently(
        qtbot: Any, settings: StudioSettings, monkeypatch: pytest.MonkeyPatch) -> None:
    dialog = _dialog(qtbot, settings, gpus=0)
    dialog.device.setCurrentText("cuda:1+offload")
    answers = _Answers(QMessageBox.StandardButton.No)
    _answer_with(monkeypatch, answers)
    dialog._accept()
    assert dialog.result() != dialog.DialogCode.Accepted
    assert "cuda:1" in answers.texts[0] and "no GPU" in answers.texts[0]

    present = _dialog(qtbot, settings, gpus=2)
    present.device.setCurrentText("cuda:1")
    present.devices.setText("cuda:0,cuda:1,cpu")
    silent = _Answers(QMessageBox.StandardButton.No)
    _answer_with(monkeypatch, silent)
    present._accept()
    assert silent.texts == [] and present.result() == present.DialogCode.Accepted


def test_a_cpu_only_setting_never_asks_for_the_gpus(qtbot: Any, settings: StudioSettings,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    dialog = _dialog(qtbot, settings, gpus=0)

    def no_probe() -> list[DeviceInfo]:
        raise AssertionError("the GPUs were counted for a CPU-only setting")

    dialog.gpu_probe = no_probe
    dialog.device.setCurrentText("cpu")
    dialog.devices.setText("cpu,cpu")
    dialog._accept()
    assert dialog.result() == dialog.DialogCode.Accepted


def test_an_exports_notes_name_the_dialogs_fields_not_command_line_options() -> None:
    from studio.export import ExportOptions
    from studio.export.compose import cut_cards_notes
    from studio.ui.dialogs.export_dialog import in_dialog_words

    long_title = " ".join(["a very long title card that goes on"] * 12)
    notes = cut_cards_notes((96, 64), ExportOptions(title=long_title))
    assert notes and "--title" in notes[0] and "--size" in notes[0]  # the export's own words
    shown = in_dialog_words(notes[0])
    assert "--" not in shown
    assert "a shorter Title card" in shown and "a larger Size (width × height)" in shown
    caption = ("the caption of turn 4 was too long for the frame and ends in '…' "
               "(a larger --size, or captions as SRT, keeps all of it)")
    assert in_dialog_words(caption).endswith("(a larger Size (width × height), or captions as SRT, keeps all of it)")
    # an option the dialog has no field for stays as it is, and a longer option is not cut short
    assert in_dialog_words("a shorter --end-card or --title-duration 2") == "a shorter End card or --title-duration 2"
    assert in_dialog_words("a lower --crf") == "a lower --crf"
