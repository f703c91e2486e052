"""A signal at any moment of the window's start ends it cleanly.

QA: a SIGINT that came as the window was being shown was handled (the window closed, the
process went on to exit) but the project the start had asked to open was opened after the
close, on the same turn of the event loop: the process then waited at its exit for a project
nobody would close, its lock held. And a signal that came while the window was being made,
before its handler was there, raised KeyboardInterrupt in the middle of the start (or killed
the process, for SIGTERM)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from studio.ui.settings import StudioSettings

from .conftest import services_with


@pytest.fixture
def stop():  # type: ignore[no-untyped-def]
    from studio.ui.app import SignalClose

    handlers = SignalClose()
    yield handlers
    handlers.uninstall()


def test_a_signal_as_the_window_is_shown_opens_no_project(qtbot, registry, settings: StudioSettings,  # type: ignore[no-untyped-def]
                                                          tmp_path: Path, stop) -> None:
    from studio.ui.app import show_at_start
    from studio.ui.main_window import MainWindow

    window = MainWindow(settings, services_with(registry))
    qtbot.addWidget(window)
    stop.attach(window)
    path = tmp_path / "somewhere" / "new-project"
    os.kill(os.getpid(), signal.SIGINT)  # as the window is being shown: its close is asked for first
    assert stop.received == signal.SIGINT
    show_at_start(window, path)  # ... then the project's opening, on the same turn of the loop
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=10_000)
    qtbot.wait(300)  # what else the start had asked for runs meanwhile
    assert window.session is None, "a project was opened after the window closed"
    lock = path.with_name("new-project.kamishibai") / "writer.lock"
    assert not lock.is_file() or lock.stat().st_size == 0


def test_a_signal_before_the_window_is_made_is_noted_not_raised(stop) -> None:  # type: ignore[no-untyped-def]
    os.kill(os.getpid(), signal.SIGTERM)  # its default action killed the process (SIGINT's raised KeyboardInterrupt)
    assert stop.received == signal.SIGTERM
    assert stop.window is None
