"""A sample build that can't start never removes a folder it did not make: a damaged sample
that could not be set aside, or an intact project at the sample's path, stays byte for byte."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

import studio.ui.sample_story as sample_story


def _builder(path: Path, qtbot, **services: object) -> tuple[sample_story.SampleBuilder, list[str]]:  # type: ignore[no-untyped-def]
    from dataclasses import replace

    from studio.cli.gui_cmds import app_services

    builder = sample_story.SampleBuilder(path, replace(app_services(), engine_host="in-process", **services),
                                         engine="sketch")
    failures: list[str] = []
    builder.failed.connect(failures.append)
    return builder, failures


def test_a_damaged_sample_that_cannot_be_set_aside_is_kept(tmp_path: Path, qtbot,  # type: ignore[no-untyped-def]
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    sample = tmp_path / "Sample.kamishibai"
    (sample / "media").mkdir(parents=True)
    (sample / "project.db").write_bytes(b"not a database at all" * 50)
    (sample / "media" / "clip.mp4").write_bytes(b"the author's only copy")

    def cannot_rename(src: object, dst: object) -> None:
        raise OSError(errno.EACCES, "Permission denied", str(src))

    monkeypatch.setattr(sample_story.os, "rename", cannot_rename)
    builder, failures = _builder(sample, qtbot)
    builder.start()
    assert failures, "the build says it could not start"
    assert (sample / "project.db").read_bytes() == b"not a database at all" * 50
    assert (sample / "media" / "clip.mp4").read_bytes() == b"the author's only copy"


def test_a_build_that_fails_after_making_its_folder_removes_only_that(tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    sample = tmp_path / "Sample.kamishibai"

    def half_made(path: Path) -> None:
        path.mkdir()
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    builder, failures = _builder(sample, qtbot, create_sample_project=half_made)
    builder.start()
    assert failures and not sample.exists(), "its own half-made folder is cleared away"
