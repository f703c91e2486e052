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
