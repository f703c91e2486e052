"""The inspector's bookmark button is off on the story's start, as the Bookmark action is,
and says why; the menu bar's menus show why an item is off, as the card's menu does."""

from __future__ import annotations

from pathlib import Path


def test_the_start_has_no_bookmark_button_and_menus_show_why(make_window, tmp_path: Path, qtbot) -> None:
    window = make_window()
    assert window.new_project(tmp_path / "story"), window.last_error
    ws, project = window.workspace, window.session.project
    ws.select(project.tree.root_id)
    star = ws.inspector.bookmark
    qtbot.waitUntil(lambda: not star.isEnabled())
    assert "start of the story can't be bookmarked" in star.toolTip()
    star.click()
    assert not project.tree.nodes[project.tree.root_id].bookmarked
    assert all(menu.toolTipsVisible() for menu in window.menus.values())

    line = "Character: Qiqi; Motion: run; Background: day town."
    node, job = window.session.service.generate(project.tree.root_id, line, settings=window.session.job_settings())
    assert window.session.service.wait_jobs([job], 60)
    qtbot.waitUntil(lambda: node in ws.tree.nodes)
    ws.select(node)
    qtbot.waitUntil(star.isEnabled)
    assert star.toolTip() == "Bookmark this turn (B)"
