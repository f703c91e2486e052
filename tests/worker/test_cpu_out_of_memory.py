"""Running out of memory on the CPU (numpy's or torch's CPU allocator, a bare MemoryError)
is an out-of-memory failure like a GPU's: the job fails with a hint to make the clip
smaller, the engine is unloaded to give the memory back, and the next job runs."""

from __future__ import annotations

import pytest

from studio.core.model import TakeStatus
from studio.worker import JobStatus, failures
from studio.worker.failures import OOM_HINT, describe_failure, is_out_of_memory

from .fake_engine import FakeEngine, FakeScript

NUMPY_TEXT = "Unable to allocate 3.13 GiB for an array with shape (240, 2160, 2160, 3) and data type uint8"
TORCH_CPU_TEXT = ("[enforce fail at alloc_cpu.cpp:117] data. DefaultCPUAllocator: can't allocate memory: you tried "
                  "to allocate 26873856000 bytes. Error code 12 (Cannot allocate memory)")


@pytest.mark.parametrize("error", [MemoryError(NUMPY_TEXT), MemoryError(), RuntimeError(TORCH_CPU_TEXT)],
                         ids=["numpy", "bare", "torch-cpu"])
def test_cpu_allocation_failures_are_out_of_memory(error: BaseException) -> None:
    assert is_out_of_memory(error)
    failure = describe_failure(error, "sketch", "cpu")
    assert failure.out_of_memory and failure.hint == failures.CPU_OOM_HINT
    assert failure.message.startswith("The engine 'sketch' ran out of memory on cpu")


def test_gpu_out_of_memory_keeps_its_hint() -> None:
    failure = describe_failure(RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB"), "mini", "cuda:0")
    assert failure.out_of_memory and failure.hint == OOM_HINT


def test_other_errors_are_not_out_of_memory() -> None:
    assert not is_out_of_memory(RuntimeError("shape mismatch"))
    assert not describe_failure(ValueError("bad value"), "sketch", "cpu").out_of_memory


def test_a_cpu_out_of_memory_job_fails_unloads_the_engine_and_the_next_runs(project, make_service,
                                                                             script: FakeScript, monkeypatch) -> None:
    decode = FakeEngine.decode

    def huge(self, prediction, settings, seed, progress=None, cancelled=None):  # type: ignore[no-untyped-def]
        if prediction.conditioning.get("raw") == "huge":
            raise MemoryError(NUMPY_TEXT)
        return decode(self, prediction, settings, seed, progress, cancelled)  # type: ignore[arg-type]

    monkeypatch.setattr(FakeEngine, "decode", huge)
    service = make_service(start=False)
    big, j1 = service.generate(project.tree.root_id, "huge")
    _, j2 = service.generate(project.tree.root_id, "small")
    service.start()
    assert service.wait_jobs([j1, j2], 20)
    failed = service.job(j1)
    assert failed.status is JobStatus.FAILED
    assert failed.error.startswith("The engine 'fake' ran out of memory on cpu (Unable to allocate 3.13 GiB")
    assert failed.hint == failures.CPU_OOM_HINT
    assert script.unloads == 1 and script.loads == 2  # the memory it held given back, loaded again for the next
    assert service.job(j2).status is JobStatus.DONE
    take = project.tree.takes[failed.take_id]
    assert take.status is TakeStatus.FAILED and take.media_paths() == ()
    assert project.tree.node(big).selected_take_id is None


def test_a_full_disk_in_the_engine_says_what_to_do() -> None:
    import errno

    failure = describe_failure(OSError(errno.ENOSPC, "No space left on device", "/tmp/cache/x.bin"), "mini")
    assert failure.message == "The engine 'mini' ran out of disk space (/tmp/cache/x.bin): No space left on device."
    assert "Free some space" in failure.hint and not failure.out_of_memory


def test_the_gpu_hint_names_another_device_and_offloading() -> None:
    assert "another GPU" in OOM_HINT and "+offload" in OOM_HINT
