"""A branch re-roll of some turns only waits for the job of a turn it leaves out.

QA: `reroll_branch(..., only=...)` (re-roll the stale turns) left out a turn whose own job was
still queued (a Fill); the re-rolled turn below it waited only for the re-rolled turn above,
so, queued ahead, it was made from the left-out turn's old past (or none), and went stale once
that turn's job ended and selected its take. Now it waits for that job, as Fill does.
"""

from __future__ import annotations

from studio.core.commands import AddTurn
from studio.worker import JobStatus

TEXTS = ["Character: Qiqi; Motion: run", "Character: Qiqi; Motion: jump", "Character: Qiqi; Motion: sit"]


def test_a_turn_below_a_left_out_turn_waits_for_its_job(project, make_service, script) -> None:  # type: ignore[no-untyped-def]
    service = make_service(start=False)
    parent, turns = project.tree.root_id, []
    for text in TEXTS:
        project.apply(AddTurn(parent, text))
        parent = project.tree.children(parent)[-1].id
        turns.append(parent)
    filled = service.fill(turns[-1])
    first, third = service.reroll_branch(turns[0], only={turns[0], turns[2]}, priority=5)
    middle = service.job(filled[1])
    assert middle.status is JobStatus.QUEUED and middle.depends_on == first  # left alone, after the re-roll above
    assert service.job(third).depends_on == middle.id
    service.start()
    assert service.wait_idle(20)
    assert script.order("decode") == TEXTS  # parents first
    assert [service.job(j).status for j in (first, middle.id, third)] == [JobStatus.DONE] * 3
    take = project.tree.takes[service.job(third).take_id]
    assert project.tree.nodes[turns[2]].selected_take_id == take.id and not take.stale
    assert take.parent_take_id == service.job(middle.id).take_id
