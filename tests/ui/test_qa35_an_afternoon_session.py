"""A story author's afternoon in the window, end to end, with what the window shows checked
against the project on disk after every step: a new project, a character and a place, six
turns written one after another, a fork with two turns of its own, a re-roll, another take
chosen (the turns below go stale), a branch re-rolled, an instruction edited, a bookmark, a
branch deleted; then every step undone back to the empty story and redone again; Compare for
two takes and two branches; the branch exported as mp4 + srt and as a PDF sheet, read back;
and the project closed and reopened as it was left.

The tests of each feature check it alone; this one checks that they hold together over a
long history (the tree, the inspector, the takes row and the player agree with the saved
story after each undo and redo)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image
from PySide6.QtCore import Qt

from studio.storage import Project
from studio.ui.dialogs.export_dialog import ExportDialog
from studio.ui.node_summary import CardStatus
from tests.ui.keys import press_story_key

TIMEOUT_MS = 60_000
MOTIONS = ("gently sit on railing", "run", "wave", "jump", "eat bread", "sleep")


def _write_turn(window, qtbot, character: str, motion: str, background: str) -> str:  # type: ignore[no-untyped-def]
    """Enter on the selected card, the fields typed, Ctrl+Enter; the new turn's id."""
    ws = window.workspace
    parent = ws.current_id
    press_story_key(window, qtbot, Qt.Key.Key_Return)
    editor = ws.inspector.editor
    assert ws.inspector.draft_parent == parent
    for field, value in ((editor.character, character), (editor.motion, motion), (editor.background, background)):
        field.clear()
        qtbot.keyClicks(field, value)
    qtbot.keyClick(editor.motion, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    project = window.session.project
    qtbot.waitUntil(lambda: ws.current_id != parent and ws.current_id in project.tree.nodes
                    and project.tree.nodes[ws.current_id].parent_id == parent, timeout=TIMEOUT_MS)
    return ws.current_id


def _idle(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=TIMEOUT_MS)


def _story(project: Project) -> dict[str, Any]:
    """What the author made, turn by turn: place in the tree, text, chosen take, notes, bookmark,
    takes and their staleness."""
    tree = project.tree
    return {node_id: (node.parent_id, tuple(tree.child_ids(node_id)), node.instruction.raw, node.selected_take_id,
                      node.notes, node.bookmarked, tuple(sorted((t.id, t.stale) for t in tree.takes_of(node_id))))
            for node_id, node in tree.nodes.items()}


def _disagreements(window) -> list[str]:  # type: ignore[no-untyped-def]
    """Where the window disagrees with its document (empty: nowhere)."""
    ws = window.workspace
    tree = ws.tree
    problems = []
    if set(ws.scene.cells) != set(tree.nodes):
        problems.append(f"the tree shows {len(ws.scene.cells)} cards for {len(tree.nodes)} turns")
    current = ws.current_id
    if (current not in tree.nodes or current not in ws.branch or any(n not in tree.nodes for n in ws.branch)
            or tree.child_ids(ws.branch[-1])):
        return [*problems, "the selection or the shown branch is not in the story"]
    node = tree.nodes[current]
    if not node.is_root and ws.inspector.draft_parent is None:
        if ws.inspector.node_id != current or ws.inspector.editor.text() != node.instruction.raw:
            problems.append(f"the inspector shows {ws.inspector.editor.text()!r}")
        marked = [tile.take.id for tile in ws.inspector.takes.tiles if tile.objectName() == "takeTileSelected"]
        if marked != ([node.selected_take_id] if node.selected_take_id else []):
            problems.append(f"the takes row marks {marked}, not {node.selected_take_id}")
    clips = [tree.selected_take(n) for n in ws.branch[1:]]
    if [p for p in ws.episode.player.paths if p] != [ws._abs(t.clip_path) for t in clips if t and t.clip_path]:
        problems.append("the player holds other clips than the branch's chosen takes")
    for node_id in tree.nodes:
        take = tree.selected_take(node_id)
        card = ws.scene.cards.get(node_id)
        shown = ws.scene.status(node_id)
        if take is not None and take.status.value == "done" and (shown is CardStatus.STALE) != take.stale:
            problems.append(f"turn {tree.depth(node_id)}'s card is {shown}, its take stale={take.stale}")
        done = sum(t.status.value == "done" for t in tree.takes_of(node_id))
        if card is not None and card.summary.take_count != done:
            problems.append(f"turn {tree.depth(node_id)}'s card counts {card.summary.take_count} takes of {done}")
    return problems


def _check(window, qtbot, step: str) -> None:  # type: ignore[no-untyped-def]
    """The window agrees with its document, and the document with the file on disk."""
    in_flight = window.session.edits_in_flight
    qtbot.waitUntil(lambda: not in_flight["history"] and not in_flight["edit"])
    try:
        qtbot.waitUntil(lambda: not _disagreements(window), timeout=5000)
    except AssertionError:
        raise AssertionError(f"after {step}: {_disagreements(window)}") from None
    on_disk = Project.open(window.session.project.path, read_only=True)
    try:
        assert _story(on_disk) == _story(window.session.project), f"after {step}: the file holds another story"
    finally:
        on_disk.close()


def _choose_other_take(window, qtbot, node_id: str) -> str:  # type: ignore[no-untyped-def]
    ws = window.workspace
    ws.select(node_id)
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) >= 2)
    chosen = window.session.project.tree.nodes[node_id].selected_take_id
    other = next(t for t in ws.inspector.takes.tiles if t.take.id != chosen)
    qtbot.mouseClick(other.use_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.session.project.tree.nodes[node_id].selected_take_id == other.take.id)
    return other.take.id


def _write_the_story(window, qtbot, tmp_path: Path) -> tuple[list[str], list[str]]:  # type: ignore[no-untyped-def]
    """The afternoon's edits; the main branch's turns and the fork's."""
    ws = window.workspace
    project = window.session.project
    ws.cast.add_character("Hana")
    picture = tmp_path / "plaza.png"
    Image.new("RGB", (64, 48), (120, 160, 200)).save(picture)
    ws.cast.add_location_from_file(picture, "Plaza")
    qtbot.waitUntil(lambda: "Plaza" in ws.cast.locations.item(0).text() or ws.cast.locations.count() > 20)
    main = []
    for number, motion in enumerate(MOTIONS):
        main.append(_write_turn(window, qtbot, "Hana" if number == 3 else "Qiqi", motion,
                                "Plaza" if number % 2 else "town"))
    _idle(window, qtbot)
    assert [project.tree.depth(n) for n in main] == [1, 2, 3, 4, 5, 6]
    qtbot.waitUntil(lambda: all(ws.scene.status(n) is CardStatus.DONE for n in main))
    _check(window, qtbot, "six turns")

    ws.select(main[2])
    press_story_key(window, qtbot, Qt.Key.Key_F)
    qtbot.waitUntil(lambda: ws.current_id not in main and ws.current_id in project.tree.nodes, timeout=TIMEOUT_MS)
    fork = [ws.current_id]
    editor = ws.inspector.editor
    editor.motion.clear()
    qtbot.keyClicks(editor.motion, "dance")
    qtbot.keyClick(editor.motion, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    _idle(window, qtbot)
    for motion in ("clap", "bow"):
        ws.select(fork[-1])
        fork.append(_write_turn(window, qtbot, "Qiqi", motion, "town"))
    _idle(window, qtbot)
    assert project.tree.nodes[fork[0]].parent_id == main[1]
    _check(window, qtbot, "the fork")

    ws.select(main[1])
    press_story_key(window, qtbot, Qt.Key.Key_R)
    qtbot.waitUntil(lambda: len(project.tree.takes_of(main[1])) == 2, timeout=TIMEOUT_MS)
    _idle(window, qtbot)
    _check(window, qtbot, "a re-roll")
    _choose_other_take(window, qtbot, main[1])
    qtbot.waitUntil(lambda: all(ws.scene.status(n) is CardStatus.STALE for n in main[2:] + fork))
    _check(window, qtbot, "another take chosen")
    ws.select(main[1])
    window.actions_.reroll_branch.trigger()
    qtbot.waitUntil(lambda: window.actions_.undo.text() == "&Undo Re-roll branch (8 turns)", timeout=TIMEOUT_MS)
    _idle(window, qtbot)
    qtbot.waitUntil(lambda: all(ws.scene.status(n) is CardStatus.DONE for n in main + fork))
    _check(window, qtbot, "the branch re-rolled")

    ws.select(main[3])
    editor.motion.setFocus()
    editor.motion.selectAll()
    qtbot.keyClicks(editor.motion, "stretch")
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Motion: stretch" in project.tree.nodes[main[3]].instruction.raw)
    qtbot.waitUntil(lambda: all(ws.scene.status(n) is CardStatus.STALE for n in main[3:]))
    _check(window, qtbot, "an instruction edited")
    ws.select(main[4])
    press_story_key(window, qtbot, Qt.Key.Key_B)
    qtbot.waitUntil(lambda: project.tree.nodes[main[4]].bookmarked)
    ws.select(fork[0])
    press_story_key(window, qtbot, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: fork[0] not in project.tree.nodes and ws.current_id == main[1])
    _check(window, qtbot, "the fork deleted")
    return main, fork


def test_every_step_of_an_afternoon_undoes_and_redoes_with_the_window_and_the_file_in_step(
        make_window, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    assert window.new_project(tmp_path / "story"), window.last_error
    _write_the_story(window, qtbot, tmp_path)
    project = window.session.project
    written = _story(project)

    undone = []
    while window.actions_.undo.isEnabled():
        undone.append(window.actions_.undo.text().removeprefix("&Undo "))
        window.actions_.undo.trigger()
        _check(window, qtbot, f"Undo {undone[-1]}")
    assert undone[:5] == ["Delete turns", "Bookmark", "Edit instruction", "Re-roll branch (8 turns)", "Select take"]
    assert undone[-2:] == ["Add location", "Add character"]
    assert len(project.tree.nodes) == 1 and window.workspace.current_id == project.tree.root_id

    redone = []
    while window.actions_.redo.isEnabled():
        redone.append(window.actions_.redo.text().removeprefix("&Redo "))
        window.actions_.redo.trigger()
        _check(window, qtbot, f"Redo {redone[-1]}")
    assert redone == undone[::-1]
    assert _story(project) == written
    assert window.last_error is None


def test_compare_export_and_reopen_after_an_afternoon(make_window, tmp_path: Path, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from studio.storage.ffmpeg import probe

    window = make_window()
    assert window.new_project(tmp_path / "story"), window.last_error
    main, fork = _write_the_story(window, qtbot, tmp_path)
    ws = window.workspace
    window.actions_.undo.trigger()  # the fork back, for Compare branches
    qtbot.waitUntil(lambda: fork[0] in window.session.project.tree.nodes)
    _check(window, qtbot, "Undo Delete turns")

    ws.select(main[1])
    takes = ws.compare_takes()
    assert takes is not None and takes.windowTitle() == "Compare takes — Turn 2"
    takes.close()
    ws.select(fork[-1])
    branches = ws.compare_branches()
    assert branches is not None
    qtbot.waitUntil(lambda: "they part after turn 2" in branches.parting.text())
    branches.close()

    ws.select(main[5])
    ws.inspector.notes.setFocus()
    qtbot.keyClicks(ws.inspector.notes, "the umbrella is still open")
    out = tmp_path / "exports" / "afternoon.mp4"
    answers = iter([(out, "srt"), (out.with_suffix(".pdf"), "none")])

    def export_to(dialog: ExportDialog) -> int:
        path, captions = next(answers)
        dialog.path.setText(str(path))
        if path.suffix == ".mp4":  # the dialog has no title card unless one is written
            dialog.title.setText("An afternoon")
        dialog.choose_captions(captions)
        return ExportDialog.DialogCode.Accepted

    monkeypatch.setattr(ExportDialog, "exec", export_to)
    window.actions_.export.trigger()
    qtbot.waitUntil(lambda: "Export finished" in window.status_label.text(), timeout=TIMEOUT_MS)
    video = probe(out)
    assert (video.width, video.height) == (160, 112)
    title_frames = round(2 * video.fps)
    assert video.frames == title_frames + 6 * 6  # the title card, then six clips of six frames
    subtitles = out.with_suffix(".srt").read_text(encoding="utf-8")
    assert "Hana stretches in Plaza." in subtitles and "Qiqi sleeps in Plaza." in subtitles
    window.actions_.export.trigger()
    qtbot.waitUntil(lambda: out.with_suffix(".pdf").is_file() and "afternoon.pdf" in window.status_label.text(),
                    timeout=TIMEOUT_MS)
    assert out.with_suffix(".pdf").read_bytes().startswith(b"%PDF")

    ws.select(fork[1])  # moving on saves the notes
    qtbot.waitUntil(lambda: window.session.project.tree.nodes[main[5]].notes == "the umbrella is still open")
    _check(window, qtbot, "the notes")
    left = _story(window.session.project)
    path = window.session.project.path
    assert window.close_project("keep")
    assert window.open_project(path), window.last_error
    assert _story(window.session.project) == left
    assert window.workspace.current_id == fork[1]
    _check(window, qtbot, "reopening")
