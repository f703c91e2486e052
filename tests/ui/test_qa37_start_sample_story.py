"""The welcome page's "Open the sample story" when a sample is already there but damaged: a
build cut short in the data folder (a crash, a full disk), or a damaged ``projects/`` sample
of the checkout. The sample opens (built again where needed), and the damaged copy is kept
aside, untouched (QA: the button failed every time, advising to "choose another name, or
open it instead", or to restore the studio's own sample from a backup)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

import studio.ui.sample_story as sample_story
from studio.ui.settings import StudioSettings


def _project(path: Path) -> Path:
    from studio.composition import create_sample_project

    project = create_sample_project(path)
    folder = project.path
    project.close()
    return folder


@pytest.mark.slow
def test_a_sample_build_cut_short_is_set_aside_and_built_again(  # type: ignore[no-untyped-def]
        make_window, settings: StudioSettings, qtbot, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sample_story, "shipped_sample", lambda: None)  # as in an installed app
    target = sample_story.user_sample(settings.paths.projects_dir)
    (target / "media").mkdir(parents=True)
    (target / "media" / "poster.png").write_bytes(b"what the cut-short build had written")
    window = make_window()
    qtbot.mouseClick(window.welcome.sample_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.session is not None or window.sample_builder is None, timeout=120_000)
    assert window.session is not None, window.last_error
    assert window.session.path == target and (target / "project.db").is_file()
    aside = [p for p in target.parent.iterdir() if p.name.startswith("Sample.damaged-")]
    assert len(aside) == 1 and aside[0].name.endswith(".kamishibai")
    assert (aside[0] / "media" / "poster.png").read_bytes() == b"what the cut-short build had written"
    window.close_project("cancel")


def test_an_intact_sample_is_never_set_aside(tmp_path: Path) -> None:
    sample = _project(tmp_path / "Sample.kamishibai")
    assert sample_story.move_aside_if_damaged(sample) is None
    assert sample_story.move_aside_if_damaged(tmp_path / "nothing.kamishibai") is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Sample.kamishibai"]


@pytest.mark.parametrize("shipped", ["damaged", "edited"])
def test_the_checkouts_sample_opens_unless_damaged_then_the_users_own(  # type: ignore[no-untyped-def]
        make_window, settings: StudioSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shipped: str) -> None:
    checkout = tmp_path / "checkout" / "projects"
    repo_sample = _project(checkout / "sample.kamishibai")
    if shipped == "damaged":
        (repo_sample / "project.db").write_bytes(b"cut short " * 300)
    monkeypatch.setattr(sample_story, "repo_projects_dir", lambda: checkout)
    own = _project(sample_story.user_sample(settings.paths.projects_dir))
    before = (repo_sample / "project.db").read_bytes()
    window = make_window()
    assert "generates it" not in window.welcome.sample_button.text()
    window.welcome.sample_button.click()
    assert window.session is not None, window.last_error
    assert window.session.path == (own if shipped == "damaged" else repo_sample)
    assert window.last_error is None
    window.close_project("cancel")
    if shipped == "damaged":
        assert (repo_sample / "project.db").read_bytes() == before  # left as it is, for `make run` to set aside
