"""A location named with a semicolon could never be a turn's place: "Background: harbour; east"
reads the place "harbour" and the free text "east". Such a name is refused when the location
is added; a colon stays allowed ("Background: Pier: east" reads the place "Pier: east")."""

from __future__ import annotations

import pytest

from studio.core.commands import AddLocation, CommandError
from studio.core.instruction import parse_instruction
from studio.core.model import Location
from studio.storage import Project


@pytest.mark.parametrize("name", ["harbour; east", "港；東"])
def test_a_location_name_with_a_field_separator_is_refused(project: Project, name: str) -> None:
    with pytest.raises(CommandError, match="could never name it"):
        project.apply(AddLocation(Location(id="l", name=name)))
    assert "l" not in project.tree.locations


def test_a_colon_stays_allowed_and_reads_back_as_the_place(project: Project) -> None:
    project.apply(AddLocation(Location(id="l", name="Pier: east")))
    assert project.tree.locations["l"].name == "Pier: east"
    assert parse_instruction("Character: Qiqi; Background: Pier: east").background == "Pier: east"
