"""QA7: re-rolling (or editing and generating) a turn that later turns follow keeps the new
take beside the chosen one, so the card, the player and the exports go on showing the old
take; the status bar said only "Take ready.", which read as if Generate had done nothing.
It now names the new take and how to switch to it; a take that became the chosen one still
says "Take ready."."""

from __future__ import annotations

from .conftest import generate_first_branch


def test_a_take_kept_beside_the_chosen_one_says_how_to_use_it(make_window, sample_project, qtbot):
    window = make_window(sample_project)
    leaf = generate_first_branch(window, qtbot)
    ws = window.workspace
    tree = window.session.project.tree
    middle = tree.path_to(leaf)[-2].id  # a turn with a turn after it
    chosen = tree.selected_take(middle).id
    messages: list[str] = []
    ws.message.connect(messages.append)

    ws.select(middle, center=False)
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=60_000)
    qtbot.waitUntil(lambda: len(messages) > 0 and "ready" in messages[-1], timeout=10_000)

    tree = window.session.project.tree
    assert tree.selected_take(middle).id == chosen  # kept beside, as the README says
    depth = tree.depth(middle)
    assert messages[-1].startswith(f"Take 2 of turn {depth} ready, kept beside the chosen take"), messages
    assert "Use this take" in messages[-1]

    messages.clear()
    ws.select(leaf, center=False)  # the last turn: nothing follows it, the new take is chosen
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=60_000)
    qtbot.waitUntil(lambda: len(messages) > 0 and "ready" in messages[-1], timeout=10_000)
    assert messages[-1] == "Take ready.", messages
