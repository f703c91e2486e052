"""Authoring in the window: story fields in the inspector, the Start inspector, the draft's
main character, understanding chips, re-rolls that keep the selection, choosing takes,
the compare window, seed lock, Re-roll x N and per-character chart lines."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.core.commands import AddCastMember
from studio.core.model import CastMember
from studio.core.story import DialogueLine
from studio.ui.node_summary import summarize
from tests.ui.keys import press_story_key

TIMEOUT_MS = 60_000


def _window_with_cast(make_window, tmp_path: Path, *names: str):  # type: ignore[no-untyped-def]
    window = make_window()
    assert window.new_project(tmp_path / "story"), window.last_error
    project = window.session.project  # a new project has the default cast (Qiqi first)
    for name in names:
        if all(m.name != name for m in project.tree.cast.values()):
            project.apply(AddCastMember(CastMember(id=name.lower(), name=name)))
    return window


def _generate(window, qtbot, parent: str, text: str) -> str:  # type: ignore[no-untyped-def]
    service = window.session.service
    node_id, job = service.generate(parent, text, settings=window.session.job_settings())
    assert service.wait_jobs([job], 60)
    qtbot.waitUntil(lambda: window.session.project.tree.selected_take(node_id) is not None, timeout=TIMEOUT_MS)
    return node_id


def _done(project, node_id: str) -> list:  # type: ignore[no-untyped-def]
    return [t for t in project.tree.takes_of(node_id) if t.status.value == "done"]


def test_dialogue_edited_in_the_inspector_reaches_the_document_and_the_srt(make_window, tmp_path, qtbot) -> None:
    from studio.export import export_branch

    window = _window_with_cast(make_window, tmp_path, "Qiqi", "Mei")
    ws, project = window.workspace, window.session.project
    turn = _generate(window, qtbot, project.tree.root_id, "Character: Qiqi; Motion: wave; Background: day town.")
    ws.select(turn)
    story = ws.inspector.story
    assert story.isVisible()
    row = story.add_dialogue_line()
    assert row.speaker.currentText() == "Qiqi", "a new line is spoken by the turn's character"
    row.speaker.setCurrentText("Mei")
    qtbot.keyClicks(row.text, "Good morning, Qiqi!")
    qtbot.keyClick(row.text, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: project.tree.node(turn).story.dialogue == (DialogueLine("Mei", "Good morning, Qiqi!"),))
    window.session.settle()  # the writer has made the edit and the window heard of it
    assert window.actions_.undo.text() == "&Undo Edit dialogue"
    story.narration.setFocus()
    qtbot.keyClicks(story.narration, "The town wakes up.")
    story.commit_pending()
    window.session.settle()  # the writer has made the edit and the window heard of it
    assert project.tree.node(turn).story.narration == "The town wakes up."
    story.duration.setValue(3.5)
    story.duration.editingFinished.emit()
    window.session.settle()  # the writer has made the edit and the window heard of it
    assert project.tree.node(turn).story.duration == 3.5

    srt = export_branch(project, turn, tmp_path / "story.srt")
    text = Path(srt.paths[0]).read_text(encoding="utf-8")
    assert "Mei: Good morning, Qiqi!" in text and "The town wakes up." in text
    assert "Character:" not in text

    # Undo goes back field by field; removing the line clears it.
    window.actions_.undo.trigger()  # duration
    window.actions_.undo.trigger()  # narration
    window.session.settle()  # the writer has made the edit and the window heard of it
    assert project.tree.node(turn).story.narration == "" and project.tree.node(turn).story.dialogue
    qtbot.waitUntil(lambda: len(story.rows) == 1)
    story.rows[0].remove.click()
    window.session.settle()  # the writer has made the edit and the window heard of it
    assert project.tree.node(turn).story.dialogue == ()


def test_start_inspector_shows_each_cast_members_start_and_edits_it(make_window, tmp_path, qtbot) -> None:
    window = _window_with_cast(make_window, tmp_path, "Mei", "Aoi")
    ws, project = window.workspace, window.session.project
    ws.select(project.tree.root_id)
    inspector = ws.inspector
    assert not inspector.editor.isVisible(), "no disabled instruction fields at the start"
    assert inspector.start.isVisible()
    qtbot.waitUntil(lambda: {"Mei", "Aoi", "Qiqi"} <= set(inspector.start.spins))
    spin = inspector.start.spins["Aoi"]["stamina"]
    spin.setValue(80)
    spin.editingFinished.emit()
    window.session.settle()  # the writer has made the edit and the window heard of it
    assert project.tree.start_state_of("Aoi").stamina == 80
    assert project.tree.start_state_of("Mei").stamina == 50
    assert window.actions_.undo.text() == "&Undo Set start state"


def test_a_first_turn_defaults_to_the_main_character_and_free_text_shows_no_examples(make_window, tmp_path,
                                                                                      qtbot) -> None:
    window = _window_with_cast(make_window, tmp_path, "Mei")  # the default cast: Qiqi, Sosuke, Aoi...
    ws, project = window.workspace, window.session.project
    assert next(iter(project.tree.cast.values())).name == "Qiqi"
    ws.select(project.tree.root_id)
    ws.start_new_turn()
    # shown as the grey hint of what the turn goes on with, not as the field's value
    assert ws.inspector.editor.character.text() == ""
    assert ws.inspector.editor.character.placeholderText() == "Qiqi (the cast's lead)", \
        "the first cast member added, not Aoi (alphabetical)"
    ws._cancel_draft()
    free = _generate(window, qtbot, project.tree.root_id, "Aoi eats bread slowly in the bakery at night")
    ws.select(free)
    editor = ws.inspector.editor
    assert editor.free_text.text()
    assert all(not field.placeholderText() for field in editor.fields()), "no grey examples of another turn"
    ws.start_new_turn()
    assert editor.character.placeholderText() == "Aoi (as before)", "the latest turn's character continues"
    assert editor.background.placeholderText() == "bakery (as before)", "the place the engine read continues"


def test_the_start_card_lists_the_cast_lead_first_and_counts_the_rest(make_window, tmp_path) -> None:
    window = _window_with_cast(make_window, tmp_path, "Mei")
    tree = window.session.project.tree
    names = [m.name for m in tree.cast.values()]
    assert names[0] == "Qiqi" and len(names) > 3
    start = summarize(tree, tree.root_id)
    assert start.excerpt == ", ".join(names[:3]) + f" +{len(names) - 3}"
    assert window.workspace.scene.cards[tree.root_id].summary.excerpt.startswith("Qiqi")


def test_a_free_text_turn_names_its_card_and_pictures_its_cast_and_place(make_window, tmp_path, qtbot) -> None:
    window = _window_with_cast(make_window, tmp_path, "Qiqi", "Yuzu")
    ws, project = window.workspace, window.session.project
    turn = _generate(window, qtbot, project.tree.root_id, "Yuzu runs to the shrine at midnight")
    assert summarize(project.tree, turn).title == "Yuzu · shrine"
    from studio.ui.cast_panel import pictures_from_takes

    people, places = pictures_from_takes(project.tree)  # the cast and place lists show its picture
    poster = project.tree.selected_take(turn).poster_path
    assert people["yuzu"] == poster and places["shrine"] == poster
    qtbot.waitUntil(lambda: turn in ws.scene.cards and ws.scene.cards[turn].summary.title == "Yuzu · shrine",
                    timeout=TIMEOUT_MS)


def test_chips_show_what_was_understood_and_fix_a_word(make_window, tmp_path, qtbot) -> None:
    from studio.ui.inspector.understanding import ChipField

    window = _window_with_cast(make_window, tmp_path, "Qiqi")
    ws, project = window.workspace, window.session.project
    turn = _generate(window, qtbot, project.tree.root_id, "Character: Qiqi; Motion: juggle; Background: dawn park.")
    ws.select(turn)
    chips = ws.inspector.chips
    qtbot.waitUntil(lambda: bool(chips.chips))
    texts = [chip.text for chip in chips.chips]
    assert any(t.startswith("place: park") for t in texts)
    assert "time: sunset (dawn)" in texts
    time_chip = next(c for c in chips.chips if c.field is ChipField.TIME)
    assert "dawn" in time_chip.tooltip and "sunset" in time_chip.tooltip
    warning = next(c for c in chips.chips if c.warning)
    assert warning.field is ChipField.MOTION and "juggle" in warning.text
    assert chips.warning_count >= 1
    assert summarize(project.tree, turn).warnings >= 1  # the badge on the card
    card = ws.scene.cards.get(turn)
    assert card is None or card.summary.warnings >= 1
    qtbot.waitUntil(lambda: "wave" in chips.vocabulary.motions)  # the engine's words arrive once idle
    menu = chips.menu_for(warning)
    words = [a.data() for a in menu.actions() if a.data()]
    assert words and "juggle" not in words and all(w in chips.vocabulary.motions for w in words)
    next(a for a in menu.actions() if a.data() == words[0]).trigger()
    window.session.settle()  # the writer has made the edit and the window heard of it
    assert project.tree.node(turn).instruction.motion == words[0]
    assert project.tree.node(turn).instruction.background == "park"
    assert window.actions_.undo.text() == "&Undo Edit instruction"
    window.actions_.undo.trigger()
    window.session.settle()  # the writer has made the edit and the window heard of it
    assert project.tree.node(turn).instruction.motion == "juggle"


def test_a_reroll_keeps_the_selection_and_choosing_a_take_offers_to_reroll_later_turns(make_window, tmp_path,
                                                                                       qtbot) -> None:
    window = _window_with_cast(make_window, tmp_path, "Qiqi")
    ws, project = window.workspace, window.session.project
    first = _generate(window, qtbot, project.tree.root_id, "Character: Qiqi; Motion: walk; Background: day town.")
    second = _generate(window, qtbot, first, "Character: Qiqi; Motion: wave")
    chosen = project.tree.node(first).selected_take_id
    followed = project.tree.node(second).selected_take_id
    ws.select(first)
    press_story_key(window, qtbot, Qt.Key.Key_R)
    qtbot.waitUntil(lambda: len(_done(project, first)) == 2, timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 2)
    # The inspector reads the latest tree, so a redraw for a job's progress can show the new take
    # before the window hears of its change (and names it in the Undo entry): wait for that too.
    window.session.settle()
    assert ws.current_id == first and project.tree.node(first).selected_take_id == chosen
    assert not project.tree.selected_take(second).stale
    assert window.actions_.undo.text() == "&Undo Re-roll"
    new = next(t for t in _done(project, first) if t.id != chosen)

    asked: list[int] = []
    window.ask_stale = lambda count: asked.append(count) or "reroll"  # type: ignore[method-assign]
    ws.choose_take(first, new.id)
    window.session.settle()  # the writer has made the edit and the window heard of it
    assert asked == [1], "one later turn becomes stale"
    assert project.tree.node(first).selected_take_id == new.id
    qtbot.waitUntil(lambda: len(_done(project, second)) == 2, timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: not project.tree.selected_take(second).stale, timeout=TIMEOUT_MS)

    # the first take chosen again: the turn after it gets back its take made from that one, so
    # nothing goes stale and nothing is asked
    asked.clear()
    window.ask_stale = lambda count: asked.append(count) or None  # type: ignore[method-assign]
    ws.choose_take(first, chosen)
    window.session.settle()  # the writer has made the edit and the window heard of it
    assert asked == [] and project.tree.node(first).selected_take_id == chosen
    assert project.tree.node(second).selected_take_id == followed
    assert not project.tree.selected_take(second).stale


def test_take_picker_fits_four_compare_window_plays_in_sync_and_seed_lock(make_window, tmp_path, qtbot) -> None:
    window = _window_with_cast(make_window, tmp_path, "Qiqi")
    ws, project = window.workspace, window.session.project
    turn = _generate(window, qtbot, project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town.")
    ws.select(turn)
    ws.inspector.takes.reroll_many_button.click()  # x 3
    qtbot.waitUntil(lambda: len(_done(project, turn)) == 4, timeout=TIMEOUT_MS)
    takes = ws.inspector.takes
    qtbot.waitUntil(lambda: len(takes.tiles) == 4)
    assert len({t.seed for t in _done(project, turn)}) == 4
    assert takes.per_view.currentText() == "4"
    qtbot.waitUntil(lambda: all(tile.isVisible() for tile in takes.tiles))
    viewport = takes.scroll_area.viewport().width()
    assert 4 * takes.tile_width() + 3 * 6 <= viewport, "four takes fit side by side"
    for tile in takes.tiles:
        assert tile.state_label.text().startswith(f"level {tile.take.motion_level}")
        assert "Stamina" in tile.state_label.text()

    compare = ws.compare_takes()
    assert compare is not None and len(compare.columns) == 4
    qtbot.waitUntil(lambda: compare.frame_count > 0 and all(c.player.frame_count for c in compare.columns),
                    timeout=20_000)
    assert compare.playing
    qtbot.waitUntil(lambda: compare.frame >= 2, timeout=10_000)
    compare.pause()
    frames = compare.frames()
    assert len(set(frames)) == 1 and frames[0] == compare.frame, "every take shows the same frame"
    compare.seek(1)
    assert compare.frames() == [1, 1, 1, 1]
    assert "seed" in compare.columns[0].facts.text()
    # choosing a take there (or undoing it) moves the window's "selected" with the turn's
    chosen = project.tree.node(turn).selected_take_id
    was = next(c for c in compare.columns if c.take.id == chosen)
    other = next(c for c in compare.columns if c.take.id != chosen)
    assert "selected" in was.caption.text() and not was.use_button.isEnabled()
    other.use_button.click()
    window.session.settle()
    qtbot.waitUntil(lambda: "selected" in other.caption.text())
    assert not other.use_button.isEnabled() and was.use_button.isEnabled() and "selected" not in was.caption.text()
    ws.undo()
    window.session.settle()
    qtbot.waitUntil(lambda: "selected" in was.caption.text())
    assert other.use_button.isEnabled()

    seed = compare.columns[2].take.seed
    compare.columns[2].lock_button.click()
    assert window.session.settings.locked_seed == seed and takes.lock_button.isChecked()
    takes.per_view.setCurrentText("2")  # five takes, two in view: the new one must be one of them
    takes.scroll_area.horizontalScrollBar().setValue(0)
    ws.reroll(turn)
    qtbot.waitUntil(lambda: len(_done(project, turn)) == 5, timeout=TIMEOUT_MS)
    assert project.tree.takes_of(turn)[-1].seed == seed

    def newest_in_view() -> bool:
        tile = takes.tiles[-1] if len(takes.tiles) == 5 else None
        if tile is None:
            return False
        left = tile.mapTo(takes.scroll_area.viewport(), tile.rect().topLeft()).x()
        return left >= 0 and left + tile.width() <= takes.scroll_area.viewport().width() + 1

    qtbot.waitUntil(newest_in_view)
    takes.lock_button.click()
    assert window.session.settings.locked_seed is None
    compare.close()
    # five takes, four compared: each keeps the number the inspector gives it
    again = ws.compare_takes()
    assert again is not None and len(again.columns) == 4
    order = [t.id for t in project.tree.takes_of(turn)]
    shown = [order.index(column.take.id) + 1 for column in again.columns]
    assert shown != [1, 2, 3, 4]
    for number, column in zip(shown, again.columns, strict=True):
        assert column.caption.text().startswith(f"<b>Take {number}</b>")
        assert takes.tiles[number - 1].caption.text() == f"Take {number}"
    again.close()


def test_the_chart_shows_one_line_per_character(make_window, tmp_path, qtbot) -> None:
    window = _window_with_cast(make_window, tmp_path, "Qiqi", "Mei")
    ws, project = window.workspace, window.session.project
    a = _generate(window, qtbot, project.tree.root_id, "Character: Qiqi; Motion: run fast; Background: day town.")
    b = _generate(window, qtbot, a, "Character: Mei; Motion: sleep; Background: night bedroom.")
    ws.select(b)
    chart = ws.episode.chart
    qtbot.waitUntil(lambda: {"Qiqi", "Mei"} <= set(chart.characters))
    chart.set_mode("stamina")
    lines = chart.character_lines()
    tree = project.tree
    assert lines["Qiqi"] == [50, tree.state_of(a).stamina, tree.state_of(a).stamina], "Mei's turn leaves Qiqi"
    assert lines["Mei"] == [50, 50, tree.state_of(b).stamina]
    assert list(lines) == ["Qiqi", "Mei"], "only the characters acting in the branch, in the cast's order"
    assert summarize(tree, b).state == tree.state_of(b)  # the card shows the acting character's state
    assert tree.state_of(b).stamina == lines["Mei"][-1]
    assert chart.mode_box.currentData() == "stamina"
    assert not chart.grab().toImage().isNull()


def test_a_long_dialogue_line_shows_its_beginning(qtbot) -> None:
    from studio.ui.inspector.story_editor import DialogueRow

    text = "Where is the clock tower from here? I have been flying in circles all morning."
    row = DialogueRow(DialogueLine("Qiqi", text), ["Qiqi", "Yuzu"])
    qtbot.addWidget(row)
    row.resize(260, 30)
    row.show()
    qtbot.waitExposed(row)
    assert row.text.text() == text
    assert row.text.cursorPosition() == 0
    assert row.text.cursorRect().left() < 20  # the first word is in view


def test_the_seed_lock_is_a_framed_toggle_that_shows_when_it_is_on(qtbot) -> None:
    from PySide6.QtWidgets import QApplication

    from studio.ui.inspector.takes_view import TakesView
    from studio.ui.media_cache import ClipCache
    from studio.ui.theme import apply_theme

    apply_theme(QApplication.instance(), "light")
    try:
        view = TakesView(ClipCache(), str)
        qtbot.addWidget(view)
        view.resize(420, 300)
        view.show()
        qtbot.waitExposed(view)
        button = view.lock_button
        off = button.grab().toImage()
        middle = off.height() // 2
        edge, inside = off.pixelColor(0, middle), off.pixelColor(3, middle)
        assert abs(edge.lightness() - inside.lightness()) > 12, "no frame around 'Lock seed'"
        view.set_locked_seed(1234)
        assert button.isChecked() and "1234" in button.text()
        on = button.grab().toImage()
        assert on.pixelColor(on.width() // 2, 3) != off.pixelColor(off.width() // 2, 3)  # the checked look
    finally:
        apply_theme(QApplication.instance(), "dark")


def test_a_narrow_take_tile_words_its_button_to_fit(qtbot) -> None:
    """Four takes side by side in a narrow inspector: 'Selected' is never cut to 'Selecte'."""
    from studio.core.model import Take
    from studio.ui.inspector.takes_view import BUTTON_PADDING, TakeTile
    from studio.ui.media_cache import ClipCache

    clips = ClipCache()
    for selected in (True, False):
        tile = TakeTile(1, Take(id="t1", node_id="n1", engine="sketch"), selected, clips, str)
        qtbot.addWidget(tile)
        for width in (300, 110, 80, 60):
            tile.resize(width, 260)
            tile.show()
            qtbot.wait(20)
            button = tile.use_button
            advance = button.fontMetrics().horizontalAdvance(button.text())
            assert advance <= button.width() - BUTTON_PADDING or len(button.text()) <= 3, (width, button.text())
        tile.resize(300, 260)
        qtbot.wait(20)
        assert tile.use_button.text() == ("✓ Selected" if selected else "Use this take")
