"""The render farm on a local Ray cluster of two CPU actors (one Ray instance for the
module: starting Ray costs seconds).

A 12-turn tree of three branches, imported and queued with ``fill``, renders on the
cluster with the sketch engine frame for frame as the local worker renders it; a killed
actor's job goes back to the queue and every job still finishes, with nothing dangling
in the project's database; cancel reaches the actor; branches keep their order and run
side by side.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import signal
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from studio.cli import main
from studio.composition import default_registry
from studio.core.commands import AddTurn
from studio.core.model import new_id
from studio.storage import Project
from studio.storage.media import read_clip, read_representation
from studio.worker import EventKind, GenerationService, JobEvent, JobStatus
from studio.worker.cluster import ActorState, ClusterSpec

from .process_engines import registry as process_registry

ray = pytest.importorskip("ray")

REPO = Path(__file__).resolve().parents[2]

TREE = """Character: Qiqi; Motion: quickly fly on broomstick; Background: day sky.
Character: Qiqi; Motion: gently sit on railing; Background: day town.
Character: Yuzu; Motion: happily wave; Background: day bakery.
Character: Qiqi; Motion: slowly walk; Background: sunset street.
Character: Qiqi; Motion: run; Background: forest.
Character: Qiqi; Motion: gently lie down; Background: night bedroom.
## branch after 2
Character: Yuzu; Motion: energetically run; Background: day park.
Character: Qiqi; Motion: playfully jump; Background: day grass.
Character: Qiqi; Motion: gently fly on broomstick; Background: sunset sky.
## branch after 4
Character: Qiqi; Motion: jump; Background: sunset beach.
Character: Yuzu; Motion: wave hand happily; Background: day town.
Character: Qiqi; Motion: gently sit on railing; Background: night street.
"""


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    """One local Ray instance with two CPUs, as ``--cluster local`` would start on this machine."""
    # the actors import the studio and these tests' engines (``worker.process_engines``) as this process does
    path = os.pathsep.join(p for p in (str(REPO), str(REPO / "tests"), os.environ.get("PYTHONPATH", "")) if p)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, namespace="kamishibai-tests",
             object_store_memory=256 * 1024 * 1024, runtime_env={"env_vars": {"PYTHONPATH": path}})
    try:
        yield
    finally:
        ray.shutdown()


def filled_tree(folder: Path) -> Path:
    """The 12-turn tree of 3 branches, imported, then every turn queued with ``fill``."""
    demo = folder / "tree.txt"
    demo.write_text(TREE)
    assert main(["import-demo", str(demo), "--project", str(folder / "tree")]) == 0
    path = folder / "tree.kamishibai"
    assert main(["fill", str(path)]) == 0
    return path


def selected_takes(path: Path) -> dict[str, tuple[int, np.ndarray, np.ndarray]]:
    """Per turn: the selected take's seed, clip frames and representation."""
    out = {}
    with Project.open(path, read_only=True) as project:
        tree = project.tree
        for node in tree.nodes.values():
            if node.is_root:
                continue
            take = tree.selected_take(node.id)
            assert take is not None and take.status.value == "done", node.id
            frames, _ = read_clip(project.resolve(take.clip_path))
            representation, _ = read_representation(project.resolve(take.representation_path))
            out[node.id] = (take.seed, frames, representation)
    return out


def assert_nothing_dangles(path: Path) -> None:
    """In the project's SQLite file: every take row's files exist, no job is left running or
    queued, and no take folder is on disk without its row."""
    database = sqlite3.connect(path / "project.db")
    try:
        database.row_factory = sqlite3.Row
        takes = database.execute("SELECT * FROM takes").fetchall()
        jobs = database.execute("SELECT status, take_id FROM jobs").fetchall()
    finally:
        database.close()
    assert takes
    for take in takes:
        if take["status"] != "done":
            continue
        for column in ("clip_path", "poster_path", "representation_path"):
            assert (path / take[column]).is_file(), (take["id"], column)
    assert {job["status"] for job in jobs} == {"done"}
    row_ids = {take["id"] for take in takes}
    on_disk = {folder.name for folder in (path / "media" / "takes").iterdir()} if (path / "media" / "takes").is_dir() \
        else set()
    assert on_disk <= row_ids, on_disk - row_ids


def test_the_tree_renders_on_the_cluster_frame_for_frame_as_on_the_local_worker(ray_instance: None,
                                                                                 tmp_path: Path) -> None:
    cluster_path = filled_tree(tmp_path)
    local_path = tmp_path / "local.kamishibai"
    shutil.copytree(cluster_path, local_path)  # the same queued jobs, with the same seeds

    assert main(["run-queue", str(local_path), "--quiet"]) == 0
    assert main(["run-queue", str(cluster_path), "--quiet", "--cluster", "local", "--actors", "2"]) == 0

    local, cluster = selected_takes(local_path), selected_takes(cluster_path)
    assert len(cluster) == 12 and local.keys() == cluster.keys()
    for node_id, (seed, frames, representation) in cluster.items():
        local_seed, local_frames, local_representation = local[node_id]
        assert seed == local_seed
        assert frames.shape == local_frames.shape and np.array_equal(frames, local_frames), node_id
        assert np.array_equal(representation, local_representation), node_id
    assert_nothing_dangles(cluster_path)


RAN_ON = re.compile(r"actor (?P<index>\d+) \(pid (?P<pid>\d+) on [^,]+, Ray actor (?P<ray_id>\w+)\)")


def _actor(text: str) -> tuple[int, int, str]:
    """(actor number, process id, Ray actor id) from a job event's message."""
    found = RAN_ON.search(text)
    assert found, text
    return int(found["index"]), int(found["pid"]), found["ray_id"]


def test_a_killed_actor_s_job_goes_back_to_the_queue_and_another_process_finishes_it(ray_instance: None,
                                                                                    tmp_path: Path) -> None:
    """Every attempt is recorded: the job event that returns the killed job to the queue
    names the lost actor's process, and each finished job's event names the actor process
    that made its take. The retry must come from another process: the other actor (another
    Ray actor id) when it is free first, which is what a 12-job tree gives, or else the
    killed actor restarted by Ray (the same Ray actor id, a new process)."""
    path = filled_tree(tmp_path)
    project = Project.open(path)
    service = GenerationService(project, default_registry(), default_engine="sketch",
                                cluster=ClusterSpec("local", actors=2))
    killed: dict[str, object] = {}
    requeued: list[JobEvent] = []
    finished: dict[str, JobEvent] = {}
    lock = threading.Lock()

    def watch(event: JobEvent) -> None:
        if event.kind is EventKind.QUEUED and event.message:
            requeued.append(event)
        if event.kind is EventKind.FINISHED:
            finished[event.job_id] = event
        if event.kind is not EventKind.PROGRESS or event.stage != "decode" or event.stage_step < 2:
            return
        with lock:
            if killed:
                return
            status = service.cluster_status()
            assert status is not None
            running = [a for a in status.actors if a.job_id == event.job.take_id and a.pid is not None]
            if not running:
                return
            killed.update(job=event.job_id, take=event.job.take_id, pid=running[0].pid, actor=running[0].index)
        os.kill(running[0].pid, signal.SIGKILL)  # the actor's process, mid-decode

    service.subscribe(watch)
    jobs = [job.id for job in service.jobs()]
    assert len(jobs) == 12
    service.start()
    try:
        assert service.wait_jobs(jobs, 240)
        assert killed, "no actor was caught mid-job"
        assert [e.job_id for e in requeued] == [killed["job"]]
        assert "was lost during decode" in requeued[0].message
        lost_index, lost_pid, lost_ray_id = _actor(requeued[0].message)
        assert (lost_index, lost_pid) == (killed["actor"], killed["pid"])
        assert all(service.job(j).status is JobStatus.DONE for j in jobs)
        assert service.job(str(killed["job"])).take_id != killed["take"]  # made again, as a new take

        attempts = {job_id: _actor(event.message) for job_id, event in finished.items()}
        assert attempts.keys() == set(jobs)
        ray_ids = {index: ray_id for index, _pid, ray_id in attempts.values()}
        assert len(ray_ids) == 2 and ray_ids[lost_index] == lost_ray_id  # two actors, each one Ray actor
        retry_index, retry_pid, retry_ray_id = attempts[str(killed["job"])]
        assert retry_pid != lost_pid  # never the process that was killed
        status = service.cluster_status()
        assert status is not None
        restarted = status.actors[lost_index]
        assert restarted.restarts == 1 and restarted.pid not in (None, lost_pid)
        assert restarted.state is ActorState.IDLE
        if retry_index != lost_index:  # the other actor took the job: another Ray actor, another process
            assert retry_ray_id != lost_ray_id and retry_pid == status.actors[retry_index].pid
        else:  # the killed actor, restarted by Ray: the same Ray actor in a new process
            assert retry_ray_id == lost_ray_id and retry_pid == restarted.pid
        print(f"the killed job's retry ran on {'another' if retry_index != lost_index else 'the restarted'} actor")
    finally:
        service.stop(cancel_running=True, timeout=30)
        project.close()
    assert not (path / "media" / "takes" / str(killed["take"])).exists()
    assert_nothing_dangles(path)
    with Project.open(path, read_only=True) as reopened:  # every take's three files are on disk
        for job_id in jobs:
            take = reopened.tree.takes[finished[job_id].take_id]
            assert all((path / file).is_file() for file in take.media_paths()), take.id
    assert len(selected_takes(path)) == 12


def _branch(project: Project, parent: str, name: str, turns: int, tag: str) -> list[str]:
    nodes = []
    for i in range(turns):
        node = new_id()
        project.apply(AddTurn(parent, f"{name}{i} {tag}", node_id=node))
        nodes.append(node)
        parent = node
    return nodes


def test_branches_keep_their_order_and_run_side_by_side_on_two_actors(ray_instance: None, tmp_path: Path) -> None:
    project = Project.create(tmp_path / "story")
    root = project.tree.root_id
    leaves = [_branch(project, root, name, 3, "[pace]")[-1] for name in ("a", "b")]
    service = GenerationService(project, process_registry(), default_engine="fake",
                                cluster=ClusterSpec("local", actors=2))
    spans: dict[str, list[float]] = {}

    def watch(event: JobEvent) -> None:
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
        assert len({t.conditioning["pid"] for t in takes}) == 2  # both actors worked
        for jobs in branches:  # a turn starts only after the one above it is done, from its take
            for above, below in itertools.pairwise(jobs):
                # the jobs' own records (the events of two actors are published from two threads:
                # the child may start, its parent's job marked done, before that FINISHED arrives)
                started, finished = service.job(below).started_at, service.job(above).finished_at
                assert started and finished and started >= finished
                assert project.tree.takes[service.job(below).take_id].parent_take_id == service.job(above).take_id
        assert any(spans[a][0] < spans[b][1] and spans[b][0] < spans[a][1] for a in branches[0] for b in branches[1])
        assert all(t.timings["cluster_roundtrip_s"] >= t.timings["cluster_actor_s"] > 0 for t in takes)
    finally:
        service.stop(cancel_running=True, timeout=30)
        project.close()


def test_cancel_reaches_the_actor_which_keeps_serving(ray_instance: None, tmp_path: Path) -> None:
    project = Project.create(tmp_path / "story")
    service = GenerationService(project, process_registry(), default_engine="fake",
                                cluster=ClusterSpec("local", actors=1))
    started = threading.Event()

    def watch(event: JobEvent) -> None:
        if event.kind is EventKind.PROGRESS and event.stage == "predict" and event.stage_step >= 2:
            started.set()

    service.subscribe(watch)
    root = project.tree.root_id
    _, held = service.generate(root, "held [hold]")  # 8 s of engine steps unless cancelled
    service.start()
    try:
        assert started.wait(60)
        pid = service.engine_pids()[0]
        cancelled_at = time.perf_counter()
        assert service.cancel(held)
        assert service.wait_jobs([held], 30)
        assert time.perf_counter() - cancelled_at < 3.0
        assert service.job(held).status is JobStatus.CANCELLED
        _, after = service.generate(root, "after")
        assert service.wait_jobs([after], 60) and service.job(after).status is JobStatus.DONE
        assert service.engine_pids()[0] == pid  # the same actor, its engine still loaded
        assert project.tree.takes[service.job(after).take_id].conditioning["loads"] == 1
    finally:
        service.stop(cancel_running=True, timeout=30)
        project.close()


def test_an_actor_that_cannot_start_leaves_its_jobs_queued_with_the_reason(ray_instance: None,
                                                                           tmp_path: Path) -> None:
    """Its jobs never started: they stay queued (for another actor, a later run or this
    machine), and the actor's view says why it stopped."""
    project = Project.create(tmp_path / "story")
    registry = process_registry()
    registry.source = "worker.no_such_engines:registry"  # as on a node without these engines
    service = GenerationService(project, registry, default_engine="fake", cluster=ClusterSpec("local", actors=1))
    _, job_id = service.generate(project.tree.root_id, "walk")
    service.start()
    try:
        assert service.wait_idle(60)
        assert service.job(job_id).status is JobStatus.QUEUED
        status = service.cluster_status()
        assert status is not None and "no_such_engines" in status.actors[0].error
    finally:
        service.stop(cancel_running=True, timeout=30)
        project.close()
