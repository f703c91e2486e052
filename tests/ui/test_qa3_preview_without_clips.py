"""The branch preview of a project with no clip yet says so (QA: it was a blank picture at
open, and read "no clip" only after a branch with clips had been shown)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication


def test_a_branch_without_clips_says_no_clip_from_the_start(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)  # the sample's turns have no takes yet
    ws = window.workspace
    tree = window.session.project.tree
    ws.select(tree.child_ids(tree.root_id)[0], center=False)
    QApplication.processEvents()
    player = ws.episode.player
    assert not player.paths
    assert player.view.message == "no clip" and player.view.image is None
