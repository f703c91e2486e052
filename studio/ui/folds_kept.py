"""The canvas's folds written to the settings as they change, not only when the project
closes: a studio killed, or one that crashed, brought back the folds of the last close and
lost every fold made since."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from studio.ui.canvas.tree_scene import TreeScene
from studio.ui.settings import StudioSettings

log = logging.getLogger(__name__)


class FoldsKept:
    """Keeps the folded turns of one open project's canvas in ``settings``: each change of
    the folds is written once (a change back to the folds already kept writes nothing)."""

    def __init__(self, settings: StudioSettings, scene: TreeScene, project_path: Callable[[], Path]) -> None:
        """``project_path``: where the project is now (asked at each write: a project folder
        can move while open)."""
        self.settings = settings
        self.scene = scene
        self.project_path = project_path
        self.kept = frozenset(scene.folded)
        """The folds as the settings hold them (those the project opened with, then each written)."""
        scene.folds_changed.connect(self.keep)

    def keep(self) -> None:
        folded = frozenset(self.scene.folded)
        if folded == self.kept:
            return
        try:
            self.settings.set_folds(self.project_path(), folded)
        except OSError as error:  # the project's path can't be resolved: nothing to keep them by
            log.warning("could not keep the folds: %s", error)
            return
        self.kept = folded
