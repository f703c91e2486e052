"""A poster or clip that failed to load (its file missing, or not yet whole) was remembered
as missing until the project was reopened: a card went on saying "picture missing" after
the file was put back (restored by hand, or the project folder moved and put back as the
window asks). A failed file is now tried again once it changes; back in the window, every
such file is loaded again, and the cards waiting on it repaint."""

from __future__ import annotations

import shutil
from pathlib import Path

from PIL import Image
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

from studio.ui.media_cache import PosterCache
from studio.ui.node_summary import PosterState, placeholder_label

from .conftest import generate_first_branch


def test_a_poster_that_failed_loads_once_its_file_changes(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cache = PosterCache()
    path = str(tmp_path / "poster.png")
    with qtbot.waitSignal(cache.failed, timeout=5_000):
        assert cache.get(path) is None
    assert cache.is_broken(path) and cache.get(path) is None and not cache.is_pending(path)
    assert cache.retry_changed() == 0, "nothing changed: not tried again"

    Path(path).write_bytes(b"not a picture yet")
    assert not cache.is_broken(path), "the file changed: it may load now"
    with qtbot.waitSignal(cache.failed, timeout=5_000):
        cache.get(path)
    assert cache.is_broken(path) and cache.retry_changed() == 0

    Image.new("RGB", (64, 48), "red").save(path)
    with qtbot.waitSignal(cache.ready, timeout=5_000):
        assert cache.retry_changed() == 1
    image = cache.get(path)
    assert image is not None and not cache.is_broken(path)
    assert cache.state("poster.png", path) is PosterState.LOADING  # (asked only when get gave None)


def test_a_card_shows_its_picture_once_the_file_is_put_back(  # type: ignore[no-untyped-def]
        make_window, sample_project: Path, qtbot, tmp_path: Path) -> None:
    window = make_window(sample_project)
    leaf = generate_first_branch(window, qtbot)
    project = window.session.project
    second = [n.id for n in project.tree.path_to(leaf)][2]
    rel = project.tree.selected_take(second).poster_path
    kept = tmp_path / "kept-poster.png"
    shutil.move(project.path / rel, kept)
    window.close_project("cancel")

    window = make_window(sample_project)
    ws = window.workspace
    ws.select(leaf, center=False)
    ws.view.fit_all()
    scene = ws.scene
    path = str(window.session.project.resolve(rel))
    qtbot.waitUntil(lambda: scene.posters.is_broken(path), timeout=10_000)
    assert placeholder_label(scene.cards[second].summary.status, scene.poster_state(rel)) == "picture missing"

    shutil.move(kept, path)  # put back while the window is in the background
    QApplication.sendEvent(window, QEvent(QEvent.Type.ActivationChange))  # and back in the window
    qtbot.waitUntil(lambda: scene.posters.peek(path) is not None, timeout=10_000)
    assert scene.poster(rel) is not None, "the card draws its picture again"
    assert not scene.posters.is_broken(path)
