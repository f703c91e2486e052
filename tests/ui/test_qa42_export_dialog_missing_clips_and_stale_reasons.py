"""The window's export dialog, as the command line: a turn whose clip file is gone no longer
keeps Export off for subtitles (SRT, WebVTT) and storyboard sheets, which are made without it
(videos and timelines are still refused with the same message), and the finished export's note
naming the turn is shown in the window's words. Its stale note gives each turn's own reason
(an edited instruction is not "an earlier turn changed")."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from studio.ui.dialogs.export_dialog import ExportDialog

from .conftest import generate_first_branch, open_export_dialog

JOB_TIMEOUT_MS = 120_000


def test_subtitles_and_sheets_export_without_a_missing_clip(make_window, sample_project: Path, qtbot,  # type: ignore[no-untyped-def]
                                                            tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    leaf = generate_first_branch(window, qtbot, JOB_TIMEOUT_MS)
    turn = [n.id for n in session.project.tree.path_to(leaf) if not n.is_root][1]  # turn 2
    take = session.project.tree.selected_take(turn)
    session.project.resolve(take.clip_path).unlink()
    ws.select(leaf, center=False)
    out = tmp_path / "out" / "episode.srt"
    seen: dict[str, tuple[bool, str, str]] = {}

    def fake_exec(dialog: ExportDialog) -> int:
        for fmt in ("mp4", "srt", "vtt", "pdf", "png", "gif", "otio", "webm"):
            dialog.choose_format(fmt)
            seen[fmt] = (dialog.export_button.isEnabled(), dialog.export_button.toolTip(),
                         dialog.branch_label.text().replace("\u200b", ""))
        dialog.choose_format("srt")
        dialog.path.setText(str(out))
        return ExportDialog.DialogCode.Accepted

    monkeypatch.setattr(ExportDialog, "exec", fake_exec)
    window.actions_.export.trigger()
    assert seen, "the export dialog did not open"
    for fmt in ("mp4", "webm", "gif", "otio"):  # refused as before, with the same words
        on, tip, text = seen[fmt]
        assert not on and tip.startswith("The clip of turn 2 is missing") and "Re-roll it (R)" in tip, (fmt, tip)
        assert "the clip of turn 2 is missing" in text
    for fmt in ("srt", "vtt", "pdf", "png"):
        on, tip, text = seen[fmt]
        assert on and not tip, (fmt, tip)
        assert "the clip of turn 2 is missing" in text and "the export's note names it" in text, text
    assert "the subtitles time it by the length its take was made with" in seen["vtt"][2]
    assert "the storyboard shows it by its poster" in seen["pdf"][2]

    qtbot.waitUntil(lambda: window.status_label.text().startswith("Export finished") or window.last_error is not None,
                    timeout=JOB_TIMEOUT_MS)
    assert window.last_error is None, window.last_error
    assert out.is_file() and "-->" in out.read_text(encoding="utf-8")
    box = ws.export_notes_box
    assert isinstance(box, QMessageBox) and box.isVisible()
    note = box.informativeText()
    assert "The clip of turn 2" in note and "is missing" in note and "the subtitles time that turn" in note, note
    assert "Clip missing" in note and "kamishibai info" not in note and "`" not in note, note
    assert "node" not in note and turn not in note, note  # the window names turns, not nodes
    box.close()


def test_the_stale_note_gives_each_turns_reason(make_window, sample_project: Path, qtbot,  # type: ignore[no-untyped-def]
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.core.commands import EditInstruction

    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    leaf = generate_first_branch(window, qtbot, JOB_TIMEOUT_MS)
    turns = [n.id for n in session.project.tree.path_to(leaf) if not n.is_root]
    session.project.apply(EditInstruction(turns[1], "Character: Qiqi; Motion: jump; Background: day town."))
    ws.select(leaf, center=False)
    qtbot.waitUntil(lambda: ws.branch_facts().stale == tuple(range(2, len(turns) + 1)))
    dialog = open_export_dialog(window, monkeypatch)
    text = dialog.branch_label.text().replace("\u200b", "")
    later = ", ".join(str(n) for n in range(3, len(turns))) + f" and {len(turns)}"
    assert (f"{len(turns) - 1} turns use a stale take, made before its instruction was edited (turn 2) or an "
            f"earlier turn changed (turns {later}): Shift+R on turn 2") in text, text
    assert dialog.export_button.isEnabled()
