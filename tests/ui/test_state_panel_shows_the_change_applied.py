"""The inspector's state panel writes beside each value how far the turn moved it: stamina 5
with a predicted -3 reads "0  (-5)" (not "(-15)"), and a turn that finds stamina at 0 already
reads "(+0)" in the plain colour, not red."""

from __future__ import annotations

from studio.core import AddTake, AddTurn, CharacterState, Document, SetStartState, StateDeltas, StoryTree, Take
from studio.core.instruction import Instruction
from studio.core.model import CastMember, Node, TakeStatus
from studio.ui import palette
from studio.ui.inspector.inspector import Inspector
from studio.ui.media_cache import ClipCache


def _tree() -> StoryTree:
    root = Node(id="root", parent_id=None, instruction=Instruction(raw=""), start_state=CharacterState())
    document = Document(StoryTree.from_entities([root, CastMember("c1", "Qiqi")]))
    document.apply(SetStartState("Qiqi", CharacterState(5, 95, 50)))
    parent = "root"
    for node_id, deltas in (("q1", StateDeltas(-3, 2, 1)), ("q2", StateDeltas(-3, 2, -1))):
        text = "Character: Qiqi; Motion: run; Background: day town"
        document.apply(AddTurn(parent, text, node_id=node_id))
        document.apply(AddTake(Take(id=f"t-{node_id}", node_id=node_id, engine="fake", deltas=deltas,
                                    status=TakeStatus.DONE, instruction_raw=text)))
        parent = node_id
    return document.tree


def test_state_panel_shows_the_change_applied_not_the_predicted(qtbot) -> None:  # type: ignore[no-untyped-def]
    inspector = Inspector(ClipCache(), str)
    qtbot.addWidget(inspector)
    inspector.resize(420, 800)
    inspector.show()
    tree = _tree()
    panel = inspector.state
    inspector.show_node(tree, "q1")
    assert [panel.value_text(n) for n in ("stamina", "social", "entertainment")] == ["0  (-5)", "100  (+5)",
                                                                                     "55  (+5)"]
    assert panel.value_colour("stamina") == palette.NEGATIVE
    inspector.show_node(tree, "q2")
    assert [panel.value_text(n) for n in ("stamina", "social", "entertainment")] == ["0  (+0)", "100  (+0)",
                                                                                     "50  (-5)"]
    assert panel.value_colour("stamina") == palette.TEXT  # nothing moved: neither red nor green
    assert panel.value_colour("social") == palette.TEXT
    panel.grab()  # paints with those values
    inspector.show_node(tree, "root")
    assert panel.value_text("stamina") == "50"  # the story's start: no turn, no change
