"""The inspector's take tiles treat a take whose clip file is gone as the compare window
does: its button says the clip is missing (with what to do) and can't be pressed, and a
press after the file went, while the tile was shown, chooses nothing. QA: a tile's Use
chose such a take, and the turn then played "clip missing" and stopped its branch's export."""

from __future__ import annotations

from pathlib import Path

from studio.ui.inspector.missing_clip import CLIP_MISSING_TEXT, CLIP_MISSING_TIP
from tests.ui.rerolled_takes import leaf_with_two_takes


def _two_takes(make_window, sample_project: Path, qtbot):  # type: ignore[no-untyped-def]
    """The workspace, its session, a shown turn with two finished takes (both tiles shown),
    and the one not selected."""
    ws, session, leaf, other = leaf_with_two_takes(make_window, sample_project, qtbot)
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 2, timeout=5000)
    return ws, session, leaf, other


def _tile(ws, take_id: str):  # type: ignore[no-untyped-def]
    return next(t for t in ws.inspector.takes.tiles if t.take.id == take_id)


def test_a_tile_whose_clip_was_deleted_cant_be_used(make_window, sample_project: Path, qtbot) -> None:
    ws, session, leaf, other = _two_takes(make_window, sample_project, qtbot)
    session.project.resolve(other.clip_path).unlink()
    tree = session.project.tree
    ws.select(tree.node(leaf).parent_id or leaf, center=False)  # away and back: the tiles are built anew
    ws.select(leaf, center=False)
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 2, timeout=5000)

    tile = _tile(ws, other.id)
    button = tile.use_button
    assert not button.isEnabled()
    assert button.text() == CLIP_MISSING_TEXT
    assert button.toolTip() == CLIP_MISSING_TIP
    kept = next(t for t in ws.inspector.takes.tiles if t.take.id != other.id)
    assert kept.use_button.toolTip() != CLIP_MISSING_TIP


def test_use_after_the_clip_went_while_shown_chooses_nothing(make_window, sample_project: Path, qtbot) -> None:
    ws, session, leaf, other = _two_takes(make_window, sample_project, qtbot)
    selected = session.project.tree.node(leaf).selected_take_id
    tile = _tile(ws, other.id)
    assert tile.use_button.isEnabled()  # the file is still there

    clip = session.project.resolve(other.clip_path)
    moved = clip.with_name("moved-away.mp4")
    clip.rename(moved)
    tile.use_button.click()
    session.settle()
    qtbot.wait(50)
    assert session.project.tree.node(leaf).selected_take_id == selected
    assert not tile.use_button.isEnabled() and tile.use_button.toolTip() == CLIP_MISSING_TIP

    moved.rename(clip)  # put back: the clip loading again, or the pointer coming to the tile, finds it
    qtbot.mouseMove(next(t for t in ws.inspector.takes.tiles if t is not tile).player)
    qtbot.mouseMove(tile.use_button)
    qtbot.waitUntil(tile.use_button.isEnabled, timeout=5000)
    tile.use_button.click()
    qtbot.waitUntil(lambda: session.project.tree.node(leaf).selected_take_id == other.id, timeout=10_000)
