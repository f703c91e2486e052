"""An operation that fails with a bug (not a StudioError refusal) reaches the user: the
window says something unexpected went wrong and what was kept, and the log keeps the
traceback."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest


def test_unexpected_failure_is_shown_and_logged(make_window, sample_project: Path, qtbot,
                                                caplog: pytest.LogCaptureFixture) -> None:
    window = make_window(sample_project)

    def broken() -> None:
        raise ValueError("the writer tripped")

    with caplog.at_level(logging.ERROR, logger="studio.ui.session"):
        window.session.submit(broken, lambda result: None)
        qtbot.waitUntil(lambda: window.last_error is not None, timeout=10_000)
    message = window.last_error.message
    assert "unexpected" in message and "ValueError: the writer tripped" in message, message
    assert "keeps" in window.last_error.hint and "log" in window.last_error.hint
    assert "the writer tripped" in window.status_label.text()
    logged = [record for record in caplog.records if record.exc_info]
    assert logged and logged[0].exc_info is not None and logged[0].exc_info[0] is ValueError


def test_a_refusal_still_shows_its_own_message(make_window, sample_project: Path, qtbot) -> None:
    from studio.core.errors import StudioError

    window = make_window(sample_project)

    def refused() -> None:
        raise StudioError("That name is taken.")

    window.session.submit(refused)
    qtbot.waitUntil(lambda: window.last_error is not None, timeout=10_000)
    assert window.last_error.message == "That name is taken."
