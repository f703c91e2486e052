"""A folder named ``studio`` where the studio (or `ray start`) was started no longer kills
every engine actor.

Ray puts the driver's working folder (and the one `ray start` ran in) first on an actor's
``sys.path``. With the studio installed from a checkout (``pip install -e``, the ``.venv``
that ``make`` builds), Python found that plain folder before the real package, and every
actor died with "cannot import name '__version__' from 'studio' (unknown location)": each
job failed, telling the user to install the same studio on every node. Now the actors get
the checkout on ``PYTHONPATH``, keeping the job's own path after it."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.composition import default_registry
from studio.storage import Project
from studio.storage.media import read_clip
from studio.worker import GenerationService, JobStatus
from studio.worker.cluster import ClusterSpec
from studio.worker.cluster.environment import actor_runtime_env, studio_source_root

REPO = Path(__file__).resolve().parents[2]


def test_the_checkout_goes_first_and_the_job_s_path_is_kept() -> None:
    env = actor_runtime_env({"env_vars": {"PYTHONPATH": "/opt/engines:/opt/more", "HF_HOME": "/models"}},
                            root=Path("/src/kamishibai"))
    assert env == {"env_vars": {"PYTHONPATH": "/src/kamishibai:/opt/engines:/opt/more", "HF_HOME": "/models"}}


def test_without_a_job_path_the_node_s_own_is_kept() -> None:
    env = actor_runtime_env({}, root=Path("/src/kamishibai"))
    assert env == {"env_vars": {"PYTHONPATH": "/src/kamishibai:${PYTHONPATH}"}}  # Ray expands it on the node


def test_the_checkout_is_not_named_twice() -> None:
    env = actor_runtime_env({"env_vars": {"PYTHONPATH": "/src/kamishibai:/opt/x"}}, root=Path("/src/kamishibai"))
    assert env == {"env_vars": {"PYTHONPATH": "/src/kamishibai:/opt/x"}}


def test_an_installed_studio_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    import studio

    monkeypatch.setattr(studio, "__file__", "/usr/lib/python3/site-packages/studio/__init__.py")
    assert studio_source_root() is None
    assert actor_runtime_env({"env_vars": {"PYTHONPATH": "/x"}}) is None


def test_a_studio_folder_in_the_working_folder_does_not_stop_the_actors(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("this process is already on a Ray cluster: the farm's working folder is not this test's")
    if studio_source_root() is None:
        pytest.skip("the studio is installed in site-packages, where a plain folder never shadows it")
    work = tmp_path / "work"
    (work / "studio" / "drawings").mkdir(parents=True)  # a user's folder of that name: no __init__.py
    (work / "studio" / "drawings" / "qiqi.txt").write_text("a sketch")
    monkeypatch.chdir(work)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    project = Project.create(tmp_path / "story")
    service = GenerationService(project, default_registry(), default_engine="sketch",
                                cluster=ClusterSpec("local", actors=1, cpus=1))
    try:
        _, job = service.generate(project.tree.root_id, "Character: Qiqi; Motion: wave; Background: day town.")
        service.start()
        assert service.wait_jobs([job], 180)
        done = service.job(job)
        assert done.status is JobStatus.DONE, done.error
        take = project.tree.takes[done.take_id]
        frames, _ = read_clip(project.resolve(take.clip_path))
        assert frames.shape[0] > 0 and frames.std() > 0  # a real clip, read back
    finally:
        service.stop(cancel_running=True, timeout=30)
        project.close()
        if ray.is_initialized():
            ray.shutdown()
