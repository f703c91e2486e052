"""The window's CPU threads setting: Automatic (all cores but one) or a count from 1 to the
usable cores, kept in the settings file, edited in Settings, and handed to the engines."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from studio.ui.settings import StudioSettings

CORES = 4
"""The usable cores the tests pretend this computer has (the test machine may have fewer)."""


@pytest.fixture(autouse=True)
def four_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    import studio.engines.config as engine_config

    monkeypatch.setattr(engine_config, "usable_cores", lambda: CORES)


def test_the_setting_round_trips_through_the_settings_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.ini"
    assert StudioSettings.at(path).cpu_threads is None  # a file without it: automatic
    first = StudioSettings.at(path)
    first.cpu_threads = 3
    assert StudioSettings.at(path).cpu_threads == 3
    first.cpu_threads = None
    reread = StudioSettings.at(path)
    assert reread.cpu_threads is None and reread.cpu_threads_problem() == ""


def test_an_out_of_range_count_is_refused(settings: StudioSettings) -> None:
    from studio.core.errors import StudioError

    settings.cpu_threads = 2
    for bad in (0, -1, CORES + 1):
        with pytest.raises(StudioError, match=f"from 1 to {CORES}"):
            settings.cpu_threads = bad
    assert settings.cpu_threads == 2  # the refused values changed nothing


@pytest.mark.parametrize("stored", ["lots", "0", str(CORES + 1), "2.5"])
def test_a_hand_edited_bad_value_falls_back_to_automatic_and_says_so(qtbot, settings: StudioSettings,  # type: ignore[no-untyped-def]
                                                                     stored: str) -> None:
    from studio.ui.dialogs.settings_dialog import AUTOMATIC_THREADS_LABEL, SettingsDialog

    settings.q.setValue("engine/cpu_threads", stored)
    assert settings.cpu_threads is None
    assert stored in settings.cpu_threads_problem() or f"{CORES}" in settings.cpu_threads_problem()
    dialog = SettingsDialog(settings, _registry())
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.cpu_threads.text() == AUTOMATIC_THREADS_LABEL
    assert dialog.threads_error.isVisible() and "refused" in dialog.threads_error.text()
    dialog.cpu_threads.setValue(2)  # a new choice: the complaint goes
    assert not dialog.threads_error.isVisible()


def test_the_dialog_shows_and_edits_the_setting(qtbot, settings: StudioSettings) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.dialogs.settings_dialog import AUTOMATIC_THREADS_LABEL, SettingsDialog

    dialog = SettingsDialog(settings, _registry())
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.cpu_threads.text() == AUTOMATIC_THREADS_LABEL and dialog.threads() is None
    assert not dialog.threads_error.isVisible()
    assert "CPU threads" in _note_texts(dialog)  # applies with the next project, like the device
    dialog.cpu_threads.setValue(CORES + 5)  # past the cores: the box refuses it
    assert dialog.cpu_threads.value() == CORES
    dialog.cpu_threads.setValue(3)
    dialog.save()
    assert settings.cpu_threads == 3
    reopened = SettingsDialog(settings, _registry())
    qtbot.addWidget(reopened)
    assert reopened.cpu_threads.value() == 3 and reopened.threads() == 3
    reopened.cpu_threads.setValue(0)
    reopened.save()
    assert settings.cpu_threads is None


def test_the_engine_configs_carry_the_chosen_threads(tmp_path: Path) -> None:
    from studio.cli.gui_cmds import app_services

    services = app_services()
    assert [c.threads for c in services.device_configs("cpu,cuda:0", "cpu", [tmp_path], threads=3)] == [3, 3]
    assert services.device_configs("", "cpu", [tmp_path])[0].threads is None
    assert services.engine_config("cpu", [tmp_path], threads=2).threads == 2


@pytest.mark.parametrize("devices", ["", "cpu,cpu"])
def test_the_project_s_engines_get_the_setting(qtbot, settings: StudioSettings, tmp_path: Path,  # type: ignore[no-untyped-def]
                                               devices: str) -> None:
    from studio.worker.thread_budget import share_cores

    settings.devices = devices
    settings.cpu_threads = 3
    chosen = _engine_threads(settings, tmp_path / "chosen")
    assert len(chosen) == (2 if devices else 1)
    assert chosen == [3] * len(chosen)  # each device's engine process gets the chosen count
    settings.cpu_threads = None
    automatic = _engine_threads(settings, tmp_path / "automatic")
    # Automatic: one device alone leaves it to the engine (all cores but one); several share the cores
    assert automatic == [c.threads for c in share_cores([replace(c, threads=None) for c in _configs(len(automatic))])]


def _engine_threads(settings: StudioSettings, folder: Path) -> list[int | None]:
    """The CPU threads of each device's engine configuration in a project opened now."""
    with _session(settings, folder) as session:
        assert session.service is not None, session.service_error
        return [worker.config.threads for worker in session.service._pool.workers]


def _configs(count: int) -> list[Any]:
    from studio.engines.config import EngineConfig

    return [EngineConfig()] * count


def _registry():  # type: ignore[no-untyped-def]
    from studio.composition import default_registry

    return default_registry()


def _note_texts(dialog: object) -> str:
    from PySide6.QtWidgets import QLabel, QWidget

    assert isinstance(dialog, QWidget)
    return " ".join(label.text() for label in dialog.findChildren(QLabel))


@contextmanager
def _session(settings: StudioSettings, folder: Path) -> Iterator[Any]:
    """A project's session as the window opens it (engines in this process), closed after."""
    from studio.cli.gui_cmds import app_services
    from studio.storage import Project
    from studio.ui.session import ProjectSession

    services = replace(app_services(), engine_host="in-process")
    session = ProjectSession(Project.create(folder / "story"), settings, services)
    try:
        yield session
    finally:
        session.close("cancel")


def test_changing_only_the_threads_with_a_project_open_says_when_it_applies(
        make_window, sample_project: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """The threads are fixed when a project's engines are set up, as the device is: saving a
    new count with a project open says it applies to the next project, not "Settings saved."."""
    import studio.ui.main_window as main_window

    window = make_window(sample_project)

    class Accepting:
        class DialogCode:
            Accepted = 1

        def __init__(self, settings: StudioSettings, *_args: object) -> None:
            self.settings = settings

        def exec(self) -> int:
            return 1

        def save(self) -> None:
            self.settings.cpu_threads = 1

    monkeypatch.setattr(main_window, "SettingsDialog", Accepting)
    window.ask_settings()
    assert "the CPU threads" in window.status_label.text() and "next project" in window.status_label.text()
    window.ask_settings()  # the same count again: nothing waits for the next project
    assert window.status_label.text() == "Settings saved."
