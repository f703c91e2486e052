"""The engine settings form's complaint about a value goes once a preset or the engine's
defaults put valid values back."""

from __future__ import annotations


def test_a_preset_or_the_defaults_clear_the_complaint_about_an_odd_size(qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.engines.catalog.sketch import SketchSettings
    from studio.ui.dialogs.engine_settings_form import EngineSettingsForm

    form = EngineSettingsForm(SketchSettings, {})
    qtbot.addWidget(form)
    form.show()
    form.editors["height"].setValue(481)
    assert form.error.isVisible() and "even number" in form.error.text()
    form.presets.activated.emit(form.presets.findData("draft"))
    assert form.values()["height"] == 240
    assert not form.error.isVisible(), form.error.text()
    form.editors["height"].setValue(481)
    assert form.error.isVisible()
    form.reset()
    assert form.values()["height"] == 480
    assert not form.error.isVisible(), form.error.text()


def test_saved_values_the_engine_refuses_are_still_said(qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.engines.catalog.sketch import SketchSettings
    from studio.ui.dialogs.engine_settings_form import EngineSettingsForm

    form = EngineSettingsForm(SketchSettings, {"height": 481})
    qtbot.addWidget(form)
    form.show()
    assert form.error.isVisible() and "refused and reset" in form.error.text()
    assert form.values()["height"] == 480
