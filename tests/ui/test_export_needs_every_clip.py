"""The export dialog on a branch with turns not generated yet (QA: it said they would be "left
out", and Export then failed with "turn 1 has no take"): it says the export needs them, points
to Generate missing turns, and its Export button stays off until every turn has a clip."""

from __future__ import annotations

from pathlib import Path

from tests.ui.conftest import generate_first_branch, open_export_dialog

JOB_TIMEOUT_MS = 120_000


def test_a_branch_without_clips_cannot_be_exported_and_says_why(make_window, sample_project: Path, qtbot,
                                                               monkeypatch) -> None:
    window = make_window(sample_project)
    dialog = open_export_dialog(window, monkeypatch)
    text = dialog.branch_label.text()
    assert "left out" not in text
    assert "not generated yet" in text and "Ctrl+Shift+G" in text
    assert not dialog.export_button.isEnabled()
    dialog.path.setText(str(Path(dialog.path.text()).with_name("other.mp4")))  # a new file name: still off
    assert not dialog.export_button.isEnabled()
    assert "Generate" in dialog.export_button.toolTip()


def test_a_generated_branch_can_be_exported(make_window, sample_project: Path, qtbot, monkeypatch) -> None:
    window = make_window(sample_project)
    generate_first_branch(window, qtbot, JOB_TIMEOUT_MS)
    dialog = open_export_dialog(window, monkeypatch)
    assert "all generated" in dialog.branch_label.text()
    assert dialog.export_button.isEnabled()
    dialog.path.setText("")
    assert not dialog.export_button.isEnabled()
