"""The composition root: the one place that names concrete engines.

Engines are registered by their catalogue info; an engine's package is imported only when
an engine is created, so that listing and checking engines costs nothing.
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import threading
import weakref
from collections.abc import Callable, Mapping
from concurrent.futures import CancelledError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.engines.catalog import animegamer as animegamer_catalog
from studio.engines.catalog import customx as customx_catalog
from studio.engines.catalog import mini as mini_catalog
from studio.engines.catalog import sketch as sketch_catalog
from studio.engines.registry import EngineRegistry
from studio.shipped import shipped

if TYPE_CHECKING:
    import numpy as np

    from studio.core.model import CastMember, Location
    from studio.storage import Project

log = logging.getLogger(__name__)

DEFAULT_ENGINE = "sketch"

ENGINE_INFOS = (sketch_catalog.INFO, mini_catalog.INFO, animegamer_catalog.INFO, customx_catalog.INFO)
"""Every engine the app offers (each info names its entry point, imported on first use)."""


def default_registry() -> EngineRegistry:
    registry = EngineRegistry(source="studio.composition:default_registry")
    for info in ENGINE_INFOS:
        registry.register(info)
    return registry


def default_cast_and_world() -> tuple[tuple[CastMember, ...], tuple[Location, ...]]:
    """The cast and locations a new project starts with (from resources/)."""
    from studio.engines.sketch.defaults import load_default_cast, load_default_world

    return load_default_cast(), load_default_world()


def create_project(path: str | os.PathLike[str], name: str | None = None) -> Project:
    """A new project seeded with the default cast and world."""
    from studio.storage import Project

    cast, world = default_cast_and_world()
    return Project.create(path, name=name, cast=cast, locations=world)


class SketchPictures:
    """The sketch engine's drawing of the cast and the places, for the window's lists (see
    :mod:`studio.engines.sketch.pictures`). It draws in a process of its own, as engines run
    in theirs: the window's process loads no engine, and the drawing's Python loops never
    hold up the window. The process starts at the first picture asked for and ends once no
    picture has been asked for a while, or when the window's process exits (:meth:`end`);
    what it drew is kept here."""

    IDLE_SECONDS = 20.0
    END_WAIT_SECONDS = 2.0
    """How long :meth:`end` waits for the killed drawing process to be gone."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._ended: weakref.WeakSet[ProcessPoolExecutor] = weakref.WeakSet()
        """Pools :meth:`end` stopped: their lost pictures are no news."""
        self._leaving: list[multiprocessing.process.BaseProcess] = []
        """The processes of pools shut down for being idle (they may not have ended yet)."""
        self.ended = False
        """Whether :meth:`end` ran: no picture is drawn any more (None for each)."""
        self._busy = 0
        self._idle: threading.Timer | None = None
        self._kept: dict[tuple[str, str, str], np.ndarray | None] = {}

    def character(self, name: str, look: Mapping[str, Any]) -> np.ndarray | None:
        return self._drawn(("character", name, json.dumps(dict(look), sort_keys=True, default=str)))

    def place(self, name: str) -> np.ndarray | None:
        return self._drawn(("place", name.strip().lower(), ""))

    def _drawn(self, key: tuple[str, str, str]) -> np.ndarray | None:
        with self._lock:
            if key in self._kept:
                return self._kept[key]
            if self.ended:  # the app is exiting: no new process (loads still queued ask on)
                return None
            if self._pool is None:
                self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_in_the_background)
            pool = self._pool
            self._busy += 1
            if self._idle is not None:
                self._idle.cancel()
        picture: np.ndarray | None = None
        drawn = False
        try:
            picture, drawn = pool.submit(_draw_in_this_process, *key).result(), True
        except BrokenProcessPool:  # the drawing process died (a kill, no memory): a new one next time
            if pool not in self._ended:  # (not when ended on purpose, as the app exits)
                log.warning("the process drawing the picture of %s %r ended", key[0], key[1], exc_info=True)
            with self._lock:
                if self._pool is pool:
                    self._pool = None
        except (RuntimeError, CancelledError):  # the app is exiting (or ended the pool): no more pictures
            pass
        except Exception:  # the drawing refused: no picture, asked again later
            log.warning("could not draw the picture of %s %r", key[0], key[1], exc_info=True)
        with self._lock:
            if drawn:
                self._kept[key] = picture
            self._busy -= 1
            if self._busy == 0:
                self._idle = threading.Timer(self.IDLE_SECONDS, self._end_if_idle)
                self._idle.daemon = True
                self._idle.start()
        return picture

    def _end_if_idle(self) -> None:
        with self._lock:
            pool, idle = self._pool, self._busy == 0
            if idle:
                self._pool = None
        if idle and pool is not None:
            leaving = _pool_processes(pool)
            pool.shutdown(wait=False)
            with self._lock:
                self._leaving = [process for process in [*self._leaving, *leaving] if process.is_alive()]

    def end(self) -> None:
        """End the drawing process now, the pictures it was drawing or was asked for undrawn
        (they come back None): the window's process is exiting.

        Python's exit would otherwise wait for every picture asked for to be drawn, then for
        the process to end, with no limit: the process runs in the idle scheduling class, and
        on a machine whose cores other work keeps busy it gets almost no time (just started,
        it was still importing). A window closed by a signal was alive a minute later. What
        it drew is kept; no picture is drawn after this."""
        with self._lock:
            self.ended = True
            pool, self._pool = self._pool, None
            if self._idle is not None:
                self._idle.cancel()
                self._idle = None
            processes, self._leaving = self._leaving, []
            if pool is not None:
                self._ended.add(pool)
        if pool is not None:
            processes += _pool_processes(pool)
            pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:  # it holds nothing of its own (its queues are this process's): killed
            if process.is_alive():
                process.kill()
        for process in processes:
            process.join(self.END_WAIT_SECONDS)


def _pool_processes(pool: ProcessPoolExecutor) -> list[multiprocessing.process.BaseProcess]:
    """The processes of ``pool`` (a copy: its own thread changes the table). The executor does
    not offer them; its table is read where it has one, else none are ended early."""
    table = getattr(pool, "_processes", None)
    return list(table.values()) if isinstance(table, dict) else []


def _in_the_background() -> None:
    """The drawing process yields the cores to the window, as engine processes do (it starts
    from a background thread of the window, whose lower priority it inherits meanwhile), and
    leaves Ctrl+C to the window, as they do: the terminal sends it to every process of the
    group, and the drawing process printed a KeyboardInterrupt traceback while the window
    closed itself cleanly (and shuts the drawing process down). It ends itself when the
    window's process dies (a kill, the out-of-memory killer): waiting for work on its pool's
    queue, it would never notice, and stayed behind with the resource tracker."""
    import signal

    from studio.worker.parent_watch import end_with_parent
    from studio.worker.thread_budget import use_idle_scheduling

    end_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    use_idle_scheduling()


def _draw_in_this_process(kind: str, name: str, look: str) -> np.ndarray | None:
    """Run in the drawing process: the sketch engine is imported there, never in the window's."""
    from studio.engines.sketch.pictures import draw_picture

    return draw_picture(kind, name, look)


_PICTURES = [SketchPictures()]


def sketch_pictures() -> SketchPictures:
    """The app's one drawer of cast and place pictures (what it drew is kept for every window;
    a window started after one ended it gets a new one)."""
    if _PICTURES[0].ended:
        _PICTURES[0] = SketchPictures()
    return _PICTURES[0]


def default_checkpoints() -> Path:
    """``checkpoints/`` beside the app: the shipped weights (and, but in an installed wheel,
    the user's converted ones: see :func:`user_checkpoints`)."""
    return shipped("checkpoints")


def user_checkpoints(data_dir: Callable[[], Path]) -> Path:
    """Where the big engines' converted weights go, and where the checkpoint tools look,
    unless a folder is named: ``checkpoints/`` beside the app in a checkout or a frozen app
    (:func:`default_checkpoints`, as before); in an installed wheel, ``checkpoints/`` in the
    user's data folder (``data_dir()``, asked only then), which the engines look in after the
    package's own. The package keeps only the shipped mini: 20 GB and more of converted weights
    inside site-packages went to a folder that may be read-only and that an uninstall leaves
    behind."""
    from studio.shipped import is_installed

    return data_dir() / "checkpoints" if is_installed() else default_checkpoints()


SAMPLE_STORY = "first_story.txt"
SAMPLE_NAME = "Qiqi's first delivery"


def create_sample_project(path: str | os.PathLike[str]) -> Project:
    """The sample project: the default cast and world and the sample story's branches
    (no takes yet; generate them with the worker's ``fill``)."""
    from studio.storage.demo_import import import_demo

    project = create_project(path, name=SAMPLE_NAME)
    try:
        import_demo(project, shipped("resources") / "samples" / SAMPLE_STORY)
    except BaseException:
        project.close()
        raise
    return project
