"""A checkpoint file this user may not read (copied from another account, or with sudo) is
refused with its path and what to do (QA 4: the load stopped with a bare PermissionError from
inside the SHA-256 check, a traceback). Run by an ordinary user, the file's permissions refuse
it; run as root, whom permissions do not stop, the read is made to fail as it would."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("safetensors")

from studio.engines.base import EngineConfig, EngineLoadError
from studio.engines.mini import weights
from studio.engines.mini.engine import MiniEngine

SHIPPED = Path(__file__).resolve().parents[3] / "checkpoints" / "mini"


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX file permissions")
@pytest.mark.parametrize("name", [weights.LM, weights.DECODER_IO])
def test_a_file_this_user_may_not_read_is_named_with_what_to_do(tmp_path: Path, name: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    if not (SHIPPED / weights.CONFIG).is_file():
        pytest.skip("the shipped checkpoint is not in this checkout")
    folder = tmp_path / "mini"
    shutil.copytree(SHIPPED, folder)
    unreadable = folder / name
    if os.geteuid() == 0:
        real = weights.sha256

        def refused(path: Path) -> str:
            if Path(path) == unreadable:
                raise PermissionError(13, "Permission denied", str(path))
            return real(path)

        monkeypatch.setattr(weights, "sha256", refused)
    else:
        unreadable.chmod(0o000)
    try:
        with pytest.raises(EngineLoadError) as caught:
            MiniEngine(EngineConfig(checkpoints=tmp_path, threads=1)).load()
    finally:
        unreadable.chmod(0o644)
    assert f"{unreadable} can't be read: Permission denied." in caught.value.message
    assert "Make the file readable by the user who runs the studio" in caught.value.hint


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX file permissions")
def test_the_engine_check_names_a_file_it_may_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check ``doctor`` and the window run before loading (it raised the PermissionError)."""
    if not (SHIPPED / weights.CONFIG).is_file():
        pytest.skip("the shipped checkpoint is not in this checkout")
    from studio.engines.catalog import mini as catalog

    folder = tmp_path / "mini"
    shutil.copytree(SHIPPED, folder)
    unreadable = folder / weights.LM
    if os.geteuid() == 0:
        real_open = Path.open

        def refused(self: Path, *args, **kwargs):  # type: ignore[no-untyped-def]
            if self == unreadable:
                raise PermissionError(13, "Permission denied", str(self))
            return real_open(self, *args, **kwargs)

        real_digest = catalog.file_sha256

        def digest(path: Path) -> str:
            if Path(path) == unreadable:
                raise PermissionError(13, "Permission denied", str(path))
            return real_digest(path)

        monkeypatch.setattr(Path, "open", refused)  # the safetensors header check
        monkeypatch.setattr(catalog, "file_sha256", digest)
    else:
        unreadable.chmod(0o000)
    catalog._digest.cache_clear()
    try:
        unmet = catalog.check(EngineConfig(checkpoints=tmp_path))
    finally:
        unreadable.chmod(0o644)
    messages = [reason.message for reason in unmet]
    assert f"{unreadable} can't be read: Permission denied." in messages, messages
    assert any("Make the file readable" in reason.hint for reason in unmet)
