"""Panels and dialogs: cast & world, sample story, CLI entry, cheat sheet, export, closing."""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image

from studio.storage.demo_import import parse_demo_text
from studio.ui.dialogs.export_dialog import ExportDialog
from studio.ui.inspector.instruction_editor import compose_instruction
from studio.ui.resources import resource


def test_compose_instruction_writes_animegamer_lines() -> None:
    assert compose_instruction("Qiqi", "gently sit on railing", "town", "day") == (
        "Character: Qiqi; Motion: gently sit on railing; Background: day town.")
    assert compose_instruction("Qiqi", "wave", "", camera="orbit", free_text="she smiles") == (
        "Character: Qiqi; Motion: wave; Camera: orbit; she smiles.")


def test_sample_story_has_two_branches() -> None:
    story = parse_demo_text(resource("samples", "first_story.txt").read_text())
    assert not story.problems
    assert len(story.branches) == 2
    assert story.turn_count == 8
    assert story.branches[1].after == 2


def test_location_from_an_image_is_copied_into_the_project(make_window, sample_project: Path, tmp_path: Path,
                                                           qtbot) -> None:
    window = make_window(sample_project)
    picture = tmp_path / "harbour at dusk.jpg"
    Image.new("RGB", (64, 40), (200, 120, 80)).save(picture)
    cast = window.workspace.cast
    cast.add_location_from_image(picture, "Harbour")
    project = window.session.project
    window.session.settle()  # the location is added on the writer
    location = next(loc for loc in project.tree.locations.values() if loc.name == "Harbour")
    assert location.kind == "image" and location.image_path.startswith("media/")
    assert project.resolve(location.image_path).is_file()
    qtbot.waitUntil(lambda: any(cast.locations.item(i).text() == "Harbour" for i in range(cast.locations.count())))
    cast.add_character("Mei")
    qtbot.waitUntil(lambda: any(cast.characters.item(i).text() == "Mei" for i in range(cast.characters.count())))


def test_cheat_sheet_lists_the_shortcuts(make_window) -> None:
    window = make_window()
    sheet = window.show_cheat_sheet()
    from PySide6.QtWidgets import QLabel

    text = sheet.findChildren(QLabel)[0].text()
    for expected in ("Re-roll", "Fork", "Ctrl+Z", "Space"):
        assert expected in text
    sheet.close()


def test_export_dialog_builds_options(qtbot, tmp_path: Path) -> None:
    dialog = ExportDialog(tmp_path / "episode.mp4", "My story")
    qtbot.addWidget(dialog)
    dialog.crossfade.setValue(0.5)
    dialog.overlay.setChecked(True)
    dialog.choose_captions("srt")
    choices = dialog.choices()
    assert choices.fmt == "mp4" and choices.out.name == "episode.mp4"
    options = choices.options()
    assert options.crossfade == 0.5 and options.overlay and options.captions.value == "srt"
    dialog.choose_format("gif")
    assert dialog.choices().out.suffix == ".gif"


def test_gui_command_registers_open() -> None:
    from studio.cli import build_parser
    from studio.cli.gui_cmds import add_parsers

    parser = argparse.ArgumentParser()
    add_parsers(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["open", "story.kamishibai"])
    assert args.path == "story.kamishibai" and callable(args.handler)
    assert "open" in build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]


def test_closing_with_queued_jobs_asks_and_keeps_them(make_window, sample_project: Path) -> None:
    window = make_window(sample_project)
    service = window.session.service
    service.pause()
    tree = window.session.project.tree
    window.workspace.select(tree.leaves_under(tree.root_id)[0].id)
    window.actions_.fill.trigger()
    asked: list[int] = []
    window.ask_close_policy = lambda count: asked.append(count) or "keep"  # type: ignore[method-assign]
    assert window.close_project() is True
    assert asked == [5]
    # the jobs are still queued in the project for next time
    from studio.storage import Project
    from studio.storage.job_store import JobStore

    with Project.open(sample_project) as project:
        jobs = JobStore(project.database).load(include_finished=False)
        assert len([j for j in jobs if j.status.value == "queued"]) == 5


def test_errors_show_a_message_not_a_crash(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    window.workspace.start_new_turn()
    window.workspace.save_text("   ")  # an empty instruction is refused by the document (on the writer)
    qtbot.waitUntil(lambda: window.last_error is not None, timeout=5000)
    assert window.last_error is not None and "empty" in window.last_error.message
    assert window.session is not None  # still open


def test_instruction_fields_complete_from_cast_world_and_engine(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    editor = window.workspace.inspector.editor

    def completions(line_edit) -> list[str]:  # type: ignore[no-untyped-def]
        completer = line_edit.completer()
        if completer is None:
            return []
        model = completer.model()
        return [model.index(row, 0).data() for row in range(model.rowCount())]

    qtbot.waitUntil(lambda: "fly on broomstick" in completions(editor.motion), timeout=5000)
    assert {"Qiqi", "Sosuke"} <= set(completions(editor.character))
    assert {"bakery", "sky"} <= set(completions(editor.background))
    assert "orbit" in completions(editor.camera)


def test_export_runs_as_a_queue_job_and_writes_the_episode(make_window, sample_project: Path, tmp_path: Path,
                                                           qtbot) -> None:
    from studio.export import ExportOptions
    from studio.storage.media import probe

    window = make_window(sample_project)
    ws = window.workspace
    service = window.session.service
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[1]  # the second branch: 2 shared turns + 3 of its own
    ws.select(leaf.id)
    window.actions_.fill.trigger()
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=120_000)
    out = tmp_path / "episode.mp4"
    queued: list[str] = []
    ws.queue_export(out, ExportOptions(crossfade=0.0), "mp4", then=queued.append)  # made on the writer thread
    qtbot.waitUntil(lambda: bool(queued) or window.last_error is not None, timeout=120_000)
    assert queued, window.last_error
    job_id = queued[0]
    qtbot.waitUntil(lambda: service.job(job_id).status.value in ("done", "failed"), timeout=120_000)
    assert service.job(job_id).status.value == "done", service.job(job_id).error
    tree = window.session.project.tree  # the snapshot with the new takes
    info = probe(out)
    clip = window.session.project.resolve(tree.selected_take(leaf.id).clip_path)
    per_clip = probe(clip)
    # the sample's second turn lasts 3 s (its clip is held on its last frame)
    durations = [node.story.duration for node in tree.path_to(leaf.id)[1:]]
    assert durations == [None, 3.0, None, None, None]
    assert info.frames == 4 * per_clip.frames + round(3.0 * per_clip.fps)
    assert (info.width, info.height) == (per_clip.width, per_clip.height)


def test_opening_a_damaged_or_foreign_project_shows_why(make_window, sample_project: Path, tmp_path: Path) -> None:
    window = make_window(sample_project)
    damaged = tmp_path / "damaged.kamishibai"
    damaged.mkdir()
    (damaged / "project.db").write_bytes(b"\x00garbage" * 1000)
    assert not window.open_project(damaged)
    assert window.last_error is not None and "damaged" in window.last_error.message
    assert window.session is not None and window.session.path == sample_project  # the open story stays open
    assert not window.open_project(tmp_path / "nothing-here.kamishibai")
    assert "No project" in window.last_error.message


def test_finish_them_when_opening_another_project_finishes_then_opens(make_window, sample_project: Path,
                                                                     tmp_path: Path, qtbot) -> None:
    from studio.storage import Project

    other = tmp_path / "other"
    Project.create(other).close()
    window = make_window(sample_project)
    service = window.session.service
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    window.workspace.select(first)
    service.pause()
    window.actions_.reroll.trigger()
    window.ask_close_policy = lambda count: "finish"  # type: ignore[method-assign]
    assert window.open_project(other.with_suffix(".kamishibai")) is False  # not yet: a job is queued
    assert window.session is not None and window.session.path == sample_project
    service.resume()
    qtbot.waitUntil(lambda: window.session is not None and window.session.path != sample_project, timeout=60_000)
    assert window.session.path.name == "other.kamishibai"
    with Project.open(sample_project) as project:
        assert len([t for t in project.tree.takes_of(first) if t.status.value == "done"]) >= 1


def _window_with_a_queued_reroll(make_window, sample_project: Path):  # type: ignore[no-untyped-def]
    """The sample's window with a re-roll of its first turn queued and the service paused."""
    window = make_window(sample_project)
    tree = window.session.project.tree
    window.workspace.select(tree.child_ids(tree.root_id)[0])
    window.session.service.pause()
    window.actions_.reroll.trigger()
    return window


def test_closing_the_project_while_its_queue_finishes_drops_what_was_to_follow(make_window, sample_project: Path,
                                                                               tmp_path: Path, qtbot) -> None:
    """"Finish them" for opening another project, then Close project with "Cancel them": the
    window is free again (it opens projects, and closes)."""
    from studio.storage import Project

    other = tmp_path / "other"
    Project.create(other).close()
    window = _window_with_a_queued_reroll(make_window, sample_project)
    window.ask_close_policy = lambda count: "finish"  # type: ignore[method-assign]
    assert window.open_project(other.with_suffix(".kamishibai")) is False
    window.ask_close_policy = lambda count: "cancel"  # type: ignore[method-assign]
    window.actions_.close_project.trigger()
    assert window.session is None
    assert window.status_label.text().startswith("Closed ")
    qtbot.wait(200)
    assert window.session is None, "the dropped open does not happen later"
    assert window.open_project(other.with_suffix(".kamishibai")), window.last_error
    assert window.session is not None and window.session.path.name == "other.kamishibai"
    window.close()
    assert not window.isVisible()


def test_closing_the_window_while_its_queue_finishes_asks_again(make_window, sample_project: Path, qtbot) -> None:
    window = _window_with_a_queued_reroll(make_window, sample_project)
    window.ask_close_policy = lambda count: "finish"  # type: ignore[method-assign]
    window.close()
    assert window.isVisible() and window._finishing  # waiting for the queue
    asked: list[int] = []
    window.ask_close_policy = lambda count: asked.append(count) or "cancel"  # type: ignore[method-assign]
    window.close()
    assert asked == [1] and not window.isVisible() and window.session is None


def test_the_export_dialog_gives_the_file_its_formats_suffix(qtbot, tmp_path: Path) -> None:
    dialog = ExportDialog(tmp_path / "episode.mp4", "My story")
    qtbot.addWidget(dialog)
    dialog.path.setText(str(tmp_path / "noext" / "episode"))
    assert dialog.choices().out == tmp_path / "noext" / "episode.mp4"
    dialog.path.setText(str(tmp_path / "new folder") + "/")  # a folder still to be made
    assert dialog.choices().out.parent == tmp_path / "new folder" and dialog.choices().out.suffix == ".mp4"
    dialog.path.setText(str(tmp_path / "take v1.2"))
    assert dialog.choices().out.name == "take v1.2.mp4"
    dialog.choose_format("gif")
    assert dialog.choices().out.name == "take v1.2.gif"


def test_recent_projects_hold_each_project_once_as_an_absolute_path(settings, tmp_path: Path,
                                                                    monkeypatch) -> None:
    project = tmp_path / "work" / "s.kamishibai"
    project.mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "work")
    for given in (Path("s.kamishibai"), Path("./s.kamishibai"), tmp_path / "work" / ".." / "work" / "s.kamishibai"):
        settings.add_recent(given)
    assert settings.recent_projects == [str(project.resolve())]
    settings.remove_recent(Path("s.kamishibai"))
    assert settings.recent_projects == []


def test_a_refused_export_makes_no_folder_inside_the_project(make_window, sample_project: Path, qtbot) -> None:
    from studio.export import ExportOptions

    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    ws.select(tree.leaves_under(tree.root_id)[0].id, center=False)
    errors: list[str] = []
    ws.error.connect(lambda error: errors.append(str(error)))
    window.show_error = lambda error: errors.append(str(error))  # type: ignore[method-assign]
    ws.queue_export(sample_project / "inside" / "ep.mp4", ExportOptions(), "mp4")
    window.session.settle()
    qtbot.waitUntil(lambda: bool(errors), timeout=10_000)
    assert "inside the project" in errors[0]
    assert not (sample_project / "inside").exists()


def test_a_retried_export_says_where_it_wrote(make_window, sample_project: Path, tmp_path: Path, qtbot) -> None:
    from studio.export import ExportOptions

    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.select(leaf, center=False)
    window.actions_.fill.trigger()
    qtbot.waitUntil(lambda: not session.active_jobs(), timeout=120_000)
    session.settle()
    session.service.pause()
    folder = tmp_path / "X"
    ids: list[str] = []
    ws.queue_export(folder / "ep.mp4", ExportOptions(), "mp4", then=ids.append)
    session.settle()
    qtbot.waitUntil(lambda: bool(ids), timeout=10_000)
    folder.rmdir()
    folder.write_text("a file where the folder was")  # the export fails
    messages: list[str] = []
    ws.message.connect(messages.append)
    session.service.resume()
    qtbot.waitUntil(lambda: any(m.startswith("Export failed") for m in messages), timeout=15_000)
    folder.unlink()
    folder.mkdir()
    ws.queue.refresh()
    ws.queue.select_job(ids[0])
    assert ws.queue.selected_job_id() == ids[0]
    ws.queue.retry_selected()
    session.settle()
    qtbot.waitUntil(lambda: any(m.startswith("Export finished") for m in messages), timeout=30_000)
    assert (folder / "ep.mp4").is_file()
    assert "Take ready." not in messages


def test_keeping_the_queue_stops_a_running_job_and_queues_it_again_without_waiting_for_it(
        make_window, settings, sample_project: Path, qtbot) -> None:
    """"Keep for next time" with a long job running: the project closes within an engine step
    (it held the window up to 15 s), and the job is queued again, to run with its seed when the
    project opens next."""
    import sqlite3

    settings.set_engine_values("sketch", {"frames": 240, "width": 1280, "height": 720})  # a job of many seconds
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    ws.select(first, center=False)
    ws.reroll(first)
    qtbot.waitUntil(lambda: any(j.status.value == "running" for j in window.session.active_jobs()), timeout=30_000)
    from studio.ui.session import wait_for_close

    assert window.close_project("keep")
    assert wait_for_close(sample_project), "the project closed (its lock released) in the background"
    with sqlite3.connect(sample_project / "project.db") as db:
        statuses = [row[0] for row in db.execute("select status from jobs")]
    # kept by the user: queued again, to run on the next opening (a crash leaves it interrupted)
    assert "queued" in statuses and "running" not in statuses and "done" not in statuses


def test_find_looks_in_the_story_fields_too() -> None:
    from studio.core.instruction import parse_instruction
    from studio.core.model import Node
    from studio.core.story import DialogueLine, StoryFields
    from studio.core.tree import StoryTree
    from studio.ui.search_bar import find_matches

    root = Node(id="root", parent_id=None, instruction=parse_instruction(""))
    told = Node(id="a", parent_id="root", instruction=parse_instruction("Character: Qiqi; Motion: run"),
                story=StoryFields((DialogueLine("Yuzu", "こんにちは, Straße!"),), "The bell rings.", None,
                                  "wide shot of the harbour"))
    tree = StoryTree.from_entities([root, told])
    order = ["root", "a"]
    for query in ("HARBOUR", "bell rings", "こんにちは", "STRASSE", "yuzu:", "qiqi"):
        assert find_matches(tree, query, order) == ["a"], query
    assert find_matches(tree, "volcano", order) == []


def test_the_cast_panel_renames_and_removes_characters_with_undo(make_window, sample_project: Path,
                                                                 qtbot) -> None:
    from PySide6.QtCore import Qt

    from studio.core.commands import turns_naming

    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    panel = ws.cast
    named = {m.name: m.id for m in session.project.tree.cast.values()}
    acting = next(name for name in named if turns_naming(session.project.tree, name))
    turns = [n.id for n in turns_naming(session.project.tree, acting)]
    asked: list[str] = []
    ws.confirm = lambda title, text: asked.append(text) or True  # type: ignore[method-assign]
    panel.select_character(acting)
    panel.ask_name = lambda current: "Hoshi"  # type: ignore[method-assign]
    panel.rename_selected()
    session.settle()
    qtbot.waitUntil(lambda: session.project.tree.cast[named[acting]].name == "Hoshi", timeout=5000)
    assert asked and f"{len(turns)} turn" in asked[0]
    assert all(session.project.tree.node(n).instruction.character == "Hoshi" for n in turns)
    qtbot.waitUntil(lambda: any(panel.characters.item(i).text() == "Hoshi" for i in range(panel.characters.count())))
    ws.undo()
    session.settle()
    qtbot.waitUntil(lambda: session.project.tree.cast[named[acting]].name == acting, timeout=5000)
    assert all(session.project.tree.node(n).instruction.character == acting for n in turns)
    panel.add_character("Extra")
    session.settle()
    qtbot.waitUntil(lambda: any(m.name == "Extra" for m in session.project.tree.cast.values()), timeout=5000)
    asked.clear()
    panel.select_character("Extra")
    panel.characters.setFocus()
    qtbot.keyClick(panel.characters, Qt.Key.Key_Delete)
    session.settle()
    qtbot.waitUntil(lambda: all(m.name != "Extra" for m in session.project.tree.cast.values()), timeout=5000)
    assert asked == [], "nothing names it: no question"


def test_the_export_dialog_offers_a_gif_no_more_than_50_fps(qtbot, tmp_path: Path) -> None:
    dialog = ExportDialog(tmp_path / "episode.gif", "My story")
    qtbot.addWidget(dialog)
    assert dialog.chosen_format() == "gif" and dialog.fps.maximum() == 50
    dialog.fps.setValue(240)
    assert dialog.choices().fps == 50
    dialog.choose_format("mp4")
    assert dialog.fps.maximum() == 240
