"""`kamishibai queue`: columns that hold their widest cell, and cut text marked as cut.

QA: the table's widths were fixed: a job of the animegamer engine (10 characters, the column 8)
or a priority of five digits pushed the rest of its line out of the columns; an error or an
instruction cut at 60 characters gave no sign that it went on."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.core.commands import AddTurn
from studio.core.jobs import Job, JobKind, JobStatus
from studio.storage import Project
from studio.storage.job_store import JobStore

LONG_ERROR = "CUDA out of memory.\nTried to allocate 20.00 GiB \x1b[31m(GPU 0)" + " and more" * 20


@pytest.fixture
def queued(tmp_path: Path) -> Path:
    folder = tmp_path / "story"
    with Project.create(folder) as project:
        project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: gently sit on railing; Background: "
                              "day town, with the bakery's cat asleep on the step."))
        turn = next(node.id for node in project.tree.nodes.values() if not node.is_root)
        JobStore(project.database).save(
            Job(id="a000000001", kind=JobKind.GENERATE, node_id=turn, engine="sketch", seed=7, sequence=1),
            Job(id="a000000002", kind=JobKind.GENERATE, node_id=turn, engine="animegamer", seed=2147483646,
                priority=123456, sequence=2),
            Job(id="a000000003", kind=JobKind.GENERATE, node_id=turn, engine="mini", seed=1, priority=-3,
                status=JobStatus.FAILED, error=LONG_ERROR, sequence=3),
            Job(id="a000000004", kind=JobKind.GENERATE, node_id=turn, engine="customx", seed=0,
                status=JobStatus.CANCELLED, error="Cancelled.", sequence=4))
    return tmp_path / "story.kamishibai"


def test_every_line_keeps_to_the_columns(queued: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["queue", str(queued), "--all"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 5 and lines[0].startswith("job"), lines
    # the engine and node columns start where their headers do, on every line
    engine_column, node_column = lines[0].index("engine"), lines[0].index("node")
    for line in lines[1:]:
        fields = line.split()
        assert line[engine_column:].startswith(fields[3] + " "), line
        assert line[node_column:node_column + 10] == fields[5], line
        assert "\x1b" not in line  # an escape sequence is shown, not sent to the terminal


def test_cut_text_ends_in_an_ellipsis(queued: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["queue", str(queued), "--all"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()[1:]}
    assert lines["a000000001"].endswith("…") and "bakery" not in lines["a000000001"]
    assert lines["a000000003"].endswith("…") and "CUDA out of memory.⏎Tried" in lines["a000000003"]
    assert lines["a000000004"].endswith("Cancelled.")  # whole: nothing cut
