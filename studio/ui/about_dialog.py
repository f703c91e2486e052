"""Help › About: the studio's version and licence, the model weights' licences, and where
the documentation is.

The weights' licences are the ones ``kamishibai doctor`` prints (each engine's
:attr:`~studio.engines.info.EngineInfo.license`): Tencent's exclude some regions, which a
user should read before choosing an engine, not only in a terminal.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from studio import __version__
from studio import shipped as shipped_module
from studio.engines.info import EngineInfo

APP_LICENSE = "Apache License 2.0"
"""The studio's own licence (pyproject.toml's ``license``, Apache-2.0; the LICENSE file)."""

TAGLINE = "Author branching anime stories, one turn at a time."


def documentation_place() -> str:
    """Where the README and docs/ are: the checkout's own, else the source the copy came from
    (a wheel and the built app carry no docs folder)."""
    checkout = shipped_module.source_checkout()
    if checkout is not None:
        return f"{checkout / 'README.md'} and the folder {checkout / 'docs'}"
    return ("the README.md and docs/ folder of the studio's source checkout (this copy was installed or built "
            "from one and carries neither)")


def weights_licenses(infos: Iterable[EngineInfo]) -> list[tuple[str, str]]:
    """(engine label, licence) for every engine whose weights have a licence of their own."""
    return [(info.label, info.license) for info in infos if info.license]


def about_html(infos: Iterable[EngineInfo], docs: str | None = None) -> str:
    """The dialog's text, as rich text."""
    rows = "".join(f"<li><b>{html.escape(label)}</b>: {html.escape(text)}</li>"
                   for label, text in weights_licenses(infos))
    weights = (f"<p>Model weights are not the app's: each engine's weights come with their own licence. Read it "
               f"before you use an engine (Tencent's licences exclude some regions).</p><ul>{rows}</ul>"
               if rows else "")
    place = html.escape(docs if docs is not None else documentation_place())
    return (f"<p><b>Kamishibai Studio</b> {html.escape(__version__)}<br>{html.escape(TAGLINE)}</p>"
            f"<p>The app is free software under the {APP_LICENSE} (its LICENSE file).</p>"
            f"{weights}"
            f"<p>Documentation: {place}. <code>kamishibai doctor</code> tells what this computer can run, "
            f"and <code>kamishibai --help</code> lists the commands.</p>")


class AboutDialog(QDialog):
    """The About box: read-only text that can be selected and copied (a path, a licence name)."""

    def __init__(self, infos: Iterable[EngineInfo], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("About Kamishibai Studio")
        self.text = QLabel(about_html(infos), self)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                          | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.text.setMinimumWidth(420)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok, self)
        buttons.accepted.connect(self.accept)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
