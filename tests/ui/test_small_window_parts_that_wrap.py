"""The parts that make a narrow window possible, each on its own, and the window at its usual
sizes, laid out as before: the docks' widths, the player's slider line, the takes' buttons on
three lines, the dialogue row under its label, the status line that elides."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QFormLayout

from studio.ui.theme import apply_theme
from studio.ui.window_layout import CANVAS_MIN, CANVAS_ROOM, INSPECTOR_MIN, INSPECTOR_WIDTH, LEFT_MIN, dock_widths

LONGEST_SEED = 2**31 - 1


def _settle(qtbot, ms: int = 50) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):
        QApplication.processEvents()
    qtbot.wait(ms)


@pytest.fixture
def themed():  # type: ignore[no-untyped-def]
    apply_theme(QApplication.instance(), "dark")
    yield


@pytest.mark.parametrize("width", range(600, 2000, 20))
def test_dock_widths_keep_the_canvas_room_in_a_narrow_window(width: int) -> None:
    widths = dock_widths(width, left_open=False)
    assert widths.inspector >= INSPECTOR_MIN
    if width >= INSPECTOR_MIN + CANVAS_MIN + 16:
        assert widths.canvas(width) >= CANVAS_MIN
    if width >= INSPECTOR_WIDTH + 16 + CANVAS_ROOM:
        assert widths.inspector == INSPECTOR_WIDTH  # room enough: the inspector's own width
    if width >= 1000:  # as wide as it was: half the window, up to its own width
        assert widths.inspector == min(INSPECTOR_WIDTH, width // 2 - 16)
    elif width >= INSPECTOR_MIN + 16 + CANVAS_ROOM:  # a small window: the tree keeps two columns of cards
        assert widths.canvas(width) >= CANVAS_ROOM
    with_left = dock_widths(width, left_open=True)
    assert with_left.left >= LEFT_MIN


def test_at_1280x720_the_window_is_laid_out_as_before(make_window, sample_project: Path, qtbot, themed) -> None:
    window = make_window(sample_project)
    window.resize(1280, 720)
    qtbot.waitUntil(lambda: window.width() == 1280, timeout=5000)
    _settle(qtbot, 200)
    ws = window.workspace
    tree = ws.tree
    ws.select(tree.child_ids(tree.root_id)[0])
    _settle(qtbot, 200)
    assert window.inspector_dock.width() == INSPECTOR_WIDTH
    assert ws.episode.player.width() >= 320
    assert not ws.episode.player.slider_on_own_line()  # the slider beside the buttons
    assert ws.inspector.takes.button_row.lines == 1
    form = ws.inspector.editor.findChild(QFormLayout)
    assert form is not None
    label = form.labelForField(ws.inspector.editor.character)
    # each instruction label beside its field, as before
    assert label.mapTo(ws.inspector, QPoint(0, 0)).y() == pytest.approx(
        ws.inspector.editor.character.mapTo(ws.inspector, QPoint(0, 0)).y(), abs=6)
    assert not window._set_aside


def test_at_1024x640_the_player_keeps_its_width(make_window, sample_project: Path, qtbot, themed) -> None:
    window = make_window(sample_project)

    def resized() -> bool:
        window.resize(1024, 640)
        return window.width() == 1024

    qtbot.waitUntil(resized, timeout=5000)
    qtbot.waitUntil(lambda: window.workspace.episode.player.width() >= 320, timeout=5000)
    assert not window.workspace.episode.player.slider_on_own_line()


def test_a_narrow_player_puts_its_slider_on_a_line_of_its_own(qtbot, themed) -> None:
    from studio.ui.media_cache import ClipCache
    from studio.ui.player import SLIDER_MIN_LENGTH, Player

    player = Player(ClipCache())
    qtbot.addWidget(player)
    player.resize(230, 200)
    player.show()
    qtbot.waitExposed(player)
    _settle(qtbot)
    assert player.slider_on_own_line()
    assert player.slider.width() >= SLIDER_MIN_LENGTH
    assert player.slider.mapTo(player, QPoint(0, 0)).y() < player.play_button.mapTo(player, QPoint(0, 0)).y()
    for button in (player.play_button, player.back_button, player.forward_button, player.loop_button):
        assert button.mapTo(player, QPoint(button.width(), 0)).x() <= player.width()
    assert player.time_label.width() >= player.time_label.sizeHint().width() - 2  # the time is not cut
    player.resize(500, 300)
    _settle(qtbot)
    assert not player.slider_on_own_line()
    assert player.slider.width() >= SLIDER_MIN_LENGTH
    assert player.slider.mapTo(player, QPoint(0, 0)).x() > player.forward_button.mapTo(player, QPoint(0, 0)).x()


def test_the_takes_buttons_go_on_three_lines_where_two_do_not_hold_them(qtbot, themed) -> None:
    from studio.ui.inspector.takes_view import TakesView
    from studio.ui.media_cache import ClipCache

    takes = TakesView(ClipCache(), str)
    qtbot.addWidget(takes)
    takes.set_locked_seed(LONGEST_SEED)
    row = takes.button_row
    takes.resize(row.two_lines_width() - 10, 400)
    takes.show()
    qtbot.waitExposed(takes)
    _settle(qtbot)
    assert row.lines == 3 and row.wrapped
    assert takes.minimumSizeHint().width() <= row.width()
    tops = [b.mapTo(takes, QPoint(0, 0)).y() for b in (takes.compare_button, takes.lock_button,
                                                       takes.reroll_many_button)]
    assert tops[0] < tops[1] < tops[2], tops
    for button in (takes.compare_button, takes.lock_button, takes.reroll_many_button, takes.reroll_count):
        assert button.mapTo(row, QPoint(button.width(), 0)).x() <= row.width(), button
        assert button.width() >= button.sizeHint().width(), f"{button} is squeezed"
    takes.resize(row.one_line_width() + 40, 400)
    _settle(qtbot)
    assert row.lines == 1


def test_a_narrow_dialogue_row_goes_under_its_label(qtbot, themed) -> None:
    from studio.ui.inspector.story_editor import LINE_TEXT_MIN_WIDTH, SPEAKER_MIN_WIDTH, StoryEditor

    story = StoryEditor()
    qtbot.addWidget(story)
    story.speakers = ["Bartholomew the Magnificent"]
    story.show()
    story.add_line.click()
    _settle(qtbot)
    assert story.rows
    row = story.rows[0]
    row.text.setText("Where is the station?")
    for width in (220, 260, 400):
        story.resize(width, 300)
        _settle(qtbot)
        assert row.mapTo(story, QPoint(row.width(), 0)).x() <= story.width()
        assert row.text.width() >= LINE_TEXT_MIN_WIDTH - 2, (width, row.text.width())
        assert row.speaker.width() >= SPEAKER_MIN_WIDTH, (width, row.speaker.width())
    assert story.minimumSizeHint().width() <= 220


def test_a_long_message_ends_in_an_ellipsis_and_keeps_its_text(qtbot) -> None:
    from studio.ui.elided_label import ElidedLabel

    label = ElidedLabel("short")
    qtbot.addWidget(label)
    text = "The clip could not be read: " + "x" * 300
    label.setText(text)
    label.resize(200, 20)
    label.show()
    qtbot.waitExposed(label)
    assert label.minimumSizeHint().width() < 150
    assert label.is_elided() and label.text() == text
    assert label.shown_text().endswith("…") and len(label.shown_text()) < len(text)
    label.resize(label.fontMetrics().horizontalAdvance(text) + 20, 20)
    assert not label.is_elided() and label.shown_text() == text
