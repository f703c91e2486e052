"""A file under ``media/`` whose name is not UTF-8 (written by another program in Latin-1,
say) does not stop a bundle.

QA: `kamishibai bundle` of a project holding ``media/extra/caf\\xe9.png`` failed with
"internal error: UnicodeEncodeError ... surrogates not allowed". Such a name can't be in the
database (which stores UTF-8), so no take uses the file and unbundling would skip it anyway:
it is left out, and the rest is packed.
"""

from __future__ import annotations

import os
import sys
import zipfile
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.bundle import export_bundle, import_bundle
from tests.storage.bundle_setup import CLIP_BYTES, CLIP_PATH, project_with_one_take

LATIN1_NAME = b"caf\xe9.png"


def _project_with_a_latin1_file(parent: Path) -> Path:
    with project_with_one_take(parent / "p") as project:
        path = project.path
    extra = os.fsencode(path / "media" / "extra")
    os.mkdir(extra)
    try:
        with open(os.path.join(extra, LATIN1_NAME), "wb") as stray:
            stray.write(b"a picture from elsewhere")
    except (OSError, UnicodeError):  # a file system that holds only UTF-8 names (macOS)
        pytest.skip("this file system refuses names that are not UTF-8")
    return path


@pytest.mark.skipif(sys.platform == "win32", reason="Windows names are not bytes")
def test_a_media_file_with_a_non_utf8_name_is_left_out(tmp_path: Path) -> None:
    path = _project_with_a_latin1_file(tmp_path)
    with Project.open(path, read_only=True) as project:
        bundle = export_bundle(project, tmp_path / "story.zip")
    with zipfile.ZipFile(bundle) as archive:
        names = archive.namelist()
    assert CLIP_PATH in names
    assert not any("extra" in name for name in names), names
    with import_bundle(bundle, tmp_path / "copy") as copy:
        assert copy.resolve(copy.tree.takes["t1"].clip_path).read_bytes() == CLIP_BYTES


@pytest.mark.skipif(sys.platform == "win32", reason="Windows names are not bytes")
def test_a_project_in_a_folder_with_a_non_utf8_name_keeps_its_media(tmp_path: Path) -> None:
    """Only the names inside the project matter: a Latin-1 folder above it leaves out nothing."""
    try:
        parent = Path(os.fsdecode(os.path.join(os.fsencode(tmp_path), LATIN1_NAME.replace(b".png", b""))))
        parent.mkdir()
    except (OSError, UnicodeError):
        pytest.skip("this file system refuses names that are not UTF-8")
    path = _project_with_a_latin1_file(parent)
    with Project.open(path, read_only=True) as project:
        bundle = export_bundle(project, tmp_path / "story.zip")
    with zipfile.ZipFile(bundle) as archive:
        assert CLIP_PATH in archive.namelist()
