"""A decimal engine setting saved with more than two decimals (by the command line, or by
hand) is shown and saved as it is: OK in Settings used to round 23.976 fps to 23.98, and a
temperature of 0.004 to 0 (greedy sampling), without the user touching them."""

from __future__ import annotations

from pathlib import Path

from studio.ui.settings import StudioSettings


def test_the_form_shows_and_keeps_every_decimal_of_a_saved_value(registry, qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.dialogs.engine_settings_form import EngineSettingsForm

    sketch = EngineSettingsForm(registry.info("sketch").settings, {"fps": 23.976})
    qtbot.addWidget(sketch)
    assert sketch.overrides() == {"fps": 23.976}
    assert "23.976" in sketch.editors["fps"].text()
    mini = EngineSettingsForm(registry.info("mini").settings, {"temperature": 0.004})
    qtbot.addWidget(mini)
    assert mini.overrides() == {"temperature": 0.004}
    mini.reset()  # the engine's defaults: two decimals again
    assert mini.editors["temperature"].text() == "0.00" and mini.overrides() == {}


def test_ok_in_settings_without_a_change_keeps_the_saved_decimals(  # type: ignore[no-untyped-def]
        settings: StudioSettings, registry, qtbot) -> None:
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    settings.set_engine_values("sketch", {"fps": 29.97002997, "width": 320, "height": 240})
    dialog = SettingsDialog(settings, registry)
    qtbot.addWidget(dialog)
    dialog._accept()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted
    dialog.save()
    reread = StudioSettings.at(Path(settings.q.fileName()))
    assert reread.engine_values("sketch")["fps"] == 29.97003  # six decimals: the most the box shows
