"""A failed turn's card tooltip and the branch preview's note show the hint under the error,
as the inspector does (QA: they showed "the engine ran out of memory" and not what to do
about it). A job its process left running when it died, whose failed take was committed, is
settled at the next open with the take's hint as well as its error: the card shows both."""

from __future__ import annotations

from pathlib import Path

from studio.core import AddTake, Take
from studio.core.commands import Fork
from studio.core.jobs import Job, JobKind, JobStatus
from studio.core.model import TakeStatus
from studio.storage import Project
from studio.storage.job_store import JobStore
from studio.worker.failures import OOM_HINT
from tests.ui.conftest import fake_engine_window, generate_first_branch

ERROR = "the engine ran out of memory"
HINT = "Try 32 frames at 256x160."
TIMEOUT_MS = 60_000


def _fail_first_turn(path: Path, job_status: JobStatus, owner: str = "") -> str:
    """The first turn's failed take (with its hint) and its job: failed as a run leaves it, or
    still running under ``owner``, a process that died before saying it failed."""
    with Project.open(path) as project:
        first = project.tree.child_ids(project.tree.root_id)[0]
        project.apply(AddTake(Take(id="failed1", node_id=first, engine="sketch", status=TakeStatus.FAILED,
                                   error=ERROR, hint=HINT)))
        failed = job_status is JobStatus.FAILED
        JobStore(project.database).save(
            Job(id="job1", kind=JobKind.GENERATE, node_id=first, engine="sketch", status=job_status, sequence=1,
                take_id="failed1", error=ERROR if failed else "", hint=HINT if failed else ""), owner=owner)
        return first


def test_a_failed_turns_card_tooltip_shows_the_hint_under_the_error(make_window, sample_project: Path) -> None:  # type: ignore[no-untyped-def]
    first = _fail_first_turn(sample_project, JobStatus.FAILED)
    window = make_window(sample_project)
    lines = window.workspace.scene.cards[first].toolTip()
    assert ERROR in lines and f"Hint: {HINT}" in lines
    assert lines.index(ERROR) < lines.index("Hint:")


def test_a_job_recovered_after_a_crash_shows_its_takes_hint_on_the_card(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                                        qtbot) -> None:
    first = _fail_first_turn(sample_project, JobStatus.RUNNING, owner="elsewhere.invalid:12345")
    window = make_window(sample_project)
    cards = window.workspace.scene.cards
    qtbot.waitUntil(lambda: ERROR in cards[first].toolTip(), timeout=TIMEOUT_MS)
    assert f"Hint: {HINT}" in cards[first].toolTip()
    job = window.session.service.job("job1")
    assert job is not None and job.status is JobStatus.FAILED and job.hint == HINT


def test_the_branch_preview_of_a_failed_turn_shows_the_hint(make_window, sample_project: Path, qtbot, settings,  # type: ignore[no-untyped-def]
                                                            registry) -> None:
    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    ws = window.workspace
    leaf = generate_first_branch(window, qtbot)  # clips in the branch: a turn without one gets a note
    text = "Character: Qiqi; Motion: trip; Background: day town."
    script.oom_on.add(text)
    ws.apply(Fork(leaf, new_node_id="alt", text=text))
    window.session.settle()
    qtbot.waitUntil(lambda: "alt" in ws.scene.cards, timeout=TIMEOUT_MS)
    ws.select("alt", center=False)
    window.actions_.reroll.trigger()
    player = ws.episode.player
    qtbot.waitUntil(lambda: "failed" in player.note, timeout=TIMEOUT_MS)
    assert "ran out of memory" in player.note and f"\nHint: {OOM_HINT}" in player.note
    assert "Hint:" in ws.scene.cards["alt"].toolTip()
