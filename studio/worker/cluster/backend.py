"""Connecting to a Ray cluster and starting the engine hosts on it. Imports Ray: only
imported once a cluster is chosen (``--cluster``, or the window's setting)."""

from __future__ import annotations

import concurrent.futures
import contextlib
import importlib
import logging
import math
import os
import queue
import socket
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from studio.core.errors import StudioError
from studio.engines.capabilities import Stage
from studio.engines.config import EngineConfig, Placement
from studio.engines.registry import EngineRegistry
from studio.worker.cluster.actor import EngineActor
from studio.worker.cluster.environment import EnvironmentChanges, actor_runtime_env, reload_ray_settings
from studio.worker.cluster.ray_host import RayHost
from studio.worker.cluster.spec import AUTO, QUEUED_STAY, ClusterJoinError, ClusterSpec, address_problem, require_ray
from studio.worker.cluster.status import ClusterStatus, ConnectionState

log = logging.getLogger(__name__)

LOCAL_OBJECT_STORE_BYTES = 1 << 30
"""The object store of a ``local`` instance: results are a few megabytes and are freed as
soon as the parent has written them."""
ACTOR_MAX_RESTARTS = 4
"""Ray restarts an actor whose process died this many times; then the host starts another."""
NAMESPACE = "kamishibai"
_connecting = threading.Lock()
"""One ``ray.init`` at a time in this process (a project opened while another connects)."""
_started_here: str | None = None
"""The address (or ``local``) this process last called ``ray.init`` for: a later project
that names another cluster leaves it first. None: Ray was started by someone else."""
_ray_changes: EnvironmentChanges | None = None
"""What this process's last ``ray.init`` changed in ``os.environ``: put back once Ray is shut
down, so that the next cluster is joined as the first was (see ``environment``)."""
CONNECT_GRACE_S = 3.0
"""Beyond the connection timeout, how long the studio waits for Ray to give up by itself
(one attempt can take far longer at an address that takes connections but is not Ray)."""
GCS_WAIT_ENV = "RAY_gcs_server_port_wait_time_s"
"""Ray's own budget (seconds, about one attempt each) for reaching a cluster's head."""
LEAVE_TIMEOUT_S = 30.0
"""How long letting go of a lost cluster (``ray.shutdown``, about 5 s) may take."""
TOKEN_PROBE_S = 2.0
"""How long the look at a head that refused the studio (does it ask for a token?) may take."""
HEAD_PROBE_S = 2.0
"""How long a look at a cluster's head (after an actor was lost) waits for it to answer."""
LOST_HINT = ("The job that was running went back to the queue, and the queued jobs stay queued. Start the "
             "cluster again, then open the project again (or run `kamishibai run-queue`).")
AUTO_ADVICE = ("No Ray cluster runs on this machine: start one with `ray start --head` "
               "(README: “A tree that outgrows one machine”), give "
               "the head's HOST:PORT, or use local.")
AUTO_GONE_ADVICE = ("That cluster's head is no longer running (stopped, or this machine restarted): start it again "
                    "with `ray start --head` "
                    "(README: “A tree that outgrows one machine”), or use local.")
TOKEN_ADVICE = ("The cluster asks for an authentication token: run the studio with RAY_AUTH_MODE=token and the "
                "cluster's token in ~/.ray/auth_token "
                "(README: “A tree that outgrows one machine”).")
UNREACHABLE_ADVICE = ("Check the address (the head's HOST:PORT, from `ray start --head`; "
                      "README: “A tree that outgrows one machine”), "
                      "or use local.")
AUTO_HINT = f"{AUTO_ADVICE} {QUEUED_STAY}"
AUTO_GONE_HINT = f"{AUTO_GONE_ADVICE} {QUEUED_STAY}"
TOKEN_HINT = f"{TOKEN_ADVICE} {QUEUED_STAY}"
UNREACHABLE_HINT = f"{UNREACHABLE_ADVICE} {QUEUED_STAY}"


def probe_address(address: str, timeout_s: float) -> None:
    """Fail at once, with the reason, when nothing takes a connection at ``HOST:PORT``
    (an unknown host, a closed port) rather than after Ray's retries. ``auto`` and
    addresses without a port are left to Ray."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit():
        return
    host = host.strip("[]")
    try:
        socket.create_connection((host, int(port)), timeout=timeout_s).close()
    except socket.gaierror:
        raise ConnectionError(f"no host named {host!r}") from None
    except TimeoutError:
        raise ConnectionError(f"nothing answered at {address}") from None
    except OSError as error:
        raise ConnectionError(f"nothing takes connections at {address} ({error.strerror or error})") from None


def auto_address() -> str:
    """The head ``auto`` names: ``RAY_ADDRESS``, else where `ray start --head` last left one
    on this machine (Ray's own lookup). "" when none is named or Ray can't tell."""
    try:
        services = importlib.import_module("ray._private.services")
        return str(services.get_ray_address_from_environment("auto", None) or "")
    except Exception:  # no cluster named (Ray then says so itself), or another Ray version
        return ""


def check_auto_head(spec: ClusterSpec, failed: str) -> None:
    """For ``auto``: fail at once, saying so, when the head it names takes no connection (a
    head that was stopped or crashed leaves its address behind, and Ray waited for it, then
    said no more than that nothing answered, with a hint to check an address the user never
    gave)."""
    if spec.address != AUTO:
        return
    head = auto_address()
    if not head or head in (AUTO, "local") or address_problem(head):
        return
    try:
        probe_address(head, spec.connect_timeout_s)
    except ConnectionError as error:
        raise ClusterJoinError(f"{failed}: {error}, where this machine's cluster was (RAY_ADDRESS, or the last "
                               "`ray start --head` here).", AUTO_GONE_ADVICE) from None


class _RayThread:
    """One thread, as long-lived as this process, that makes the calls that start Ray's
    processes on this machine (``ray.init``): they end when the thread that started them
    ends (Linux's parent-death signal), so a short-lived thread (the one that joins the
    cluster while the window goes on) must not start them. A daemon: a call that never
    returns (a head that takes connections but never answers) does not keep the process
    from exiting."""

    def __init__(self) -> None:
        self._calls: queue.SimpleQueue[tuple[concurrent.futures.Future[object], Callable[[], object]]] = \
            queue.SimpleQueue()
        threading.Thread(target=self._serve, name="kamishibai-ray", daemon=True).start()

    def _serve(self) -> None:
        while True:
            future, call = self._calls.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(call())
            except BaseException as error:
                future.set_exception(error)

    def run(self, call: Callable[[], object], timeout: float | None) -> None:
        """``call()`` on the thread; its error raised here; TimeoutError after ``timeout``."""
        future: concurrent.futures.Future[object] = concurrent.futures.Future()
        self._calls.put((future, call))
        future.result(timeout)


_ray_thread: _RayThread | None = None


def _on_ray_thread(call: Callable[[], object], timeout: float | None = None) -> None:
    global _ray_thread
    if _ray_thread is None:
        _ray_thread = _RayThread()
    _ray_thread.run(call, timeout)


@contextlib.contextmanager
def _gcs_wait(timeout_s: float) -> Iterator[None]:
    """Ray tries a cluster's head about once a second, 20 times; try for ``timeout_s``
    instead (unless the environment already sets Ray's budget)."""
    if GCS_WAIT_ENV in os.environ:
        yield
        return
    os.environ[GCS_WAIT_ENV] = str(max(1, math.ceil(timeout_s)))
    try:
        yield
    finally:
        os.environ.pop(GCS_WAIT_ENV, None)


def _record_environment(before: dict[str, str]) -> None:
    """Note what ``ray.init`` changed in the environment since ``before`` (added to what an
    earlier attempt changed and was not put back yet)."""
    global _ray_changes
    changes = EnvironmentChanges.between(before, os.environ)
    if _ray_changes is not None:
        first = {**changes.before, **_ray_changes.before}
        changes = EnvironmentChanges(first, {key: os.environ.get(key) for key in first})
    _ray_changes = changes if changes.before else None


def _restore_environment(ray: Any) -> None:
    """Put back what ``ray.init`` changed in the environment, once Ray is shut down (kept
    for later while it is not)."""
    global _ray_changes
    if _ray_changes is None or ray.is_initialized():
        return
    changes, _ray_changes = _ray_changes, None
    restored = changes.restore()
    if restored:
        log.info("put back the environment variables Ray changed: %s", ", ".join(restored))
        reload_ray_settings(ray)


def _says_token(text: str) -> bool:
    return "auth" in text.lower() and "token" in text.lower()


def head_refuses_token(address: str, timeout_s: float = TOKEN_PROBE_S) -> bool:
    """Whether the head at ``address`` answers but refuses this process for want of the
    cluster's authentication token. Ray's own failure to join only says "Failed to connect
    to Ray cluster" (the reason is in its log alone), while one call to the head says why in
    milliseconds. False when that can't be told within ``timeout_s`` (another Ray version,
    no answer): the failure is then reported as it was."""
    refused = threading.Event()

    def ask() -> None:
        try:
            raylet: Any = importlib.import_module("ray._raylet")  # Ray's own client for a cluster's head
            raylet.GcsClient(address=address, cluster_id=None).internal_kv_get(b"kamishibai", None, timeout=timeout_s)
        except Exception as error:  # whichever error: only its words are read
            if _says_token(f"{type(error).__name__} {error}"):
                refused.set()

    thread = threading.Thread(target=ask, name="kamishibai-cluster-token-probe", daemon=True)
    thread.start()
    thread.join(timeout_s)  # a head that never answers is left to its (daemon) thread
    return refused.is_set()


def join_failure(spec: ClusterSpec, failed: str, error: BaseException,
                 token_refused: bool = False) -> ClusterJoinError:
    """Why joining the cluster ``spec`` names failed, with what to do: Ray's own text (its
    first line: the rest repeats advice about its own command line), and a hint for the
    cases Ray words obscurely (no cluster on this machine for ``auto``, a token asked for:
    said by Ray's error, or ``token_refused``, found by :func:`head_refuses_token`)."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    if _says_token(str(error)) or token_refused:
        because = "" if _says_token(text) else " (the head asks for the cluster's authentication token)"
        return ClusterJoinError(f"{failed}: {text}{because}", TOKEN_ADVICE)
    if spec.address == AUTO:
        if "running Ray instance" in text:  # Ray's sentence goes on about its own --address option
            text = "no Ray cluster runs on this machine (--cluster auto joins one started here)"
        return ClusterJoinError(f"{failed}: {text}", AUTO_ADVICE)
    waited = "" if spec.local else f" within {spec.connect_timeout_s:g} s"
    return ClusterJoinError(f"{failed}{waited}: {text}", UNREACHABLE_ADVICE)


def _stop_what_started(ray: Any) -> None:
    """After a Ctrl+C while Ray was starting: let that start end, then shut Ray down (on
    Ray's thread, after the start). Cut short, the start left Ray's agents of a ``local``
    instance running for a minute after the command had said it was interrupted. A second
    Ctrl+C, or a start that does not end within :data:`LEAVE_TIMEOUT_S`, gives up on it."""
    def stop() -> None:
        if ray.is_initialized():
            ray.shutdown()

    try:
        _on_ray_thread(stop, timeout=LEAVE_TIMEOUT_S)
    except (concurrent.futures.TimeoutError, KeyboardInterrupt):
        log.info("Ray was left starting")
    except Exception:  # the command stops all the same
        log.info("could not stop Ray after an interrupted start", exc_info=True)


class RayCluster:
    """This process's connection to a Ray cluster, and what it knows of it."""

    def __init__(self, spec: ClusterSpec, ray: Any, owned: bool) -> None:
        self.spec = spec
        self.ray = ray
        self.owned = owned
        """Whether this process started the Ray instance (``local``)."""
        self._lock = threading.Lock()
        self._resources: tuple[int, float, float] = (0, 0.0, 0.0)
        self._memory_bytes = 0
        self._source = ""
        self._head = ""
        """The cluster's head (its GCS address), read once joined: looked at after a loss."""
        self._lost = ""
        self.hosts: list[RayHost] = []
        self.on_lost: Callable[[str], None] | None = None
        """Called once, on the thread that found it, when the cluster is found lost (with why)."""

    @classmethod
    def connect(cls, spec: ClusterSpec) -> RayCluster:
        """Join the cluster ``spec`` names (or start a local instance), giving up after
        ``spec.connect_timeout_s`` when joining. A process already connected to Ray (a test,
        an earlier project in the window) keeps its connection."""
        with _connecting:
            return cls._connect(spec)

    @classmethod
    def _connect(cls, spec: ClusterSpec) -> RayCluster:
        global _started_here
        ray = require_ray()
        if ray.is_initialized() and _started_here not in (None, spec.address):
            ray.shutdown()  # the instance this process joined for an earlier choice: not the one wanted now
            _started_here = None
            _restore_environment(ray)
        if ray.is_initialized():
            cluster = cls(spec, ray, owned=False)
        else:
            quiet: dict[str, Any] = {"log_to_driver": False, "namespace": NAMESPACE, "logging_level": logging.ERROR}
            failed = f"Could not connect to the Ray cluster ({spec.where})"
            problem = address_problem(spec.address)
            if problem:
                raise ClusterJoinError(f"{spec.address!r} is not a Ray cluster's address: {problem}.",
                                       UNREACHABLE_ADVICE)
            if not spec.local:
                try:
                    probe_address(spec.address, spec.connect_timeout_s)
                except ConnectionError as error:
                    raise ClusterJoinError(f"{failed}: {error}.", UNREACHABLE_ADVICE) from None
                check_auto_head(spec, failed)
            def join() -> None:
                if ray.is_initialized():  # a late answer to an attempt given up on
                    ray.shutdown()
                with _gcs_wait(spec.connect_timeout_s):
                    ray.init(address=spec.address, **quiet)

            _restore_environment(ray)  # a shutdown that took long, an attempt that failed
            before = dict(os.environ)
            try:
                if spec.local:
                    # "local": a new instance even where `ray start` left this machine a cluster (or
                    # RAY_ADDRESS names one), which Ray would otherwise join, refusing num_cpus
                    _on_ray_thread(lambda: ray.init(address="local", num_cpus=spec.cpus or os.cpu_count() or 1,
                                                    include_dashboard=False,
                                                    object_store_memory=LOCAL_OBJECT_STORE_BYTES, **quiet))
                else:
                    _on_ray_thread(join, timeout=spec.connect_timeout_s + CONNECT_GRACE_S)
            except KeyboardInterrupt:  # Ctrl+C (or SIGTERM) while Ray starts: it stops, then the command
                _stop_what_started(ray)
                raise
            except concurrent.futures.TimeoutError:
                raise ClusterJoinError(f"{failed}: no Ray cluster answered within {spec.connect_timeout_s:g} s.",
                                       UNREACHABLE_ADVICE) from None
            except (ConnectionError, RuntimeError, ValueError) as error:
                token = not (spec.local or spec.address == AUTO or _says_token(str(error))) \
                    and head_refuses_token(spec.address)
                raise join_failure(spec, failed, error, token) from None
            finally:
                _record_environment(before)
            _started_here = spec.address
            cluster = cls(spec, ray, owned=True)
        cluster.refresh_resources()
        try:
            cluster._head = str(ray.get_runtime_context().gcs_address or "")
        except Exception:  # only used to tell a lost cluster from a lost actor
            log.info("could not read the cluster's head address", exc_info=True)
        return cluster

    def head_lost(self) -> str:
        """Why the cluster is gone ("" while its head takes connections). Asked by a host
        whose actor was lost: Ray alone would keep the host waiting for a restart that can
        no longer come (and end this process a minute later). Said once in the log, and kept
        for :meth:`status`."""
        with self._lock:
            if self._lost or not self._head:
                return self._lost
        try:
            probe_address(self._head, HEAD_PROBE_S)
        except ConnectionError as error:
            with self._lock:
                first = not self._lost
                reason = str(error).replace(f" at {self._head}", "")  # the head is named once
                self._lost = self._lost or f"its head at {self._head} no longer answers: {reason}"
                lost = self._lost
            if first:
                where = "local" if self.spec.local else self.spec.where
                log.warning("The render farm (%s) was lost: %s. %s", where, lost, LOST_HINT)
                if self.on_lost is not None:
                    self.on_lost(lost)
            return lost
        return ""

    @property
    def lost(self) -> str:
        """Why the cluster was found gone ("" until then); never calls the cluster."""
        with self._lock:
            return self._lost

    def leave(self, timeout_s: float = LEAVE_TIMEOUT_S) -> None:
        """Let go of a lost cluster, so that it can be joined again: Ray keeps a driver on
        its old cluster (a new ``ray.init`` is refused while it is initialised) and ends
        the process once that cluster's head has been gone for a minute. Its actors are
        forgotten, not killed: nothing answers there."""
        global _started_here
        for host in self.hosts:
            host.forget()
        if self.ray.is_initialized():
            try:
                _on_ray_thread(self.ray.shutdown, timeout=timeout_s)
            except concurrent.futures.TimeoutError:
                log.warning("Ray did not let go of the lost render farm within %g s", timeout_s)
        _started_here = None
        _restore_environment(self.ray)

    @property
    def connected(self) -> bool:
        return bool(self.ray.is_initialized())

    # -- resources ------------------------------------------------------------------------------

    def refresh_resources(self) -> None:
        """Read the cluster's nodes and resources (a call to the cluster: worker threads only)."""
        if not self.connected:
            return
        try:
            total = self.ray.cluster_resources()
            nodes = sum(1 for node in self.ray.nodes() if node.get("Alive"))
        except Exception:  # the cluster may be going away
            log.info("could not read the cluster's resources", exc_info=True)
            return
        with self._lock:
            self._resources = (nodes, float(total.get("CPU", 0.0)), float(total.get("GPU", 0.0)))

    @property
    def gpus(self) -> float:
        with self._lock:
            return self._resources[2]

    def gpus_per_actor(self) -> float:
        if self.spec.gpus_per_actor is not None:
            return self.spec.gpus_per_actor
        return 1.0 if self.gpus >= 1 else 0.0

    def actor_count(self) -> int:
        """``--actors``, else one per GPU (as many as fit), else one."""
        if self.spec.actors is not None:
            return self.spec.actors
        per = self.gpus_per_actor()
        return max(1, int(self.gpus // per)) if per > 0 else 1

    # -- engine hosts ---------------------------------------------------------------------------

    def actor_config(self, config: EngineConfig) -> EngineConfig:
        """The configuration inside an actor: every stage on the GPU Ray gives it (which it
        sees as ``cuda:0``), or on the CPU; threads from its share of CPUs."""
        device = Placement("cuda:0") if self.gpus_per_actor() > 0 else Placement("cpu")
        threads = max(1, int(self.spec.cpus_per_actor))
        return replace(config, device=device, placement=MappingProxyType({}), threads=threads)

    def size_for(self, registry: EngineRegistry, engines: Iterable[str]) -> None:
        """Declare on every actor started from now on the host memory that the most
        demanding of ``engines`` needs (all its stages' weights and working memory)."""
        needs = [registry.info(name).capabilities for name in engines if name in registry]
        self._memory_bytes = max((sum(c.needs(stage).host_bytes for stage in Stage) for c in needs), default=0)

    def new_actor(self, config: EngineConfig) -> Any:
        """Start one engine actor with the resources its engine needs."""
        options: dict[str, Any] = {
            "num_cpus": self.spec.cpus_per_actor,
            "num_gpus": self.gpus_per_actor(),
            "max_restarts": ACTOR_MAX_RESTARTS,
            "max_task_retries": 0,  # a lost job goes back to our queue, not to Ray's retry
            "max_concurrency": 2,  # a job, and a cancel or a status query beside it
        }
        if self._memory_bytes:
            options["memory"] = self._memory_bytes
        runtime_env = actor_runtime_env(self._job_runtime_env())
        if runtime_env is not None:
            options["runtime_env"] = runtime_env
        remote = self.ray.remote(EngineActor)
        return remote.options(**options).remote(self._source, config)

    def _job_runtime_env(self) -> dict[str, Any]:
        """The runtime environment of this process's Ray job (what ``ray.init`` was given)."""
        try:
            return dict(self.ray.get_runtime_context().runtime_env or {})
        except Exception:  # a Ray without it: the actor gets the studio's folder alone
            log.info("could not read the job's runtime environment", exc_info=True)
            return {}

    def make_hosts(self, registry: EngineRegistry, config: EngineConfig, engine: str) -> list[RayHost]:
        """One :class:`RayHost` per actor (started lazily, by their first job or check)."""
        if not registry.source:
            raise StudioError("These engines can't run on a cluster: their registry names no source to rebuild it.",
                              hint="Build the registry with EngineRegistry(source='module:function').")
        self._source = registry.source
        self.size_for(registry, [engine])
        inside = self.actor_config(config)
        self.hosts = [RayHost(self, index, registry, inside) for index in range(self.actor_count())]
        return self.hosts

    def status(self) -> ClusterStatus:
        """In memory: never calls the cluster (the window reads it every second)."""
        with self._lock:
            nodes, cpus, gpus = self._resources
            lost = self._lost
        address = "local" if self.spec.local else self.spec.address
        actors = tuple(host.view() for host in self.hosts)
        if lost:
            return ClusterStatus(address=address, nodes=0, cpus=0.0, gpus=0.0, actors=actors,
                                 state=ConnectionState.LOST, error=lost, hint=LOST_HINT)
        return ClusterStatus(address=address, nodes=nodes, cpus=cpus, gpus=gpus, actors=actors)

    def shutdown(self) -> None:
        """End the hosts, and the Ray instance if this process started it."""
        for host in self.hosts:
            host.close()
        if self.owned and self.connected:
            global _started_here
            self.ray.shutdown()
            _started_here = None
