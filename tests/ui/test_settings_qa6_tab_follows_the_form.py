"""Tab through the Settings dialog went from Devices down to the two check boxes under the
render farm, then back up to CPU threads; and one Tab after the engine's last setting
landed on the scroll area around the engine form, which shows no focus (focus seemed
lost). Tab now goes down the dialog as it reads, every stop a control."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QWidget

from studio.ui.dialogs.settings_dialog import SettingsDialog


def _tab_round(dialog: SettingsDialog, qtbot) -> list[QWidget]:  # type: ignore[no-untyped-def]
    """The widgets Tab visits from the engine drop-down until it comes back to it."""
    dialog.engine.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.engine, timeout=2_000)
    visited: list[QWidget] = []
    for _ in range(80):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        focus = QApplication.focusWidget()
        assert focus is not None, f"focus was lost after {visited[-1:]}"
        if focus is dialog.engine:
            return visited
        visited.append(focus)
    raise AssertionError("Tab never came back to the engine drop-down")


def test_tab_goes_down_the_settings_dialog_as_it_reads(qtbot, settings, registry) -> None:  # type: ignore[no-untyped-def]
    dialog = SettingsDialog(settings, registry)
    qtbot.addWidget(dialog)
    dialog.resize(dialog.width(), 2000)  # every row in view: none scrolled out of its place
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    visited = _tab_round(dialog, qtbot)
    assert not [w for w in visited if isinstance(w, QAbstractScrollArea)], "Tab stopped on a scroll area"
    form = dialog.forms["sketch"]
    assert form.isAncestorOf(visited[0]), "Tab goes from the engine drop-down into its form"
    general = [w for w in visited if not form.isAncestorOf(w)]
    for expected in (dialog.device, dialog.devices, dialog.cpu_threads, dialog.auto_requeue,
                     dialog.reroll_selects, dialog.appearance, dialog.checkpoints, dialog.hf_cache):
        assert expected in general, f"Tab never reaches {expected}"

    def row(widget: QWidget) -> int:
        return widget.mapTo(dialog, QPoint(0, widget.height() // 2)).y()

    rows = [row(widget) for widget in general]
    for (before, y_before), (after, y_after) in zip(zip(general, rows, strict=True),
                                                    zip(general[1:], rows[1:], strict=True), strict=False):
        assert y_after >= y_before - 4, f"Tab went back up from {before} to {after}"
