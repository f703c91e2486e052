"""The question asked when a window closes with jobs in the queue: no two buttons both read
"Cancel" (QA: "Cancel them", which throws the jobs away, sat beside "Cancel", which keeps the
window open), and the count reads as English ("9 generation job(s)" before)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from studio.ui.main_window import MainWindow


def _ask(window, qtbot, count: int, press: str) -> tuple[str | None, str, list[str]]:  # type: ignore[no-untyped-def]
    """Ask as the window does, pressing the button whose label starts with ``press``; the
    answer, the question's text and its buttons' labels."""
    seen: dict[str, object] = {}

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(50, answer)
            return
        seen["text"] = box.text()
        seen["labels"] = [b.text().replace("&", "") for b in box.buttons()]
        button = next((b for b in box.buttons() if b.text().replace("&", "").startswith(press)), None)
        if button is None:  # no such button: the box is closed all the same, the test then fails
            seen["missing"] = press
            box.reject()
        else:
            button.click()

    QTimer.singleShot(50, answer)
    choice = MainWindow.ask_close_policy(window, count)
    assert "missing" not in seen, f"no button starts with {press!r}: {seen['labels']}"
    return choice, str(seen["text"]), list(seen["labels"])  # type: ignore[arg-type]


@pytest.mark.parametrize(("press", "expected"), [("Don't close", None), ("Cancel", "cancel"),
                                                 ("Finish", "finish"), ("Keep", "keep")])
def test_each_button_says_what_it_does(make_window, qtbot, press: str, expected: str | None) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    choice, text, labels = _ask(window, qtbot, 9, press)
    assert choice == expected
    assert text == "9 generation jobs are queued or running."
    assert len(labels) == 4
    assert sum(label.lower().startswith("cancel") for label in labels) == 1, labels
    assert "Don't close" in labels
    assert all("close" in label or "next time" in label for label in labels), labels  # each says what the window does


def test_one_job_is_one_job(make_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    choice, text, labels = _ask(window, qtbot, 1, "Don't close")
    assert choice is None
    assert text == "1 generation job is queued or running."
    assert not any(" them" in label for label in labels), labels
