"""Repair advice for damaged mini weights names the app's own copy (where it is), for the check
and for the load alike: it said "Restore the file from the repository" for any folder, and for
installed copies, which have no repository."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from studio.engines.base import EngineLoadError
from studio.engines.catalog import mini
from studio.engines.checkpoints_folder import app_checkpoints
from studio.engines.config import EngineConfig
from studio.shipped import source_checkout

pytest.importorskip("torch")


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    folder = tmp_path / "ck" / "mini"
    shutil.copytree(app_checkpoints() / "mini", folder)
    decoder = folder / "decoder.safetensors"
    os.truncate(decoder, decoder.stat().st_size // 2)
    return folder


def test_the_check_and_the_load_name_the_apps_copy(copy: Path) -> None:
    own = app_checkpoints() / "mini"
    (reason,) = [r for r in mini.check(EngineConfig(checkpoints=copy.parent)) if r.path.endswith("decoder.safetensors")]
    advice = f"Copy decoder.safetensors from the app's own mini weights in {own}"
    assert reason.hint.startswith(advice), reason.hint
    from studio.engines.mini.engine import MiniEngine

    with pytest.raises(EngineLoadError) as raised:
        MiniEngine(EngineConfig(checkpoints=copy.parent)).load()
    assert raised.value.hint.startswith(advice), raised.value.hint
    assert "repository" not in raised.value.hint


def test_the_apps_own_copy_is_restored_from_git_in_a_checkout_and_reinstalled_otherwise(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from studio import shipped

    own = app_checkpoints() / "mini"
    if source_checkout() is not None:
        assert mini.restore_hint(own, "lm.safetensors") == \
            "Restore lm.safetensors from the repository: git restore checkpoints/mini."
    monkeypatch.setattr(shipped, "source_checkout", lambda: None)
    assert mini.restore_hint(own, "lm.safetensors") == \
        f"Reinstall the studio: lm.safetensors in its own copy of the mini weights ({own}) is damaged."
