"""What the window offers for the selection, and that a user's edits are never dropped: the
story's start can't be re-rolled, forked or deleted from the moment a project opens; export
needs a turn; an edited instruction is kept when the user moves to another card; the status
bar names the files a multi-page export wrote; the settings dialog fits a small screen."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize

from .conftest import generate_first_branch

JOB_TIMEOUT_MS = 120_000


def _turn_actions(window) -> dict[str, bool]:  # type: ignore[no-untyped-def]
    a = window.actions_
    return {name: getattr(a, name).isEnabled() for name in ("reroll", "reroll_branch", "fork", "delete")}


def test_the_start_offers_no_turn_actions_from_the_moment_a_project_opens(make_window, sample_project: Path,
                                                                          qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    assert ws.current_id == tree.root_id
    assert _turn_actions(window) == dict.fromkeys(("reroll", "reroll_branch", "fork", "delete"), False)
    assert window.actions_.export.isEnabled(), "the shown branch has turns"
    window.actions_.reroll_branch.trigger()  # a disabled action does nothing: no story-wide re-roll
    assert not window.session.active_jobs()
    ws.select(tree.child_ids(tree.root_id)[0], center=False)
    assert all(_turn_actions(window).values())
    ws.select(tree.root_id, center=False)
    assert not any(_turn_actions(window).values())


def test_export_waits_for_a_first_turn(make_window, tmp_path: Path, qtbot) -> None:
    window = make_window()
    assert window.new_project(tmp_path / "empty.kamishibai", "Empty"), window.last_error
    ws = window.workspace
    assert not window.actions_.export.isEnabled() and not any(_turn_actions(window).values())
    ws.start_new_turn()  # Enter on the start, then the fields, then Save text
    ws.inspector.editor.set_text("Character: Qiqi; Motion: run; Background: day town.")
    ws.inspector.editor.save_button.click()
    qtbot.waitUntil(lambda: len(window.session.project.tree.nodes) == 2, timeout=10_000)
    qtbot.waitUntil(lambda: window.actions_.export.isEnabled(), timeout=10_000)


def test_an_edited_instruction_is_kept_when_the_user_moves_on(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    project = window.session.project
    first = project.tree.child_ids(project.tree.root_id)[0]
    second = project.tree.child_ids(first)[0]
    ws.select(first, center=False)
    editor = ws.inspector.editor
    before = project.tree.node(first).instruction.raw
    editor.motion.setFocus()
    editor.motion.selectAll()
    qtbot.keyClicks(editor.motion, "slowly walk")
    edited = editor.text()
    assert edited != before
    ws.select(second, center=False)  # moving on: the edit is saved, not dropped
    window.session.settle()  # the writer has made the edit and the window heard of it
    assert project.tree.node(first).instruction.raw == edited
    assert "Kept the edited instruction of turn 1" in window.status_label.text()
    assert window.actions_.undo.text() == "&Undo Edit instruction"
    ws.select(first, center=False)
    assert editor.text() == edited
    window.actions_.undo.trigger()  # one undo takes the kept edit back
    window.session.settle()
    assert project.tree.node(first).instruction.raw == before
    qtbot.waitUntil(lambda: editor.text() != edited, timeout=5_000)  # the inspector shows the undone line
    ws.select(second, center=False)  # an unedited editor saves nothing on moving on
    ws.select(first, center=False)
    window.session.settle()
    assert project.tree.node(first).instruction.raw == before


def test_the_status_bar_names_what_a_sheet_export_wrote(make_window, sample_project: Path, qtbot,
                                                         tmp_path: Path) -> None:
    from studio.export.options import ExportOptions

    window = make_window(sample_project)
    ws = window.workspace
    generate_first_branch(window, qtbot, JOB_TIMEOUT_MS)
    out = tmp_path / "out" / "sheet.png"
    queued: list[str] = []
    ws.queue_export(out, ExportOptions(), "png", then=queued.append)
    qtbot.waitUntil(lambda: bool(queued) or window.last_error is not None, timeout=JOB_TIMEOUT_MS)
    assert queued, window.last_error
    qtbot.waitUntil(lambda: window.status_label.text().startswith("Export finished"), timeout=JOB_TIMEOUT_MS)
    written = sorted(out.parent.iterdir())
    assert written and all(path.is_file() for path in written)
    status = window.status_label.text()
    if written == [out]:
        assert status == f"Export finished: {out}"
    else:
        assert not out.exists() and written[0].name in status and written[-1].name in status


def test_describe_written() -> None:
    from studio.ui.workspace import describe_written

    asked = Path("/x/ep.png")
    assert describe_written(asked, []) == "/x/ep.png"
    assert describe_written(asked, [asked]) == "/x/ep.png"
    pages = [Path("/x/ep-01.png"), Path("/x/ep-02.png"), Path("/x/ep-03.png")]
    assert describe_written(asked, pages) == "3 files, ep-01.png … ep-03.png in /x"
    assert describe_written(Path("/x/ep.mp4"), [Path("/x/ep.mp4"), Path("/x/ep.srt")]) == "/x/ep.mp4 (and ep.srt)"


def test_the_settings_dialog_fits_a_small_screen(settings, registry, qtbot) -> None:
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    dialog = SettingsDialog(settings, registry)
    qtbot.addWidget(dialog)
    dialog.show()
    for index in range(dialog.engine.count()):  # every engine's form, the longest included
        dialog.engine.setCurrentIndex(index)
        hint = dialog.minimumSizeHint()
        assert hint.height() <= 680 and hint.width() <= 1200, (dialog.engine.currentText(), hint)
        assert dialog.stack.currentWidget() is list(dialog.forms.values())[index]
    dialog.resize(QSize(900, 640))
    qtbot.waitUntil(lambda: dialog.height() <= 700)
    assert dialog.engine_scroll.isVisible()


def test_undo_and_redo_select_the_turn_they_bring_back_or_change(make_window, sample_project: Path,
                                                                 qtbot) -> None:
    from studio.core.commands import SetNarration

    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    second = tree.child_ids(first)[0]
    ws.select(second, center=False)
    window.confirm = lambda title, text: True  # type: ignore[method-assign]
    ws.confirm = lambda title, text: True  # type: ignore[method-assign]
    ws.delete_current()
    session.settle()
    qtbot.waitUntil(lambda: second not in session.project.tree.nodes, timeout=5000)
    assert ws.current_id == first
    ws.undo()
    session.settle()
    qtbot.waitUntil(lambda: second in session.project.tree.nodes, timeout=5000)
    qtbot.waitUntil(lambda: ws.current_id == second, timeout=5000)  # the deleted turn, back
    ws.select(first, center=False)
    session.project.apply(SetNarration(second, "Rain, at last."))
    session.settle()
    ws.undo()
    session.settle()
    qtbot.waitUntil(lambda: ws.current_id == second, timeout=5000)  # where the undone edit was
    assert session.project.tree.node(second).story.narration != "Rain, at last."


def test_the_compare_window_closes_when_its_turn_is_deleted(make_window, sample_project: Path, qtbot) -> None:
    import shiboken6

    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.select(leaf, center=False)
    ws.reroll(leaf)
    ws.reroll(leaf)
    qtbot.waitUntil(lambda: len([t for t in session.project.tree.takes_of(leaf) if t.clip_path]) >= 2,
                    timeout=JOB_TIMEOUT_MS)
    session.settle()
    compare = ws.compare_takes()
    assert compare is not None and compare.isVisible()
    messages: list[str] = []
    ws.message.connect(messages.append)
    ws.confirm = lambda title, text: True  # type: ignore[method-assign]
    ws.delete_current()
    session.settle()
    qtbot.waitUntil(lambda: leaf not in session.project.tree.nodes, timeout=5000)
    qtbot.waitUntil(lambda: ws.compare_window is None, timeout=5000)
    assert not shiboken6.isValid(compare) or not compare.isVisible()
    assert any("compare window closed" in m for m in messages)


def test_a_new_project_that_cant_be_made_leaves_the_open_one_open(make_window, sample_project: Path,
                                                                  tmp_path: Path) -> None:
    window = make_window(sample_project)
    taken = tmp_path / "taken.kamishibai"
    taken.mkdir()
    (taken / "notes.txt").write_text("someone's files")
    assert not window.new_project(taken, "Taken")
    assert "already exists and is not empty" in str(window.last_error)
    assert window.session is not None and window.session.project.path == sample_project
    assert window.windowTitle().endswith("— Kamishibai Studio") and window.workspace is not None
    assert (taken / "notes.txt").read_text() == "someone's files"


def test_f2_steps_through_the_bookmarked_turns(make_window, sample_project: Path, qtbot) -> None:
    from studio.core.commands import SetBookmark

    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    messages: list[str] = []
    ws.message.connect(messages.append)
    window.actions_.next_bookmark.trigger()
    assert messages[-1].startswith("No turn is bookmarked")
    order = [n for n in ws.layout_order() if not session.project.tree.nodes[n].is_root]
    marked = [order[1], order[-1]]
    for node_id in marked:
        session.project.apply(SetBookmark(node_id, True))
    session.settle()
    qtbot.waitUntil(lambda: all(ws.tree.nodes[n].bookmarked for n in marked), timeout=5000)
    ws.select(session.project.tree.root_id, center=False)
    seen = []
    for _ in range(3):
        window.actions_.next_bookmark.trigger()
        seen.append(ws.current_id)
    assert seen == [marked[0], marked[1], marked[0]]  # round the end
    window.actions_.previous_bookmark.trigger()
    assert ws.current_id == marked[1] and messages[-1] == "Bookmark 2 of 2"
