"""With "clips' own size" ticked, the export dialog's greyed width and height are the size
the export makes: the branch's chosen clips' (the first turn's), read from the real clips;
where the clips differ in size, a note under them says so and names each size.

Before, the greyed boxes read 720 x 480 whatever the clips were (the sample's are 360 x 240)."""

from __future__ import annotations

from pathlib import Path

from studio.storage.ffmpeg import probe
from tests.ui.conftest import SMALL_SKETCH, generate_first_branch, open_export_dialog


def test_the_greyed_size_is_the_clips_and_a_note_says_where_they_differ(
        make_window, sample_project: Path, settings, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    leaf = generate_first_branch(window, qtbot)
    tree = window.session.project.tree
    turns = [n.id for n in tree.path_to(leaf)[1:]]
    first_clip = sample_project / tree.selected_take(turns[0]).clip_path
    width, height = probe(first_clip).size
    assert (width, height) != (720, 480)

    dialog = open_export_dialog(window, monkeypatch)
    assert dialog.keep_size.isChecked() and not dialog.width_box.isEnabled()
    assert (dialog.width_box.value(), dialog.height_box.value()) == (width, height)
    assert dialog.size_note.isHidden()
    dialog.keep_size.setChecked(False)  # the size to change starts from the clips' own
    assert dialog.width_box.isEnabled() and (dialog.width_box.value(), dialog.height_box.value()) == (width, height)
    dialog.reject()

    # the last turn re-rolled at another size: the clips differ, and the note says how
    settings.set_engine_values("sketch", {**SMALL_SKETCH, "width": 96, "height": 64})
    window.workspace.select(turns[-1], center=False)
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=120_000)
    other = probe(sample_project / window.session.project.tree.selected_take(turns[-1]).clip_path).size
    assert other != (width, height)

    dialog = open_export_dialog(window, monkeypatch)
    assert (dialog.width_box.value(), dialog.height_box.value()) == (width, height)
    note = dialog.size_note.text()
    assert not dialog.size_note.isHidden()
    assert f"{width} × {height}" in note and f"{other[0]} × {other[1]}" in note, note
    dialog.reject()
