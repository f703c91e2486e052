"""Selecting a turn of a branch that has no clip (a fresh alternative, a turn whose take failed)
while other turns of the branch have clips: the paused preview showed another turn's clip (the
first clip of the new timeline) as if it were the selected turn's, and marked that turn as the
one shown. It now says why the turn has no clip in place of a frame, marks no turn as shown, and
Play (or a double click on the turn) starts at the next clip of the branch."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from studio.ui.episode.episode_panel import no_clip_note
from studio.ui.node_summary import CardStatus

from .conftest import generate_first_branch


def test_a_turn_without_a_clip_says_so_in_the_preview(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    leaf = generate_first_branch(window, qtbot)
    branch = [n.id for n in ws.tree.path_to(leaf)]
    episode = ws.episode
    player = episode.player
    ws.select(branch[-1], center=False)
    qtbot.waitUntil(lambda: player.ready and len(player.paths) == 5, timeout=10_000)
    assert episode.strip.playing == 5

    window.actions_.fork.trigger()  # an alternative of turn 5, no take yet, selected
    window.session.settle()
    # the new turn keeps its place in the preview, with no clip
    qtbot.waitUntil(lambda: ws.current_id not in branch and len(player.paths) == 5 and player.paths[4] == "",
                    timeout=5_000)
    qtbot.waitUntil(lambda: player.ready, timeout=10_000)
    assert player.view.image is None, "the preview shows another turn's clip for a turn without one"
    assert player.view.message == "Turn 5 is not generated yet"
    assert episode.strip.playing == -1 and episode.chart.playing == -1

    player.seek(3)  # a scrub shows the frames; a redraw of the same turn (progress, say) keeps it
    assert player.view.image is not None
    branch_now, summaries, states, current, known = episode._key
    episode.set_branch(list(branch_now), [*summaries[:-1], replace(summaries[-1], fraction=0.5)],
                       list(states), current, list(known))
    assert player.frame == 3 and player.view.image is not None
    player.seek(0)

    player.play()  # from the next clip: none after turn 5, so the branch's first
    assert player.playing and player.view.image is not None
    assert episode.strip.playing == 1
    player.pause()

    ws.select(branch[2], center=False)  # a turn with a clip: its frame, no note
    qtbot.waitUntil(lambda: episode.strip.playing == 2, timeout=5_000)
    assert player.view.image is not None and player.note == ""


def test_a_double_click_on_a_turn_without_a_clip_plays_from_the_next_clip(
        make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    leaf = generate_first_branch(window, qtbot)
    episode = ws.episode
    ws.select(leaf, center=False)
    qtbot.waitUntil(lambda: episode.player.ready and len(episode.player.paths) == 5, timeout=10_000)
    episode.strip.turn_activated.emit(0)  # the start has no clip: the branch plays from turn 1
    assert episode.player.playing
    assert episode.strip.playing == 1
    episode.player.pause()


def test_the_note_names_the_reason() -> None:
    from studio.core.state import CharacterState
    from studio.ui.node_summary import NodeSummary

    base = NodeSummary("n", "t", "t", CharacterState(), None, CardStatus.DRAFT, False, "", "", 0)
    assert no_clip_note(3, base) == "Turn 3 is not generated yet"
    assert no_clip_note(3, replace(base, status=CardStatus.RUNNING)) == "Turn 3 is being generated…"
    failed = replace(base, status=CardStatus.FAILED, error="CUDA out of memory\nTraceback ...")
    assert no_clip_note(3, failed) == "Turn 3 failed: CUDA out of memory"
    assert no_clip_note(3, replace(base, status=CardStatus.FAILED)) == "Turn 3 failed"
