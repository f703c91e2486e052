"""The control with the keyboard focus shows it, in the light and in the dark scheme: a button,
a filled (primary) button, a checked button, an icon-only tool button, a check box (ticked or
not), a slider and a list look different focused than unfocused, and focusing one never
moves or resizes it.

Before, only the text fields had a focus frame: Tab onto the bookmark star, a player's time
slider, the cast list or Save text showed nothing, so who works from the keyboard could not
tell where a key press would go."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSlider,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.ui.icons import icon
from studio.ui.theme import apply_theme


def _button() -> QWidget:
    return QPushButton("Save text")


def _primary() -> QWidget:
    button = QPushButton("Generate")
    button.setObjectName("primaryButton")
    return button


def _recent_project() -> QWidget:
    button = QPushButton("Rainy day errands")
    button.setObjectName("recentButton")  # the welcome page's recent projects: a flat button
    return button


def _checked_button() -> QWidget:
    button = QPushButton("Lock seed")
    button.setCheckable(True)
    button.setChecked(True)
    return button


def _tool_button() -> QWidget:
    button = QToolButton()
    button.setIcon(icon("bookmark"))
    button.setFocusPolicy(button.focusPolicy().StrongFocus)
    return button


def _check_box(checked: bool) -> Callable[[], QWidget]:
    def make() -> QWidget:
        box = QCheckBox("Also use weights already in the Hugging Face cache")
        box.setChecked(checked)
        return box
    return make


def _slider() -> QWidget:
    slider = QSlider()
    slider.setOrientation(slider.orientation().Horizontal)
    slider.setRange(0, 100)
    slider.setValue(30)
    slider.setFocusPolicy(slider.focusPolicy().StrongFocus)
    return slider


def _list() -> QWidget:
    widget = QListWidget()
    widget.addItems(["Aoi", "Qiqi", "Sosuke"])
    return widget


CONTROLS: dict[str, Callable[[], QWidget]] = {
    "button": _button, "primary button": _primary, "checked button": _checked_button,
    "recent project": _recent_project, "tool button": _tool_button, "check box": _check_box(False),
    "ticked check box": _check_box(True), "slider": _slider, "list": _list,
}


@pytest.fixture(params=["dark", "light"])
def scheme(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:  # type: ignore[no-untyped-def]
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    before = (app.styleSheet(), app.palette(), app.style().name())
    apply_theme(app, request.param, tmp_path / "theme")
    yield request.param
    app.setStyleSheet(before[0])
    app.setPalette(before[1])
    app.setStyle(before[2])


def _grab(widget: QWidget) -> QImage:
    QApplication.processEvents()
    return widget.grab().toImage()


@pytest.mark.parametrize("kind", list(CONTROLS))
def test_the_focused_control_shows_a_frame_and_stays_put(qtbot, scheme: str, kind: str) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    layout = QVBoxLayout(host)
    other = QLineEdit(host)  # holds the focus while the control is drawn unfocused
    control = CONTROLS[kind]()
    layout.addWidget(other)
    layout.addWidget(control)
    host.resize(420, 240)
    host.show()
    qtbot.waitExposed(host)
    host.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is host)
    other.setFocus()
    qtbot.waitUntil(other.hasFocus)
    unfocused, place = _grab(control), control.geometry()
    control.setFocus()
    qtbot.waitUntil(control.hasFocus)
    focused = _grab(control)
    assert focused != unfocused, f"a focused {kind} looks the same as an unfocused one ({scheme} scheme)"
    assert control.geometry() == place, f"focusing the {kind} moved or resized it"
