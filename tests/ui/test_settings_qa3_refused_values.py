"""Single saved values the studio can't use: a locked seed no engine takes, engine settings
that are no JSON, and engine settings of another version (kept, not dropped, by Settings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.ui.settings import StudioSettings


@pytest.mark.parametrize("stored", ["99999999999999999999999", "-4", "2147483648", "seven"])
def test_a_locked_seed_no_engine_takes_reads_as_unlocked_and_says_why(settings: StudioSettings,
                                                                      stored: str) -> None:
    settings.q.setValue("takes/locked_seed", stored)
    assert settings.locked_seed is None  # every re-roll used to be refused with it
    assert stored in settings.locked_seed_problem() and "unlocked" in settings.locked_seed_problem()
    settings.forget_refused()
    assert settings.q.value("takes/locked_seed") is None and settings.locked_seed_problem() == ""


def test_a_usable_locked_seed_is_kept(settings: StudioSettings) -> None:
    settings.locked_seed = 2**31 - 1
    settings.forget_refused()
    assert settings.locked_seed == 2**31 - 1 and settings.locked_seed_problem() == ""


def test_engine_settings_that_are_no_json_are_said_in_settings(  # type: ignore[no-untyped-def]
        settings: StudioSettings, registry, qtbot) -> None:
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    settings.q.setValue("engines/mini/values", '{"steps": 3')  # cut short
    assert settings.engine_values("mini") == {}
    assert "saved mini settings could not be read" in settings.engine_values_problem("mini")
    assert settings.engine_values_problem("sketch") == ""
    dialog = SettingsDialog(settings, registry)
    qtbot.addWidget(dialog)
    form = dialog.forms["mini"]
    assert not form.error.isHidden() and "could not be read" in form.error.text()
    assert dialog.forms["sketch"].error.isHidden()


def test_settings_keeps_another_versions_engine_settings(settings: StudioSettings, registry,  # type: ignore[no-untyped-def]
                                                         qtbot) -> None:
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    settings.set_engine_values("sketch", {"width": 320, "height": 240, "frames": 6, "outline_style": "ink"})
    dialog = SettingsDialog(settings, registry)
    qtbot.addWidget(dialog)
    assert dialog.forms["sketch"].error.isHidden()  # a name this version doesn't know goes quietly...
    dialog.forms["sketch"].editors["frames"].setValue(9)
    dialog._accept()
    dialog.save()
    saved = StudioSettings.at(Path(settings.q.fileName())).engine_values("sketch")
    assert saved == {"width": 320, "height": 240, "frames": 9, "outline_style": "ink"}  # ...and is kept for it
