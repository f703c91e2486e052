"""Joining a cluster on a thread of its own, so that the window never waits on Ray.

Importing Ray, ``ray.init`` (seconds for a local instance, up to the connection timeout for
a cluster that does not answer) and reading the cluster's resources all happen on the
connection's thread. Meanwhile the service takes jobs as usual: they wait in the queue and
start once the engine hosts exist. A failure (no Ray, a wrong address) is kept, with its
hint, for the window to show; the queued jobs stay queued.

Never imports Ray itself: :mod:`.backend` is imported on the connection's thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from studio.core.errors import StudioError
from studio.worker.cluster.spec import ClusterJoinError, ClusterSpec
from studio.worker.cluster.status import ClusterStatus, ConnectionState

if TYPE_CHECKING:
    from studio.worker.cluster.backend import RayCluster

log = logging.getLogger(__name__)

ReadyCallback = Callable[["RayCluster"], bool]
"""Called on the connection's thread with the joined cluster; False: no longer wanted (the
service stopped meanwhile)."""


class ClusterConnection:
    """One attempt to join ``spec``'s cluster. :meth:`status` may be read from any thread."""

    def __init__(self, spec: ClusterSpec, ready: ReadyCallback,
                 failed: Callable[[StudioError], None] | None = None) -> None:
        """``failed(error)``: called on the connection's thread when joining fails."""
        self.spec = spec
        self._ready = ready
        self._failed = failed
        self._lock = threading.Lock()
        self._state = ConnectionState.CONNECTING
        self._error: StudioError | None = None
        self._cluster: RayCluster | None = None
        self._thread: threading.Thread | None = None

    @property
    def state(self) -> ConnectionState:
        with self._lock:
            return self._state

    @property
    def error(self) -> StudioError | None:
        with self._lock:
            return self._error

    @property
    def cluster(self) -> RayCluster | None:
        with self._lock:
            return self._cluster

    def start(self) -> None:
        """Begin joining (idempotent)."""
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._run, name="kamishibai-cluster-connect", daemon=True)
            self._thread.start()

    def join(self, timeout: float | None) -> bool:
        """Wait for the attempt to end; False if it is still under way after ``timeout``."""
        thread = self._thread
        if thread is None or thread is threading.current_thread():
            return True
        thread.join(timeout)
        return not thread.is_alive()

    def status(self) -> ClusterStatus:
        with self._lock:
            cluster, state, error = self._cluster, self._state, self._error
        if cluster is not None:
            return cluster.status()
        return ClusterStatus.unconnected(self.spec.address, state, error.message if error else "",
                                         error.hint if error else "")

    def _run(self) -> None:
        try:
            from studio.worker.cluster.backend import RayCluster

            cluster = RayCluster.connect(self.spec)
        except StudioError as error:  # Ray missing, a wrong address: said, and the jobs wait
            self._fail(error)
            return
        except Exception as error:  # anything else Ray raises while starting
            log.exception("could not connect to the cluster")
            self._fail(ClusterJoinError(f"Could not connect to the Ray cluster ({self.spec.where}): {error}",
                                        "See the log for details."))
            return
        # Ray stays up for the next project, as after a project closes; no actor has started yet
        try:
            wanted = self._ready(cluster)
        except StudioError as error:
            self._fail(error)
            return
        if wanted:
            with self._lock:
                self._cluster = cluster
                self._state = ConnectionState.CONNECTED

    def _fail(self, error: StudioError) -> None:
        log.warning("the render farm is not connected: %s", error.message)
        with self._lock:
            self._error = error
            self._state = ConnectionState.FAILED
        if self._failed is not None:
            self._failed(error)
