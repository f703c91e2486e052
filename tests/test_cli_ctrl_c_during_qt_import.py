"""Ctrl+C while a generating command first imports Qt (to read the checkpoints folder from
the window's settings) waits for the import to end, then stops the command as usual (QA:
`kamishibai play` stopped about 0.3 s after it started died with "Fatal Python error:
libshiboken/signature: could not initialize part 2" and a core dump, exit status -6, as a
KeyboardInterrupt raised inside shiboken6's initialisation is fatal)."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import signal
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

from studio.cli.common import checkpoint_dirs, ctrl_c_deferred

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT sent with os.kill is POSIX")

SETTINGS_MODULE = "studio.ui.settings"


class _SlowSettingsImport(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Stands for the settings module: Ctrl+C arrives halfway through its import."""

    def __init__(self) -> None:
        self.finished = False

    def find_spec(self, name: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        return importlib.machinery.ModuleSpec(name, self) if name == SETTINGS_MODULE else None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        deadline = time.monotonic() + 0.2
        while time.monotonic() < deadline:  # Python runs a pending signal's handler here
            time.sleep(0.01)

        class StudioSettings:
            def checkpoint_dirs(self) -> list[Path]:
                return [Path("/chosen/checkpoints")]

        module.StudioSettings = StudioSettings  # type: ignore[attr-defined]
        self.finished = True


def test_ctrl_c_during_the_settings_import_is_raised_after_it() -> None:
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finder = _SlowSettingsImport()
    saved = sys.modules.pop(SETTINGS_MODULE, None)
    sys.meta_path.insert(0, finder)
    try:
        with pytest.raises(KeyboardInterrupt):
            checkpoint_dirs()
        assert finder.finished, "the KeyboardInterrupt cut the import short"
    finally:
        sys.meta_path.remove(finder)
        sys.modules.pop(SETTINGS_MODULE, None)
        if saved is not None:
            sys.modules[SETTINGS_MODULE] = saved
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # Ctrl+C works as before


def test_nothing_deferred_returns_as_usual() -> None:
    with ctrl_c_deferred():
        value = 1
    assert value == 1
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
