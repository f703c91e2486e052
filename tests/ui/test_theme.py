"""Light and dark schemes: following the desktop, the palette and the painted views,
arrows on spin boxes and drop-downs, line icons in the scheme's colour at any pixel ratio."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QIcon, QImage, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDoubleSpinBox,
    QGraphicsScene,
    QGraphicsView,
    QSpinBox,
    QStyle,
    QStyleOptionComboBox,
    QStyleOptionSpinBox,
    QWidget,
)

from studio.ui import palette, theme
from studio.ui.icons import icon
from tests.ui.contrast import contrast


@pytest.fixture
def app(qapp) -> Iterator[QApplication]:  # type: ignore[no-untyped-def]
    yield qapp
    theme.apply_theme(qapp, "dark")  # the other tests expect the default look


def _distance(a: QColor, b: QColor) -> int:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue())


def _marks(image: QImage, rect, background: QColor) -> int:  # type: ignore[no-untyped-def]
    """Pixels inside ``rect`` (widget coordinates) that stand out from ``background``."""
    ratio = image.devicePixelRatio()
    count = 0
    for x in range(int(rect.left() * ratio), int(rect.right() * ratio)):
        for y in range(int(rect.top() * ratio), int(rect.bottom() * ratio)):
            if _distance(image.pixelColor(x, y), background) > 120:
                count += 1
    return count


def test_the_scheme_follows_the_desktop_unless_chosen(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(theme, "system_scheme", lambda: theme.Scheme.LIGHT)
    assert theme.resolve_scheme("system") is theme.Scheme.LIGHT
    assert theme.resolve_scheme("dark") is theme.Scheme.DARK
    monkeypatch.setattr(theme, "system_scheme", lambda: None)  # the desktop says nothing
    assert theme.resolve_scheme("system") is theme.Scheme.DARK
    assert theme.resolve_scheme("light") is theme.Scheme.LIGHT


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_palette_and_painted_colours_switch(app: QApplication, scheme: str) -> None:
    used = theme.apply_theme(app, scheme)
    colors = theme.COLORS[used]
    assert used.value == scheme == palette.SCHEME
    assert app.palette().color(QPalette.ColorRole.Window).name() == colors.window
    assert app.palette().color(QPalette.ColorRole.Text).name() == colors.text
    assert palette.BACKGROUND.name() == colors.canvas and palette.TEXT.name() == colors.text
    light = QColor(colors.window).lightness() > 128
    assert light == (scheme == "light")
    assert colors.window in app.styleSheet() and "${" not in app.styleSheet()


def test_a_desktop_switch_restyles_the_running_app(app: QApplication, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(theme, "system_scheme", lambda: theme.Scheme.DARK)
    theme.apply_theme(app, "system")
    scene = QGraphicsScene()
    view = QGraphicsView(scene)
    view.show()
    scene.setBackgroundBrush(palette.BACKGROUND)
    monkeypatch.setattr(theme, "system_scheme", lambda: theme.Scheme.LIGHT)
    app.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert palette.SCHEME == "light"
    assert app.palette().color(QPalette.ColorRole.Window).name() == theme.LIGHT.window
    assert scene.backgroundBrush().color().name() == theme.LIGHT.canvas  # graphics scenes repainted too
    theme.apply_theme(app, "dark")  # chosen by the user: the desktop no longer decides
    app.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert palette.SCHEME == "dark"
    view.close()


def _themed(app: QApplication, scheme: str) -> theme.Colors:
    theme.apply_theme(app, scheme)
    return theme.COLORS[theme.Scheme(scheme)]


def _show(qtbot, widget: QWidget, width: int, height: int) -> None:  # type: ignore[no-untyped-def]
    qtbot.addWidget(widget)
    widget.resize(width, height)
    widget.show()
    qtbot.waitExposed(widget)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_spin_boxes_and_drop_downs_show_their_arrows(app: QApplication, qtbot, scheme: str) -> None:  # type: ignore[no-untyped-def]
    colors = _themed(app, scheme)
    holder = QWidget()
    spin, double, combo = QSpinBox(holder), QDoubleSpinBox(holder), QComboBox(holder)
    spin.setRange(0, 100)
    spin.setValue(50)
    double.setValue(8.0)
    combo.addItems(["cpu", "cuda"])
    for index, widget in enumerate((spin, double, combo)):
        widget.setGeometry(10, 10 + index * 40, 160, 30)
    _show(qtbot, holder, 200, 140)
    base = QColor(colors.base)
    for box in (spin, double):
        option = QStyleOptionSpinBox()
        box.initStyleOption(option)
        image = box.grab().toImage()
        for control in (QStyle.SubControl.SC_SpinBoxUp, QStyle.SubControl.SC_SpinBoxDown):
            rect = box.style().subControlRect(QStyle.ComplexControl.CC_SpinBox, option, control, box)
            assert rect.width() >= 12, f"{control} is {rect.width()} px wide"
            assert _marks(image, rect, base) >= 6, f"no {control} arrow on a {type(box).__name__} ({scheme})"
    option = QStyleOptionComboBox()
    combo.initStyleOption(option)
    rect = combo.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                        QStyle.SubControl.SC_ComboBoxArrow, combo)
    assert _marks(combo.grab().toImage(), rect, base) >= 6, f"no drop-down arrow ({scheme})"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_full_toolbar_shows_its_overflow_button(app: QApplication, qtbot, scheme: str) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QMainWindow, QToolBar, QToolButton

    colors = _themed(app, scheme)
    window = QMainWindow()
    toolbar = QToolBar(window)
    toolbar.setObjectName("mainToolbar")
    window.addToolBar(toolbar)
    for index in range(20):
        toolbar.addAction(f"Action {index}")
    _show(qtbot, window, 400, 120)
    button = toolbar.findChild(QToolButton, "qt_toolbar_ext_button")
    assert button is not None and button.isVisible()
    image = toolbar.grab().toImage()
    assert _marks(image, button.geometry(), QColor(colors.panel)) >= 6, f"no overflow arrow ({scheme})"


def test_line_icons_take_the_schemes_colour_and_are_sharp_on_high_dpi(app: QApplication) -> None:
    def ink(scheme: str, ratio: float, mode: QIcon.Mode = QIcon.Mode.Normal) -> tuple[QColor, QImage]:
        theme.apply_theme(app, scheme)
        pixmap = icon("play").pixmap(QSize(16, 16), ratio, mode)
        image = pixmap.toImage()
        solid = [image.pixelColor(x, y) for x in range(image.width()) for y in range(image.height())
                 if image.pixelColor(x, y).alpha() == 255]
        assert solid, "the icon is empty"
        return solid[len(solid) // 2], image

    dark_ink, _ = ink("dark", 1.0)
    light_ink, _ = ink("light", 1.0)
    assert dark_ink.lightness() > 180 and light_ink.lightness() < 110  # readable on each background
    _, sharp = ink("dark", 2.0)
    assert (sharp.width(), sharp.height()) == (32, 32) and sharp.devicePixelRatio() == 2.0
    _, small = ink("dark", 1.0)
    blown_up = small.scaled(32, 32, Qt.AspectRatioMode.IgnoreAspectRatio, Qt.TransformationMode.FastTransformation)
    differing = sum(1 for x in range(32) for y in range(32)
                    if _distance(sharp.pixelColor(x, y), blown_up.pixelColor(x, y)) > 60)
    assert differing > 10, "the 2x icon is the 1x one scaled up"
    disabled_ink, _ = ink("dark", 1.0, QIcon.Mode.Disabled)
    assert _distance(disabled_ink, QColor(theme.DARK.disabled)) < 30


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_state_bars_and_their_numbers_read_in_both_schemes(app: QApplication, qtbot, scheme: str) -> None:  # type: ignore[no-untyped-def]
    """The state panel's bars, lines and '+15' stand out from the inspector's background
    (light scheme: deeper colours than the dark scheme's pastel ones)."""
    from studio.core.state import CharacterState, StateDeltas
    from studio.ui.inspector.state_panel import StatePanel

    theme.apply_theme(app, scheme)
    background = app.palette().color(QPalette.ColorRole.Window)
    for name, color in palette.STAT_COLORS.items():
        assert contrast(color, background) >= 2.5, (scheme, name, color.name())
    assert contrast(palette.POSITIVE, background) >= 3.5
    assert contrast(palette.NEGATIVE, background) >= 3.5
    panel = StatePanel()
    qtbot.addWidget(panel)
    panel.resize(400, panel.height())
    panel.set_values(CharacterState(80, 40, 55), StateDeltas(3, -2, 0), 3)
    image = panel.grab().toImage()
    # the stamina bar is painted in the scheme's own stamina colour
    bar = image.pixelColor(int(60 * image.devicePixelRatio()), int(12 * image.devicePixelRatio()))
    assert _distance(bar, palette.STAT_COLORS["stamina"]) < 30, (bar.name(), palette.STAT_COLORS["stamina"].name())


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", ["errorLabel", "warningLabel"])
def test_error_and_warning_labels_stand_out_from_body_text(app: QApplication, scheme: str, name: str) -> None:
    """A refusal in a dialog (a name refused, threads reset) or a panel's warning (names a
    character and a location share) was drawn as body text: nothing styled its object name."""
    from PySide6.QtWidgets import QLabel

    used = theme.apply_theme(app, scheme)
    label, body = QLabel("Refused"), QLabel("Body")
    label.setObjectName(name)
    for widget in (label, body):
        widget.ensurePolished()
    stale = QColor(theme.COLORS[used].stale)
    assert label.palette().color(QPalette.ColorRole.WindowText) == stale
    assert body.palette().color(QPalette.ColorRole.WindowText) != stale
