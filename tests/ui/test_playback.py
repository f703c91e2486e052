"""Watching the story: the branch player, hover previews, the state chart and filmstrip,
and the settings that generation uses."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QPointF, Qt

from studio.ui.node_summary import CardStatus

from .conftest import SMALL_SKETCH

TIMEOUT_MS = 120_000


def _generated(make_window, sample_project: Path, qtbot):  # type: ignore[no-untyped-def]
    """The sample story with every turn generated; the last turn of the first branch selected."""
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    for leaf in tree.leaves_under(tree.root_id):
        ws.select(leaf.id)
        window.actions_.fill.trigger()
    qtbot.waitUntil(lambda: all(ws.scene.status(n) is CardStatus.DONE for n in tree.nodes if n != tree.root_id),
                    timeout=TIMEOUT_MS)
    tree = window.session.project.tree  # the snapshot with every take
    leaf = tree.leaves_under(tree.root_id)[0]
    ws.select(leaf.id)
    return window, ws, tree, leaf


def _episode(window, leaf_id: str):  # type: ignore[no-untyped-def]
    """Where each turn of the branch lands in its exported episode (the sample's turns set durations)."""
    from studio.core.progress import never_cancelled, no_progress
    from studio.export.branch import collect_branch
    from studio.export.options import ExportOptions
    from studio.export.plan import plan_episode

    project = window.session.project
    return plan_episode(collect_branch(project, leaf_id), ExportOptions(), no_progress, never_cancelled).timeline


def test_branch_player_plays_steps_scrubs_and_loops(make_window, sample_project: Path, qtbot, settings) -> None:
    window, ws, _tree, leaf = _generated(make_window, sample_project, qtbot)
    player = ws.episode.player
    episode = _episode(window, leaf.id)
    qtbot.waitUntil(lambda: player.ready and player.frame_count == episode.total_frames, timeout=20_000)

    player.seek(0)
    player.step(1)
    assert player.frame == 1
    player.step(-1)
    assert player.frame == 0
    player.slider.setValue(SMALL_SKETCH["frames"] + 2)  # scrubbing lands in the second clip
    assert player.frame == SMALL_SKETCH["frames"] + 2
    assert ws.episode.strip.playing == 2  # its turn is highlighted in the filmstrip

    window.actions_.play.trigger()  # Space: play the whole branch
    assert player.playing
    player.seek(player.frame_count - 1)
    qtbot.waitUntil(lambda: player.frame < player.frame_count - 1, timeout=5_000)  # looped back to the start
    player.loop_button.click()  # loop off: playback stops at the end
    assert not player.loop
    player.seek(player.frame_count - 2)
    qtbot.waitUntil(lambda: not player.playing, timeout=5_000)
    assert player.frame == player.frame_count - 1


def test_the_preview_shows_the_selected_turn(make_window, sample_project: Path, qtbot) -> None:
    """Selecting a turn (tree, keys, filmstrip) puts the paused branch player on that turn's clip."""
    window, ws, tree, leaf = _generated(make_window, sample_project, qtbot)
    player = ws.episode.player
    branch = [n.id for n in tree.path_to(leaf.id)]
    episode = _episode(window, leaf.id)
    qtbot.waitUntil(lambda: player.ready and player.frame_count == episode.total_frames, timeout=20_000)
    assert player.frame == episode.turns[-1].start  # the leaf is selected: its clip's first frame
    ws.select(branch[2])
    assert player.frame == SMALL_SKETCH["frames"] and ws.episode.strip.playing == 2
    window_play = player.playing
    assert not window_play
    player.play()  # playing from there, a selection elsewhere does not jump the playback
    ws.select(branch[4])
    assert player.playing and player.frame < 3 * SMALL_SKETCH["frames"]
    player.pause()


def test_hovering_a_card_plays_its_clip(make_window, sample_project: Path, qtbot) -> None:
    _window, ws, _tree, leaf = _generated(make_window, sample_project, qtbot)
    card = ws.scene.cards[leaf.id]
    view = ws.view
    view.centerOn(card)
    qtbot.wait(50)
    centre = view.mapFromScene(card.sceneBoundingRect().center())
    qtbot.mouseMove(view.viewport(), QPoint(5, 5))
    qtbot.mouseMove(view.viewport(), centre)
    qtbot.waitUntil(lambda: card.hover_frame > 1, timeout=10_000)
    assert card._poster_image() is not None  # a frame of the clip, not the poster
    qtbot.mouseMove(view.viewport(), QPoint(2, 2))
    qtbot.waitUntil(lambda: card.hover_frame == 0, timeout=5_000)


def test_clicking_the_chart_or_the_filmstrip_selects_that_turn(make_window, sample_project: Path, qtbot) -> None:
    _window, ws, tree, leaf = _generated(make_window, sample_project, qtbot)
    branch = [n.id for n in tree.path_to(leaf.id)]
    chart = ws.episode.chart
    qtbot.waitUntil(lambda: len(chart.states) == len(branch))
    x = int(chart.point_x(2))
    qtbot.mouseClick(chart, Qt.MouseButton.LeftButton, pos=QPoint(x, chart.height() // 2))
    assert ws.current_id == branch[2]
    strip = ws.episode.strip
    rect = strip.thumb_rect(4)
    qtbot.mouseClick(strip, Qt.MouseButton.LeftButton, pos=rect.center().toPoint())
    assert ws.current_id == branch[4]
    state = tree.state_of(branch[4])
    assert chart.states[4] == state and chart.current == 4
    assert isinstance(rect.center(), QPointF)


def test_settings_dialog_sets_what_new_takes_are_made_with(make_window, sample_project: Path, qtbot,
                                                          settings) -> None:
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    window = make_window(sample_project)
    dialog = SettingsDialog(settings, window.registry, window)
    qtbot.addWidget(dialog)
    form = dialog.forms["sketch"]
    form.editors["width"].setValue(192)
    form.editors["height"].setValue(128)
    form.editors["frames"].setValue(5)
    dialog.save()
    assert settings.engine_values("sketch") == {"width": 192, "height": 128, "frames": 5}  # fps: the engine's
    ws = window.workspace
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    ws.select(first)
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: any(t.status.value == "done" for t in window.session.project.tree.takes_of(first)),
                    timeout=TIMEOUT_MS)
    take = window.session.project.tree.selected_take(first)
    assert (take.settings["width"], take.settings["height"], take.settings["frames"]) == (192, 128, 5)
    assert take.settings["fps"] == 8.0 and take.settings["camera"] == "auto"  # the take stores every value used
    assert str(sample_project) in [str(Path(p)) for p in settings.recent_projects]


def test_a_missing_clip_is_said_and_skipped_and_the_branch_plays_on(make_window, sample_project: Path, qtbot,
                                                                     settings) -> None:
    from studio.ui.player import MISSING_FRAMES, MISSING_TEXT

    window, ws, tree, leaf = _generated(make_window, sample_project, qtbot)
    turns = [n.id for n in tree.path_to(leaf.id) if not n.is_root]
    second = tree.selected_take(turns[1])
    assert second is not None
    spans = _episode(window, leaf.id).turns  # planned while the second clip is there
    window.close_project("cancel")
    (sample_project / second.clip_path).unlink()  # the second turn's clip is gone
    window = make_window(sample_project)
    assert "1 clip file(s) are missing" in window.status_label.text()
    ws = window.workspace
    ws.select(leaf.id)
    player = ws.episode.player
    frames = SMALL_SKETCH["frames"]
    assert tree.node(turns[0]).story.duration is None, "the first turn lasts its clip's frames"
    expected = spans[-1].end - spans[1].frames + MISSING_FRAMES  # a stand-in keeps every turn's place
    qtbot.waitUntil(lambda: player.ready and player.frame_count == expected, timeout=20_000)
    player.seek(frames + 1)  # inside the missing clip: it says so
    assert player.view.image is None and player.view.message == MISSING_TEXT
    assert ws.episode.strip.playing == 2, "its turn is highlighted"
    player.loop_button.click()  # loop off: playback runs through the gap to the end
    player.seek(frames + MISSING_FRAMES - 2)
    window.actions_.play.trigger()
    qtbot.waitUntil(lambda: not player.playing, timeout=10_000)
    assert player.frame == player.frame_count - 1 and player.view.image is not None
