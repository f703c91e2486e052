"""The Cast & world panel shows a long character or location name whole, wrapped in the
panel's width. (QA: a name longer than the panel was cut at its edge, and the list grew a
sideways scroll bar that hid one of the four rows it shows.)"""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import AddCastMember, AddLocation
from studio.core.model import CastMember, Location, new_id

LONG = "Bartholomew Maximilian Fitzgerald-Wolfenstein the Third of the Northern Isles"
PLACE = "the old lighthouse at the end of the northern pier, in the rain"


def test_long_names_wrap_inside_the_lists(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    window.resize(1920, 1080)
    window.cast_dock.show()
    ws = window.workspace
    ws.apply(AddCastMember(CastMember(id=new_id(), name=LONG)))
    ws.apply(AddLocation(Location(id=new_id(), name=PLACE)))
    window.session.settle()
    panel = ws.cast
    qtbot.waitUntil(lambda: any(panel.characters.item(i).text() == LONG for i in range(panel.characters.count())),
                    timeout=10_000)
    qtbot.waitUntil(lambda: any(panel.locations.item(i).text() == PLACE for i in range(panel.locations.count())),
                    timeout=10_000)
    for listing, name in ((panel.characters, LONG), (panel.locations, PLACE)):
        item = next(listing.item(i) for i in range(listing.count()) if listing.item(i).text() == name)
        assert listing.fontMetrics().horizontalAdvance(name) > listing.viewport().width(), "the name fits anyway"
        qtbot.wait(50)
        assert not listing.horizontalScrollBar().isVisible(), "the list scrolls sideways"
        rect = listing.visualItemRect(item)
        assert rect.width() < listing.fontMetrics().horizontalAdvance(name), "the name runs on past the panel"
        assert rect.height() > 2 * listing.fontMetrics().height(), "the long name is not wrapped"
