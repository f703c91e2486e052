"""The queue survives a restart and a crash (SIGKILL of the worker process)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from studio.storage import Project
from studio.worker import GenerationService, HostMode, JobStatus

from .fake_engine import FakeScript, fake_registry

TESTS_DIR = Path(__file__).resolve().parents[1]
REPO = TESTS_DIR.parent


def test_queue_survives_a_restart(tmp_path: Path) -> None:
    script = FakeScript()
    project = Project.create(tmp_path / "story")
    service = GenerationService(project, fake_registry(script), default_engine="fake", hosts=HostMode.IN_PROCESS)
    root = project.tree.root_id
    queued = [service.generate(root, text, priority=p)[1] for text, p in (("a", 0), ("b", 2), ("c", 0))]
    seeds = {j: service.job(j).seed for j in queued}
    service.stop()
    project.close()

    reopened = Project.open(tmp_path / "story")
    service = GenerationService(reopened, fake_registry(script), default_engine="fake", hosts=HostMode.IN_PROCESS)
    jobs = service.jobs()
    assert [j.id for j in jobs] == [queued[1], queued[0], queued[2]]
    assert all(j.status is JobStatus.QUEUED for j in jobs)
    assert {j.id: j.seed for j in jobs} == seeds
    service.start()
    assert service.wait_idle(20)
    assert script.order() == ["b", "a", "c"]
    assert [c[2] for c in script.calls if c[0] == "predict"] == [seeds[queued[1]], seeds[queued[0]], seeds[queued[2]]]
    history = service.jobs(include_finished=True)
    assert all(j.status is JobStatus.DONE for j in history)
    service.stop()
    reopened.close()
    with Project.open(tmp_path / "story") as again:
        service = GenerationService(again, fake_registry(script), default_engine="fake", hosts=HostMode.IN_PROCESS)
        assert service.jobs() == []
        assert len(service.jobs(include_finished=True)) == 3


def _mark_running(project: Project, job_id: str, owner: str, take_id: str = "") -> None:
    with project.database.transaction() as conn:
        conn.execute("UPDATE jobs SET status='running', owner=?, take_id=? WHERE id=?", (owner, take_id, job_id))


def test_running_job_of_a_dead_process_becomes_interrupted(tmp_path: Path) -> None:
    script = FakeScript()
    project = Project.create(tmp_path / "story")
    service = GenerationService(project, fake_registry(script), default_engine="fake", hosts=HostMode.IN_PROCESS)
    _node_id, job_id = service.generate(project.tree.root_id, "x", seed=42)
    _mark_running(project, job_id, f"{socket.gethostname()}:{2**22 + 12345}", take_id="deadbeef00")
    leftover = project.resolve(project.take_media_dir("deadbeef00"))
    leftover.mkdir(parents=True)
    (leftover / ".clip.1234.part.mp4").write_bytes(b"half")
    project.close()

    project = Project.open(tmp_path / "story")
    service = GenerationService(project, fake_registry(script), default_engine="fake", hosts=HostMode.IN_PROCESS)
    job = service.job(job_id)
    assert job.status is JobStatus.INTERRUPTED and job.error
    assert not leftover.exists()
    assert [j.id for j in service.jobs()] == [job_id]  # interrupted jobs are listed
    service.start()
    assert service.wait_idle(5)
    assert script.calls == []  # not re-run until asked
    assert service.requeue_interrupted() == [job_id]
    assert service.wait_jobs([job_id], 10)
    assert service.job(job_id).status is JobStatus.DONE
    assert project.tree.takes[service.job(job_id).take_id].seed == 42
    service.stop()
    project.close()


def test_auto_requeue(tmp_path: Path) -> None:
    script = FakeScript()
    project = Project.create(tmp_path / "story")
    service = GenerationService(project, fake_registry(script), default_engine="fake", hosts=HostMode.IN_PROCESS)
    _, job_id = service.generate(project.tree.root_id, "x", seed=7)
    _mark_running(project, job_id, "elsewhere:1")
    project.close()
    project = Project.open(tmp_path / "story")
    service = GenerationService(project, fake_registry(script), default_engine="fake", auto_requeue=True,
                                hosts=HostMode.IN_PROCESS)
    assert service.job(job_id).status is JobStatus.QUEUED
    service.start()
    assert service.wait_jobs([job_id], 10)
    assert service.job(job_id).status is JobStatus.DONE and script.calls[0][2] == 7
    service.stop()
    project.close()


def test_job_whose_take_was_committed_before_the_crash_is_done(tmp_path: Path) -> None:
    script = FakeScript()
    project = Project.create(tmp_path / "story")
    service = GenerationService(project, fake_registry(script), default_engine="fake", hosts=HostMode.IN_PROCESS)
    service.start()
    _, job_id = service.generate(project.tree.root_id, "x")
    assert service.wait_idle(10)
    service.stop()
    take_id = service.job(job_id).take_id
    _mark_running(project, job_id, "elsewhere:1", take_id=take_id)
    project.close()
    project = Project.open(tmp_path / "story")
    service = GenerationService(project, fake_registry(script), default_engine="fake", hosts=HostMode.IN_PROCESS)
    assert service.job(job_id).status is JobStatus.DONE
    assert project.missing_media(project.tree.takes[take_id]) == []
    project.close()


def test_a_live_owner_keeps_its_running_job(tmp_path: Path) -> None:
    project = Project.create(tmp_path / "story")
    service = GenerationService(project, fake_registry(FakeScript()), default_engine="fake",
                                hosts=HostMode.IN_PROCESS)
    _, job_id = service.generate(project.tree.root_id, "x")
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        _mark_running(project, job_id, f"{socket.gethostname()}:{sleeper.pid}")
        other = GenerationService(project, fake_registry(FakeScript()), default_engine="fake",
                                  hosts=HostMode.IN_PROCESS)
        assert other.job(job_id).status is JobStatus.RUNNING
        assert not other.cancel(job_id)
    finally:
        sleeper.kill()
        sleeper.wait()
    project.close()


CHILD = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, sys.argv[3])
    from worker.fake_engine import FakeScript, fake_registry
    import studio.worker.results as results
    from studio.storage import Project
    from studio.storage.atomic import atomic_path
    from studio.worker import GenerationService, HostMode

    path, mode = sys.argv[1], sys.argv[2]
    script = FakeScript(decode_steps=100000, step_sleep=0.01) if mode == "decode" else FakeScript()

    def slow_clip(target, frames, fps, encoded):
        with atomic_path(target) as tmp:
            tmp.write_bytes(b"half an mp4")
            print("WRITING", flush=True)
            time.sleep(60)

    if mode == "write":
        results.media.write_clip = slow_clip

    def watch(event):
        if mode == "decode" and event.stage == "decode" and event.stage_step == 3:
            print("DECODING", flush=True)

    project = Project.open(path)
    service = GenerationService(project, fake_registry(script), default_engine="fake", hosts=HostMode.IN_PROCESS)
    service.subscribe(watch)
    service.start()
    time.sleep(60)
""")


@pytest.mark.parametrize("mode", ["decode", "write"])
def test_sigkill_during_a_job_leaves_no_broken_take(tmp_path: Path, mode: str) -> None:
    script = FakeScript()
    project = Project.create(tmp_path / "story")
    service = GenerationService(project, fake_registry(script), default_engine="fake", hosts=HostMode.IN_PROCESS)
    service.start()
    first, _done_job = service.generate(project.tree.root_id, "done before the crash")
    assert service.wait_idle(10)
    service.stop()
    victim_node, victim = service.generate(first, "crash here", seed=99)
    _, waiting = service.generate(first, "still queued")
    project.close()

    marker = "DECODING" if mode == "decode" else "WRITING"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path / "story.kamishibai"), mode, str(TESTS_DIR)],
                             stdout=subprocess.PIPE, text=True, cwd=REPO)
    try:
        deadline = time.monotonic() + 60
        assert child.stdout is not None
        for line in child.stdout:
            if line.strip() == marker:
                break
            assert time.monotonic() < deadline
        os.kill(child.pid, signal.SIGKILL)
        assert child.wait(10) == -signal.SIGKILL
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()

    project = Project.open(tmp_path / "story")
    for take in project.tree.takes.values():
        assert project.missing_media(take) == []
    assert [t.node_id for t in project.tree.takes.values()] == [first]
    takes_dir = project.resolve("media/takes")
    leftovers = [p.name for p in takes_dir.iterdir() if p.name not in project.tree.takes]
    assert len(leftovers) == (1 if mode == "write" else 0)  # the crashed take's half-written folder

    service = GenerationService(project, fake_registry(script), default_engine="fake", hosts=HostMode.IN_PROCESS)
    job = service.job(victim)
    assert job.status is JobStatus.INTERRUPTED
    assert service.job(waiting).status is JobStatus.QUEUED
    assert [p.name for p in takes_dir.iterdir() if p.name not in project.tree.takes] == []
    service.requeue_interrupted()
    service.start()
    assert service.wait_idle(20)
    assert service.job(victim).status is JobStatus.DONE
    assert project.tree.takes[service.job(victim).take_id].seed == 99
    assert project.tree.selected_take(victim_node) is not None
    for take in project.tree.takes.values():
        assert project.missing_media(take) == []
    service.stop()
    project.close()
