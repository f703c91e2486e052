"""Engines in their own process: jobs, a loaded engine kept between jobs, cancel, and a
child killed during predict, decode and the media write (10 times each)."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator

import pytest

from studio.storage import Project
from studio.worker import EventKind, GenerationService, HostMode, JobEvent, JobStatus

from .job_in_stage import start_job_in
from .process_engines import registry

KILLS_PER_STAGE = 10


@pytest.fixture
def service(project: Project) -> Iterator[GenerationService]:
    started = GenerationService(project, registry(), default_engine="fake", hosts=HostMode.PROCESS)
    started.start()
    yield started
    started.stop(cancel_running=True, timeout=20)


def _take_of(project: Project, service: GenerationService, job_id: str):  # type: ignore[no-untyped-def]
    return project.tree.takes[service.job(job_id).take_id]


def _no_take_points_at_missing_media(project: Project) -> None:
    for take in project.tree.takes.values():
        assert project.missing_media(take) == [], take


def test_jobs_run_in_a_child_that_keeps_its_engine_loaded(project: Project, service: GenerationService) -> None:
    node, first = service.generate(project.tree.root_id, "one")
    _, second = service.generate(node, "two")
    assert service.wait_jobs([first, second], 60)
    takes = [_take_of(project, service, job_id) for job_id in (first, second)]
    assert all(take.status.value == "done" for take in takes)
    pids = {take.conditioning["pid"] for take in takes}
    assert len(pids) == 1 and os.getpid() not in pids
    assert [take.conditioning["loads"] for take in takes] == [1, 1]
    _no_take_points_at_missing_media(project)
    status = service.engine_status()
    assert status.name == "fake" and status.loaded and service.engine_pids() == [pids.pop()]


def test_an_engine_error_fails_the_job_and_keeps_the_process(project: Project, service: GenerationService) -> None:
    _, bad = service.generate(project.tree.root_id, "[fail]")
    assert service.wait_jobs([bad], 60)
    pid = service.engine_pids()[0]
    assert service.job(bad).status is JobStatus.FAILED and "told to fail" in service.job(bad).error
    _, good = service.generate(project.tree.root_id, "fine")
    assert service.wait_jobs([good], 60)
    assert _take_of(project, service, good).conditioning["pid"] == pid


def test_cancel_reaches_the_child_within_a_step(project: Project, service: GenerationService) -> None:
    job_id = start_job_in(service, project, "[hold]")
    asked = time.perf_counter()
    assert service.cancel(job_id)
    assert service.wait_jobs([job_id], 10)
    assert time.perf_counter() - asked < 1.0
    job = service.job(job_id)
    assert job.status is JobStatus.CANCELLED and job.take_id == ""
    assert not project.resolve(project.take_media_dir(job.take_id or "x")).exists()


class Killer:
    """Sends SIGKILL to the engine process when a job first reports ``stage``."""

    def __init__(self, service: GenerationService, stage: str, step: int = 1) -> None:
        self.service = service
        self.stage = stage
        self.step = step
        self.killed: list[int] = []
        self.armed = threading.Event()

    def __call__(self, event: JobEvent) -> None:
        if not self.armed.is_set() or event.kind is not EventKind.PROGRESS:
            return
        if event.stage == self.stage and event.stage_step >= self.step:
            pid = self.service.engine_pids()[0]
            if pid is not None:
                self.armed.clear()
                os.kill(pid, signal.SIGKILL)
                self.killed.append(pid)


@pytest.mark.parametrize(("stage", "step", "words", "instruction"), [
    ("predict", 1, "during predict", "[hold-predict]"),
    ("decode", 1, "during decode", "[hold-decode]"),
    ("write", 1, "during the media write", "[big]"),
])
def test_sigkill_of_the_engine_process(project: Project, service: GenerationService, stage: str, step: int,
                                       words: str, instruction: str) -> None:
    killer = Killer(service, stage, step)
    service.subscribe(killer)
    root = project.tree.root_id
    pids: list[int] = []
    for _ in range(KILLS_PER_STAGE):
        killer.armed.set()
        _, job_id = service.generate(root, instruction)
        assert service.wait_jobs([job_id], 120)
        job = service.job(job_id)
        assert job.status is JobStatus.FAILED, job
        assert f"The engine process exited with signal 9 (SIGKILL) {words}." == job.error
        assert killer.killed and killer.killed[-1] not in pids
        pids.append(killer.killed[-1])
        take = project.tree.takes[job.take_id]
        assert take.status.value == "failed" and not take.media_paths()
        assert not project.resolve(project.take_media_dir(job.take_id)).exists()
        _no_take_points_at_missing_media(project)
    assert len(set(pids)) == KILLS_PER_STAGE  # each kill hit a fresh process
    _, after = service.generate(root, "after the crashes")
    assert service.wait_jobs([after], 60)
    take = _take_of(project, service, after)
    assert take.status.value == "done" and take.conditioning["pid"] not in pids
    _no_take_points_at_missing_media(project)


def test_a_registry_without_a_source_cannot_use_engine_processes(project: Project) -> None:
    from studio.engines.registry import EngineRegistry
    from studio.worker.engine_process import EngineProcessError

    with pytest.raises(EngineProcessError):
        GenerationService(project, EngineRegistry(), hosts=HostMode.PROCESS)




def test_a_ctrl_c_while_the_engine_process_starts_does_not_kill_it(project: Project) -> None:
    """A terminal's Ctrl-C reaches the engine process too. Before it ignored SIGINT (the first
    thing it does once its modules are imported) one killed it with a KeyboardInterrupt,
    and its job failed as a crash; it now starts with SIGINT blocked."""
    from studio.engines.config import EngineConfig
    from studio.worker.engine_process import ProcessHost

    host = ProcessHost(registry(), EngineConfig())
    try:
        host.start()
        pid = host.pid
        assert pid is not None
        until = time.monotonic() + 1.5  # the child's start-up (spawn, imports) and a little after
        while time.monotonic() < until:
            os.kill(pid, signal.SIGINT)
            time.sleep(0.005)
        time.sleep(0.5)
        assert host.pid == pid, "the engine process died of the Ctrl-C"
    finally:
        host.close()
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set()), "the parent's mask is restored"

