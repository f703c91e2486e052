"""A project opened read-only shows its inspector for reading: the fields can be read, selected
and copied but not typed into, and Generate and Save text are off and say why; the editable
copy that Save a copy… opens is editable again.

Before, the inspector of a read-only project looked editable: typing was taken, then refused
only when sent. (The read-only disk is simulated as in ``test_readonly_window_disk``.)
"""

from __future__ import annotations

from pathlib import Path

from tests.ui.test_readonly_window_disk import DISK_LINE, project_with_takes, read_only_disk


def test_the_inspector_of_a_read_only_project_is_for_reading_until_a_copy_is_saved(
        make_window, sample_project: Path, tmp_path: Path, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    window, leaf = project_with_takes(make_window, sample_project, qtbot)
    read_only_disk(monkeypatch, sample_project)
    assert window.open_project(sample_project), window.last_error
    ws = window.workspace
    ws.select(leaf, center=False)
    qtbot.waitUntil(lambda: ws.inspector.node_id == leaf, timeout=10_000)
    editor = ws.inspector.editor

    assert ws.inspector.read_only_reason is not None and ws.inspector.read_only_reason.startswith(DISK_LINE)
    assert editor.motion.text(), "the turn's instruction is shown"
    assert editor.motion.isReadOnly() and editor.free_text.isReadOnly()
    for button in (editor.generate_button, editor.save_button):
        assert not button.isEnabled()
        assert button.toolTip().startswith(DISK_LINE), button.toolTip()

    folder = tmp_path / "copy.kamishibai"
    assert window.save_copy_to(tmp_path / "copy"), window.last_error
    qtbot.waitUntil(lambda: window.session is not None and window.session.path == folder, timeout=60_000)
    ws = window.workspace
    ws.select(leaf, center=False)
    qtbot.waitUntil(lambda: ws.inspector.node_id == leaf, timeout=10_000)
    assert ws.inspector.read_only_reason is None
    assert not ws.inspector.editor.motion.isReadOnly()
    assert ws.inspector.editor.save_button.isEnabled()


def test_a_read_only_window_leaves_the_queued_generations_to_their_writer(
        make_window, sample_project: Path, tmp_path: Path, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Jobs queued in the project (by `kamishibai fill`, or a studio that holds it) are not
    started by a window that opened it read-only: they could store nothing, and each one failed
    with "opened for reading only". Its own export still runs."""
    import subprocess
    import sys

    from studio.export import ExportOptions

    window, _leaf = project_with_takes(make_window, sample_project, qtbot)
    ws = window.workspace  # (closed) a new turn without a take, queued from the command line
    done = subprocess.run([sys.executable, "-m", "studio", "play", str(sample_project), "Qiqi waves"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([sys.executable, "-m", "studio", "fill", str(sample_project)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    read_only_disk(monkeypatch, sample_project)
    assert window.open_project(sample_project), window.last_error
    session, ws = window.session, window.workspace
    queued = [job for job in session.service.jobs() if job.status.value == "queued"]
    assert queued, "fill queued the turns that have no take"

    out = tmp_path / "episode.srt"
    exported: list[str] = []
    window.last_error = None
    ws.queue_export(out, ExportOptions(), "srt", then=exported.append)
    qtbot.waitUntil(lambda: bool(exported) and session.service.job(exported[0]).status.value == "done",
                    timeout=60_000)
    assert out.is_file()
    assert all(session.service.job(job.id).status.value == "queued" for job in queued)
    assert window.last_error is None, window.last_error
