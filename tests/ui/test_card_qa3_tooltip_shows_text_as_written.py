"""A card's tooltip shows the instruction and the error as written (QA: an instruction holding
``<b>`` made Qt read the whole tip as rich text: the words came out bold with the tags gone and
``&amp;`` as ``&``; and a failed take's whole traceback made a tip taller than the screen)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import Qt, QTextDocument

from studio.core import AddTake, EditInstruction, Take
from studio.core.jobs import Job, JobKind, JobStatus
from studio.core.model import TakeStatus
from studio.storage import Project
from studio.storage.job_store import JobStore
from studio.ui.canvas.card_item import TIP_ERROR_LINES
from studio.ui.text_wrap import unbroken

INSTRUCTION = "<b>Qiqi</b> jumps & spins over rock &amp; roll"  # free text: the card's excerpt
ERROR_HEAD = "The engine stopped: <class 'torch.OutOfMemoryError'> & more"
TRACEBACK = ERROR_HEAD + "\n" + "\n".join(f'  File "engine.py", line {n}, in step' for n in range(200))


def shown_text(tip: str) -> str:
    """What a tooltip draws: Qt reads ``tip`` as rich text when it looks like markup."""
    document = QTextDocument()
    if Qt.mightBeRichText(tip):
        document.setHtml(tip)
    else:
        document.setPlainText(tip)
    return unbroken(document.toPlainText())


def _failed_turn_with_markup(path: Path) -> str:
    with Project.open(path) as project:
        turn = project.tree.child_ids(project.tree.root_id)[0]
        project.apply(EditInstruction(turn, INSTRUCTION))
        project.apply(AddTake(Take(id="failed1", node_id=turn, engine="sketch", status=TakeStatus.FAILED,
                                   error=TRACEBACK)))
        JobStore(project.database).save(Job(id="job1", kind=JobKind.GENERATE, node_id=turn, engine="sketch",
                                            status=JobStatus.FAILED, sequence=1, take_id="failed1",
                                            error=TRACEBACK))
        return turn


def test_the_tip_shows_markup_and_entities_as_typed(make_window, sample_project: Path) -> None:  # type: ignore[no-untyped-def]
    turn = _failed_turn_with_markup(sample_project)
    window = make_window(sample_project)
    lines = shown_text(window.workspace.scene.cards[turn].toolTip()).split("\n")
    assert lines[0] == INSTRUCTION
    assert ERROR_HEAD in lines


def test_a_long_error_shows_its_first_lines_and_says_how_many_more(make_window, sample_project: Path) -> None:  # type: ignore[no-untyped-def]
    turn = _failed_turn_with_markup(sample_project)
    window = make_window(sample_project)
    lines = [line for line in shown_text(window.workspace.scene.cards[turn].toolTip()).split("\n") if line]
    assert lines[1] == ERROR_HEAD
    assert lines[2] == '  File "engine.py", line 0, in step'
    assert len(lines) == 1 + TIP_ERROR_LINES + 1
    assert lines[-1] == f"… {201 - TIP_ERROR_LINES} more lines: the queue shows the whole error"
