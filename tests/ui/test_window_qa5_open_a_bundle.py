"""Opening a bundle (.zip) in the window says it is a bundle and how to unpack it (QA: it
only said the file was not a project folder, with no word of what to do)."""

from __future__ import annotations

import shlex
from pathlib import Path

from studio.storage import Project
from studio.storage.bundle import export_bundle


def test_a_bundle_is_named_as_one_with_the_way_to_unpack_it(  # type: ignore[no-untyped-def]
        make_window, sample_project: Path, tmp_path: Path) -> None:
    with Project.open(sample_project) as project:
        bundle = export_bundle(project, tmp_path / "my story.zip")
    window = make_window()
    assert not window.open_project(bundle)
    error = window.last_error
    assert error.message.startswith("my story.zip is a project bundle"), error.message
    command = f"kamishibai unbundle {shlex.quote(str(bundle))} {shlex.quote(str(tmp_path / 'my story.kamishibai'))}"
    assert command in error.hint, error.hint
    assert window.session is None and window.welcome is not None


def test_a_zip_that_is_no_bundle_is_not_called_one(make_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Another zip is not called a bundle: it is no project folder, as the window says."""
    import zipfile

    path = tmp_path / "photos.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("a.txt", "x")
    window = make_window()
    assert not window.open_project(path)
    assert "is not a Kamishibai project" in window.last_error.message, window.last_error.message
