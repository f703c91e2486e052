"""A Cast & world dock the window hid for lack of room comes back when the window is wide,
across a restart too: a window closed narrow and reopened wide shows it. One the user closed
stays closed. Before, only the dock's hidden state was saved, not why it was hidden: reopened
wide, the window kept it hidden."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studio.ui.main_window import MainWindow
from studio.ui.settings import StudioSettings

from .conftest import services_with


def _resize(window: Any, qtbot: Any, width: int, height: int) -> None:
    window.resize(width, height)
    qtbot.waitUntil(lambda: window.width() == width, timeout=5_000)
    qtbot.wait(100)


def _wide_with_cast(window: Any, qtbot: Any) -> None:
    _resize(window, qtbot, 1600, 960)
    window._arrange_docks()
    assert not window.cast_dock.isHidden()


def _reopened_wide(qtbot: Any, settings: StudioSettings, registry: Any, project: Path) -> MainWindow:
    """A new window on the same settings (the next start), made wide, then the project opened."""
    again = MainWindow(settings, services_with(registry))
    again.ask_close_policy = lambda count: "cancel"  # type: ignore[method-assign]
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    _resize(again, qtbot, 1600, 960)
    assert again.open_project(project), again.last_error
    qtbot.wait(100)
    return again


def test_cast_dock_hidden_for_room_comes_back_on_a_wide_restart(  # type: ignore[no-untyped-def]
        make_window, qtbot, settings: StudioSettings, registry, sample_project: Path) -> None:
    window = make_window(sample_project)
    _wide_with_cast(window, qtbot)
    _resize(window, qtbot, 800, 600)
    assert window.cast_dock.isHidden(), "hidden for lack of room"
    assert window.close()
    assert settings.cast_hidden_for_room()

    again = _reopened_wide(qtbot, settings, registry, sample_project)
    assert not again.cast_dock.isHidden(), "the cast dock came back with the room"
    again.close_project("cancel")


def test_cast_dock_hidden_for_room_and_reopened_narrow_waits_for_the_room(  # type: ignore[no-untyped-def]
        make_window, qtbot, settings: StudioSettings, registry, sample_project: Path) -> None:
    window = make_window(sample_project)
    _wide_with_cast(window, qtbot)
    _resize(window, qtbot, 800, 600)
    assert window.close()

    again = MainWindow(settings, services_with(registry))
    again.ask_close_policy = lambda count: "cancel"  # type: ignore[method-assign]
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    _resize(again, qtbot, 800, 600)
    assert again.open_project(sample_project), again.last_error
    assert again.cast_dock.isHidden()
    _resize(again, qtbot, 1600, 960)  # widened by hand in this start
    assert not again.cast_dock.isHidden()
    again.close_project("cancel")


def test_cast_dock_the_user_closed_stays_closed_across_starts(  # type: ignore[no-untyped-def]
        make_window, qtbot, settings: StudioSettings, registry, sample_project: Path) -> None:
    window = make_window(sample_project)
    _wide_with_cast(window, qtbot)
    _resize(window, qtbot, 800, 600)
    window.go_to_dock(window.cast_dock)  # shown by hand in the narrow window (Alt+3) ...
    window.cast_dock.toggleViewAction().trigger()  # ... and closed by hand
    assert window.cast_dock.isHidden()
    assert window.close()
    assert not settings.cast_hidden_for_room()

    again = _reopened_wide(qtbot, settings, registry, sample_project)
    assert again.cast_dock.isHidden(), "the user closed it"
    again.close_project("cancel")
