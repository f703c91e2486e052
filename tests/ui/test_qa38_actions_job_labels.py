"""A queue row names the instruction its job renders, not the turn's line as edited since.

After an edit was undone while its generation ran, the row read "Re-roll turn 2 · Qiqi
gently sits on the railing" though the take came from "sadly walk"."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from studio.core.commands import EditInstruction
from studio.ui.job_labels import job_title

TIMEOUT_MS = 120_000
EDITED = "Character: Qiqi; Motion: sadly walk; Background: day park."


def _first_turn(window) -> str:  # type: ignore[no-untyped-def]
    tree = window.session.project.tree
    return str(tree.child_ids(tree.root_id)[0])


def _edit(window, qtbot, node_id: str, text: str) -> None:  # type: ignore[no-untyped-def]
    window.workspace.apply(EditInstruction(node_id, text))
    qtbot.waitUntil(lambda: window.session.project.tree.nodes[node_id].instruction.raw == text, timeout=10_000)


def test_a_finished_jobs_row_names_its_takes_instruction(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    first = _first_turn(window)
    ws.select(first, center=False)
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: bool(window.session.project.tree.takes_of(first)) and not window.session.active_jobs(),
                    timeout=TIMEOUT_MS)
    job = next(j for j in window.session.service.jobs(include_finished=True) if j.node_id == first)
    rendered = ws.describe_job(job)
    assert "broom" in rendered and "edited since" not in rendered
    _edit(window, qtbot, first, EDITED)
    line = ws.describe_job(job)
    assert line.startswith(rendered + " (edited since: "), "the row still names what the take was made from"
    assert "walk" in line.split("edited since")[1]  # then how the turn reads now


def test_a_running_jobs_row_names_the_line_it_started_with(make_window, settings, sample_project: Path,
                                                           qtbot) -> None:
    settings.set_engine_values("sketch", {"frames": 240, "width": 1280, "height": 720})  # a job of many seconds
    window = make_window(sample_project)
    ws = window.workspace
    first = _first_turn(window)
    ws.select(first, center=False)
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: any(j.status.value == "running" for j in window.session.active_jobs()), timeout=30_000)
    job = next(j for j in window.session.active_jobs() if j.node_id == first)
    assert "broom" in ws.describe_job(job)
    _edit(window, qtbot, first, EDITED)  # as an undo of an edit made before R would
    rendered, now = ws.describe_job(job).split("edited since")
    assert "broom" in rendered and "walk" not in rendered and "walk" in now


def test_a_waiting_jobs_row_names_the_turns_line_it_will_render(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    first = _first_turn(window)
    window.session.service.pause()
    ws.select(first, center=False)
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: len(window.session.active_jobs()) == 1, timeout=10_000)
    job = window.session.active_jobs()[0]
    _edit(window, qtbot, first, EDITED)  # it starts later: it reads the turn then
    assert "walk" in ws.describe_job(job) and "edited since" not in ws.describe_job(job)


def test_job_title_prefers_the_started_line_then_the_take(make_window, sample_project: Path) -> None:
    window = make_window(sample_project)
    tree = window.session.project.tree
    first = _first_turn(window)
    waiting = SimpleNamespace(label="Re-roll", kind="generate", node_id=first, take_id="", created_at="")
    own = job_title(waiting, tree)
    assert "broom" in own
    started = job_title(waiting, tree, started_with=EDITED)
    assert started.startswith("Generate turn 1 · ")
    rendered, now = started.split(" (edited since: ")
    assert "walk" in rendered and "broom" not in rendered and "broom" in now
    same = job_title(waiting, tree, started_with=tree.nodes[first].instruction.raw)
    assert same == own
