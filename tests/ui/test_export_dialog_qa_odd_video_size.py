"""An odd width or height in the export dialog (QA): 721x481 was accepted for an mp4, and the
export then failed in the queue with "mp4 needs an even width and height", the dialog gone. The
form now makes a video's sides even (as the clips' own odd size is), and shows it."""

from __future__ import annotations

from pathlib import Path

from studio.storage import ffmpeg
from tests.ui.conftest import generate_first_branch, open_export_dialog

JOB_TIMEOUT_MS = 120_000


def test_an_odd_size_exports_an_mp4_one_pixel_smaller(make_window, sample_project: Path, qtbot, monkeypatch,
                                                      tmp_path: Path) -> None:
    from studio.ui.dialogs.export_dialog import ExportDialog

    window = make_window(sample_project)
    generate_first_branch(window, qtbot, JOB_TIMEOUT_MS)
    target = tmp_path / "out" / "odd.mp4"

    def fake_exec(dialog: ExportDialog) -> int:
        dialog.path.setText(str(target))
        dialog.keep_size.setChecked(False)
        dialog.width_box.setValue(161)
        dialog.height_box.setValue(121)
        return ExportDialog.DialogCode.Accepted

    monkeypatch.setattr(ExportDialog, "exec", fake_exec)
    failures: list[object] = []
    monkeypatch.setattr(window, "show_error", lambda error, *_a, **_k: failures.append(error))
    window.actions_.export.trigger()
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=JOB_TIMEOUT_MS)
    info = ffmpeg.probe(target)
    assert (info.width, info.height) == (160, 120), failures


def test_the_form_shows_the_even_size_and_keeps_an_odd_one_for_a_gif(make_window, sample_project: Path,
                                                                      monkeypatch) -> None:
    window = make_window(sample_project)
    dialog = open_export_dialog(window, monkeypatch)
    dialog.keep_size.setChecked(False)
    dialog.choose_format("gif")
    dialog.width_box.setValue(161)
    assert dialog.choices().size == (161, 480), "a GIF has no even-size rule"
    dialog.choose_format("webm")
    assert dialog.width_box.singleStep() == 2
    assert dialog.choices().size == (160, 480)
    assert dialog.width_box.value() == 160, "the form shows the size exported"
