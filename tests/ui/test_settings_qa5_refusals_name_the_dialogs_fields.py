"""Settings QA: a refused render-farm address or device says what to do in this dialog, not
with the command line's options ("Use --cluster local, auto, ...", "several workers are
--devices cpu,cuda:0"), puts the focus on the field to fix, and the dialog stays open."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from studio.ui.settings import StudioSettings


@pytest.fixture
def dialog(qtbot, settings: StudioSettings, registry, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    import studio.ui.cluster_settings as cluster_settings
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    monkeypatch.setattr(cluster_settings, "ray_available", lambda: True)
    made = SettingsDialog(settings, registry)
    qtbot.addWidget(made)
    made.show()
    qtbot.waitExposed(made)
    return made


def _refusals(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text, *rest: said.append(text))
    return said


@pytest.mark.parametrize(("typed", "expected"), [
    ("head:", "Choose local or auto, or the head's HOST:PORT"),
    ("ray://head:10001", "and choose auto, or give the head's GCS address"),
])
def test_a_refused_address_says_what_to_choose_here(dialog, qtbot, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
                                                     typed: str, expected: str) -> None:
    said = _refusals(monkeypatch)
    dialog.cluster.where.setEditText(typed)
    dialog._accept()
    assert len(said) == 1 and expected in said[0] and "--" not in said[0], said
    assert dialog.isVisible() and dialog.result() != dialog.DialogCode.Accepted
    qtbot.waitUntil(dialog.cluster.where.hasFocus, timeout=5000)


@pytest.mark.parametrize("field", ["device", "devices"])
def test_two_devices_for_one_worker_point_to_the_devices_field(dialog, qtbot, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
                                                               field: str) -> None:
    said = _refusals(monkeypatch)
    if field == "device":
        dialog.device.setCurrentText("cpu,cpu")
    else:
        dialog.devices.setText("cpu;cpu")
    dialog._accept()
    assert len(said) == 1 and "several workers go in Devices (cpu,cuda:0)" in said[0] and "--" not in said[0], said
    assert dialog.isVisible() and dialog.result() != dialog.DialogCode.Accepted
    qtbot.waitUntil(getattr(dialog, field).hasFocus, timeout=5000)
