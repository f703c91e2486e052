"""The render farm: the generation queue's engine hosts as Ray actors (optional extra
``cluster``).

Importing this package is light and never imports Ray: :mod:`studio.worker.cluster.spec`
says what the user chose and whether Ray is installed; :mod:`~studio.worker.cluster.backend`
(which imports Ray) is imported only when a cluster is used; the window joins a cluster
through :mod:`~studio.worker.cluster.connection`, on a thread of its own.
"""

from __future__ import annotations

from studio.worker.cluster.spec import (
    INSTALL_HINT,
    ClusterSpec,
    RayMissingError,
    parse_cluster,
    ray_available,
    require_ray,
    saved_cluster,
)
from studio.worker.cluster.status import ActorState, ActorView, ClusterStatus, ConnectionState

__all__ = [
    "INSTALL_HINT",
    "ActorState",
    "ActorView",
    "ClusterSpec",
    "ClusterStatus",
    "ConnectionState",
    "RayMissingError",
    "parse_cluster",
    "ray_available",
    "require_ray",
    "saved_cluster",
]
