"""Queued jobs that can't run: an engine this machine can't run, an engine the studio does
not have, jobs that wait for one another in a loop, and stored settings that are not an
object. None may be skipped in silence or hang the queue; ``queue`` must not crash on them."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from studio.cli import main
from studio.core.commands import AddTurn
from studio.core.errors import StudioError
from studio.core.model import new_id
from studio.engines.base import EngineConfig, EngineInfo
from studio.engines.info import DeviceKind
from studio.engines.registry import EngineRegistry
from studio.engines.requirements import Requirement, RequirementKind
from studio.storage import Project
from studio.worker import GenerationService, HostMode, JobStatus
from studio.worker.jobs import Job, JobKind

from .fake_engine import FakeEngine, FakeScript, fake_info, fake_registry

Capture = pytest.CaptureFixture[str]


def _gpu_only(script: FakeScript) -> EngineInfo:
    info = fake_info(script, "gpu")

    def check(config: EngineConfig) -> list[Requirement]:
        if config.device.kind is DeviceKind.CPU:
            return [Requirement(RequirementKind.DEVICE, "The gpu engine needs a CUDA GPU; none was found.",
                                hint="Run it on a machine with an NVIDIA GPU.")]
        return []

    caps = replace(info.capabilities, devices=(DeviceKind.CUDA,), needs_gpu=True)
    return replace(info, capabilities=caps, check=check)


def _registry(script: FakeScript) -> EngineRegistry:
    registry = fake_registry(script, "sketch")
    gpu = _gpu_only(script)
    registry.register(gpu, lambda config: FakeEngine(config, script, gpu))
    return registry


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, script: FakeScript) -> FakeScript:
    import studio.composition as composition

    monkeypatch.setattr(composition, "default_registry", lambda: _registry(script))
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    return script


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    with Project.create(tmp_path / "story") as project:
        parent = project.tree.root_id
        for i in range(3):
            node = f"turn{i}"
            project.apply(AddTurn(parent, f"Character: Qiqi; Motion: wave; Background: day town. {i}",
                                  node_id=node))
            parent = node
    return tmp_path / "story.kamishibai"


def _insert(folder: Path, job_id: str, engine: str = "sketch", *, node: str = "turn0", depends_on: str | None = None,
            settings: str = "{}", status: str = "queued", sequence: int = 0) -> None:
    with Project.open(folder) as project, project.database.transaction() as conn:
        conn.execute("INSERT INTO jobs(id, node_id, engine, status, settings, depends_on, sequence, seed) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, 7)", (job_id, node, engine, status, settings, depends_on, sequence))


def _rows(folder: Path) -> dict[str, tuple[str, str]]:
    with Project.open(folder) as project:
        rows = project.database.execute("SELECT id, status, error FROM jobs").fetchall()
    return {row["id"]: (row["status"], row["error"]) for row in rows}


# -- an engine this machine can't run: left queued, reported, exit 1 ----------------------


def test_run_queue_reports_jobs_whose_engine_cant_run_here(folder: Path, cli: FakeScript, capsys: Capture) -> None:
    _insert(folder, "jgpu", "gpu", sequence=1)
    _insert(folder, "jafter", "sketch", node="turn1", depends_on="jgpu", sequence=2)
    _insert(folder, "jok", "sketch", node="turn2", sequence=3)
    assert main(["run-queue", str(folder), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "1 done, 0 failed" in err
    assert "gpu engine can't run here: The gpu engine needs a CUDA GPU" in err
    assert "jgpu" in err and "jafter" in err
    assert "kamishibai doctor" in err
    rows = _rows(folder)
    # kept for a machine that can run them (a project bundled on a GPU machine)
    assert rows["jgpu"][0] == "queued" and rows["jafter"][0] == "queued" and rows["jok"][0] == "done"
    assert main(["run-queue", str(folder), "--quiet"]) == 1  # still waiting: still not a success
    assert "can't run here" in capsys.readouterr().err


def test_service_says_which_engines_no_device_can_run(project: Project, script: FakeScript) -> None:
    registry = _registry(script)
    service = GenerationService(project, registry, devices=["cpu", "cpu"], default_engine="sketch",
                                hosts=HostMode.IN_PROCESS)
    try:
        reasons = service.unrunnable_engines(["gpu", "sketch"])
        assert list(reasons) == ["gpu"] and "needs a CUDA GPU" in reasons["gpu"][0].message
        two = GenerationService(project, registry, devices=["cpu", "cuda:0"], default_engine="sketch",
                                hosts=HostMode.IN_PROCESS)
        assert two.unrunnable_engines(["gpu"]) == {}
        two.stop()
    finally:
        service.stop()


# -- an engine the studio does not have: failed with the reason ---------------------------


def test_run_queue_fails_jobs_of_an_unknown_engine(folder: Path, cli: FakeScript, capsys: Capture) -> None:
    _insert(folder, "jx", "nosuch", sequence=1)
    _insert(folder, "jdep", "sketch", node="turn1", depends_on="jx", sequence=2)
    assert main(["run-queue", str(folder), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "Unknown engine 'nosuch'" in err and "jx" in err
    rows = _rows(folder)
    assert rows["jx"][0] == "failed" and "Unknown engine 'nosuch'" in rows["jx"][1]
    assert rows["jdep"][0] == "cancelled"


def test_unknown_engine_fails_when_the_service_opens_the_project(project: Project, script: FakeScript) -> None:
    """The window's queue would otherwise show it queued for ever, with no reason."""
    project.apply(AddTurn(project.tree.root_id, "a turn", node_id="t1"))
    with project.database.transaction() as conn:
        conn.execute("INSERT INTO jobs(id, node_id, engine, status) VALUES ('jx', 't1', 'nosuch', 'queued')")
        conn.execute("INSERT INTO jobs(id, node_id, engine, status) VALUES ('ji', 't1', '', 'interrupted')")
    service = GenerationService(project, _registry(script), default_engine="sketch", hosts=HostMode.IN_PROCESS)
    try:
        failed = {job.id: job for job in service.failed_at_start()}
        assert set(failed) == {"jx", "ji"}
        assert "Unknown engine 'nosuch'" in failed["jx"].error and "sketch" in failed["jx"].hint
        assert service.job("jx").status is JobStatus.FAILED
        assert any("jx" in problem for problem in project.problems)
        service.start()
        assert service.wait_idle(5)
        with pytest.raises(StudioError, match="Unknown engine 'nosuch'"):  # a retry would only hang again
            service.retry("jx")
    finally:
        service.stop()


def test_any_command_that_opens_the_queue_says_which_jobs_it_failed(folder: Path, cli: FakeScript,
                                                                    capsys: Capture) -> None:
    _insert(folder, "jx", "nosuch", sequence=1)
    _insert(folder, "jdep", "sketch", node="turn1", depends_on="jx", sequence=2)
    assert main(["fill", str(folder), "--leaf", "turn0"]) == 0
    err = capsys.readouterr().err
    assert "job jx (node turn0) failed: Unknown engine 'nosuch'" in err
    assert "1 job(s) waiting for a failed or cancelled job were cancelled: jdep" in err


# -- jobs that wait for one another in a loop: failed with the loop ------------------------


def test_dependency_loops() -> None:
    from studio.worker.queue import dependency_loops

    def job(job_id: str, depends_on: str | None, status: JobStatus = JobStatus.QUEUED) -> Job:
        return Job(id=job_id, kind=JobKind.GENERATE, node_id="n", engine="sketch", depends_on=depends_on,
                   status=status)

    jobs = {j.id: j for j in (job("a", "b"), job("b", "a"), job("c", "c"), job("d", "a"), job("e", None),
                              job("f", "g"), job("g", "f", JobStatus.DONE), job("h", "i", JobStatus.INTERRUPTED),
                              job("i", "h"))}
    loops = dependency_loops(jobs)
    assert loops == {"a": ("a", "b"), "b": ("b", "a"), "c": ("c",), "h": ("h", "i"), "i": ("i", "h")}


def test_run_queue_fails_jobs_that_depend_on_themselves(folder: Path, cli: FakeScript, capsys: Capture) -> None:
    _insert(folder, "ja", node="turn0", depends_on="jb", sequence=1)
    _insert(folder, "jb", node="turn1", depends_on="ja", sequence=2)
    _insert(folder, "jself", node="turn2", depends_on="jself", sequence=3)
    _insert(folder, "jwaits", node="turn2", depends_on="ja", sequence=4)
    assert main(["run-queue", str(folder), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "depends on itself" in err and "ja → jb → ja" in err and "jself → jself" in err
    rows = _rows(folder)
    assert rows["ja"][0] == rows["jb"][0] == rows["jself"][0] == "failed"
    assert "depends on itself (jb → ja → jb)" in rows["jb"][1]
    assert rows["jwaits"][0] == "cancelled"
    assert main(["run-queue", str(folder), "--quiet"]) == 0  # nothing is left waiting


# -- stored settings that are valid JSON but not an object ---------------------------------


@pytest.mark.parametrize("stored", ["[1,2]", '"frames"', "7", "null"])
def test_queue_lists_a_job_whose_settings_are_not_an_object(folder: Path, cli: FakeScript, capsys: Capture,
                                                            stored: str) -> None:
    _insert(folder, "jbad", settings=stored, sequence=1)
    _insert(folder, "jgood", settings='{"frames": 9}', node="turn1", sequence=2)
    assert main(["queue", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "jbad" in out and "settings unreadable" in out and "jgood" in out
    assert main(["queue", str(folder), "--json"]) == 0
    listed = {job["id"]: job for job in json.loads(capsys.readouterr().out)}
    assert listed["jbad"]["settings"] is None
    assert listed["jbad"]["settings_unreadable"] == f"stored settings are {stored}, not an object"
    assert listed["jgood"]["settings"] == {"frames": 9} and "settings_unreadable" not in listed["jgood"]


def test_run_queue_fails_a_job_whose_settings_are_not_an_object(folder: Path, cli: FakeScript, capsys: Capture) -> None:
    _insert(folder, "jbad", settings="[1,2]", sequence=1)
    _insert(folder, "jnext", node="turn1", depends_on="jbad", sequence=2)
    assert main(["run-queue", str(folder), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "stored settings are [1,2], not an object" in err and "unexpectedly" not in err
    rows = _rows(folder)
    assert rows["jbad"][0] == "failed" and rows["jnext"][0] == "cancelled"
    with Project.open(folder) as project:
        service = GenerationService(project, _registry(cli), default_engine="sketch", hosts=HostMode.IN_PROCESS)
        try:
            again = service.retry("jbad")  # runs with the engine's defaults
            assert dict(service.job(again).settings) == {}
        finally:
            service.stop()


def test_the_runner_fails_a_job_whose_settings_are_not_an_object(project: Project, script: FakeScript) -> None:
    """A job read from the database after the queue was opened (it is not checked then)."""
    from studio.worker.context import RepresentationCache
    from studio.worker.engine_host import InProcessHost
    from studio.worker.progress import StageTimes
    from studio.worker.runner import GenerateRunner

    project.apply(AddTurn(project.tree.root_id, "a turn", node_id="t1"))
    registry = _registry(script)
    runner = GenerateRunner(project, InProcessHost(registry, EngineConfig()), StageTimes(), RepresentationCache())

    class Reporter:
        def progress(self, update: object) -> None: ...

        def predicted(self, prediction: object, state: object) -> None: ...

    job = Job(id="jbad", kind=JobKind.GENERATE, node_id="t1", engine="sketch", settings=[1, 2],  # type: ignore[arg-type]
              take_id=new_id(), status=JobStatus.RUNNING)
    outcome = runner.run(job, Reporter(), lambda: False)
    assert outcome.status is JobStatus.FAILED
    assert outcome.message == "The job's settings can't be read: stored settings are [1,2], not an object."


def test_a_job_whose_settings_are_not_json_is_listed_and_failed_not_skipped(folder: Path, cli: FakeScript,
                                                                             capsys: Capture) -> None:
    _insert(folder, "jbad", settings="{frames: 9", sequence=1)
    assert main(["queue", str(folder), "--json"]) == 0
    listed = {job["id"]: job for job in json.loads(capsys.readouterr().out)}
    assert listed["jbad"]["settings_unreadable"] == "stored settings are not JSON ({frames: 9)"
    assert main(["run-queue", str(folder), "--quiet"]) == 1
    assert "stored settings are not JSON ({frames: 9)" in capsys.readouterr().err
    assert _rows(folder)["jbad"][0] == "failed"
