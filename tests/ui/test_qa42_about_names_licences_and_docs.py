"""Help › About names the app's licence, the model weights' licences and where the
documentation is: it showed only the name, the version and one line, so a user learnt of
Tencent's regional exclusions only from ``kamishibai doctor``."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from studio import __version__
from studio.ui.about_dialog import APP_LICENSE, AboutDialog

ROOT = Path(__file__).resolve().parents[2]


def _plain(dialog: AboutDialog) -> str:
    from PySide6.QtGui import QTextDocument

    document = QTextDocument()
    document.setHtml(dialog.text.text())
    return " ".join(document.toPlainText().split())


def test_the_about_box_says_the_licences_and_the_docs(qtbot, registry) -> None:  # type: ignore[no-untyped-def]
    dialog = AboutDialog(registry.infos())
    qtbot.addWidget(dialog)
    text = _plain(dialog)
    assert f"Kamishibai Studio {__version__}" in text
    spdx = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"]
    name, number = spdx.split("-")
    assert f"{name} License {number}" == APP_LICENSE and APP_LICENSE in text
    for info in registry.infos():  # the licences doctor prints, each engine's
        if info.license:
            assert f"{info.label}: {info.license}" in text, info.name
    assert "European Union" in text and "South Korea" in text  # Tencent's licences exclude regions
    assert f"{ROOT / 'README.md'} and the folder {ROOT / 'docs'}" in text  # a checkout's own docs
    assert (ROOT / "docs").is_dir()


def test_the_help_menu_opens_it(make_window, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    shown: list[str] = []

    def record(dialog: AboutDialog) -> int:
        shown.append(_plain(dialog))
        return 0

    monkeypatch.setattr(AboutDialog, "exec", record)
    window = make_window()
    window.actions_.about.trigger()
    assert len(shown) == 1 and APP_LICENSE in shown[0]
