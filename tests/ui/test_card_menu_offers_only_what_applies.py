"""A card's menu (and the menu bar's Turn menu, which holds the same actions) offers only what
applies to that card: an item either does what it says or is off with the reason in its
tooltip, which the card's menu shows (QA: the Start card offered Bookmark; a turn never
generated offered "Re-roll"; Compare branches was on in a story of one branch; the card's
menu showed no reason for an item that was off)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint
from PySide6.QtGui import QAction

from studio.core.commands import EditInstruction
from studio.ui.node_summary import CardStatus
from tests.ui.conftest import fake_engine_window

TIMEOUT_MS = 60_000


def _menu_of(ws, node_id: str) -> dict[str, QAction]:  # type: ignore[no-untyped-def]
    """The card's menu built for ``node_id`` (as a right click opens it), its actions by object
    name; closed again once read."""
    ws._context_menu(node_id, QPoint(10, 10))
    menu = ws.turn_menu
    assert menu is not None and menu.toolTipsVisible()  # an item that is off says why
    a = ws.studio_actions
    names = {id(getattr(a, n)): n for n in ("new_turn", "reroll", "reroll_branch", "fork", "compare_branches",
                                           "move_up", "move_down", "fill", "bookmark", "export", "delete")}
    offered = {names[id(action)]: action for action in menu.actions() if id(action) in names}
    menu.close()
    return offered


def _off(action: QAction) -> str:
    assert not action.isEnabled(), f"{action.text()} is on"
    assert action.toolTip(), f"{action.text()} is off without a reason"
    return action.toolTip()


def test_the_start_cards_menu(make_window, sample_project: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    menu = _menu_of(ws, ws.tree.root_id)
    assert menu["new_turn"].isEnabled() and menu["compare_branches"].isEnabled()
    assert "can't be bookmarked" in _off(menu["bookmark"])
    assert "can't be re-rolled" in _off(menu["reroll"]) and "can't be re-rolled" in _off(menu["reroll_branch"])
    assert "can't be forked" in _off(menu["fork"]) and "can't be deleted" in _off(menu["delete"])
    assert "no alternatives" in _off(menu["move_up"]) and "no alternatives" in _off(menu["move_down"])
    turn_menu = window.menus["Turn"].actions()  # the menu bar's Turn menu: the same actions, as they are
    assert all(action in turn_menu for name, action in menu.items() if name != "export")  # Export: File

    window.actions_.bookmark.trigger()  # off: B does nothing to the start either
    window.session.settle()
    assert not ws.tree.nodes[ws.tree.root_id].bookmarked


def test_a_turns_menu_names_what_re_roll_and_bookmark_do(  # type: ignore[no-untyped-def]
        make_window, sample_project: Path, qtbot, settings, registry) -> None:
    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    ws = window.workspace
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    second = tree.child_ids(first)[0]

    menu = _menu_of(ws, first)  # never generated: R makes its first take
    assert menu["reroll"].text() == "&Generate this turn" and menu["reroll"].isEnabled()
    assert menu["bookmark"].text() == "&Bookmark"
    assert "no alternatives" in _off(menu["move_up"])
    for name in ("new_turn", "reroll_branch", "fork", "fill", "bookmark", "export", "delete"):
        assert menu[name].isEnabled(), name
    menu["reroll"].trigger()
    qtbot.waitUntil(lambda: ws.scene.status(first) == CardStatus.DONE, timeout=TIMEOUT_MS)
    ws.select(first)
    assert _menu_of(ws, first)["reroll"].text() == "&Re-roll"  # now there is a take to re-roll

    menu["bookmark"].trigger()
    qtbot.waitUntil(lambda: window.session.project.tree.nodes[first].bookmarked, timeout=TIMEOUT_MS)
    ws.select(first)
    assert _menu_of(ws, first)["bookmark"].text() == "Remove &bookmark"

    script.fail_on.add(tree.node(second).instruction.raw)
    ws.select(second)
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: ws.scene.status(second) == CardStatus.FAILED, timeout=TIMEOUT_MS)
    menu = _menu_of(ws, second)  # failed: R tries again, a re-roll
    assert menu["reroll"].text() == "&Re-roll" and menu["reroll"].isEnabled()

    top, bottom = window.session.project.tree.child_ids(second)  # turn 3's two alternatives
    blocked = window.session.project.tree.node(bottom).instruction.raw + " [block]"
    ws.apply(EditInstruction(bottom, blocked))
    qtbot.waitUntil(lambda: window.session.project.tree.node(bottom).instruction.raw == blocked, timeout=TIMEOUT_MS)
    ws.select(bottom)
    try:
        window.actions_.reroll.trigger()
        qtbot.waitUntil(script.started.is_set, timeout=TIMEOUT_MS)
        qtbot.waitUntil(lambda: ws.scene.status(bottom) == CardStatus.RUNNING, timeout=TIMEOUT_MS)
        menu = _menu_of(ws, bottom)  # generating, the lower of two alternatives
        assert menu["reroll"].text() == "&Re-roll"  # another take, beside the one on its way
        assert menu["move_up"].isEnabled() and "bottom alternative" in _off(menu["move_down"])
        for name in ("new_turn", "reroll", "reroll_branch", "fork", "bookmark", "delete"):
            assert menu[name].isEnabled(), name
    finally:
        script.release.set()
    menu = _menu_of(ws, top)
    assert "top alternative" in _off(menu["move_up"]) and menu["move_down"].isEnabled()


def test_compare_branches_is_off_in_a_story_of_one_branch(make_window, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    assert window.new_project(tmp_path / "one.kamishibai", "One"), window.last_error
    ws = window.workspace
    assert "one branch" in _off(_menu_of(ws, ws.tree.root_id)["compare_branches"])
    root = ws.tree.root_id
    ws.select(root)
    ws.start_new_turn()
    ws.save_text("Character: Qiqi; Motion: wave; Background: day town.")
    qtbot.waitUntil(lambda: len(window.session.project.tree.nodes) == 2, timeout=TIMEOUT_MS)
    turn = window.session.project.tree.child_ids(root)[0]
    ws.select(turn)
    window.actions_.fork.trigger()
    qtbot.waitUntil(lambda: len(window.session.project.tree.child_ids(root)) == 2, timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: window.actions_.compare_branches.isEnabled(), timeout=TIMEOUT_MS)
    assert "one branch" not in window.actions_.compare_branches.toolTip()
    assert _menu_of(ws, turn)["compare_branches"].isEnabled()
