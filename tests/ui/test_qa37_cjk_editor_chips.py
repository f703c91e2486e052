"""The understood chips of a Chinese or Japanese turn made with the sketch engine say what it
was read as, quote the author's words as written, and a word chosen on a chip keeps the rest
of the turn.

The time chip's tooltip said "'晚上' is not a time of day the studio knows; it is drawn by day"
beside the chip saying the engine drew it at night (the Time box's note said the same of 夜);
choosing an English motion on a chip of a Chinese turn wrote "Background: 晚上 公园" and the
time was lost.
"""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import EditInstruction


def _generated(window, qtbot, raw: str):  # type: ignore[no-untyped-def]
    """The window's inspector on the first turn, given ``raw`` and a take of it."""
    ws = window.workspace
    tree = window.session.project.tree
    turn = tree.child_ids(tree.root_id)[0]
    ws.apply(EditInstruction(turn, raw))
    window.session.settle()
    ws.select(turn)
    window.actions_.generate.trigger()
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=60_000)
    window.session.settle()
    inspector = ws.inspector
    qtbot.waitUntil(lambda: any(chip.warning for chip in inspector.chips.chips), timeout=5000)
    return turn, inspector


def test_a_chinese_turn_s_chips(make_window, sample_project: Path, qtbot) -> None:
    from studio.ui.inspector.understanding import ChipField

    window = make_window(sample_project)
    turn, inspector = _generated(window, qtbot, "角色：小明；动作：倒立；背景：公园；时间：晚上")
    chips = inspector.chips.chips
    time = next(chip for chip in chips if chip.field is ChipField.TIME)
    assert time.text == "time: night (晚上)"
    assert "by day" not in time.tooltip and "'晚上'" in time.tooltip and "'night'" in time.tooltip, time.tooltip
    place = next(chip for chip in chips if chip.field is ChipField.PLACE and not chip.warning)
    assert place.word == "公园"
    unknown = next(chip for chip in chips if chip.warning and "倒立" in chip.text)
    assert unknown.text.startswith("⚠ '倒立'") and unknown.word == "倒立" and unknown.field is ChipField.MOTION
    button = inspector.chips.buttons[chips.index(unknown)]
    assert "'倒立'" in button.text()  # shown as written

    inspector.chips.fix(ChipField.MOTION, "run")
    window.session.settle()
    stored = window.session.project.tree.node(turn).instruction
    assert (stored.motion, stored.background, stored.time_of_day) == ("run", "公园", "晚上"), stored.raw


def test_a_japanese_time_word_is_not_called_unknown(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    tree = window.session.project.tree
    window.workspace.select(tree.child_ids(tree.root_id)[0])
    editor = window.workspace.inspector.editor
    editor.time.setCurrentText("夜")
    assert not editor.time_note.isVisibleTo(editor) and editor.time_note.text() == ""
    editor.time.setCurrentText("teatime")  # an English word the studio does not know is still named
    assert "not a time of day" in editor.time_note.text()
