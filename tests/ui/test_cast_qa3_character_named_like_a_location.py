"""A project holding a character and a location of one name (made before the cast panel
refused the pair, or by another program): the panel says so and what to do; a rename asks,
saying that only the Character fields change and which turns it leaves alone; renaming the
character to another spelling of its own name is not refused as a new clash; the inspector
notes a turn whose text may mean either; a typed line follows a rename as the document does."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import AddCastMember, AddLocation, AddTurn
from studio.core.model import CastMember, Location


def _with_river(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The sample story with a character River beside its place 'river', and two turns."""
    ws, session = window.workspace, window.session
    tree = session.project.tree
    if not any(loc.name.lower() == "river" for loc in tree.locations.values()):
        ws.apply(AddLocation(Location(id="river-place", name="river")))
    ws.apply(AddCastMember(CastMember(id="river", name="River")))
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.apply(AddTurn(leaf, "Character: River; Motion: wave; Background: day river.", node_id="t-river"))
    ws.apply(AddTurn("t-river", "Character: Qiqi; Motion: swim; Background: day park; Qiqi dives into the river",
                     node_id="t-dive"))
    session.settle()
    qtbot.waitUntil(lambda: any(m.name == "River" for m in window.workspace.cast._members.values()), timeout=5000)


def test_the_cast_panel_says_which_names_are_shared(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    panel = window.workspace.cast
    assert panel.clash_note.isHidden()
    _with_river(window, qtbot)
    assert not panel.clash_note.isHidden()
    assert "'River'" in panel.clash_note.text() and "Rename" in panel.clash_note.text()
    river = next(panel.characters.item(i) for i in range(panel.characters.count())
                 if panel.characters.item(i).text() == "River")
    assert "location is named 'River' too" in river.toolTip()
    place = next(panel.locations.item(i) for i in range(panel.locations.count())
                 if panel.locations.item(i).text() == "river")
    assert "character is named 'river' too" in place.toolTip()


def test_a_rename_says_what_it_leaves_and_keeps_the_place(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    _with_river(window, qtbot)
    panel = window.workspace.cast
    asked: list[str] = []
    panel.confirm = lambda title, text: asked.append(text) or True  # type: ignore[method-assign]
    panel.select_character("River")
    panel.ask_name = lambda current: "Kawa"  # type: ignore[method-assign]
    panel.rename_selected()
    window.session.settle()
    tree = window.session.project.tree
    assert tree.nodes["t-river"].instruction.raw == "Character: Kawa; Motion: wave; Background: day river."
    assert tree.nodes["t-dive"].instruction.raw.endswith("Qiqi dives into the river"), "the place's word was renamed"
    assert asked and "1 turn has River as its character" in asked[0]
    assert "also the location 'river'" in asked[0] and "left as they are" in asked[0], asked[0]
    assert panel.clash_note.isHidden(), "the note stays after the clash is gone"


def test_a_new_spelling_of_the_shared_name_is_not_a_new_clash(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    _with_river(window, qtbot)
    panel = window.workspace.cast
    errors: list[object] = []
    panel.error.connect(errors.append)
    panel.select_character("River")
    panel.ask_name = lambda current: "RIVER"  # type: ignore[method-assign]
    panel.rename_selected()
    window.session.settle()
    assert not errors
    assert any(m.name == "RIVER" for m in window.session.project.tree.cast.values())


def test_the_inspector_notes_a_turn_whose_text_may_mean_either(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    _with_river(window, qtbot)
    ws = window.workspace
    note = ws.inspector.name_note
    ws.select("t-dive")
    qtbot.waitUntil(lambda: not note.isHidden(), timeout=5000)
    assert "'River' is the name of a character and of a location" in note.text()
    ws.select("t-river")  # named in its Character and Background fields only: nothing to say
    qtbot.waitUntil(note.isHidden, timeout=5000)
    ws.inspector.editor.free_text.setText("River laughs")  # typing counts too
    assert not note.isHidden()
    ws.select(window.session.project.tree.root_id)
    qtbot.waitUntil(note.isHidden, timeout=5000)


def test_typing_follows_a_rename_but_not_in_its_background(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    """A place named after a character (Mei's bakery): the document's rename leaves the turns'
    Background fields alone, and so must the rename of the line being typed."""
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    ws.apply(AddCastMember(CastMember(id="mei", name="Mei")))
    ws.apply(AddLocation(Location(id="mei-bakery", name="Mei's bakery")))
    leaf = session.project.tree.leaves_under(session.project.tree.root_id)[0].id
    ws.apply(AddTurn(leaf, "Character: Mei; Motion: bake; Background: Mei's bakery.", node_id="t-mei"))
    session.settle()
    ws.select("t-mei")
    editor = ws.inspector.editor
    qtbot.waitUntil(lambda: editor.character.text() == "Mei", timeout=5000)
    editor.motion.setText("bakes bread")  # typed, not saved
    panel = ws.cast
    panel.select_character("Mei")
    panel.ask_name = lambda current: "Ana"  # type: ignore[method-assign]
    panel.rename_selected()
    session.settle()
    qtbot.waitUntil(lambda: editor.character.text() == "Ana", timeout=5000)
    assert editor.motion.text() == "bakes bread"
    assert editor.background.text() == "Mei's bakery", "the typed line's place was renamed"
