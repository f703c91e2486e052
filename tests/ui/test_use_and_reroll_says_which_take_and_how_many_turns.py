"""Choosing another take and re-rolling the turns after it ("Use and re-roll N") says which
take was chosen and how many turns are being re-rolled (it said "Take chosen; re-rolling 4
later turns…", soon replaced by "Take ready." from each re-rolled turn): it follows the
re-roll to its end."""

from __future__ import annotations

from pathlib import Path

from .conftest import generate_first_branch
from .rerolled_takes import JOB_TIMEOUT_MS, done_with_clips, reroll_until


def test_use_and_reroll_names_the_take_and_the_turns(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    leaf = generate_first_branch(window, qtbot)
    branch = [n.id for n in session.project.tree.path_to(leaf) if not n.is_root]
    turn = branch[1]
    reroll_until(ws, session, qtbot, turn, 2)
    tree = session.project.tree
    selected = tree.node(turn).selected_take_id
    other = next(t for t in done_with_clips(session, turn) if t.id != selected)
    number = [t.id for t in tree.takes_of(turn)].index(other.id) + 1
    after = len(branch) - 2

    said: list[str] = []
    ws.message.connect(said.append)
    ws.ask_stale_hook = lambda count: "reroll"
    ws.choose_take(turn, other.id)
    expected = f"Take {number} chosen; re-rolling the {after} turns after it."
    qtbot.waitUntil(lambda: expected in said, timeout=JOB_TIMEOUT_MS)
    qtbot.waitUntil(lambda: not session.active_jobs(), timeout=JOB_TIMEOUT_MS)
    # each re-rolled turn says how far the re-roll is, not a bare "Take ready."
    done = f"Take {number} chosen; the {after} turns after it are re-rolled."
    qtbot.waitUntil(lambda: done in said, timeout=JOB_TIMEOUT_MS)
    assert "Take ready." not in said[said.index(expected):]
