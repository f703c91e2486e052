"""Settings names a saved engine value it refused as the settings file and the command line
write it (true, an empty value), not as Python does (True, None)."""

from __future__ import annotations

from studio.ui.settings import StudioSettings


def test_a_refused_saved_value_is_named_as_typed(settings: StudioSettings, registry, qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    settings.set_engine_values("sketch", {"width": 160, "camera": True, "frames": None})
    dialog = SettingsDialog(settings, registry)
    qtbot.addWidget(dialog)
    text = dialog.forms["sketch"].error.text()
    assert "must be one of auto, static, pan, follow, zoom, orbit, got true." in text, text
    assert "must be a whole number, got an empty value." in text, text
    assert "True" not in text and "None" not in text
    assert dialog.forms["sketch"].editors["width"].value() == 160  # the usable value holds
