"""A refusal that lands after the project's workspace closed (an edit sent just before
closing, refused by the document on the writer) is logged, not sent through the deleted
workspace's signal: that raised "Signal source has been deleted" in Qt's event loop."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from studio.core.errors import StudioError


def test_a_refusal_after_closing_is_logged(make_window, sample_project: Path, qtbot,  # type: ignore[no-untyped-def]
                                           caplog: pytest.LogCaptureFixture) -> None:
    from PySide6.QtCore import QCoreApplication, QEvent

    window = make_window(sample_project)
    session, workspace = window.session, window.workspace
    assert session.error_handler is not None
    assert window.close_project("cancel")
    workspace.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    with caplog.at_level(logging.WARNING, logger="studio.ui.session"):
        session.report(StudioError("The turn was deleted meanwhile."))  # as a late future's callback does
    assert "The turn was deleted meanwhile." in caplog.text
