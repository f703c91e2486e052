"""The window's export dialog filled "Title card" with the project's name, so every export
from the window (an SRT alone too) started 2 s later than the same export from the command
line, which has no title card unless one is given: a command-line SRT beside a window video
ran 2 s early. Now the dialog has no title card unless one is written (the project's name is
only its example), says that a title card delays the subtitles by its duration, and offers
the end card and both cards' durations, as the command line does."""

from __future__ import annotations

from pathlib import Path

from studio.export import ExportOptions
from tests.ui.conftest import open_export_dialog


def test_a_window_export_has_the_command_lines_defaults(make_window, sample_project: Path, monkeypatch) -> None:
    window = make_window(sample_project)
    dialog = open_export_dialog(window, monkeypatch)
    dialog.choose_format("srt")
    options = dialog.choices().options()
    default = ExportOptions()  # what `kamishibai export` passes without --title or --end-card
    assert (options.title, options.end_card, options.has_cards) == (default.title, default.end_card, False)
    assert dialog.title.text() == "" and window.session.project.name in dialog.title.placeholderText()
    assert "delays the subtitles" in dialog.card_note.text()


def test_the_dialog_makes_an_end_card_and_times_both_cards(make_window, sample_project: Path, monkeypatch) -> None:
    window = make_window(sample_project)
    dialog = open_export_dialog(window, monkeypatch)
    dialog.choose_format("mp4")
    dialog.title.setText("Episode 1")
    dialog.title_duration.setValue(3.0)
    dialog.end_card.setText("To be continued")
    dialog.end_card_duration.setValue(1.5)
    options = dialog.choices().options()
    assert (options.title, options.title_duration) == ("Episode 1", 3.0)
    assert (options.end_card, options.end_card_duration) == ("To be continued", 1.5)
    again = open_export_dialog(window, monkeypatch)
    again.restore(dialog.choices())
    assert (again.end_card.text(), again.end_card_duration.value()) == ("To be continued", 1.5)
