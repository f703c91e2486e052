"""A take whose picture file was deleted from disk: its filmstrip thumbnail said "done" (as if
all were well) and a stale take's card said "not generated yet"; both now say "picture
missing". A picture still loading says nothing (cards flashed "picture missing" at open)."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import EditInstruction
from studio.ui.node_summary import CardStatus, PosterState, placeholder_label

from .conftest import generate_first_branch


def test_what_an_empty_poster_box_says() -> None:
    assert placeholder_label(CardStatus.DONE, PosterState.LOADING) == ""
    assert placeholder_label(CardStatus.STALE, PosterState.LOADING) == ""
    assert placeholder_label(CardStatus.DONE, PosterState.MISSING) == "picture missing"
    assert placeholder_label(CardStatus.STALE, PosterState.MISSING) == "picture missing"
    assert placeholder_label(CardStatus.DRAFT, PosterState.NONE) == "not generated yet"
    assert placeholder_label(CardStatus.FAILED, PosterState.NONE) == "generation failed\npress R to try again"
    assert placeholder_label(CardStatus.RUNNING, PosterState.NONE) == ""
    assert placeholder_label(CardStatus.START, PosterState.NONE) == "Start"


def test_a_deleted_poster_says_picture_missing(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    leaf = generate_first_branch(window, qtbot)
    project = window.session.project
    tree = project.tree
    second = [n.id for n in tree.path_to(leaf)][2]
    rel = tree.selected_take(second).poster_path
    (project.path / rel).unlink()
    window.close_project("cancel")

    window = make_window(sample_project)
    ws = window.workspace
    ws.select(leaf, center=False)
    ws.view.fit_all()
    strip, scene = ws.episode.strip, ws.scene
    path = str(window.session.project.resolve(rel))
    qtbot.waitUntil(lambda: scene.posters.is_broken(path), timeout=10_000)
    assert strip.summaries[2].node_id == second
    assert strip.placeholder_text(2) == "picture missing"
    assert scene.poster_state(rel) is PosterState.MISSING
    assert placeholder_label(scene.cards[second].summary.status, scene.poster_state(rel)) == "picture missing"
    assert strip.placeholder_text(1) == ""  # it has its picture (loaded or loading): no word over it
    assert strip.placeholder_text(0) == "Start"

    first = strip.summaries[1].node_id  # a new instruction above it makes the take stale
    ws.apply(EditInstruction(first, "Character: Qiqi; Motion: slowly walk; Background: day beach."))
    qtbot.waitUntil(lambda: strip.summaries[2].status is CardStatus.STALE, timeout=5_000)
    assert strip.placeholder_text(2) == "picture missing"
    assert placeholder_label(scene.cards[second].summary.status, scene.poster_state(rel)) == "picture missing"
