"""The Cast & world panel lists names in natural order: "Extra 2" before "Extra 10" (digits
compare by value), whatever their case or accents ("émi" beside "Emi", before "Fumi"). Sorted
as plain text, "Extra 10" came before "Extra 2" and an accented "Émi" went after "Zoe"."""

from __future__ import annotations

from pathlib import Path

from studio.core.model import CastMember, Location
from studio.core.tree import StoryTree
from studio.ui.cast_panel import CastPanel

NAMES = ["Extra 10", "Zoe", "extra 2", "Émi", "Fumi", "Extra 1", "anna 3"]
IN_ORDER = ["anna 3", "Émi", "Extra 1", "extra 2", "Extra 10", "Fumi", "Zoe"]


def _panel(qtbot) -> CastPanel:  # type: ignore[no-untyped-def]
    tree = StoryTree.from_entities(
        [CastMember(id=f"c{i}", name=name) for i, name in enumerate(NAMES)]
        + [Location(id=f"l{i}", name=f"{name} street") for i, name in enumerate(NAMES)])
    panel = CastPanel(apply=lambda _command, _then=None: None, resolve=Path,
                      import_image=lambda _path, _folder: "")
    qtbot.addWidget(panel)
    panel.refresh(tree)
    return panel


def test_characters_sort_naturally(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = _panel(qtbot)
    shown = [panel.characters.item(row).text() for row in range(panel.characters.count())]
    assert shown == IN_ORDER


def test_locations_sort_naturally(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = _panel(qtbot)
    shown = [panel.locations.item(row).text() for row in range(panel.locations.count())]
    assert shown == [f"{name} street" for name in IN_ORDER]
