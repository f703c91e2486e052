"""Small things a user sees: the export dialog names its branch and writes to the project's
exports folder, the delete prompt counts in words, the player shows time, timings are in
words, the Generate icon shows on its pink button, pictures in the cast list, the Add
character dialog asks for the look and the start state."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from studio.ui.node_summary import CardStatus

from .conftest import generate_first_branch, open_export_dialog

JOB_TIMEOUT_MS = 120_000


def test_delete_prompt_counts_in_words() -> None:
    from studio.ui.workspace import delete_prompt

    assert delete_prompt(0, 1).startswith("Delete this turn and its 1 take?")
    assert delete_prompt(3, 7).startswith("Delete this turn and the 3 turns below it, with 7 takes?")
    assert "(s)" not in delete_prompt(1, 2)
    assert delete_prompt(0, 0, 1).startswith("Delete this turn?\n1 generation queued or under way there is cancelled")
    assert delete_prompt(2, 0, 3).startswith("Delete this turn and the 2 turns below it?\n3 generations")


def test_delete_of_a_turn_being_generated_asks_first(make_window, sample_project: Path, qtbot) -> None:
    """A turn with no take yet but a generation queued for it: deleting it cancels that job,
    which undo does not bring back, so the user is asked."""
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    assert not tree.takes_of(leaf)
    ws.select(leaf, center=False)
    assert window.session.service is not None
    window.session.service.pause()  # the job stays queued until the question is answered
    ws.generate_current()
    qtbot.waitUntil(lambda: any(j.node_id == leaf for j in window.session.active_jobs()), timeout=20_000)
    asked: list[str] = []
    ws.confirm = lambda title, text: asked.append(text) or False  # type: ignore[method-assign]
    ws.delete_current()
    assert asked and "generation queued or under way there is cancelled" in asked[0], asked
    assert leaf in window.session.project.tree.nodes  # the user said no
    window.session.service.resume()


def test_delete_asks_with_the_right_counts(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    generate_first_branch(window, qtbot, JOB_TIMEOUT_MS)
    tree = window.session.project.tree  # the snapshot with the new takes
    asked: list[str] = []
    ws.confirm = lambda title, text: asked.append(text) or False  # type: ignore[method-assign]
    ws.select(first, center=False)
    ws.delete_current()
    below = len(list(tree.descendants(first)))
    takes = sum(len(tree.takes_of(n)) for n in [first, *(d.id for d in tree.descendants(first))])
    assert below == 7 and takes == 5
    assert asked and asked[0].startswith(f"Delete this turn and the {below} turns below it, with {takes} takes?")
    assert first in tree.nodes  # the user said no


def test_player_shows_time_not_frames(make_window, sample_project: Path, qtbot) -> None:
    from studio.ui.player import format_clock

    assert format_clock(0) == "0:00.0" and format_clock(3.46) == "0:03.5" and format_clock(75) == "1:15.0"
    window = make_window(sample_project)
    ws = window.workspace
    generate_first_branch(window, qtbot, JOB_TIMEOUT_MS)
    player = ws.episode.player
    qtbot.waitUntil(lambda: player.frame_count > 0 and player.ready, timeout=20_000)
    player.pause()
    player.seek(player.frame_count - 1)
    text = player.time_label.text()
    assert text == f"{format_clock(player.time_at(player.frame_count - 1))} / {format_clock(player.duration)}"
    assert player.duration > 1.0 and ":" in text and str(player.frame_count) not in text.split(" / ")[1]


def test_timings_are_named_in_words() -> None:
    from studio.core.model import Take
    from studio.ui.inspector.take_details import take_details_html

    take = Take(id="t", node_id="n", engine="sketch", timings={"context_s": 0.01, "predict_s": 0.2, "decode_s": 0.5})
    html = take_details_html(take)
    assert "context_s" not in html and "predict_s" not in html and "_s " not in html
    assert "reading the branch 0.01 s" in html and "drawing the clip 0.50 s" in html


def test_generate_icon_is_not_pink_on_its_pink_button(qtbot) -> None:
    from PySide6.QtCore import QSize

    from studio.ui.icons import icon_on_accent

    image = icon_on_accent("generate").pixmap(QSize(32, 32)).toImage()
    opaque = [image.pixelColor(x, y) for x in range(32) for y in range(32) if image.pixelColor(x, y).alpha() > 200]
    assert opaque
    pink = QColor("#ff7aa2")
    near_pink = [c for c in opaque if abs(c.red() - pink.red()) + abs(c.green() - pink.green())
                 + abs(c.blue() - pink.blue()) < 60]
    assert not near_pink, "the icon is drawn in the button's own pink"


def test_take_tile_has_no_empty_badge(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    ws.select(first, center=False)
    ws.reroll(first)
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=JOB_TIMEOUT_MS)
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 1, timeout=10_000)
    tile = ws.inspector.takes.tiles[0]
    assert tile.badge.text() == "" and tile.badge.isHidden()


def test_export_dialog_names_the_branch_and_uses_the_exports_folder(make_window, sample_project: Path, qtbot,
                                                                    monkeypatch) -> None:
    from studio.export import ExportOptions

    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    leaf = generate_first_branch(window, qtbot, JOB_TIMEOUT_MS)
    dialog = open_export_dialog(window, monkeypatch)
    out = dialog.choices().out
    project_path = window.session.project.path
    assert out.parent == project_path.parent / f"{project_path.stem} exports" and out.suffix == ".mp4"
    text = dialog.branch_label.text()
    turns = tree.depth(leaf)
    assert f"ending at turn {turns}" in text and "all generated" in text and "Character:" not in text
    assert window.session.project.name in dialog.windowTitle()
    # the export runs as a job; when it ends the status bar says so, with the file
    queued: list[str] = []
    ws.queue_export(out, ExportOptions(crossfade=0.0), "mp4", then=queued.append)
    qtbot.waitUntil(lambda: bool(queued) or window.last_error is not None, timeout=JOB_TIMEOUT_MS)
    assert queued, window.last_error
    qtbot.waitUntil(lambda: window.status_label.text().startswith("Export finished"), timeout=JOB_TIMEOUT_MS)
    assert str(out) in window.status_label.text() and out.is_file()


def test_cast_list_shows_pictures_and_add_character_asks_for_more(make_window, sample_project: Path, qtbot) -> None:
    from PySide6.QtCore import QSize

    from studio.core.state import CharacterState
    from studio.ui.cast_panel import CharacterDialog
    from studio.ui.icons import icon

    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    generate_first_branch(window, qtbot, JOB_TIMEOUT_MS)
    qtbot.waitUntil(lambda: ws.scene.status(tree.child_ids(tree.root_id)[0]) is CardStatus.DONE)
    ws.cast.refresh(window.session.project.tree)
    fallback = icon("person").pixmap(QSize(56, 40)).toImage()
    qiqi = next(ws.cast.characters.item(i) for i in range(ws.cast.characters.count())
                if ws.cast.characters.item(i).text() == "Qiqi")
    picture = qiqi.icon().pixmap(QSize(56, 40)).toImage()
    assert picture != fallback
    colours = {picture.pixelColor(x, y).name() for x in range(0, picture.width(), 3)
               for y in range(0, picture.height(), 3)}
    assert len(colours) > 10  # a picture, not a line icon
    # the dialog asks for the look and where the stats start
    dialog = CharacterDialog(ws)
    qtbot.addWidget(dialog)
    dialog.name.setText("Mei")
    dialog.look["hair_color"].setText("chestnut")
    dialog.look["outfit_style"].setText("uniform")
    dialog.start["stamina"].setValue(80)
    ws.cast.add_character(dialog.name.text(), dialog.images, dialog.params(), dialog.start_state())
    window.session.settle()
    tree = window.session.project.tree
    mei = next(m for m in tree.cast.values() if m.name == "Mei")
    assert dict(mei.params) == {"hair_color": "chestnut", "outfit_style": "uniform"}
    assert tree.start_state_of("Mei") == CharacterState(80, 50, 50)
    window.actions_.undo.trigger()  # one undo step removes both
    window.session.settle()
    assert all(m.name != "Mei" for m in window.session.project.tree.cast.values())


def test_export_dialog_path_survives_format_changes_and_an_empty_field_disables_export(qtbot,
                                                                                       tmp_path: Path) -> None:
    from studio.ui.dialogs.export_dialog import ExportDialog

    dialog = ExportDialog(tmp_path / "story exports" / "Qiqi.mp4", "Qiqi")
    qtbot.addWidget(dialog)
    dialog.choose_format("webm")
    assert dialog.path.text() == str(tmp_path / "story exports" / "Qiqi.webm")
    dialog.path.setText(str(tmp_path / "episode v1.2 final"))
    dialog.choose_format("srt")
    assert dialog.path.text() == str(tmp_path / "episode v1.2 final.srt"), "a dot in the name is kept"
    dialog.path.setText(str(tmp_path))  # an existing folder: the file goes inside it
    dialog.choose_format("otio")
    assert dialog.choices().out == tmp_path / "Qiqi.otio"
    dialog.path.setText("")
    assert not dialog.export_button.isEnabled()
    dialog.choose_format("mp4")  # no exception, and the field stays empty
    assert dialog.path.text() == "" and not dialog.export_button.isEnabled()
    dialog.path.setText(str(tmp_path / "x.mp4"))
    assert dialog.export_button.isEnabled()


def test_a_cancelled_generation_says_so_and_why(make_window, sample_project: Path, qtbot) -> None:
    from studio.core.jobs import Job, JobKind
    from studio.worker.events import EventKind, JobEvent
    from studio.worker.runner import CANCELLED_MESSAGE, NODE_DELETED_MESSAGE

    window = make_window(sample_project)
    job = Job(id="job1", kind=JobKind.GENERATE, node_id="gone", engine="sketch", seed=1)
    window.workspace._on_job_finished(JobEvent(EventKind.CANCELLED, job, message=NODE_DELETED_MESSAGE))
    assert window.status_label.text() == f"Generation cancelled: {NODE_DELETED_MESSAGE}"
    window.workspace._on_job_finished(JobEvent(EventKind.CANCELLED, job, message=CANCELLED_MESSAGE))
    assert window.status_label.text() == "Generation cancelled."


def test_the_instruction_preview_shows_words_as_written_and_cuts_a_long_line(qtbot) -> None:
    from studio.ui.inspector.instruction_editor import PREVIEW_CHARS, InstructionEditor

    editor = InstructionEditor()
    qtbot.addWidget(editor)
    assert not editor.save_button.isEnabled() and not editor.generate_button.isEnabled()
    editor.set_text("Character: Qiqi; Motion: wave <b>hello</b>; Background: park.")
    assert editor.preview.textFormat() is Qt.TextFormat.PlainText and "<b>hello</b>" in editor.preview.text()
    assert editor.save_button.isEnabled() and editor.generate_button.isEnabled()
    editor.set_text("Qiqi runs " * 300)
    # 2,999 characters typed: the editor's full stop is left off a line over the limit
    assert len(editor.preview.text()) < PREVIEW_CHARS + 40 and "(2,999 characters)" in editor.preview.text()
    assert len(editor.text()) >= 2_900, "the fields keep all of it"


def test_exporting_over_an_existing_file_asks_first(make_window, sample_project: Path, qtbot, monkeypatch,
                                                    tmp_path: Path) -> None:
    from studio.ui.dialogs.export_dialog import ExportDialog

    window = make_window(sample_project)
    target = tmp_path / "episode.srt"
    target.write_text("an earlier export")
    queued: list[Path] = []
    asked: list[str] = []
    answer = [False]

    def fake_exec(dialog: ExportDialog) -> int:
        dialog.path.setText(str(target))
        dialog.choose_format("srt")
        return ExportDialog.DialogCode.Accepted

    monkeypatch.setattr(ExportDialog, "exec", fake_exec)
    monkeypatch.setattr(window.workspace, "queue_export", lambda out, *_a, **_k: queued.append(out))
    monkeypatch.setattr(window, "confirm", lambda _title, text: asked.append(text) or answer[0])
    window.actions_.export.trigger()
    assert asked and "episode.srt already exists" in asked[0] and queued == []
    answer[0] = True
    window.actions_.export.trigger()
    assert queued == [target]


def test_use_and_reroll_regenerates_only_the_turns_it_made_stale(make_window, sample_project: Path, qtbot) -> None:
    """The sample's second branch has no takes: choosing another take above it makes nothing
    there stale, so "Use and re-roll N" queues exactly the N stale turns."""
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    generate_first_branch(window, qtbot, JOB_TIMEOUT_MS)
    tree = session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    ws.select(first, center=False)
    ws.reroll()
    qtbot.waitUntil(lambda: len(session.project.tree.takes_of(first)) == 2 and not session.active_jobs(),
                    timeout=JOB_TIMEOUT_MS)
    tree = session.project.tree
    other = next(t for t in tree.takes_of(first) if t.id != tree.node(first).selected_take_id)
    with_takes = {n.id for n in tree.descendants(first) if tree.takes_of(n.id)}
    without = {n.id for n in tree.descendants(first)} - with_takes
    assert with_takes and without, "the sample has turns of both kinds below the first"
    asked: list[int] = []
    window.ask_stale = lambda count: asked.append(count) or "reroll"  # type: ignore[method-assign]
    assert session.service is not None
    session.service.pause()  # look at the queue before it runs
    ws.choose_take(first, other.id)
    session.settle()
    qtbot.waitUntil(lambda: bool(session.active_jobs()), timeout=10_000)
    queued = {job.node_id for job in session.active_jobs()}
    assert asked == [len(with_takes)] and queued == with_takes, (asked, len(queued), len(with_takes))
    session.service.resume()


def test_opening_the_open_project_again_keeps_it(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    session = window.session
    messages: list[str] = []
    window.show_error = lambda error: messages.append(f"error: {error}")  # type: ignore[method-assign]
    window.show_message = lambda text: messages.append(text)  # type: ignore[method-assign]
    assert window.open_project(sample_project.parent / "." / sample_project.name)
    assert window.session is session and messages == [f"{session.project.name} is already open."], messages


def test_a_recent_project_moved_away_is_said_so_and_leaves_the_list(make_window, sample_project: Path,
                                                                     tmp_path: Path, qtbot) -> None:
    window = make_window()
    gone = tmp_path / "gone.kamishibai"
    window.settings.add_recent(gone)
    window.settings.add_recent(sample_project)
    window._fill_recent()
    names = [a.text() for a in window.recent_menu.actions()]
    assert sample_project.name in names and "gone.kamishibai" not in names, names
    errors: list[str] = []
    window.show_error = lambda error: errors.append(str(error))  # type: ignore[method-assign]
    assert not window.open_recent(gone)
    assert errors and "moved or deleted" in errors[0] and "kamishibai new" not in errors[0]
    assert str(gone) not in window.settings.recent_projects


def test_delete_asks_for_turns_below_or_written_text_even_without_takes(make_window, sample_project: Path,
                                                                        qtbot) -> None:
    from studio.core import SetNarration

    window = make_window(sample_project)
    ws, project = window.workspace, window.session.project
    tree = project.tree
    first = tree.child_ids(tree.root_id)[0]
    assert not any(tree.takes_of(n.id) for n in [tree.node(first), *tree.descendants(first)])
    asked: list[str] = []
    ws.confirm = lambda title, text: asked.append(text) or False  # type: ignore[method-assign]
    ws.select(first, center=False)
    ws.delete_current()
    assert asked and asked[0].startswith("Delete this turn and the ") and first in project.tree.nodes
    leaf = tree.leaves_under(tree.root_id)[0].id  # no take, nothing below, but written text
    project.apply(SetNarration(leaf, "The town wakes up."))
    window.session.settle()
    ws.select(leaf, center=False)
    asked.clear()
    ws.delete_current()
    assert asked == ["Delete this turn?\nYou can undo this with Ctrl+Z."] and leaf in project.tree.nodes


def test_undoing_a_fork_goes_back_to_the_turn_it_was_forked_from(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    ws.select(first, center=False)
    ws.fork()
    session.settle()
    qtbot.waitUntil(lambda: ws.current_id not in (first, tree.root_id))
    fork = ws.current_id
    assert session.project.tree.node(fork).parent_id == tree.root_id
    ws.undo()
    session.settle()
    qtbot.waitUntil(lambda: fork not in session.project.tree.nodes)
    assert ws.current_id == first


def _first_turns_story(make_window, sample_project: Path):  # type: ignore[no-untyped-def]
    """The sample's window with its first turn selected: (window, session, turn, story editor)."""
    window = make_window(sample_project)
    session = window.session
    turn = session.project.tree.child_ids(session.project.tree.root_id)[0]
    window.workspace.select(turn)
    return window, session, turn, window.workspace.inspector.story


def test_undo_while_the_narration_box_has_focus_shows_the_undone_text_and_keeps_it(make_window,
                                                                                   sample_project: Path,
                                                                                   qtbot) -> None:
    window, session, turn, story = _first_turns_story(make_window, sample_project)
    tree = session.project.tree
    original = tree.node(turn).story.narration
    story.narration.setFocus()
    qtbot.waitUntil(story.narration.hasFocus)
    qtbot.keyClicks(story.narration, "Night falls. ")
    qtbot.waitUntil(lambda: session.project.tree.node(turn).story.narration != original, timeout=5000)
    qtbot.waitUntil(window.actions_.undo.isEnabled, timeout=5000)
    window.actions_.undo.trigger()
    session.settle()
    qtbot.waitUntil(lambda: story.narration.toPlainText().strip() == original, timeout=5000)
    story.shot_notes.setFocus()  # leaving the box saves nothing over the undo
    qtbot.wait(50)
    session.settle()
    assert session.project.tree.node(turn).story.narration == original
    assert window.actions_.redo.isEnabled(), "the undone edit can still be redone"
    story.narration.setFocus()
    qtbot.waitUntil(story.narration.hasFocus)
    window.actions_.redo.trigger()
    session.settle()
    qtbot.waitUntil(lambda: story.narration.toPlainText().startswith("Night falls."), timeout=5000)


def test_story_fields_hold_no_more_than_a_turn_accepts(make_window, sample_project: Path, qtbot) -> None:
    from studio.core.story import MAX_LINE_CHARS, MAX_NOTES_CHARS

    window, session, turn, story = _first_turns_story(make_window, sample_project)
    row = story.add_dialogue_line()
    row.text.setText("x" * (MAX_LINE_CHARS + 5))
    assert len(row.text.text()) == MAX_LINE_CHARS
    story.shot_notes.setPlainText("n" * (MAX_NOTES_CHARS + 50))
    assert len(story.shot_notes.toPlainText()) == MAX_NOTES_CHARS
    errors: list[str] = []
    window.show_error = lambda error: errors.append(str(error))  # type: ignore[method-assign]
    row.line_edited.emit()
    story.commit_pending()
    session.settle()
    qtbot.waitUntil(lambda: len(session.project.tree.node(turn).story.shot_notes) == MAX_NOTES_CHARS, timeout=5000)
    assert any(line.text == "x" * MAX_LINE_CHARS for line in session.project.tree.node(turn).story.dialogue)
    assert errors == []


def test_every_word_a_chip_offers_changes_the_instruction(make_window, sample_project: Path, qtbot) -> None:
    from studio.ui.inspector.chips_view import replace_field
    from studio.ui.inspector.understanding import ChipField

    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    turn = tree.child_ids(tree.root_id)[0]  # "quickly fly on broomstick": its chip reads it without the adverb
    ws.select(turn)
    ws.inspector.editor.generate_button.click()
    qtbot.waitUntil(lambda: session.project.tree.selected_take(turn) is not None, timeout=JOB_TIMEOUT_MS)
    session.settle()
    chips = ws.inspector.chips
    qtbot.waitUntil(lambda: any(c.field is ChipField.MOTION for c in chips.chips), timeout=5000)
    motion = next(c for c in chips.chips if c.field is ChipField.MOTION)
    qtbot.waitUntil(lambda: any(a.data() for a in chips.menu_for(motion).actions()), timeout=10_000)  # the words
    instruction = chips.instruction
    for chip in chips.chips:
        for action in (a for a in chips.menu_for(chip).actions() if a.data()):
            assert replace_field(instruction, chip.field, action.data()) != instruction.raw, (chip.text, action.data())


def test_names_show_as_written_in_the_start_inspector(make_window, sample_project: Path, qtbot) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLabel

    from studio.core.commands import AddCastMember
    from studio.core.model import CastMember

    window = make_window(sample_project)
    session = window.session
    name = "<i>Kid</i> <b>X</b> & Co"
    session.project.apply(AddCastMember(CastMember(id="kid", name=name)))
    session.settle()
    window.workspace.select(session.project.tree.root_id)
    start = window.workspace.inspector.start
    qtbot.waitUntil(lambda: "&lt;i&gt;Kid&lt;/i&gt;" in start.summary.text(), timeout=5000)
    rows = [w for w in start.grid_host.findChildren(QLabel) if w.text() == name]
    assert rows and rows[0].textFormat() == Qt.TextFormat.PlainText
