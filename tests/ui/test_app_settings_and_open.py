"""Starting the studio with settings or a path it can't use as they are: a device setting
that can't be read, ``kamishibai open`` on a file or a folder of other things, a settings
file that can't be written."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.ui.settings import StudioSettings


def test_a_saved_device_that_cant_be_read_falls_back_to_the_cpu_and_says_so(  # type: ignore[no-untyped-def]
        make_window, settings: StudioSettings, sample_project: Path, qtbot) -> None:
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    settings.q.setValue("engine/device", "tpu:0")  # edited by hand, or written by another version
    settings.q.sync()
    assert settings.device == "cpu" and "Unknown device 'tpu:0'" in settings.device_problem()
    window = make_window()  # used to raise ConfigError from the window's constructor
    assert "The saved device was refused (the CPU is used)" in window.status_label.text()
    dialog = SettingsDialog(settings, window.registry, window)
    qtbot.addWidget(dialog)
    assert not dialog.device_error.isHidden() and "tpu:0" in dialog.device_error.text()
    assert dialog.device.currentText() == "cpu"
    dialog.device.setCurrentText("cuda:0")  # a new choice replaces the refused one
    assert dialog.device_error.isHidden()
    assert window.open_project(sample_project), window.last_error
    assert window.session is not None and window.session.service is not None  # generation still works
    assert window.session.service_error == ""


def test_a_readable_device_is_kept(settings: StudioSettings) -> None:
    settings.device = "predict=cuda:0,decode=cuda:1"
    assert settings.device == "predict=cuda:0,decode=cuda:1" and settings.device_problem() == ""


@pytest.mark.parametrize("kind", ["file", "folder of other things"])
def test_open_path_on_something_that_is_not_a_project_refuses_it(make_window, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                 kind: str) -> None:
    from studio.ui.app import open_initial

    target = tmp_path / "notes"
    if kind == "file":
        target.write_text("my notes")
    else:
        target.mkdir()
        (target / "draft.txt").write_text("my notes")
    before = sorted(p.name for p in tmp_path.iterdir())
    window = make_window()
    open_initial(window, target)
    assert window.workspace is None and window.welcome is not None  # not a new notes.kamishibai beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert window.last_error is not None and window.last_error.message.startswith(f"{target} is not a Kamishibai "
                                                                                  "project")


def test_open_path_still_creates_a_project_where_nothing_is(make_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.app import open_initial

    empty = tmp_path / "empty.kamishibai"
    empty.mkdir()
    window = make_window()
    open_initial(window, tmp_path / "fresh")
    assert window.session is not None and window.session.path == tmp_path / "fresh.kamishibai"
    window.close_project("cancel")
    open_initial(window, empty)
    assert window.session is not None and window.session.path == empty


def test_settings_that_cant_be_written_are_not_said_saved(make_window, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    window = make_window()
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the config folder should be")
    window.settings = StudioSettings.at(blocker / "Kamishibai Studio" / "settings.ini")
    monkeypatch.setattr(SettingsDialog, "exec", lambda dialog: SettingsDialog.DialogCode.Accepted)
    window.ask_settings()
    assert window.last_error is not None
    assert window.last_error.message.startswith("The settings could not be saved to ")
    assert "Settings saved" not in window.status_label.text()
    good = StudioSettings.at(tmp_path / "good.ini")
    window.settings = good
    window.last_error = None
    window.ask_settings()
    assert window.last_error is None and window.status_label.text() == "Settings saved."
    assert good.write_problem() == ""


def test_no_engine_form_scrolls_sideways_under_the_app_s_style_sheet(qtbot, qapp, settings: StudioSettings,  # type: ignore[no-untyped-def]
                                                                     registry) -> None:
    """The app always runs with its style sheet (its paddings widen the editors): the dialog
    is measured with it, not before it applies (the widest form scrolled 20 px sideways)."""
    from studio.ui.dialogs.settings_dialog import SettingsDialog
    from studio.ui.theme import apply_theme

    apply_theme(qapp, "light")
    dialog = SettingsDialog(settings, registry)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    for index in range(dialog.engine.count()):
        dialog.engine.setCurrentIndex(index)
        qtbot.wait(20)
        assert dialog.engine_scroll.horizontalScrollBar().maximum() == 0, dialog.engine.itemText(index)


def test_one_saved_engine_value_the_engine_refuses_drops_alone(qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.engines.catalog.sketch import SketchSettings
    from studio.ui.dialogs.engine_settings_form import EngineSettingsForm

    form = EngineSettingsForm(SketchSettings, {"frames": "many", "width": 160, "height": 112})
    qtbot.addWidget(form)
    form.show()
    assert form.values()["width"] == 160 and form.values()["height"] == 112  # the user's other changes hold
    assert form.values()["frames"] == SketchSettings().frames
    assert form.error.isVisible() and "'frames'" in form.error.text() and "refused and reset" in form.error.text()
    assert form.overrides() == {"width": 160, "height": 112}


def test_new_takes_use_the_values_settings_shows(make_window, settings: StudioSettings,  # type: ignore[no-untyped-def]
                                                 sample_project: Path) -> None:
    from tests.ui.conftest import SMALL_SKETCH

    settings.set_engine_values("sketch", {**SMALL_SKETCH, "frames": "many"})
    window = make_window(sample_project)
    # not the refused value (every take was refused, while Settings said it was reset)
    assert window.session.job_settings() == {"width": SMALL_SKETCH["width"], "height": SMALL_SKETCH["height"]}


def test_recent_entries_that_cant_be_looked_at_are_passed_over(make_window, settings: StudioSettings,  # type: ignore[no-untyped-def]
                                                               sample_project: Path, tmp_path: Path) -> None:
    """A recent project the system won't even stat (a name too long, a NUL edited into the
    file; a folder this user may no longer enter fails the same way) stopped the window from
    opening; and File › Open recent offered folders that are no project."""
    from studio.ui.app import open_initial

    plain = tmp_path / "plain"
    plain.mkdir()
    settings.q.setValue("projects/recent", [str(tmp_path / ("x" * 300) / "a.kamishibai"), "/tmp/a\x00b",
                                            str(plain), str(sample_project)])
    window = make_window()
    assert window.welcome is not None and [b.path for b in window.welcome.recent_buttons] == [sample_project]
    window._fill_recent()
    assert [a.toolTip() for a in window.recent_menu.actions()] == [str(sample_project)]
    open_initial(window, None)
    assert window.session is not None and window.session.path == sample_project
    window.close_project("cancel")  # the list is written again, the odd entries with it
    assert settings.present_projects() == [sample_project]


def test_open_path_with_a_name_too_long_says_so(make_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.app import open_initial

    window = make_window()
    open_initial(window, tmp_path / ("y" * 300))
    assert window.workspace is None
    assert window.last_error is not None and "a file or folder name may have at most 255" in window.last_error.message
