"""Find missed Japanese text written another way than it was typed: a kana with its voicing
mark as two characters (か + U+3099, as pasted from macOS), or full-width letters from an
input method (Ｑｉｑｉ). The search and the turns' text are now compared NFKC-normalised."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import SetNarration
from studio.ui.search_bar import find_matches


def test_find_matches_kana_and_full_width_letters(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    tree = ws.tree
    target = tree.child_ids(tree.root_id)[0]
    ws.apply(SetNarration(target, "ちか\u3099う道を行く"))  # 違う with its voicing mark on its own
    qtbot.waitUntil(lambda: ws.tree.node(target).story.narration.startswith("ちか"), timeout=5_000)
    window.actions_.find.trigger()
    ws.search.edit.setText("ちがう")  # as a Japanese keyboard types it (one character per kana)
    assert ws.matches == [target]
    assert ws.search.count.text() == "1 of 1"
    ws.search.edit.setText("ＱＩＱＩ")
    assert ws.matches and ws.matches == find_matches(ws.tree, "qiqi", ws.layout_order())
    ws.search.edit.setText("(.*[")  # regex characters are plain text: no match, no error
    assert ws.matches == [] and ws.search.count.text() == "no matches"
