"""A bundle cut short (an interrupted copy) was refused with zipfile's bare words, "File is not
a zip file", and no hint; it now says what a bundle is and what to do, and leaves nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.bundle import BundleError, export_bundle, import_bundle


def test_a_cut_short_bundle_is_refused_with_a_hint(project: Project, tmp_path: Path) -> None:
    whole = tmp_path / "story.kamishibai.zip"
    whole = export_bundle(project, whole)
    cut = tmp_path / "cut.kamishibai.zip"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    target = tmp_path / "unpacked.kamishibai"
    with pytest.raises(BundleError) as raised:
        import_bundle(cut, target)
    assert "is not a readable bundle" in raised.value.message
    assert "cut short" in raised.value.hint and "bundle the project again" in raised.value.hint
    assert not target.exists()
