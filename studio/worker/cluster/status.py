"""What the window shows of a cluster: its resources and each engine host's state.

Plain values kept up to date by the hosts themselves, so reading them (every second, on
the window's thread) never calls the cluster."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ConnectionState(StrEnum):
    CONNECTING = "connecting"
    """Joining the cluster (or starting a local one), on a thread of its own: jobs wait."""
    CONNECTED = "connected"
    FAILED = "failed"
    """Could not join; the queued jobs stay queued (``error`` says why)."""
    LOST = "lost"
    """Joined, then the cluster went away (its head stopped answering): no job is sent to it
    any more; the job that was running went back to the queue (``error`` says why). In the
    window the studio tries joining it again by itself (``retry_in_s``)."""


class ActorState(StrEnum):
    STARTING = "starting"
    WAITING = "waiting for room"
    """Not started after a while: the cluster has no room for it yet (more actors asked for
    than its CPUs or GPUs hold). It takes no job; the other actors run them."""
    IDLE = "idle"
    LOADING = "loading"
    RUNNING = "running"
    RESTARTING = "restarting"
    """Its process died; Ray is starting another (the job it ran went back to the queue)."""
    STOPPED = "stopped"


@dataclass(frozen=True, slots=True)
class ActorView:
    index: int
    state: ActorState
    node: str = ""
    """The node's IP address."""
    device: str = ""
    """``GPU 3`` (the GPU Ray gave it, as the node numbers it) or ``CPU``."""
    pid: int | None = None
    engine: str = ""
    job_id: str = ""
    restarts: int = 0
    error: str = ""
    """Why its actor could not start (then ``state`` is stopped, and it takes no job)."""


@dataclass(frozen=True, slots=True)
class ClusterStatus:
    address: str
    nodes: int
    cpus: float
    gpus: float
    actors: tuple[ActorView, ...]
    state: ConnectionState = ConnectionState.CONNECTED
    error: str = ""
    hint: str = ""
    retry_in_s: float | None = None
    """After a loss: the seconds until the studio tries joining the cluster again by itself
    (None: it won't, or an attempt is under way)."""
    attempts: int = 0
    """After a loss: how many times joining it again was tried."""

    def _retry(self) -> str:
        if self.retry_in_s is None:
            return ""
        return f" Trying again in {max(0, round(self.retry_in_s))} s (attempt {self.attempts + 1})."

    @classmethod
    def unconnected(cls, address: str, state: ConnectionState, error: str = "", hint: str = "") -> ClusterStatus:
        return cls(address=address, nodes=0, cpus=0.0, gpus=0.0, actors=(), state=state, error=error, hint=hint)

    def summary(self) -> str:
        if self.state is ConnectionState.CONNECTING:
            again = f" again (attempt {self.attempts})" if self.attempts else ""
            return f"Connecting to the render farm ({self.address}){again}…"
        if self.state is ConnectionState.LOST:
            return f"The render farm ({self.address}) was lost: {self.error}{self._retry()}"
        if self.state is ConnectionState.FAILED:
            where = "" if self.address in self.error else f" ({self.address})"  # said once is enough
            return f"The render farm{where} is not connected: {self.error}{self._retry()}"
        gpus = f"{self.gpus:g} GPU" + ("" if self.gpus == 1 else "s")
        busy = sum(a.state is ActorState.RUNNING for a in self.actors)
        nodes = f"{self.nodes} node" + ("" if self.nodes == 1 else "s")
        return f"Ray cluster ({self.address}): {nodes}, {gpus}, {self.cpus:g} CPUs · " \
               f"{len(self.actors)} actors, {busy} busy"
