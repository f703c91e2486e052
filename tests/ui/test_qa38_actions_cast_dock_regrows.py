"""The cast dock a narrow window collapsed comes back once the window is wide again; one the
user closed stays closed."""

from __future__ import annotations

from pathlib import Path


def _resize(window, qtbot, width: int, height: int) -> None:  # type: ignore[no-untyped-def]
    window.resize(width, height)
    qtbot.waitUntil(lambda: window.width() == width, timeout=5_000)
    qtbot.wait(100)


def test_cast_dock_hidden_for_room_comes_back(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    _resize(window, qtbot, 1600, 960)
    window._arrange_docks()
    assert not window.cast_dock.isHidden()
    _resize(window, qtbot, 800, 600)
    assert window.cast_dock.isHidden()
    _resize(window, qtbot, 1600, 960)
    assert not window.cast_dock.isHidden(), "the cast dock came back with the room"
    _resize(window, qtbot, 2400, 1400)
    assert not window.cast_dock.isHidden()
    assert window.inspector_dock.width() >= 420  # given its room back, not left at a narrow window's width


def test_cast_dock_the_user_closed_stays_closed(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    _resize(window, qtbot, 1600, 960)
    window._arrange_docks()
    assert not window.cast_dock.isHidden()
    window.cast_dock.toggleViewAction().trigger()  # View › Cast & world: closed by the user
    assert window.cast_dock.isHidden()
    _resize(window, qtbot, 800, 600)
    _resize(window, qtbot, 1600, 960)
    assert window.cast_dock.isHidden()


def test_cast_dock_closed_after_being_brought_back_by_hand_stays_closed(make_window, sample_project: Path,
                                                                        qtbot) -> None:
    window = make_window(sample_project)
    _resize(window, qtbot, 1600, 960)
    window._arrange_docks()
    _resize(window, qtbot, 800, 600)
    assert window.cast_dock.isHidden()
    window.go_to_dock(window.cast_dock)  # Alt+3 in the narrow window
    window.cast_dock.toggleViewAction().trigger()  # and closed again
    _resize(window, qtbot, 1600, 960)
    assert window.cast_dock.isHidden()
