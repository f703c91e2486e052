"""The Start inspector's summary names the cast and places as they are now: in a project with
one state shared by the branch (made before per-character state) a character added, renamed or
removed while the Start was shown left the summary naming the old cast (the panel redrew only
when the start states or the number of places changed)."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import AddCastMember, RemoveCastMember, RenameCastMember, SetStateScope
from studio.core.model import CastMember
from studio.core.state import StateScope


def test_the_start_summary_follows_the_cast_in_a_shared_state_project(make_window, sample_project: Path,
                                                                     qtbot) -> None:
    window = make_window(sample_project)
    session, ws = window.session, window.workspace
    ws.apply(SetStateScope(StateScope.BRANCH))
    session.settle()
    ws.select(session.project.tree.root_id)
    summary = ws.inspector.start.summary
    qtbot.waitUntil(lambda: "one state runs down each branch" in summary.text(), timeout=5000)

    ws.apply(AddCastMember(CastMember(id="mika", name="Mika")))
    session.settle()
    qtbot.waitUntil(lambda: "Mika" in summary.text(), timeout=5000)

    ws.apply(RenameCastMember("mika", "Mikaela"))
    session.settle()
    qtbot.waitUntil(lambda: "Mikaela" in summary.text(), timeout=5000)

    ws.apply(RemoveCastMember("mika"))
    session.settle()
    qtbot.waitUntil(lambda: "Mika" not in summary.text(), timeout=5000)
    assert ws.inspector.start.isVisible()
