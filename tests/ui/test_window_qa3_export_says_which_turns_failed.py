"""The Export dialog tells a branch's turns without a clip apart (QA: a turn whose generation
failed was counted as "not generated yet", so the user waited, or generated again without
knowing that something had failed): failed turns need a re-roll or a retry, queued ones only
time, the others a first generation."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.core import AddTake, Take
from studio.core.jobs import Job, JobKind, JobStatus
from studio.core.model import TakeStatus
from studio.storage import Project
from studio.storage.job_store import JobStore
from studio.ui.dialogs.export_dialog import BranchFacts
from tests.ui.conftest import open_export_dialog


def _fail_first_turn(path: Path, *, job_listed: bool) -> str:
    """The first turn's generation failed, as a run leaves it: a failed take (and the failed
    job, unless the user forgot it in the queue since)."""
    with Project.open(path) as project:
        first = project.tree.child_ids(project.tree.root_id)[0]
        project.apply(AddTake(Take(id="failed1", node_id=first, engine="sketch", status=TakeStatus.FAILED,
                                   error="the engine ran out of memory")))
        if job_listed:
            JobStore(project.database).save(Job(id="job1", kind=JobKind.GENERATE, node_id=first, engine="sketch",
                                                status=JobStatus.FAILED, sequence=1, take_id="failed1",
                                                error="the engine ran out of memory"))
        return first


def _select_first_leaf(window) -> int:  # type: ignore[no-untyped-def]
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    window.workspace.select(leaf, center=False)
    return tree.depth(leaf)


@pytest.mark.parametrize("job_listed", [True, False], ids=["job listed", "job forgotten since"])
def test_a_failed_turn_is_counted_apart_from_those_not_generated(  # type: ignore[no-untyped-def]
        make_window, sample_project: Path, monkeypatch, job_listed: bool) -> None:
    """Counted from the failed take itself, so also after its job was forgotten in the queue."""
    _fail_first_turn(sample_project, job_listed=job_listed)
    window = make_window(sample_project)
    turns = _select_first_leaf(window)
    text = open_export_dialog(window, monkeypatch).branch_label.text()
    assert "1 failed" in text and "re-roll it" in text and "Retry" in text
    assert f"{turns - 1} not generated yet" in text  # not "{turns} not generated yet"
    assert "failed ones included" in text


def test_queued_turns_are_said_to_be_on_their_way(make_window, sample_project: Path, monkeypatch,  # type: ignore[no-untyped-def]
                                                  qtbot) -> None:
    window = make_window(sample_project)
    turns = _select_first_leaf(window)
    window.session.service.pause()  # the jobs stay queued while the dialog reads them
    window.actions_.fill.trigger()
    qtbot.waitUntil(lambda: window.session.tracker.active_count() == turns, timeout=10_000)
    dialog = open_export_dialog(window, monkeypatch)
    assert f"{turns} still queued or being generated" in dialog.branch_label.text()
    assert "not generated yet" not in dialog.branch_label.text()
    assert not dialog.export_button.isEnabled() and "Wait" in dialog.export_button.toolTip()


def test_every_reason_is_said_in_one_sentence() -> None:
    facts = BranchFacts(6, 1, "Qiqi waves.", failed=2, on_the_way=1)
    assert facts.never_generated == 2
    assert ("2 failed (re-roll them with R, or Retry in the queue), 1 still queued or being generated and "
            "2 not generated yet: the export needs every turn's clip.") in facts.text()


def test_the_open_dialog_follows_generations_being_queued(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                          monkeypatch, qtbot) -> None:
    window = make_window(sample_project)
    turns = _select_first_leaf(window)
    window.session.service.pause()
    dialog = open_export_dialog(window, monkeypatch)  # left open: it goes on following
    assert f"{turns} not generated yet" in dialog.branch_label.text()
    window.actions_.fill.trigger()  # queues jobs: no turn or take changes yet
    qtbot.waitUntil(lambda: f"{turns} still queued" in dialog.branch_label.text(), timeout=10_000)
