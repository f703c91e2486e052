"""Several devices share the cores: each engine process gets its thread budget; and the
engine process coalesces progress without losing a stage's last step."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.core.commands import AddTurn
from studio.core.model import new_id
from studio.engines.base import EngineConfig
from studio.engines.config import usable_cores
from studio.storage import Project
from studio.worker import EventKind, GenerationService, HostMode, JobEvent
from studio.worker.device_worker import parse_devices
from studio.worker.thread_budget import share_cores, thread_budget_environment

from .process_engines import PACE_STEPS
from .process_engines import registry as process_registry


def test_each_device_gets_its_share_of_the_cores() -> None:
    one = parse_devices("cpu")
    assert share_cores(one, cores=2) == one  # alone: the engine chooses
    assert [c.threads for c in share_cores(parse_devices("cpu,cpu"), cores=2)] == [1, 1]
    assert [c.threads for c in share_cores(parse_devices("cpu,cuda:0,cuda:1"), cores=16)] == [5, 5, 5]
    assert [c.threads for c in share_cores(parse_devices("cpu,cpu,cpu"), cores=2)] == [1, 1, 1]
    given = [EngineConfig.parse("cpu", threads=3), EngineConfig.parse("cpu")]
    assert [c.threads for c in share_cores(given, cores=8)] == [3, 4]  # a chosen count is kept
    assert thread_budget_environment(None) == {}
    assert thread_budget_environment(2)["OMP_NUM_THREADS"] == "2"


def test_engine_processes_run_with_their_budget_and_report_each_stages_end(tmp_path: Path) -> None:
    project = Project.create(tmp_path / "story")
    root = project.tree.root_id
    nodes = []
    for name in ("a", "b"):
        node = new_id()
        project.apply(AddTurn(root, f"{name} [pace]", node_id=node))
        nodes.append(node)
    service = GenerationService(project, process_registry(), devices=["cpu", "cpu"], default_engine="fake",
                                hosts=HostMode.PROCESS)
    progress: dict[str, list[JobEvent]] = {}
    service.subscribe(lambda e: progress.setdefault(e.job_id, []).append(e) if e.kind is EventKind.PROGRESS
                      else None)
    jobs = [service.fill(node)[0] for node in nodes]
    service.start()
    try:
        assert service.wait_jobs(jobs, 120)
        budget = max(1, usable_cores() // 2)  # the cores this process may use, shared by the two
        for job_id in jobs:
            take = project.tree.takes[service.job(job_id).take_id]
            assert take.status.value == "done"
            assert take.conditioning["threads"] == budget
            assert take.conditioning["omp_threads"] == str(budget)
            events = progress[job_id]
            for stage in ("predict", "decode"):
                steps = [e.stage_step for e in events if e.stage == stage]
                assert steps and steps[-1] == PACE_STEPS  # the last step always arrives
                assert len(steps) < PACE_STEPS  # 20 ms steps, at most one message per 50 ms
            fractions = [e.step for e in events]
            assert fractions == sorted(fractions)
    finally:
        service.stop(cancel_running=True, timeout=20)
        project.close()


def test_engine_processes_started_by_the_window_run_nicer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The window sets KAMISHIBAI_ENGINE_NICE (studio.ui.gui_tuning); its engine processes
    and their ffmpeg encoders then yield the CPU to the window's thread. Headless: unchanged."""
    from studio.worker.thread_budget import ENGINE_NICE_VARIABLE

    project = Project.create(tmp_path / "story")
    node = new_id()
    project.apply(AddTurn(project.tree.root_id, "one", node_id=node))
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    our_policy = os.sched_getscheduler(0) if hasattr(os, "sched_getscheduler") else None
    seen: dict[str, int] = {}
    policies: dict[str, int | None] = {}
    for label, value in (("window", "7"), ("headless", None)):
        if value is None:
            monkeypatch.delenv(ENGINE_NICE_VARIABLE, raising=False)
        else:
            monkeypatch.setenv(ENGINE_NICE_VARIABLE, value)
        service = GenerationService(project, process_registry(), default_engine="fake", hosts=HostMode.PROCESS)
        service.start()
        try:
            job_id = service.reroll(node)
            assert service.wait_jobs([job_id], 60)
            pid = service.engine_pids()[0]
            assert pid is not None
            seen[label] = os.getpriority(os.PRIO_PROCESS, pid) - ours
            policies[label] = os.sched_getscheduler(pid) if our_policy is not None else None
        finally:
            service.stop(cancel_running=True, timeout=20)
    project.close()
    assert seen == {"window": 7, "headless": 0}
    assert os.getpriority(os.PRIO_PROCESS, 0) == ours  # the parent keeps its priority
    if hasattr(os, "SCHED_IDLE"):  # Linux: the window's engine yields a core at once
        assert policies == {"window": os.SCHED_IDLE, "headless": our_policy}
        assert os.sched_getscheduler(0) == our_policy
