"""A new turn generated under a turn that has no take (and none on its way) starts from the
state before that turn; the command line said so, the window went ahead with "Generating…"
alone. It now says what happens and how to generate the branch in order."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import AddTurn

from .conftest import generate_first_branch


def _generating(messages: list[str]) -> str:
    return next(m for m in messages if m.startswith("Generating"))


def test_generating_under_a_turn_without_take_says_it_starts_from_before(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                                        qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    messages: list[str] = []
    ws.message.connect(messages.append)

    ws.apply(AddTurn(leaf, "Qiqi sits on a bench", node_id="bare"))  # added without a take
    qtbot.waitUntil(lambda: "bare" in session.project.tree.nodes, timeout=5_000)
    ws._generate_new("bare", "Qiqi waves")
    qtbot.waitUntil(lambda: any(m.startswith("Generating") for m in messages), timeout=10_000)
    said = _generating(messages)
    assert "The turn above has no take yet" in said and "Ctrl+Shift+G" in said, messages

    messages.clear()
    ws._generate_new(tree.root_id, "Qiqi jumps")  # a first turn starts from the start: nothing more to say
    qtbot.waitUntil(lambda: any(m.startswith("Generating") for m in messages), timeout=10_000)
    assert _generating(messages) == "Generating…", messages

    done_leaf = generate_first_branch(window, qtbot)  # a turn with its take: nothing more to say either
    messages.clear()
    ws._generate_new(done_leaf, "Qiqi naps")
    qtbot.waitUntil(lambda: any(m.startswith("Generating") for m in messages), timeout=10_000)
    assert _generating(messages) == "Generating…", messages
    session.settle()
