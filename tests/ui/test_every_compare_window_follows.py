"""Every open compare window follows its own turn, not only the one opened last. (QA: with
a compare window open on one turn, Compare on another turn left the first window stale: a
new take of its turn never joined it, and once its turn was deleted it stayed open on takes
that were gone, its "Use this take" buttons doing nothing.) Compare again on a turn whose
window is open brings that window to the front instead of opening a second one."""

from __future__ import annotations

from pathlib import Path

import shiboken6

JOB_TIMEOUT_MS = 120_000


def _with_clips(session, node_id: str) -> list:  # type: ignore[no-untyped-def]
    return [t for t in session.project.tree.takes_of(node_id) if t.clip_path and t.status.value == "done"]


def test_a_compare_window_keeps_following_after_another_opens(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    second = tree.child_ids(first)[0]
    for turn in (first, second):
        ws.select(turn, center=False)
        ws.reroll_many(2)
    qtbot.waitUntil(lambda: len(_with_clips(session, first)) == 2 and len(_with_clips(session, second)) == 2,
                    timeout=JOB_TIMEOUT_MS)
    session.settle()

    ws.select(second, center=False)
    older = ws.compare_takes()
    ws.select(first, center=False)
    newer = ws.compare_takes()
    assert older is not None and newer is not None and older is not newer
    assert ws.compare_takes() is newer, "Compare again on the same turn brings its window to the front"

    ws.reroll(second)  # a new take of the older window's turn joins it
    qtbot.waitUntil(lambda: len(_with_clips(session, second)) == 3, timeout=JOB_TIMEOUT_MS)
    session.settle()
    qtbot.waitUntil(lambda: len(older.columns) == 3, timeout=5000)
    assert [c.take.id for c in older.columns] == [t.id for t in _with_clips(session, second)]

    messages: list[str] = []
    ws.message.connect(messages.append)
    ws.select(second, center=False)
    ws.delete_current()  # the older window's turn goes: that window closes, the other stays
    session.settle()
    qtbot.waitUntil(lambda: second not in session.project.tree.nodes, timeout=5000)
    qtbot.waitUntil(lambda: not shiboken6.isValid(older) or not older.isVisible(), timeout=5000)
    assert any("compare window closed" in m for m in messages)
    assert shiboken6.isValid(newer) and newer.isVisible() and ws.compare_window is newer
    newer.close()
    qtbot.waitUntil(lambda: ws.compare_window is None, timeout=5000)
