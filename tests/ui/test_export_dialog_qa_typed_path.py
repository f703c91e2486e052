"""The export dialog's path field as typed (QA): "board.pdf" typed while mp4 was chosen wrote a
video to "board.mp4", and a bare name ("episode one") landed in the studio's working folder,
which the user never sees, rather than in the exports folder the field showed."""

from __future__ import annotations

from pathlib import Path

from tests.ui.conftest import generate_first_branch, open_export_dialog

JOB_TIMEOUT_MS = 120_000


def export_typed(window, qtbot, monkeypatch, typed: str, fmt: str) -> None:  # type: ignore[no-untyped-def]
    """Ctrl+E with ``fmt`` chosen, then ``typed`` in the path field (as the user types it:
    the field is left for the Export button), and the export run to its end."""
    from studio.ui.dialogs.export_dialog import ExportDialog

    def fake_exec(dialog: ExportDialog) -> int:
        dialog.choose_format(fmt)
        dialog.path.setText(typed)
        dialog.path.editingFinished.emit()
        return ExportDialog.DialogCode.Accepted

    monkeypatch.setattr(ExportDialog, "exec", fake_exec)
    window.actions_.export.trigger()
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=JOB_TIMEOUT_MS)


def test_a_typed_suffix_of_another_format_chooses_that_format(make_window, sample_project: Path, qtbot,
                                                               monkeypatch, tmp_path: Path) -> None:
    window = make_window(sample_project)
    generate_first_branch(window, qtbot, JOB_TIMEOUT_MS)
    target = tmp_path / "out" / "board.PDF"
    export_typed(window, qtbot, monkeypatch, str(target), "mp4")
    written = tmp_path / "out" / "board.pdf"
    assert written.read_bytes().startswith(b"%PDF"), "a PDF sheet, as the file name asked"
    assert not (tmp_path / "out" / "board.mp4").exists()


def test_the_format_follows_the_typed_suffix_in_the_form(make_window, sample_project: Path, monkeypatch) -> None:
    window = make_window(sample_project)
    dialog = open_export_dialog(window, monkeypatch)
    dialog.choose_format("mp4")
    dialog.path.setText(str(Path(dialog.path.text()).with_name("lines.srt")))
    dialog.path.editingFinished.emit()  # leaving the field
    assert dialog.chosen_format() == "srt"
    assert dialog.path.text().endswith("lines.srt")
    dialog.path.setText(str(Path(dialog.path.text()).with_name("episode v1.2")))  # no format's suffix: kept
    choices = dialog.choices()
    assert (choices.fmt, choices.out.name) == ("srt", "episode v1.2.srt")


def test_a_bare_file_name_goes_to_the_exports_folder(make_window, sample_project: Path, qtbot, monkeypatch,
                                                     tmp_path: Path) -> None:
    work = tmp_path / "working folder"
    work.mkdir()
    monkeypatch.chdir(work)
    window = make_window(sample_project)
    generate_first_branch(window, qtbot, JOB_TIMEOUT_MS)
    export_typed(window, qtbot, monkeypatch, "episode one", "srt")
    written = window.workspace.export_folder() / "episode one.srt"
    assert "-->" in written.read_text(encoding="utf-8"), "the subtitles, in the exports folder"
    assert list(work.iterdir()) == [], "nothing in the studio's working folder"


def test_a_dot_names_the_exports_folder_even_before_it_exists(make_window, sample_project: Path, monkeypatch,
                                                              tmp_path: Path) -> None:
    work = tmp_path / "working folder"
    work.mkdir()
    monkeypatch.chdir(work)
    window = make_window(sample_project)
    folder = window.workspace.export_folder()
    assert not folder.exists(), "the first export makes it"
    dialog = open_export_dialog(window, monkeypatch)
    stem = Path(dialog.path.text()).stem
    for typed in (".", "./", "sub/.", "./part.two"):
        dialog.path.setText(typed)
        assert dialog.choices().out == {
            ".": folder / f"{stem}.mp4", "./": folder / f"{stem}.mp4", "sub/.": folder / "sub" / f"{stem}.mp4",
            "./part.two": folder / "part.two.mp4"}[typed], typed
