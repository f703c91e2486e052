"""The Start inspector fits its dock with a long cast and long names. (QA: with a character named
"Bartholomew" the three start boxes beside each name were wider than the inspector at the
window's usual width: it scrolled sideways and cut the cast list at its right edge.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from studio.core.commands import AddCastMember
from studio.core.model import CastMember, new_id
from studio.core.state import STATE_MAX
from studio.ui.theme import apply_theme


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", ["Bartholomew", "Maximilian Fitzgerald-Wolfenstein", "ながいなまえのまほうつかい"])
def test_the_start_panel_needs_no_sideways_scrolling(make_window, sample_project: Path, qtbot, name: str,
                                                     scheme: str) -> None:
    apply_theme(QApplication.instance(), scheme)  # the theme's boxes, as the studio shows them
    try:
        _check_start_panel(make_window, sample_project, qtbot, name)
    finally:
        apply_theme(QApplication.instance(), "dark")


def _check_start_panel(make_window, sample_project: Path, qtbot, name: str) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    window.resize(1280, 720)
    ws = window.workspace
    for other in ("Hana", "Ren", "Mio", "Sora", "Kai", "Yui", "Riku", "Nao"):  # enough rows to scroll
        ws.apply(AddCastMember(CastMember(id=new_id(), name=other)))
    ws.apply(AddCastMember(CastMember(id=new_id(), name=name)))
    window.session.settle()
    qtbot.waitUntil(lambda: any(m.name == name for m in ws.tree.cast.values()), timeout=10_000)
    ws.select(ws.tree.root_id)
    inspector = ws.inspector
    qtbot.waitUntil(lambda: name in inspector.start.spins, timeout=5000)
    body = inspector.widget()
    qtbot.waitUntil(inspector.verticalScrollBar().isVisible, timeout=5000)  # a cast this long scrolls down
    qtbot.wait(50)
    assert body.minimumSizeHint().width() <= inspector.viewport().width()
    assert not inspector.horizontalScrollBar().isVisible(), "the Start inspector scrolls sideways"
    for spins in inspector.start.spins.values():
        for spin in spins.values():
            edit = spin.lineEdit()
            assert edit.width() >= edit.fontMetrics().horizontalAdvance(str(STATE_MAX)), "a start value is cut"
