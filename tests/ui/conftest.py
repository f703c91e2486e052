"""GUI test fixtures: offscreen Qt, settings in a temp ini file, a window on a project, and
the user's folders (XDG config, data and cache) in a temporary folder, so no test reads or
writes the real ones."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.ui.settings import StudioSettings

SMALL_SKETCH = {"width": 160, "height": 112, "frames": 6}
"""Small sketch clips keep the GUI tests fast (the engine's own defaults are 720 x 480 x 17)."""


@pytest.fixture(autouse=True)
def private_user_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "user"
    for key, name in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache")):
        monkeypatch.setenv(key, str(root / name))
    for key in ("HF_HOME", "HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        monkeypatch.delenv(key, raising=False)
    from PySide6.QtCore import QSettings

    for kind in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):  # QSettings reads XDG once
        QSettings.setPath(kind, QSettings.Scope.UserScope, str(root / "config"))
    return root


@pytest.fixture
def settings(tmp_path: Path) -> StudioSettings:
    studio_settings = StudioSettings.at(tmp_path / "settings.ini")
    studio_settings.set_engine_values("sketch", SMALL_SKETCH)
    studio_settings.engine = "sketch"
    studio_settings.mark_first_run_done()
    return studio_settings


@pytest.fixture
def registry():  # type: ignore[no-untyped-def]
    from studio.composition import default_registry

    return default_registry()


def services_with(registry):  # type: ignore[no-untyped-def]
    """The app's services (as the entry point builds them) with another registry."""
    from dataclasses import replace

    from studio.cli.gui_cmds import app_services

    host = "process" if registry.source else "in-process"  # engines in the test's memory stay in it
    return replace(app_services(), registry=registry, engine_host=host)


@pytest.fixture
def make_window(qtbot, settings: StudioSettings, registry):  # type: ignore[no-untyped-def]
    """``make_window(project_path=None)``: a shown main window (closed at teardown)."""
    from PySide6.QtWidgets import QApplication

    from studio.ui.main_window import MainWindow

    windows = []

    def make(path: Path | None = None, registry_override=None):  # type: ignore[no-untyped-def]
        window = MainWindow(settings, services_with(registry_override or registry))
        window.confirm = lambda title, text: True  # type: ignore[method-assign]
        window.ask_close_policy = lambda count: "cancel"  # type: ignore[method-assign]
        window.ask_stale = lambda count: "use"  # type: ignore[method-assign]
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        window.activateWindow()  # shortcuts only fire in the active window
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)
        if path is not None:
            assert window.open_project(path), window.last_error
        windows.append(window)
        return window

    yield make
    for window in windows:
        if window.session is not None:
            window.close_project("cancel")


@pytest.fixture
def sample_project(tmp_path: Path) -> Iterator[Path]:
    """A project with the sample story (8 turns in 2 branches), no takes yet."""
    from studio.composition import create_sample_project

    project = create_sample_project(tmp_path / "sample.kamishibai")
    path = project.path
    project.close()
    yield path


def open_export_dialog(window, monkeypatch):  # type: ignore[no-untyped-def]
    """Ctrl+E's dialog, opened and left open (its exec answers Cancel) for the test to read."""
    from studio.ui.dialogs.export_dialog import ExportDialog

    seen: list[ExportDialog] = []

    def fake_exec(dialog: ExportDialog) -> int:
        seen.append(dialog)
        return ExportDialog.DialogCode.Rejected

    monkeypatch.setattr(ExportDialog, "exec", fake_exec)
    window.actions_.export.trigger()
    assert seen, "the export dialog did not open"
    return seen[-1]


def generate_first_branch(window, qtbot, timeout_ms: int = 120_000) -> str:  # type: ignore[no-untyped-def]
    """Select the first branch's last turn, generate every turn of it, wait; its id."""
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    window.workspace.select(leaf, center=False)
    window.actions_.fill.trigger()
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=timeout_ms)
    return str(leaf)


def fake_engine_window(make_window, sample_project: Path, settings: StudioSettings, registry):  # type: ignore[no-untyped-def]
    """A window on ``sample_project`` whose engine is the worker tests' scripted fake (its
    script says which instructions fail): (window, script)."""
    from worker.fake_engine import FakeScript, fake_registry  # tests/ is on sys.path

    script = FakeScript()
    fake = fake_registry(script, "fake")
    registry.register(fake.info("fake"), lambda config: fake.create("fake", config))
    registry.source = ""  # the fake engine lives in this test's memory: in-process host
    settings.engine = "fake"
    return make_window(sample_project, registry_override=registry), script


def generate_a_held_turn(window, text: str) -> None:  # type: ignore[no-untyped-def]
    """Add a turn of ``text`` after the first branch's last turn and generate it; on a
    ``fake_engine_window`` whose text says [block], the job runs until the test sets the
    script's ``release``."""
    ws = window.workspace
    leaf = ws.tree.leaves_under(ws.tree.root_id)[0].id
    ws.select(leaf, center=False)
    ws.start_new_turn()
    ws.inspector.editor.free_text.setText(text)
    ws.inspector.editor.generate_button.click()


def damage_database(db: Path) -> None:
    """Overwrite four pages in the middle of a project's database, as a failing disk would."""
    page = 4096
    assert db.stat().st_size > page * 8
    with open(db, "r+b") as file:
        file.seek(page * 3)
        file.write(bytes((n * 37) % 251 for n in range(page * 4)))
