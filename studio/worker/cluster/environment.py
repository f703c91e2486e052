"""What Ray changes in this process's environment while it starts or joins a cluster, put
back when the studio leaves that cluster.

``ray.init`` sets variables in ``os.environ`` and leaves them after ``ray.shutdown``: a local
instance turns token authentication on (``RAY_AUTH_MODE=token``), and sets
``PYTHONBREAKPOINT``, ``RAY_CLIENT_MODE``, ``RAY_USAGE_STATS_ENABLED``. A later join in the
same process (the window switched to a cluster's address) then inherits them: against a head
without authentication its actors were cancelled before they started. Only the variables
Ray changed are put back, and only while they still hold what Ray left there."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EnvironmentChanges:
    """The variables that changed between two looks at the environment: each one's value
    before (None: unset) and the value it was left with (None: removed)."""

    before: Mapping[str, str | None]
    after: Mapping[str, str | None]

    @classmethod
    def between(cls, before: Mapping[str, str], after: Mapping[str, str]) -> EnvironmentChanges:
        changed = sorted(key for key in set(before) | set(after) if before.get(key) != after.get(key))
        return cls({key: before.get(key) for key in changed}, {key: after.get(key) for key in changed})

    def restore(self, environ: MutableMapping[str, str] | None = None) -> list[str]:
        """Put back the value each changed variable had before; one changed again since (by
        the user, or another part of the studio) is left as it is now. Returns the names
        put back."""
        target: MutableMapping[str, str] = os.environ if environ is None else environ
        restored = []
        for key, old in self.before.items():
            if target.get(key) != self.after[key]:
                continue
            if old is None:
                target.pop(key, None)
            else:
                target[key] = old
            restored.append(key)
        return restored


def reload_ray_settings(ray: Any) -> None:
    """Make Ray read its settings from the environment again: it caches them (its config,
    the authentication token) in this process, so a restored ``RAY_AUTH_MODE`` alone would
    not be seen by the next ``ray.init``. Ray itself reloads them this way when it turns
    authentication on."""
    try:
        raylet = ray._raylet
        raylet.Config.initialize("")
        raylet.AuthenticationTokenLoader.instance().reset_cache()
    except Exception:  # another Ray version: the environment is restored all the same
        log.info("could not make Ray read its settings again", exc_info=True)


INSTALLED_DIRS = frozenset({"site-packages", "dist-packages"})
"""Folders an installed (not editable) studio lives in: Python finds it there by itself."""


def studio_source_root() -> Path | None:
    """The folder holding the ``studio`` package when it runs from a source checkout (an
    editable install, ``pip install -e``); None when it is installed in site-packages."""
    import studio

    root = Path(studio.__file__).resolve().parent.parent
    return None if root.name in INSTALLED_DIRS else root


def actor_runtime_env(job_env: Mapping[str, Any] | None, root: Path | None = None) -> dict[str, Any] | None:
    """The runtime environment an engine actor starts in (None: the job's as it is).

    Ray puts the folder the studio was started in (and, on a cluster, the one ``ray start``
    ran in) first on an actor's ``sys.path``. A folder named ``studio`` there (a user's
    drawings, say) then shadows an editable install's package, which Python finds only
    after every folder on the path: the actor died with "cannot import name '__version__'
    from 'studio' (unknown location)". With the checkout on ``PYTHONPATH``, Python finds the
    real package (a package with an ``__init__`` wins over a plain folder wherever it is).
    The job's own ``PYTHONPATH`` (its runtime environment's) is kept after it, else the
    node's (``${PYTHONPATH}``, which Ray expands on the node)."""
    root = studio_source_root() if root is None else root
    if root is None:
        return None
    env_vars = dict((job_env or {}).get("env_vars") or {})
    rest = env_vars.get("PYTHONPATH") or "${PYTHONPATH}"
    parts = [str(root)] + [part for part in str(rest).split(os.pathsep) if part and part != str(root)]
    return {"env_vars": {**env_vars, "PYTHONPATH": os.pathsep.join(parts)}}
