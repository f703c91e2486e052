"""Where settings, data and caches live (QStandardPaths), and the settings that name folders."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from studio.shipped import shipped
from studio.ui.app_paths import APPLICATION, ORGANIZATION, AppPaths, app_dir
from studio.ui.settings import StudioSettings


def test_folders_follow_the_xdg_variables(private_user_folders: Path) -> None:
    paths = AppPaths.standard()
    assert paths.config_dir == private_user_folders / "config" / ORGANIZATION / APPLICATION
    assert paths.data_dir == private_user_folders / "data" / ORGANIZATION / APPLICATION
    assert paths.cache_dir == private_user_folders / "cache" / ORGANIZATION / APPLICATION
    assert paths.settings_file == paths.config_dir / "settings.ini"
    assert paths.projects_dir == paths.data_dir / "projects"
    made = paths.cache("theme")
    assert made.is_dir() and made.parent == paths.cache_dir


def test_beside_the_app_is_the_checkout_or_the_frozen_executables_folder(monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert (app_dir() / "studio" / "__init__.py").is_file()
    monkeypatch.setattr("sys.frozen", True, raising=False)
    monkeypatch.setattr("sys.executable", str(tmp_path / "dist" / "kamishibai" / "kamishibai"))
    assert app_dir() == tmp_path / "dist" / "kamishibai"
    assert AppPaths.standard().default_checkpoint_dirs()[0] == tmp_path / "dist" / "kamishibai" / "checkpoints"


def test_the_users_settings_live_in_the_config_folder_and_persist(private_user_folders: Path) -> None:
    first = StudioSettings()
    first.add_recent(Path("/stories/one.kamishibai"))
    first.appearance = "light"
    assert first.q.fileName() == str(first.paths.settings_file)
    assert first.paths.settings_file.is_file()
    again = StudioSettings()
    assert again.recent_projects == ["/stories/one.kamishibai"] and again.appearance == "light"


def test_settings_of_an_earlier_version_are_carried_over(private_user_folders: Path) -> None:
    old = QSettings(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, ORGANIZATION, APPLICATION)
    old.setValue("projects/recent", ["/stories/old.kamishibai"])
    old.setValue("engine/device", "cuda:1")
    old.sync()
    assert Path(old.fileName()).is_file() and str(private_user_folders) in old.fileName()
    settings = StudioSettings()
    assert settings.recent_projects == ["/stories/old.kamishibai"] and settings.device == "cuda:1"
    settings.device = "cpu"
    assert StudioSettings().device == "cpu"  # copied once, not every start


def test_the_checkpoints_folder_is_a_setting(settings: StudioSettings, tmp_path: Path) -> None:
    defaults = settings.checkpoint_dirs()
    assert defaults == [app_dir() / "checkpoints", settings.paths.data_dir / "checkpoints"]
    settings.checkpoints_folder = f"  {tmp_path / 'weights'}  "
    assert settings.checkpoint_dirs() == [tmp_path / "weights", shipped("checkpoints")]  # the shipped mini after it
    settings.checkpoints_folder = "~/models"
    assert settings.checkpoint_dirs() == [Path.home() / "models", shipped("checkpoints")]
    settings.checkpoints_folder = ""
    assert settings.checkpoint_dirs() == defaults
    assert settings.use_hf_cache
    settings.use_hf_cache = False
    assert not StudioSettings.at(Path(settings.q.fileName())).use_hf_cache


def test_appearance_takes_only_known_values(settings: StudioSettings) -> None:
    assert settings.appearance == "system"
    with pytest.raises(ValueError):
        settings.appearance = "sepia"
    settings.q.setValue("appearance/scheme", "sepia")  # a hand-edited file
    assert settings.appearance == "system"


def test_the_settings_dialog_saves_appearance_and_weights(qtbot, settings: StudioSettings, tmp_path: Path,
                                                          qapp) -> None:  # type: ignore[no-untyped-def]
    from studio.composition import default_registry
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    dialog = SettingsDialog(settings, default_registry())
    qtbot.addWidget(dialog)
    assert dialog.checkpoints.text() == ""
    assert str(settings.checkpoint_dirs()[0]) in dialog.checkpoints.placeholderText()
    dialog.appearance.setCurrentIndex(dialog.appearance.findData("light"))
    dialog.checkpoints.setText(str(tmp_path / "weights"))
    dialog.hf_cache.setChecked(False)
    dialog.save()
    assert settings.appearance == "light"
    assert settings.checkpoint_dirs() == [tmp_path / "weights", shipped("checkpoints")]
    assert not settings.use_hf_cache


def test_no_engine_form_scrolls_sideways_in_the_settings_dialog(qtbot, settings: StudioSettings,
                                                                qapp) -> None:  # type: ignore[no-untyped-def]
    from studio.composition import default_registry
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    dialog = SettingsDialog(settings, default_registry())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    for index in range(dialog.engine.count()):
        dialog.engine.setCurrentIndex(index)
        qtbot.wait(20)
        bar = dialog.engine_scroll.horizontalScrollBar()
        assert bar.maximum() == 0, (dialog.engine.itemText(index), bar.maximum())
    assert dialog.width() <= 1280
