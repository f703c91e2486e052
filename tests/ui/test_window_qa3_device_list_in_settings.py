"""The device list (one worker per device) in Settings (QA: a stored list the engines can't
read, "12" say, turned generation off for every project, and no field of Settings showed it
or could change it): it reads as one worker on the device, said at start and in Settings,
where it can be corrected; a list typed there is checked as ``--devices`` is."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from studio.ui.settings import StudioSettings


def _refuse_stored_list(settings: StudioSettings) -> None:
    settings.q.setValue("engine/devices", "12")  # edited by hand, or written by another version
    settings.q.sync()


def test_a_stored_device_list_that_cant_be_read_leaves_generation_on(  # type: ignore[no-untyped-def]
        make_window, settings: StudioSettings, sample_project: Path) -> None:
    _refuse_stored_list(settings)
    window = make_window(sample_project)
    assert window.session.service is not None and window.session.service_error == ""  # it said "Unknown device '12'"


def test_the_start_says_the_device_list_was_refused(make_window, settings: StudioSettings) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.app import settings_reset_notes

    _refuse_stored_list(settings)
    notes = settings_reset_notes(make_window())
    assert any("device list was refused" in note and "'12'" in note for note in notes)


def test_settings_shows_the_refused_list_and_takes_a_corrected_one(  # type: ignore[no-untyped-def]
        settings: StudioSettings, registry, qtbot) -> None:
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    _refuse_stored_list(settings)
    dialog = SettingsDialog(settings, registry)
    qtbot.addWidget(dialog)
    assert not dialog.devices_error.isHidden() and "'12'" in dialog.devices_error.text()
    dialog.devices.setText("cpu,cpu")
    assert dialog.devices_error.isHidden()
    dialog._accept()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted
    dialog.save()
    again = StudioSettings.at(Path(settings.q.fileName()))
    assert again.devices == "cpu,cpu" and again.devices_problem() == ""


def test_settings_refuses_a_list_the_engines_cant_read(settings: StudioSettings, registry, qtbot,  # type: ignore[no-untyped-def]
                                                       monkeypatch) -> None:
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text: warnings.append(text))
    dialog = SettingsDialog(settings, registry)
    qtbot.addWidget(dialog)
    for typed, named in (("cuda:0,,cuda:1", "empty entry"), ("cpu,gpu0", "'gpu0'"),
                         ("predict=cuda:0;predict=cuda:1", "twice")):
        dialog.devices.setText(typed)
        dialog._accept()
        assert dialog.result() != SettingsDialog.DialogCode.Accepted
        assert named in warnings[-1] and warnings[-1].startswith("The device list can't be used")
    assert settings.devices == ""


def test_an_empty_list_runs_one_worker_on_the_device(settings: StudioSettings, registry, qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    settings.devices = "cpu,cpu"
    dialog = SettingsDialog(settings, registry)
    qtbot.addWidget(dialog)
    assert dialog.devices.text() == "cpu,cpu"
    dialog.devices.setText("  ")
    dialog._accept()
    dialog.save()
    assert settings.devices == "" and settings.devices_problem() == ""
