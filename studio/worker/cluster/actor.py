"""The engine host that runs inside a Ray actor (one per GPU, or per CPU share).

It keeps its engine loaded between jobs, like the local engine process, and runs each job
on its own thread while :meth:`EngineActor.run` streams what happens back to the parent
(a Ray generator: progress, the prediction, then the result). The take's three files are
written into a scratch folder on the actor's node, read back as bytes and returned through
Ray's object store: the parent (the studio's one writer) writes them into the project.

Nothing here imports Ray at module level; Ray wraps the class when the parent starts it.
"""

from __future__ import annotations

import os
import queue
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from studio.core.progress import Cancelled
from studio.engines.config import EngineConfig
from studio.engines.registry import registry_from_source
from studio.engines.requirements import Requirement, RequirementKind
from studio.worker.engine_host import EngineStatus, InProcessHost
from studio.worker.engine_process import Failed, ForwardingListener, WasCancelled
from studio.worker.failures import describe_failure, release_gpu_memory
from studio.worker.host_job import HostJob, HostResult
from studio.worker.thread_budget import thread_budget_environment

CHECKPOINTS_ENV = "KAMISHIBAI_CHECKPOINTS"
"""Where a worker node keeps the checkpoints, when not at the path the parent uses."""


@dataclass(frozen=True)
class EncodedFile:
    """One of a take's files, as bytes: ``path`` relative to the project (the take's folder
    and the file's name), with its SHA-256 computed where it was written."""

    path: str
    data: bytes
    sha256: str


@dataclass(frozen=True)
class Encoded:
    """A finished job: the host's result, with its three files carried as bytes."""

    result: HostResult
    files: tuple[EncodedFile, EncodedFile, EncodedFile]
    actor_s: float
    """Seconds from the job's arrival at the actor to its result being ready."""
    pid: int = 0


@dataclass(frozen=True)
class ActorInfo:
    pid: int
    node: str
    gpu_ids: tuple[str, ...] = ()
    """The GPUs Ray gave this actor, as its node numbers them."""
    actor_id: str = ""
    """Ray's id for the actor: the same after Ray restarts its process (the pid changes)."""
    extra: dict[str, Any] = field(default_factory=dict)


_END = object()


def _scratch_root() -> str | None:
    """Where a job's files are written before they travel: memory (``/dev/shm``) when the
    node has it, since these copies need no durability (the parent's copy is made durable),
    and flushing them to a disk shared by the node's actors would slow every actor."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None


def _checkpoints_here(config: EngineConfig) -> EngineConfig:
    """The parent's checkpoints folders where they exist on this node, else the folder
    named by ``KAMISHIBAI_CHECKPOINTS``."""
    override = os.environ.get(CHECKPOINTS_ENV)
    if not override or config.checkpoints.is_dir():
        return config
    return replace(config, checkpoints=Path(override))


class EngineActor:
    """One engine host on the cluster. Methods may run on two threads at once (Ray's
    ``max_concurrency=2``): a job's :meth:`run`, and :meth:`cancel` or a status query."""

    def __init__(self, source: str, config: EngineConfig) -> None:
        os.environ.update(thread_budget_environment(config.threads))  # before an engine imports torch
        self._host = InProcessHost(registry_from_source(source), _checkpoints_here(config))
        self._cancelled: set[str] = set()
        self._lock = threading.Lock()
        self._scratch = Path(tempfile.mkdtemp(prefix="kamishibai-actor-", dir=_scratch_root()))

    # -- queries ----------------------------------------------------------------------------

    def info(self) -> ActorInfo:
        import ray  # present: this runs in a Ray actor

        context = ray.get_runtime_context()
        ids = context.get_accelerator_ids().get("GPU", [])
        node = str(cast(Any, ray.util).get_node_ip_address())
        return ActorInfo(pid=os.getpid(), node=node, gpu_ids=tuple(str(i) for i in ids),
                         actor_id=str(context.get_actor_id() or ""))

    def check(self, engine: str) -> list[Requirement]:
        """Every reason ``engine`` can't run here (checked on the actor's node, with its GPU)."""
        if engine not in self._host.registry:
            return [Requirement(RequirementKind.CONFIG, f"No engine {engine!r} on this node.",
                                hint="Install the same version of the studio on every node.")]
        return self._host.registry.check(engine, self._host.config)

    def status(self) -> EngineStatus:
        return self._host.status()

    # -- work -------------------------------------------------------------------------------

    def load(self, engine: str) -> float:
        """Load ``engine`` now (before timing a run, say); returns the seconds it took."""
        _, seconds = self._host.acquire(engine)
        return seconds

    def unload(self) -> None:
        self._host.unload()
        release_gpu_memory()

    def cancel(self, take_id: str) -> None:
        """Stop the job making ``take_id`` at its engine's next step (or before it starts)."""
        with self._lock:
            self._cancelled.add(take_id)

    def run(self, job: HostJob) -> Iterator[Any]:
        """Run ``job``, yielding :class:`StageProgress`, :class:`Loaded`, :class:`Predicted`
        and last :class:`Encoded`, :class:`Failed` or :class:`WasCancelled`."""
        start = time.perf_counter()
        folder = Path(tempfile.mkdtemp(dir=self._scratch))
        messages: queue.Queue[Any] = queue.Queue()
        local = replace(job, media_root=folder)

        def cancelled() -> bool:
            return job.take_id in self._cancelled

        def work() -> None:
            try:
                result = self._host.execute(local, ForwardingListener(messages.put, self._host, job.engine), cancelled)
                files = tuple(EncodedFile(f.path, (folder / f.path).read_bytes(), f.sha256) for f in result.files)
                messages.put(Encoded(result, files, round(time.perf_counter() - start, 4),  # type: ignore[arg-type]
                                     pid=os.getpid()))
            except Cancelled:
                messages.put(WasCancelled())
            except Exception as error:  # any engine error fails the job, never the actor
                failure = describe_failure(error, job.engine, self._host.device)
                if failure.out_of_memory:
                    self._host.unload()
                    release_gpu_memory()
                messages.put(Failed(failure))
            finally:
                messages.put(_END)

        thread = threading.Thread(target=work, name=f"kamishibai-actor-job-{job.take_id}", daemon=True)
        thread.start()
        try:
            while True:
                message = messages.get()
                if message is _END:
                    return
                yield message
        finally:
            thread.join()
            with self._lock:
                self._cancelled.discard(job.take_id)
            shutil.rmtree(folder, ignore_errors=True)
