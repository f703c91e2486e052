"""A saved engine this installation doesn't have (QA: the window replaced it with the default
engine at start without a word, so new takes came from another engine than the user chose):
the start says so once, naming it and the engine used instead."""

from __future__ import annotations

from pathlib import Path

from studio.ui.settings import StudioSettings
from tests.ui.conftest import services_with


def test_an_unknown_saved_engine_is_said_once_at_start(tmp_path: Path, registry, qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.app import report_settings_resets
    from studio.ui.main_window import MainWindow

    path = tmp_path / "settings.ini"
    settings = StudioSettings.at(path)
    settings.mark_first_run_done()
    settings.engine = "hyperreal"  # an engine of another version, or one removed since
    settings.q.sync()
    services = services_with(registry)
    window = MainWindow(StudioSettings.at(path), services)
    qtbot.addWidget(window)
    assert window.engine_picker.current_engine() == services.default_engine
    report_settings_resets(window)
    error = window.last_error
    assert error is not None and "'hyperreal' is not installed here" in error.message
    assert f"new takes use the {services.default_engine} engine" in error.message
    assert StudioSettings.at(path).engine == services.default_engine  # said once: the next start is quiet
    again = MainWindow(StudioSettings.at(path), services)
    qtbot.addWidget(again)
    report_settings_resets(again)
    assert again.last_error is None


def test_a_known_saved_engine_says_nothing(tmp_path: Path, registry, qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.app import report_settings_resets
    from studio.ui.main_window import MainWindow

    settings = StudioSettings.at(tmp_path / "settings.ini")
    settings.engine = "mini"
    window = MainWindow(settings, services_with(registry))
    qtbot.addWidget(window)
    report_settings_resets(window)
    assert window.last_error is None and settings.engine == "mini"
