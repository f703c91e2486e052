"""One worker per device: parsing ``--devices``, jobs routed to a device that can run
their engine, two devices running two branches at once while each branch keeps its order."""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path

import pytest

from studio.core.commands import AddTurn
from studio.core.errors import StudioError
from studio.core.model import new_id
from studio.engines.base import EngineConfig, EngineInfo
from studio.engines.info import DeviceKind, Stage
from studio.engines.requirements import Requirement, RequirementKind
from studio.storage import Project
from studio.worker import EventKind, GenerationService, HostMode, JobEvent, JobStatus
from studio.worker.device_worker import parse_devices

from .fake_engine import FakeEngine, FakeScript, fake_info, fake_registry
from .process_engines import registry as process_registry


def test_parse_devices() -> None:
    assert [c.describe() for c in parse_devices("cpu,cuda:0,cuda:1")] == ["cpu", "cuda:0", "cuda:1"]
    assert [c.describe() for c in parse_devices("cpu, cpu")] == ["cpu", "cpu"]
    (split,) = parse_devices("predict=cuda:0;decode=cuda:1")
    assert split.place(Stage.PREDICT).device == "cuda:0"
    assert "decode=cuda:1" in split.describe()
    with pytest.raises(StudioError, match="No devices given"):
        parse_devices(" , ")
    for spec in ("cpu,,cpu", "cpu,", ",cuda:0"):
        with pytest.raises(StudioError, match="An empty entry in the device list"):
            parse_devices(spec)


def _gpu_only(script: FakeScript) -> EngineInfo:
    from dataclasses import replace

    info = fake_info(script, "gpu")

    def check(config: EngineConfig) -> list[Requirement]:
        if config.device.kind is DeviceKind.CPU:
            return [Requirement(RequirementKind.DEVICE, "The gpu engine needs a GPU.")]
        return []

    caps = replace(info.capabilities, devices=(DeviceKind.CUDA,), needs_gpu=True)
    return replace(info, capabilities=caps, check=check)


def test_jobs_go_to_a_device_that_can_run_their_engine(project: Project, script: FakeScript) -> None:
    registry = fake_registry(script, "fake")
    gpu = _gpu_only(script)
    registry.register(gpu, lambda config: FakeEngine(config, script, gpu))
    service = GenerationService(project, registry, devices=["cpu", "cuda:0"], default_engine="gpu",
                                hosts=HostMode.IN_PROCESS)
    root = project.tree.root_id
    jobs = [service.generate(root, f"gpu {i}")[1] for i in range(3)]
    service.start()
    try:
        assert service.wait_jobs(jobs, 30)
        assert all(service.job(j).status is JobStatus.DONE for j in jobs)
        cpu, cuda = service.engine_statuses()
        assert (cpu.name, cuda.name) == (None, "gpu") and cuda.device == "cuda:0"
    finally:
        service.stop(cancel_running=True)
    only_cpu = GenerationService(project, registry, devices=["cpu", "cpu"], hosts=HostMode.IN_PROCESS)
    with pytest.raises(StudioError, match="can't run here"):
        only_cpu.generate(root, "refused", engine="gpu")


def _branch(project: Project, parent: str, name: str, turns: int) -> str:
    for i in range(turns):
        node = new_id()
        project.apply(AddTurn(parent, f"{name}{i} [pace]", node_id=node))
        parent = node
    return parent


def test_two_devices_run_two_branches_at_once_in_order(tmp_path: Path) -> None:
    project = Project.create(tmp_path / "story")
    root = project.tree.root_id
    leaves = [_branch(project, root, name, 3) for name in ("a", "b")]
    service = GenerationService(project, process_registry(), devices=["cpu", "cpu"], default_engine="fake",
                                hosts=HostMode.PROCESS)
    spans: dict[str, list[float]] = {}
    lock = threading.Lock()

    def watch(event: JobEvent) -> None:
        with lock:
            if event.kind is EventKind.STARTED:
                spans[event.job_id] = [time.perf_counter()]
            elif event.kind is EventKind.FINISHED:
                spans[event.job_id].append(time.perf_counter())

    service.subscribe(watch)
    branches = [service.fill(leaf) for leaf in leaves]
    service.start()
    try:
        assert service.wait_jobs([j for b in branches for j in b], 120)
        takes = [project.tree.takes[service.job(j).take_id] for b in branches for j in b]
        assert all(t.status.value == "done" for t in takes)
        assert len({t.conditioning["pid"] for t in takes}) == 2  # both engine processes worked
        for jobs in branches:  # a turn starts only after the one above it is done
            for above, below in itertools.pairwise(jobs):
                # the jobs' own records: events reach subscribers from several threads, so the
                # turn below's "started" can be heard a moment before the turn above's "finished"
                assert service.job(below).started_at >= service.job(above).finished_at
                assert project.tree.takes[service.job(below).take_id].parent_take_id == service.job(above).take_id
        overlapping = any(spans[a][0] < spans[b][1] and spans[b][0] < spans[a][1]
                          for a in branches[0] for b in branches[1])
        assert overlapping
    finally:
        service.stop(cancel_running=True, timeout=20)
        project.close()
