"""`reroll` of a turn whose parent has no finished take (turns imported and not generated, a
`play` killed midway) notes that the new take starts from the state before that parent, as
`play` does; not when a job is queued for the parent (the take waits for it). QA: `reroll`
said nothing, and its take's state silently left out the parent's own change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from demo_project import import_demo_project  # tests/ is on sys.path

from studio.cli import main

NOTE = "has no finished take: its new take starts from the state before it"


@pytest.fixture
def imported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return import_demo_project(tmp_path, monkeypatch)


def _turns(project: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    capsys.readouterr()
    assert main(["tree", str(project), "--json"]) == 0
    return [node["id"] for node in json.loads(capsys.readouterr().out)["nodes"][1:]]


def test_reroll_notes_a_parent_without_a_take(imported: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = _turns(imported, capsys)
    assert main(["reroll", str(imported), second, "--json"]) == 0
    out, err = capsys.readouterr()
    assert f"the turn continued, {first} " in err and NOTE in err, err
    assert json.loads(out)[0]["job_status"] == "done"  # a note, not a refusal


def test_no_note_when_the_parent_has_a_take_or_a_queued_job(imported: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = _turns(imported, capsys)
    assert main(["fill", str(imported)]) == 0  # the parent's job is queued: the re-roll waits for it
    capsys.readouterr()
    assert main(["reroll", str(imported), second]) == 0
    assert NOTE not in capsys.readouterr().err
    assert main(["reroll", str(imported), second]) == 0  # the parent has its take now
    assert NOTE not in capsys.readouterr().err
    assert main(["reroll", str(imported), first]) == 0  # its parent is the story's start
    assert NOTE not in capsys.readouterr().err
