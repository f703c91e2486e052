"""What the user chose (``--cluster local|auto|ADDRESS``, ``--actors N``) and whether Ray
is here to do it. Never imports Ray: asking whether it is installed only looks for it."""

from __future__ import annotations

import importlib
import importlib.util
import ipaddress
import sys
from dataclasses import dataclass
from types import ModuleType

from studio.core.errors import StudioError

INSTALL_HINT = "pip install '.[cluster]' in the studio's checkout (or packaging/bootstrap.sh --cluster there)"
"""What a user without Ray runs to get the render farm."""

LOCAL = "local"
AUTO = "auto"
CONNECT_TIMEOUT_S = 10.0
"""How long joining a cluster may take before the studio says it can't (Ray's own wait is
20 seconds, most of which a wrong address only delays the message)."""


class RayMissingError(StudioError):
    """A cluster was asked for, but Ray is not installed."""

    def __init__(self) -> None:
        super().__init__(f"Rendering on a cluster needs Ray, which is not installed. Install it with: {INSTALL_HINT}",
                         hint="Or run without --cluster (in the window: Settings, Render farm: Off).")


QUEUED_STAY = "Queued jobs stay queued."
"""What becomes of the queued jobs when the render farm can't be joined (said in its hint)."""


class ClusterJoinError(StudioError):
    """Joining the render farm failed. ``advice`` says what to do about the cluster; the
    hint adds that the queued jobs stay queued, which a command that had queued nothing yet
    (``fill --run``) says otherwise, from ``advice``."""

    def __init__(self, message: str, advice: str) -> None:
        super().__init__(message, hint=f"{advice} {QUEUED_STAY}" if advice else QUEUED_STAY)
        self.advice = advice


@dataclass(frozen=True, slots=True)
class ClusterSpec:
    """Where the engine hosts run and how many there are.

    ``address``: ``local`` starts a Ray instance on this machine for this process; ``auto``
    joins the cluster this machine is part of (``ray start``); anything else is the address
    of a cluster's head (``10.0.0.5:6379``). ``actors``: engine hosts to start (None: one per
    GPU of the cluster, or one when it has none). ``gpus_per_actor``: None gives each actor
    one GPU when the cluster has GPUs. ``cpus``: the CPUs a ``local`` instance offers (None:
    every core of this machine). ``connect_timeout_s``: how long joining a cluster (not
    ``local``) may take before it counts as unreachable.
    """

    address: str = LOCAL
    actors: int | None = None
    gpus_per_actor: float | None = None
    cpus_per_actor: float = 1.0
    cpus: int | None = None
    connect_timeout_s: float = CONNECT_TIMEOUT_S

    def __post_init__(self) -> None:
        if not self.address.strip():
            raise StudioError("No cluster address given.", hint="Use --cluster local, auto, or HOST:PORT.")
        if self.actors is not None and not 1 <= self.actors <= 1024:
            raise StudioError(f"--actors must be from 1 to 1024, not {self.actors}.")
        if self.gpus_per_actor is not None and self.gpus_per_actor < 0:
            raise StudioError(f"GPUs per actor can't be negative ({self.gpus_per_actor}).")
        if self.cpus_per_actor <= 0:
            raise StudioError(f"CPUs per actor must be more than 0, not {self.cpus_per_actor}.")
        if not 0 < self.connect_timeout_s <= 3600:
            raise StudioError(f"The cluster's connection timeout must be from 0 to 3600 seconds, "
                              f"not {self.connect_timeout_s:g}.")

    @property
    def local(self) -> bool:
        return self.address == LOCAL

    @property
    def where(self) -> str:
        """The address for messages: ``auto`` reads as this machine's cluster."""
        return "this machine's cluster" if self.address == AUTO else self.address

    def describe(self) -> str:
        where = "a Ray instance on this machine" if self.local else (
            "this machine's Ray cluster" if self.address == AUTO else f"the Ray cluster at {self.address}")
        count = "one actor per GPU" if self.actors is None else f"{self.actors} actor(s)"
        return f"{where}, {count}"


def parse_cluster(text: str, actors: int | None = None, connect_timeout_s: float | None = None) -> ClusterSpec:
    """``local``, ``auto`` or a head's ``HOST:PORT`` (``ray://`` client addresses are
    refused: progress streams from the actors, which Ray's client mode does not carry).

    A malformed address is refused here, naming it and what is wrong with it (see
    :func:`address_problem`), before anything waits on it."""
    address = text.strip()
    if address.lower() in (LOCAL, AUTO):
        address = address.lower()
    elif address.startswith("ray://"):
        raise StudioError(f"Ray client addresses ({address}) are not supported.",
                          hint="Run the studio on a machine of the cluster and use --cluster auto, or give the "
                          "head's GCS address (HOST:6379).")
    problem = address_problem(address) if address else ""
    if problem:
        raise StudioError(f"{address!r} is not a Ray cluster's address: {problem}.",
                          hint="Use --cluster local, auto, or the head's HOST:PORT (e.g. 10.0.0.5:6379, "
                          "[fd00::5]:6379).")
    if connect_timeout_s is None:
        return ClusterSpec(address=address, actors=actors)
    return ClusterSpec(address=address, actors=actors, connect_timeout_s=connect_timeout_s)


def saved_cluster(text: str, actors: int | None = None) -> ClusterSpec | None:
    """The cluster a saved setting names (None: empty, not on a cluster).

    Unlike :func:`parse_cluster` (``--cluster``, the settings dialog, where whoever types
    the address is told at once), a malformed address is kept as written: the service that
    joins it in the background refuses it at once, and the cluster status under the queue
    says what is wrong with it (and offers to connect again once it is fixed). Refused
    here, it made the whole generation service fail to start, with no word of the cluster.
    """
    address = text.strip()
    if not address:
        return None
    try:
        return parse_cluster(address, actors)
    except StudioError:
        return ClusterSpec(address=address, actors=actors)


def address_problem(address: str) -> str:
    """What is wrong with a cluster's address ("" for ``local``, ``auto`` and a usable
    ``HOST:PORT``; IPv6 hosts in brackets, ``[::1]:6379``). Checked before Ray sees it: Ray
    reads a wrong one as an address at another host, or waits for it until it gives up."""
    if address in (LOCAL, AUTO):
        return ""
    if "://" in address:
        return "write the head's HOST:PORT without a scheme such as http://"
    if address.startswith("[") and address.endswith("]"):
        return "it has no port (write [HOST]:PORT, e.g. [::1]:6379)"
    host, sep, port = address.rpartition(":")
    if not sep:
        return "it has no port (write HOST:PORT, e.g. 10.0.0.5:6379)"
    if not host or host == "[]":
        return "it has no host before the port (write HOST:PORT, e.g. 10.0.0.5:6379)"
    return _host_problem(host) or _port_problem(port)


def _host_problem(host: str) -> str:
    """What is wrong with the host part: a space, a character no host name holds, colons
    outside brackets, or brackets around something that is not an IPv6 address."""
    if any(c.isspace() or not c.isprintable() or c in "/@?#\\" for c in host):
        return f"{host!r} is not a host name or IP address"
    bracketed = host.startswith("[") and host.endswith("]")
    if ":" in host and not bracketed:
        return "an IPv6 host goes in brackets ([::1]:6379)"
    if bracketed:
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            return f"{host!r} is not an IPv6 address in brackets"
    elif "[" in host or "]" in host:
        return f"{host!r} is not a host name or IP address"
    return ""


def _port_problem(port: str) -> str:
    if not (port.isascii() and port.isdigit()) or not 1 <= int(port) <= 65535:
        return f"the port must be a number from 1 to 65535, not {port!r}"
    return ""


def ray_available() -> bool:
    """Whether ``import ray`` would find Ray (without importing it)."""
    if "ray" in sys.modules:
        return sys.modules["ray"] is not None
    try:
        return importlib.util.find_spec("ray") is not None
    except (ImportError, ValueError):
        return False


def require_ray() -> ModuleType:
    """Ray, imported now; a :class:`RayMissingError` (with the install command) without it."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise RayMissingError() from None
