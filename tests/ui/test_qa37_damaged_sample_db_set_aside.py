"""The welcome page's "Open the sample story" when the user's own sample has a project.db
that is damaged (garbage where the database should be): the damaged copy is moved aside,
untouched, a new sample is built and opened, and the status bar says where the old one
went (QA: it was opened and refused at every click, "Restore it from a bundle or a
backup")."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

import studio.ui.sample_story as sample_story
from studio.ui.settings import StudioSettings

GARBAGE = bytes(range(256)) * 40
"""Not an SQLite database: no SQLite header, and far more than a page of it."""
WAIT_MS = 120_000


def _damaged_sample(settings: StudioSettings) -> Path:
    target = sample_story.user_sample(settings.paths.projects_dir)
    (target / "media").mkdir(parents=True)
    (target / "project.db").write_bytes(GARBAGE)
    (target / "media" / "poster.png").write_bytes(b"a poster of the old sample")
    return target


@pytest.mark.slow
def test_a_damaged_sample_database_is_set_aside_and_a_new_sample_opens(  # type: ignore[no-untyped-def]
        make_window, settings: StudioSettings, qtbot, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sample_story, "shipped_sample", lambda: None)  # as in an installed app
    target = _damaged_sample(settings)
    window = make_window()
    assert "generates it" in window.welcome.sample_button.text()  # it builds one: no damaged one is offered
    qtbot.mouseClick(window.welcome.sample_button, Qt.MouseButton.LeftButton)
    aside = [p for p in target.parent.iterdir() if p.name.startswith("Sample.damaged-")]
    assert len(aside) == 1 and aside[0].name.endswith(".kamishibai")
    assert str(aside[0]) in window.status_label.text()  # said while the new one is built
    qtbot.waitUntil(lambda: window.session is not None or window.sample_builder is None, timeout=WAIT_MS)
    assert window.session is not None, window.last_error
    assert window.last_error is None
    assert window.session.path == target
    turns = [node for node in window.session.project.tree.nodes.values() if not node.is_root]
    assert len(turns) == 8
    said = window.status_label.text()
    assert str(aside[0]) in said and "damaged" in said, said
    assert (aside[0] / "project.db").read_bytes() == GARBAGE  # moved as it was, nothing deleted
    assert (aside[0] / "media" / "poster.png").read_bytes() == b"a poster of the old sample"
    window.close_project("cancel")
    with sqlite3.connect(target / "project.db") as db:  # the new one is a real database
        assert db.execute("PRAGMA quick_check").fetchone() == ("ok",)
    window.open_sample()  # the second time: the new one opens as it is, nothing more set aside
    assert window.session is not None and window.session.path == target
    assert len([p for p in target.parent.iterdir() if p.name.startswith("Sample.damaged-")]) == 1
    window.close_project("cancel")


def test_a_damaged_sample_that_cannot_be_moved_aside_is_kept_and_said(  # type: ignore[no-untyped-def]
        make_window, settings: StudioSettings, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the damaged sample can't be moved (every name to move it to is taken), nothing
    is lost: it stays as it was, nothing else is touched, and the error names the folder."""
    monkeypatch.setattr(sample_story, "shipped_sample", lambda: None)
    target = _damaged_sample(settings)
    base = f"Sample.damaged-{time.strftime('%Y-%m-%d')}"
    taken = [target.with_name(f"{base}{'' if n == 1 else f'-{n}'}.kamishibai")
             for n in range(1, sample_story.MAX_ASIDE_NAMES + 1)]
    for folder in taken:
        folder.mkdir()
    window = make_window()
    window.welcome.sample_button.click()
    assert window.session is None and window.sample_builder is None
    error = window.last_error
    assert error is not None and str(target) in error.message and "are taken" in error.message, error
    assert window.status_label.text().startswith("⚠")
    assert (target / "project.db").read_bytes() == GARBAGE
    assert (target / "media" / "poster.png").read_bytes() == b"a poster of the old sample"
    assert all(folder.is_dir() and not any(folder.iterdir()) for folder in taken)
