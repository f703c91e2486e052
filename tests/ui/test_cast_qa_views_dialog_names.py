"""Cast & world QA: the reference-views dialog shows a character's name as written (a name
with markup-like text is not rendered as markup) and a very long name wraps rather than
widen the dialog past the screen."""

from __future__ import annotations

from PySide6.QtCore import Qt


def test_a_name_with_tags_is_shown_as_written(qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.dialogs.reference_views import ReferenceViewsDialog
    from studio.ui.text_wrap import unbroken

    dialog = ReferenceViewsDialog("<b>Kai</b> & <i>Ren</i>", [])
    qtbot.addWidget(dialog)
    assert dialog.intro.textFormat() == Qt.TextFormat.PlainText
    assert unbroken(dialog.intro.text()).startswith("Add <b>Kai</b> & <i>Ren</i>'s front")
    dialog.error.setText("A character named '<b>Kai</b>' already exists.")
    assert dialog.error.textFormat() == Qt.TextFormat.PlainText


def test_a_very_long_name_wraps(qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.dialogs.reference_views import ReferenceViewsDialog

    dialog = ReferenceViewsDialog("Ж" * 100, [])  # the longest name a character may have
    qtbot.addWidget(dialog)
    assert dialog.sizeHint().width() <= 700, dialog.sizeHint()  # it was 1984 px: past a 1280-pixel screen


def test_the_add_character_error_is_plain_text(qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.cast_panel import CharacterDialog

    dialog = CharacterDialog()
    qtbot.addWidget(dialog)
    assert dialog.error.textFormat() == Qt.TextFormat.PlainText
