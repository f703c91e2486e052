"""A checkpoints folder chosen in Settings that holds only the AnimeGamer weights: the shipped
mini engine still runs, from the app's own copy, and its tooltip says which copy that is (it
was greyed out with "Missing …/mini/config.json … Put the mini weights in …/mini"). The
Settings tooltip says which folders the chosen one replaces."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.engines.config import EngineConfig
from studio.shipped import shipped
from studio.ui.engine_picker import EnginePicker
from studio.ui.settings import StudioSettings


def _animegamer_only(tmp_path: Path) -> Path:
    folder = tmp_path / "weights"
    (folder / "animegamer" / "qiqi").mkdir(parents=True)
    (folder / "animegamer" / "qiqi" / "model.json").write_text("{}", encoding="utf-8")
    return folder


def test_the_engines_look_in_the_app_folder_after_the_chosen_one(settings: StudioSettings, tmp_path: Path) -> None:
    chosen = _animegamer_only(tmp_path)
    settings.checkpoints_folder = str(chosen)
    dirs = settings.checkpoint_dirs()
    assert dirs[0] == chosen
    config = EngineConfig.parse("cpu", checkpoints=dirs)
    assert config.engine_folder("mini") == shipped("checkpoints") / "mini"
    assert config.engine_folder("animegamer") == chosen / "animegamer"
    # the repository's empty checkpoints/animegamer/ (a .gitkeep) is no copy of the weights
    assert config.engine_folder("customx") == chosen / "customx"


def test_the_picker_keeps_mini_and_says_which_copy_it_uses(settings: StudioSettings, registry, qtbot,  # type: ignore[no-untyped-def]
                                                          tmp_path: Path) -> None:
    chosen = _animegamer_only(tmp_path)
    settings.checkpoints_folder = str(chosen)
    picker = EnginePicker()
    qtbot.addWidget(picker)
    picker.set_engines(registry, "mini", EngineConfig.parse("cpu", checkpoints=settings.checkpoint_dirs()))
    qtbot.waitUntil(lambda: "animegamer" in picker.unavailable, timeout=60_000)
    index = picker.combo.findData("mini")
    assert "mini" not in picker.unavailable, picker.unavailable.get("mini")
    assert picker.combo.model().item(index).isEnabled()
    tip = str(picker.combo.itemData(index, Qt.ItemDataRole.ToolTipRole))
    assert f"Uses the app's own mini weights in {shipped('checkpoints') / 'mini'}" in tip, tip
    assert f"{chosen} has no mini folder" in tip, tip


def test_the_settings_tooltip_says_what_the_chosen_folder_replaces(settings: StudioSettings, registry,  # type: ignore[no-untyped-def]
                                                                  qtbot) -> None:
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    first, then = settings.paths.default_checkpoint_dirs()
    dialog = SettingsDialog(settings, registry)
    qtbot.addWidget(dialog)
    tip = dialog.checkpoints.toolTip()
    assert f"instead of in {first}, then {then}" in tip, tip
    assert f"shipped mini weights, {shipped('checkpoints') / 'mini'}, keep working" in tip, tip
