"""``make run``'s path again, after the sample was opened and edited in the studio: ``kamishibai
sample --keep-intact`` keeps the edited sample, and ``kamishibai open`` on it opens it with
the edit, at the turn selected when it was closed, on the saved engine, with nothing to say."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from studio.ui.settings import StudioSettings

from .conftest import services_with

CLI = [str(Path(sys.executable).with_name("kamishibai"))]


def _kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300, check=False)


def _start(qtbot, registry, settings: StudioSettings, path: Path):  # type: ignore[no-untyped-def]
    from studio.ui.app import show_at_start
    from studio.ui.main_window import MainWindow

    window = MainWindow(settings, services_with(registry))
    window.ask_close_policy = lambda count: "cancel"  # type: ignore[method-assign]
    window.confirm = lambda title, text: True  # type: ignore[method-assign]
    qtbot.addWidget(window)
    show_at_start(window, path)
    qtbot.waitUntil(lambda: window.session is not None or window.last_error is not None, timeout=20_000)
    return window


@pytest.mark.slow
def test_make_run_opens_the_sample_as_it_was_left(qtbot, registry, settings: StudioSettings,  # type: ignore[no-untyped-def]
                                                  tmp_path: Path) -> None:
    sample = tmp_path / "projects" / "sample.kamishibai"
    built = _kamishibai("sample", "--keep-intact", str(sample))  # the first `make run`
    assert built.returncode == 0, built.stderr
    window = _start(qtbot, registry, settings, sample)
    assert window.session is not None, window.last_error
    workspace = window.workspace
    turns = [node.id for node in workspace.tree.nodes.values() if not node.is_root]
    workspace.select(turns[2], center=False)
    workspace.fork()  # an edit: an alternative to the third turn
    qtbot.waitUntil(lambda: len(workspace.tree.nodes) == len(turns) + 2, timeout=10_000)
    qtbot.waitUntil(lambda: workspace.current_id not in turns, timeout=10_000)
    forked = workspace.current_id
    window.close_project("keep")
    window.close()

    again = _kamishibai("sample", "--keep-intact", str(sample))  # the next `make run`
    assert again.returncode == 0, again.stderr
    assert not list(sample.parent.glob("sample.damaged-*"))  # kept as it is, not set aside

    reopened = _start(qtbot, registry, StudioSettings.at(Path(settings.q.fileName())), sample)
    assert reopened.session is not None, reopened.last_error
    assert reopened.last_error is None
    assert forked in reopened.workspace.tree.nodes  # the edit is there
    assert reopened.workspace.current_id == forked  # where the user was
    assert reopened.engine_picker.current_engine() == "sketch"
    assert reopened.status_label.text() == f"Opened {reopened.session.project.name_and_folder}"
    reopened.close_project("cancel")
