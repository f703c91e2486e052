"""The window's New Project refuses a file name holding a character that shows as nothing
(U+200B between "Qi" and "qi" looks like "Qiqi" in the dialog and the recent projects), with
the message `kamishibai new` gives, and the open project stays open."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog


def test_new_project_refuses_a_zero_width_space_in_the_name(make_window: Callable[..., Any], sample_project: Path,
                                                            tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    window = make_window(sample_project)
    typed = tmp_path / "Qi\u200bqi.kamishibai"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *args, **kwargs: (str(typed), "")))
    window.ask_new_project()
    assert "holds U+200B, a zero-width space at character 3: it shows as nothing" in str(window.last_error)
    assert "\u26a0 The folder name" in window.status_label.text()
    assert window.session is not None and window.session.project.path == sample_project
    assert not typed.exists()
