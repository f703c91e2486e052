"""`run-queue` tells a failed job's hint, not only its message: out of memory said "ran out
of memory" and left out what to do about it (fewer frames, a smaller size, another engine
or device), which `play` and the window show. The message itself is printed safely: an
engine's error text with terminal escapes in it can't clear the screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.core.commands import AddTurn
from studio.storage import Project
from studio.worker.failures import OOM_HINT

from .fake_engine import FakeScript, fake_registry

Capture = pytest.CaptureFixture[str]


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, script: FakeScript) -> FakeScript:
    import studio.composition as composition

    monkeypatch.setattr(composition, "default_registry", lambda: fake_registry(script, "sketch"))
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    return script


def _queued(tmp_path: Path, instruction: str) -> Path:
    with Project.create(tmp_path / "story") as project:
        project.apply(AddTurn(project.tree.root_id, instruction, node_id="turn0"))
        with project.database.transaction() as conn:
            conn.execute("INSERT INTO jobs(id, node_id, engine, status, settings, sequence, seed) "
                         "VALUES ('job0', 'turn0', 'sketch', 'queued', '{}', 0, 7)")
    return tmp_path / "story.kamishibai"


def test_run_queue_says_what_to_do_when_a_job_runs_out_of_memory(tmp_path: Path, cli: FakeScript,
                                                                 capsys: Capture) -> None:
    folder = _queued(tmp_path, "Character: Qiqi; Motion: wave; Background: day town. [oom]")
    assert main(["run-queue", str(folder), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "job job0 (node turn0) failed: The engine 'sketch' ran out of memory" in err
    assert f"\n  hint: {OOM_HINT}\n" in err


def test_run_queue_prints_an_engine_message_without_its_terminal_escapes(tmp_path: Path, cli: FakeScript,
                                                                         capsys: Capture) -> None:
    cli.load_error = "\x1b[2Jweights.safetensors"
    folder = _queued(tmp_path, "Character: Qiqi; Motion: wave; Background: day town.")
    assert main(["run-queue", str(folder), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert "failed: Missing checkpoint \\x1b[2Jweights.safetensors." in err
