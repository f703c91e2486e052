"""Settings' Checkpoints folder tooltip names the folders weights are looked in, in the order the
studio looks (an installed copy looks in the data folder first); it said "beside the app, then the
data folder" whatever the install, against its own placeholder."""

from __future__ import annotations

import pytest

from studio import shipped
from studio.ui.settings import StudioSettings


@pytest.mark.parametrize("installed", [False, True])
def test_the_tooltip_and_the_placeholder_give_one_order(settings: StudioSettings, registry, qtbot,  # type: ignore[no-untyped-def]
                                                       monkeypatch: pytest.MonkeyPatch, installed: bool) -> None:
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    monkeypatch.setattr(shipped, "is_installed", lambda: installed)
    first, then = settings.paths.default_checkpoint_dirs()
    assert (first == settings.paths.data_dir / "checkpoints") is installed
    dialog = SettingsDialog(settings, registry)
    qtbot.addWidget(dialog)
    tip = dialog.checkpoints.toolTip()
    assert f"{first}, then {then}" in tip, tip
    assert dialog.checkpoints.placeholderText() == f"{first}, then {then}"
