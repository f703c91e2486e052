"""Lock seed on a turn with no takes is off and says why in its tooltip, as the greyed-out
turn actions do (QA: clicked, it silently stayed off); a seed already locked can still be
unlocked there."""

from __future__ import annotations

from pathlib import Path

from studio.ui.inspector.takes_view import LOCK_NO_TAKES_TIP, LOCK_TIP


def test_lock_seed_is_off_with_a_reason_without_takes(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    turn = ws.tree.child_ids(ws.tree.root_id)[0]
    assert not ws.tree.takes_of(turn)
    ws.select(turn)
    lock = ws.inspector.takes.lock_button
    assert not lock.isEnabled()
    assert lock.toolTip() == LOCK_NO_TAKES_TIP and "generate this turn first" in lock.toolTip()
    lock.click()
    assert window.session.settings.locked_seed is None and not lock.isChecked()


def test_a_locked_seed_can_be_unlocked_on_a_turn_without_takes(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    ws.select(ws.tree.child_ids(ws.tree.root_id)[0])
    lock = ws.inspector.takes.lock_button
    ws.lock_seed(1234)  # locked on another turn's take
    assert lock.isEnabled() and lock.isChecked() and lock.toolTip() == LOCK_TIP
    lock.click()
    assert window.session.settings.locked_seed is None
    assert not lock.isEnabled() and lock.toolTip() == LOCK_NO_TAKES_TIP
