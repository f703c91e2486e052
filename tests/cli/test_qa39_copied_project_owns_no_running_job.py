"""A project copied (``cp -a``, or bundled and unbundled) while one of its jobs runs showed the
job running in the copy, where nothing runs it: `queue --cancel` refused it as "running in
another process" and run-queue left the jobs after it queued without a word of why. The
job's owner now names the project folder too: in a copy, the job reads as interrupted at
once. And run-queue on the original, where another process does run it, says so."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from demo_project import import_demo_project  # tests/ is on sys.path

from studio.cli import main
from studio.storage import Project
from studio.storage.job_store import JobStore, owner_alive, owner_token, process_start

HOLDER = textwrap.dedent("""
    import sys, time
    from studio.storage import Project
    from studio.storage.job_store import JobStore
    with Project.open(sys.argv[1]) as project:
        store = JobStore(project.database)
        first = min(store.load(), key=lambda job: job.sequence)
        assert store.claim(first), "the job was queued"
    print(first.id, flush=True)
    time.sleep(600)
""")


@pytest.fixture
def held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str]) -> Iterator[tuple[Path, str]]:
    """A project whose first queued job runs in another live process (the project closed
    there, as between two writes): (the project, the job's id)."""
    project = import_demo_project(tmp_path, monkeypatch)
    assert main(["fill", str(project), "--json"]) == 0
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(project)], stdout=subprocess.PIPE, text=True,
                              start_new_session=True)
    try:
        assert holder.stdout is not None
        job_id = holder.stdout.readline().strip()
        assert job_id, "the holder claimed a job"
        capsys.readouterr()
        yield project, job_id
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait()


def _listed(project: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    assert main(["queue", str(project), "--json"]) == 0
    return {job["id"]: job["status"] for job in json.loads(capsys.readouterr().out)}


def _copies(project: Path, capsys: pytest.CaptureFixture[str]) -> list[Path]:
    copied = project.with_name("copy.kamishibai")
    subprocess.run(["cp", "-a", str(project), str(copied)], check=True)
    bundle = project.with_name("mid.zip")
    assert main(["bundle", str(project), str(bundle)]) == 0
    unpacked = project.with_name("mid.kamishibai")
    assert main(["unbundle", str(bundle), str(unpacked)]) == 0
    capsys.readouterr()
    return [copied, unpacked]


def test_a_copy_shows_the_job_interrupted_and_cancels_it(held: tuple[Path, str],
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    project, job_id = held
    assert _listed(project, capsys)[job_id] == "running"  # the original: its process runs it
    for copy in _copies(project, capsys):
        assert _listed(copy, capsys)[job_id] == "interrupted", copy
        assert main(["queue", str(copy), "--cancel", job_id]) == 0, capsys.readouterr().err
        assert f"cancelled job {job_id}" in capsys.readouterr().out
        with Project.open(copy, read_only=True) as opened:
            assert {job.id: job.status.value for job in JobStore(opened.database).load()}[job_id] == "cancelled"
    assert _listed(project, capsys)[job_id] == "running", "the original is left as it was"


def test_run_queue_beside_the_running_process_says_why_jobs_did_not_run(
        held: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    project, job_id = held
    assert main(["run-queue", str(project), "--quiet"]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "still queued and did not run" in err, err
    assert f"job(s) {job_id} are running in another process" in err, err
    assert _listed(project, capsys)[job_id] == "running"


def test_the_owner_names_its_project_and_an_old_style_owner_still_counts(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    project = import_demo_project(tmp_path, monkeypatch)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        mine = owner_token(project)
        theirs = mine.replace(f":{os.getpid()}:{process_start(os.getpid())}",
                              f":{sleeper.pid}:{process_start(sleeper.pid)}", 1)
        assert theirs != mine and theirs.partition("\0")[0].endswith(f"|{project}")  # then the program
        copy = tmp_path / "copy.kamishibai"
        subprocess.run(["cp", "-a", str(project), str(copy)], check=True)
        assert owner_alive(theirs, project)
        assert not owner_alive(theirs, copy)
        old_style = theirs.partition("|")[0]  # written by an earlier version: no project part
        assert owner_alive(old_style, copy)
        moved = tmp_path / "moved.kamishibai"
        project.rename(moved)  # a folder renamed is the same folder
        assert owner_alive(theirs, moved)
        with Project.open(moved, read_only=True) as opened:
            assert JobStore(opened.database).owner == owner_token(moved)
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_copy_says_its_job_ran_in_the_original(held: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    """Settled in the copy, the job does not say the studio stopped (nothing stopped: it runs
    in the original) but that the project was copied while it ran."""
    from studio.storage.job_store import COPIED_MESSAGE, INTERRUPTED_MESSAGE

    project, job_id = held
    for copy in _copies(project, capsys):
        with Project.open(copy) as opened:  # opened for writing: its abandoned jobs are settled
            store = JobStore(opened.database)
            store.recover()
            job = {job.id: job for job in store.load()}[job_id]
        assert job.status.value == "interrupted" and job.error == COPIED_MESSAGE, (copy, job.error)
        assert INTERRUPTED_MESSAGE not in job.error
