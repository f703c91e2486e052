"""The welcome page: the first run, what it lists, what its buttons do, the sample story."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from studio.ui.engine_status import EngineAvailability, engine_availability
from studio.ui.settings import StudioSettings
from studio.ui.welcome import WelcomeContent, WelcomePage


def _texts(widget) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(label.text() for label in widget.findChildren(QLabel))


def test_the_first_run_shows_the_welcome_page_then_the_last_project(make_window, sample_project: Path,
                                                                    tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.app import open_initial

    fresh = StudioSettings.at(tmp_path / "fresh.ini")
    window = make_window()
    window.settings = fresh
    open_initial(window, None)
    assert fresh.first_run_done
    assert window.workspace is None and window.welcome is not None and window.centralWidget() is window.welcome
    fresh.add_recent(sample_project)
    open_initial(window, None)  # the next start
    assert window.workspace is not None and window.session.path == sample_project
    name = window.session.project.name
    window.close_project("cancel")
    assert window.status_label.text() == f"Closed {name}" and window.jobs_label.text() == ""
    gone = StudioSettings.at(tmp_path / "gone.ini")  # the only recent project was deleted: welcome again
    gone.mark_first_run_done()
    gone.add_recent(tmp_path / "gone.kamishibai")
    window.settings = gone
    open_initial(window, None)
    assert window.workspace is None and window.welcome is not None


def test_the_page_lists_recent_projects_shortcuts_and_engines(make_window, sample_project: Path,
                                                              settings: StudioSettings, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    settings.add_recent(tmp_path / "deleted.kamishibai")
    settings.add_recent(sample_project)
    window = make_window()
    page = window.welcome
    assert page is not None
    assert [b.path for b in page.recent_buttons] == [sample_project]  # the deleted one is not offered
    assert [(k, w) for k, w in page.content.shortcuts] == [
        ("Enter", "New turn after this one"), ("Ctrl+Enter", "Generate"), ("R", "Re-roll"),
        ("F", "Fork (new alternative)"), ("Ctrl+Z", "Undo")]
    assert [label.text() for label in page.shortcut_labels] == ["Enter", "Ctrl+Enter", "R", "F", "Ctrl+Z"]
    assert [e.name for e in page.content.engines] == window.registry.names()
    text = _texts(page)
    assert "sketch" in text and "✓ can run" in text
    for folder in settings.checkpoint_dirs():
        assert folder.name == "checkpoints"
    assert "huggingface" in page.weights_help() and "checkpoints" in page.weights_help()
    assert "Ctrl+N" in page.new_button.text() and "Ctrl+O" in page.open_button.text()


def test_engines_that_cannot_run_say_why(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    content = WelcomeContent(engines=[EngineAvailability("sketch", True),
                                      EngineAvailability("mini", False, ["no weights in checkpoints/mini/",
                                                                         "torch is not installed"])],
                             checkpoint_dirs=[tmp_path / "a" / "checkpoints", tmp_path / "b" / "checkpoints"],
                             hf_cache=None)
    page = WelcomePage(content)
    qtbot.addWidget(page)
    assert len(page.engine_rows) == 2
    mini = _texts(page.engine_rows[1])
    assert "✗ cannot run" in mini and "no weights in checkpoints/mini/" in mini and "torch is not installed" in mini
    assert page.engine_rows[1].accessibleName() == "mini: cannot run"
    help_text = page.weights_help()
    assert help_text.index(str(tmp_path / "a")) < help_text.index(str(tmp_path / "b"))
    assert "Hugging Face" not in help_text  # the cache is not searched: not promised


def test_buttons_emit_what_was_asked(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    project = tmp_path / "Story.kamishibai"
    page = WelcomePage(WelcomeContent(recent=[project]))
    qtbot.addWidget(page)
    page.show()
    for button, signal in ((page.new_button, page.new_project_requested),
                           (page.open_button, page.open_project_requested),
                           (page.sample_button, page.sample_requested),
                           (page.checkpoints_button, page.checkpoints_requested)):
        with qtbot.waitSignal(signal, timeout=1000):
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    with qtbot.waitSignal(page.recent_requested, timeout=1000) as blocker:
        qtbot.mouseClick(page.recent_buttons[0], Qt.MouseButton.LeftButton)
    assert blocker.args == [project]
    assert page.recent_buttons[0].name_label.text() == "Story"


def test_engine_availability_comes_from_each_engines_check(registry, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from engines.contract.heavy_engine import INFO  # tests/ is on sys.path

    from studio.engines.config import EngineConfig

    registry.register(INFO)
    rows = {r.name: r for r in engine_availability(registry, EngineConfig(checkpoints=tmp_path))}
    assert set(rows) == set(registry.names())
    assert rows["sketch"].available and not rows["sketch"].reasons
    assert not rows["heavy"].available
    assert str(tmp_path / "heavy" / "weights.safetensors") in rows["heavy"].reasons[0]


def test_closing_a_project_returns_to_the_welcome_page_and_docks_come_back(make_window,
                                                                          sample_project: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    assert window.inspector_dock.isHidden() and window.queue_dock.isHidden()  # the page has the whole window
    window.cast_dock.setVisible(True)  # the user shows one by hand
    assert window.open_project(sample_project)
    assert not window.inspector_dock.isHidden() and not window.cast_dock.isHidden()
    assert window.queue_dock.isHidden()  # no jobs: the queue steps aside until there are some
    assert window.welcome is None
    window.actions_.close_project.trigger()
    assert window.workspace is None and window.welcome is not None
    assert window.inspector_dock.isHidden()
    assert not window.actions_.close_project.isEnabled()


@pytest.mark.slow
def test_the_sample_opens_with_its_clips_generated(make_window, settings: StudioSettings, qtbot,
                                                   monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import studio.ui.sample_story as sample_story

    monkeypatch.setattr(sample_story, "shipped_sample", lambda: None)  # as in an installed app
    window = make_window()
    target = sample_story.user_sample(settings.paths.projects_dir)
    assert not target.exists()
    assert "generates it" in window.welcome.sample_button.text()
    qtbot.mouseClick(window.welcome.sample_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.workspace is not None, timeout=120_000)
    session = window.session
    assert session is not None and session.path == target
    tree = session.project.tree
    turns = [node for node in tree.nodes.values() if not node.is_root]
    assert len(turns) == 8
    for node in turns:
        take = tree.takes.get(node.selected_take_id or "")
        assert take is not None and take.status.value == "done", node.id
        assert session.project.resolve(take.clip_path).is_file()
    assert session.service is not None and session.service.jobs() == []  # an empty queue
    window.close_project("cancel")
    assert "generates it" not in window.welcome.sample_button.text()
    assert window.open_sample() and window.session.path == target  # the second time: opened as it is


def test_cancelling_the_sample_leaves_nothing_behind(make_window, settings: StudioSettings,
                                                     monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import studio.ui.sample_story as sample_story

    monkeypatch.setattr(sample_story, "shipped_sample", lambda: None)
    window = make_window()
    assert window.open_sample()
    target = sample_story.user_sample(settings.paths.projects_dir)
    assert (target / "project.db").is_file()
    window.sample_progress.canceled.emit()  # what its Cancel button sends
    assert window.sample_builder is None and not target.exists()
    assert window.workspace is None
