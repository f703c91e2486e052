"""A take whose clip file is gone (deleted or moved outside the studio) can't be used from
the compare window: its button says the clip is missing and what to do, and a click on Use
after the file went, while the window was open, chooses nothing. QA: Compare chose such a
take, and the turn then played "clip missing" and stopped every export of its branch."""

from __future__ import annotations

from pathlib import Path

from studio.ui.inspector.missing_clip import CLIP_MISSING_TEXT
from tests.ui.rerolled_takes import leaf_with_two_takes


def _two_takes(make_window, sample_project: Path, qtbot):  # type: ignore[no-untyped-def]
    """The workspace, its session, a turn with two finished takes, and the one not selected."""
    return leaf_with_two_takes(make_window, sample_project, qtbot)


def test_a_take_whose_clip_was_deleted_cant_be_used(make_window, sample_project: Path, qtbot) -> None:
    ws, session, _leaf, other = _two_takes(make_window, sample_project, qtbot)
    session.project.resolve(other.clip_path).unlink()

    compare = ws.compare_takes()
    assert compare is not None and len(compare.columns) == 2
    column = next(c for c in compare.columns if c.take.id == other.id)
    assert not column.use_button.isEnabled()
    assert column.use_button.text() == CLIP_MISSING_TEXT
    assert "re-roll this turn" in column.use_button.toolTip()
    assert "clip missing" in column.caption.text()
    kept = next(c for c in compare.columns if c.take.id != other.id)
    assert "clip missing" not in kept.caption.text()


def test_use_after_the_clip_went_while_open_chooses_nothing(make_window, sample_project: Path, qtbot) -> None:
    ws, session, leaf, other = _two_takes(make_window, sample_project, qtbot)
    selected = session.project.tree.node(leaf).selected_take_id
    compare = ws.compare_takes()
    column = next(c for c in compare.columns if c.take.id == other.id)
    assert column.use_button.isEnabled()  # the file is still there

    clip = session.project.resolve(other.clip_path)
    moved = clip.with_name("moved-away.mp4")
    clip.rename(moved)
    column.use_button.click()
    session.settle()
    qtbot.wait(50)
    assert session.project.tree.node(leaf).selected_take_id == selected
    assert not column.use_button.isEnabled() and column.use_button.text() == CLIP_MISSING_TEXT

    moved.rename(clip)  # put back: it can be used again
    compare.follow(session.project.tree, leaf)
    assert column.use_button.isEnabled()
    column.use_button.click()
    qtbot.waitUntil(lambda: session.project.tree.node(leaf).selected_take_id == other.id, timeout=5000)
