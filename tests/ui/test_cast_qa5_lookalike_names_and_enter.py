"""Cast & world QA: a name that only the encoding of its letters tells from another one ("Zoé"
typed with a combining accent beside "Zoé", full-width "ＰＡＲＫ" beside the place "park") is
refused where it is typed, since the two would read the same in every list and turn; and Enter
on a name in the panel uses it in the instruction, as a double-click does."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from PIL import Image
from PySide6.QtCore import Qt

from studio.core.errors import StudioError

COMPOSED = "Zo\u00e9"
DECOMPOSED = unicodedata.normalize("NFD", COMPOSED)  # "Zoe" + U+0301, as some file names and pastes hold it


def _names(window) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(m.name for m in window.session.project.tree.cast.values())


def test_a_character_spelled_with_a_combining_accent_is_refused(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                                qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    ws.cast.add_character(COMPOSED)
    session.settle()
    qtbot.waitUntil(lambda: COMPOSED in _names(window), timeout=5000)
    with pytest.raises(StudioError, match="reads the same as the character") as refused:
        ws.cast.add_character(DECOMPOSED)
    assert refused.value.hint and COMPOSED in refused.value.hint
    with pytest.raises(StudioError, match="reads the same as the character 'Qiqi'"):
        ws.cast.add_character("\uff31\uff49\uff51\uff49")  # full-width Ｑｉｑｉ
    session.settle()
    assert _names(window) == sorted(["Aoi", "Qiqi", "Sosuke", "Taro", "Yuzu", COMPOSED])


def test_a_rename_to_a_lookalike_of_another_character_is_refused(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                                 qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    errors: list[StudioError] = []
    ws.error.connect(errors.append)
    ws.cast.add_character(COMPOSED)
    session.settle()
    qtbot.waitUntil(lambda: COMPOSED in _names(window), timeout=5000)
    ws.cast.select_character("Aoi")
    ws.cast.ask_name = lambda _current: DECOMPOSED
    ws.cast.rename_selected()
    session.settle()
    assert len(errors) == 1 and "reads the same as the character" in errors[0].message, errors
    assert "Aoi" in _names(window) and DECOMPOSED not in _names(window)
    ws.cast.select_character(COMPOSED)  # its own name in capitals is a new spelling, not a lookalike
    ws.cast.ask_name = lambda _current: COMPOSED.upper()
    ws.cast.rename_selected()
    session.settle()
    qtbot.waitUntil(lambda: COMPOSED.upper() in _names(window), timeout=5000)
    assert len(errors) == 1, errors


def test_lookalike_locations_are_refused_both_ways(make_window, sample_project: Path, qtbot,  # type: ignore[no-untyped-def]
                                                   tmp_path: Path) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    picture = tmp_path / "cafe.png"
    Image.new("RGB", (32, 24), (200, 120, 40)).save(picture)
    ws.cast.add_location_from_file(picture, "Caf\u00e9")
    session.settle()
    qtbot.waitUntil(lambda: any(loc.name == "Caf\u00e9" for loc in session.project.tree.locations.values()),
                    timeout=5000)
    count = len(session.project.tree.locations)
    with pytest.raises(StudioError, match="reads the same as the location 'Caf"):
        ws.cast.add_location_from_file(picture, unicodedata.normalize("NFD", "Caf\u00e9"))
    with pytest.raises(StudioError, match="already a location's name"):  # a character can't take it either
        ws.cast.add_character(unicodedata.normalize("NFD", "Caf\u00e9"))
    with pytest.raises(StudioError, match="already a location's name"):
        ws.cast.add_character("\uff30\uff21\uff32\uff2b")  # full-width ＰＡＲＫ: the sample's park
    session.settle()
    assert len(session.project.tree.locations) == count
    assert _names(window) == ["Aoi", "Qiqi", "Sosuke", "Taro", "Yuzu"]


def test_enter_on_a_name_uses_it_in_the_instruction(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    ws.select(tree.child_ids(tree.root_id)[0])
    editor = ws.inspector.editor
    panel = ws.cast
    panel.characters.setFocus()
    qtbot.waitUntil(panel.characters.hasFocus, timeout=5000)
    panel.select_character("Yuzu")
    qtbot.keyClick(panel.characters, Qt.Key.Key_Return)
    assert editor.character.text() == "Yuzu"
    panel.locations.setFocus()
    qtbot.waitUntil(panel.locations.hasFocus, timeout=5000)
    panel.locations.setCurrentRow(0)
    place = panel.locations.currentItem().text()
    qtbot.keyClick(panel.locations, Qt.Key.Key_Enter)
    assert editor.background.text() == place
    assert len(window.session.project.tree.nodes) == len(tree.nodes), "Enter also added a turn"
