"""Engine errors: out of memory, load errors, any exception; the worker keeps serving."""

from __future__ import annotations

import sys
import types

from studio.core.model import TakeStatus
from studio.worker import JobStatus
from studio.worker.failures import OOM_HINT, describe_failure, is_out_of_memory

from .conftest import Recorder
from .fake_engine import FakeScript, OutOfMemoryError


def test_out_of_memory_fails_one_job_and_the_next_runs(project, make_service, script: FakeScript,
                                                       recorder: Recorder, monkeypatch) -> None:
    emptied: list[bool] = []
    fake_torch = types.ModuleType("torch")
    fake_torch.cuda = types.SimpleNamespace(empty_cache=lambda: emptied.append(True))  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "torch", fake_torch)
    service = make_service(start=False)
    service.subscribe(recorder)
    root = project.tree.root_id
    big, j1 = service.generate(root, "huge [oom]")
    small, j2 = service.generate(root, "small")
    service.start()
    assert service.wait_idle(20)
    failed = service.job(j1)
    assert failed.status is JobStatus.FAILED
    assert "out of memory" in failed.error and failed.hint == OOM_HINT
    event = recorder.of("failed", j1)[0]
    assert event.message == failed.error and event.hint == OOM_HINT
    assert emptied == [True]
    assert script.unloads == 1 and script.loads == 2  # unloaded after the OOM, loaded again for the next job
    assert service.job(j2).status is JobStatus.DONE
    take = project.tree.takes[failed.take_id]
    assert take.status is TakeStatus.FAILED and "out of memory" in take.error
    assert take.media_paths() == ()
    assert project.tree.node(big).selected_take_id is None
    assert project.tree.selected_take(small) is not None


def test_runtime_error_out_of_memory_is_recognised(project, make_service) -> None:
    service = make_service()
    _, job_id = service.generate(project.tree.root_id, "x [oom-runtime]")
    assert service.wait_jobs([job_id], 10)
    job = service.job(job_id)
    assert job.status is JobStatus.FAILED and job.hint == OOM_HINT


def test_torch_is_not_imported_by_oom_handling(project, make_service, monkeypatch) -> None:
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    service = make_service()
    _, job_id = service.generate(project.tree.root_id, "x [oom]")
    assert service.wait_jobs([job_id], 10)
    assert "torch" not in sys.modules


def test_load_error_names_the_checkpoint(project, make_service, script: FakeScript) -> None:
    script.load_error = "/models/animegamer/mllm.safetensors"
    service = make_service()
    _node_id, job_id = service.generate(project.tree.root_id, "x")
    assert service.wait_jobs([job_id], 10)
    job = service.job(job_id)
    assert job.status is JobStatus.FAILED
    assert "/models/animegamer/mllm.safetensors" in job.error and job.hint
    assert project.tree.takes[job.take_id].status is TakeStatus.FAILED
    script.load_error = ""
    again = service.retry(job_id)
    assert service.wait_jobs([again], 10)
    assert service.job(again).status is JobStatus.DONE


def test_any_exception_fails_the_job_with_its_message(project, make_service, recorder: Recorder) -> None:
    service = make_service()
    service.subscribe(recorder)
    node_id, job_id = service.generate(project.tree.root_id, "boom [fail]")
    assert service.wait_jobs([job_id], 10)
    job = service.job(job_id)
    assert job.status is JobStatus.FAILED and "told to fail" in job.error
    take = project.tree.takes[job.take_id]
    assert take.status is TakeStatus.FAILED and take.error == job.error
    assert project.tree.node(node_id).selected_take_id is None
    assert not project.resolve(project.take_media_dir(take.id)).exists()
    assert service.running


def test_broken_subscriber_and_write_errors_do_not_kill_the_worker(project, make_service, monkeypatch) -> None:
    import studio.worker.results as results

    service = make_service()

    def broken(event):  # type: ignore[no-untyped-def]
        raise RuntimeError("subscriber bug")

    service.subscribe(broken)

    def disk_full(path, frames, fps, encoded):  # type: ignore[no-untyped-def]
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(results.media, "write_clip", disk_full)
    node_id, job_id = service.generate(project.tree.root_id, "x")
    assert service.wait_jobs([job_id], 10)
    job = service.job(job_id)
    assert job.status is JobStatus.FAILED and "No space left" in job.error
    assert not project.resolve(project.take_media_dir(job.take_id)).exists()
    monkeypatch.undo()
    again = service.reroll(node_id)
    assert service.wait_jobs([again], 10)
    assert service.job(again).status is JobStatus.DONE
    assert service.running


def test_describe_failure() -> None:
    assert is_out_of_memory(OutOfMemoryError("x"))
    assert is_out_of_memory(RuntimeError("CUDA out of memory. Tried to allocate"))
    assert not is_out_of_memory(ValueError("out of range"))
    assert describe_failure(ValueError("bad value")).message == "bad value"
    assert describe_failure(KeyError()).message
