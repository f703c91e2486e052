"""An engine that misbehaves inside its engine process: prints to standard output (model
code's print(), a native library writing to file descriptor 1), calls ``sys.exit()``, or
ends the process with exit code 0.

The engine process shares its parent's standard output, where ``play --json`` prints what
scripts read: an engine's print() ended up in the middle of the JSON. ``sys.exit()`` in
engine code ended the whole engine process (its loaded engine with it) and the job failed
with "exited with code 0", which read like a success.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

from studio.core.instruction import Instruction
from studio.engines.base import (
    CancelCheck,
    EngineSettings,
    GenerationContext,
    Prediction,
    ProgressCallback,
    never_cancelled,
    no_progress,
)
from studio.engines.registry import EngineRegistry
from studio.storage import Project
from studio.worker import GenerationService, HostMode, JobStatus
from studio.worker.engine_process import describe_exit

from .process_engines import ProcessFakeEngine, process_info

NOISE = "NOISE-FROM-THE-ENGINE"


class MisbehavingEngine(ProcessFakeEngine):
    """``[print]``: prints to stdout (Python and file descriptor 1); ``[exit]``: sys.exit(0);
    ``[interrupt]``: raises KeyboardInterrupt; ``[os-exit]``: os._exit(0)."""

    def predict(self, context: GenerationContext, instruction: Instruction, settings: EngineSettings, seed: int,
                progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> Prediction:
        raw = instruction.raw
        if "[print]" in raw:
            print(NOISE, flush=True)
            os.write(1, f"{NOISE} from C\n".encode())
        if "[exit]" in raw:
            sys.exit(0)
        if "[interrupt]" in raw:
            raise KeyboardInterrupt
        if "[os-exit]" in raw:
            os._exit(0)
        return super().predict(context, instruction, settings, seed, progress, cancelled)


def registry() -> EngineRegistry:
    """The registry the engine process rebuilds (by this function's name)."""
    built = EngineRegistry(source=f"{__name__}:registry")
    info = process_info("fake")
    built.register(info, lambda config: MisbehavingEngine(config, info))
    return built


@pytest.fixture
def service(project: Project) -> Iterator[GenerationService]:
    started = GenerationService(project, registry(), default_engine="fake", hosts=HostMode.PROCESS)
    started.start()
    yield started
    started.stop(cancel_running=True, timeout=20)


def _run(service: GenerationService, project: Project, instruction: str) -> str:
    _, job_id = service.generate(project.tree.root_id, instruction)
    assert service.wait_jobs([job_id], 60)
    return job_id


def test_what_the_engine_prints_stays_off_the_parents_stdout(project: Project, service: GenerationService,
                                                             capfd: pytest.CaptureFixture[str]) -> None:
    job_id = _run(service, project, "[print]")
    assert service.job(job_id).status is JobStatus.DONE
    out, err = capfd.readouterr()
    assert NOISE not in out
    assert f"{NOISE}\n" in err and f"{NOISE} from C\n" in err  # kept where logs go, not lost


@pytest.mark.parametrize(("word", "name"), [("[exit]", "SystemExit: 0"), ("[interrupt]", "KeyboardInterrupt")])
def test_an_engine_that_tries_to_exit_fails_its_job_and_keeps_its_process(project: Project,
                                                                         service: GenerationService, word: str,
                                                                         name: str) -> None:
    first = _run(service, project, "before")
    pid = service.engine_pids()[0]
    bad = service.job(_run(service, project, word))
    assert bad.status is JobStatus.FAILED
    assert bad.error == f"The engine 'fake' tried to end its process ({name}); the job was failed instead."
    after = _run(service, project, "after")
    assert service.job(after).status is JobStatus.DONE
    assert service.engine_pids() == [pid]  # the same process, its engine still loaded
    takes = [project.tree.takes[service.job(job_id).take_id] for job_id in (first, after)]
    assert [take.conditioning["loads"] for take in takes] == [1, 1]
    assert project.tree.takes[bad.take_id].hint  # what to do, kept with the failed take


def test_an_engine_process_that_ends_itself_with_code_0_is_not_told_as_a_success(
        project: Project, service: GenerationService) -> None:
    job = service.job(_run(service, project, "[os-exit]"))
    assert job.status is JobStatus.FAILED
    assert job.error == "The engine process ended itself (exit code 0) during predict."
    assert service.job(_run(service, project, "after")).status is JobStatus.DONE


def test_exit_words() -> None:
    assert describe_exit(0) == "ended itself (exit code 0)"
    assert describe_exit(1) == "exited with code 1"
    assert describe_exit(-9) == "exited with signal 9 (SIGKILL)"
