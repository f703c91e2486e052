"""Find "cafe" missed a turn that says "café": people type a search without its accents, as
most find boxes let them. A query without accents now finds the words with or without them;
one with an accent finds only that spelling. Japanese voicing marks are not accents: "かう"
must not find "がう" (another word)."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import SetNarration
from studio.ui.search_bar import without_accents


def test_without_accents_keeps_kana_voicing_marks() -> None:
    assert without_accents("café crème, Ελένη, Ёлка") == "cafe creme, Ελενη, Елка"
    assert without_accents("が") == "が" and without_accents("か\u3099") == "が"


def test_find_ignores_accents_only_when_the_query_has_none(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    tree = ws.tree
    first, second = tree.child_ids(tree.root_id)[0], tree.child_ids(tree.child_ids(tree.root_id)[0])[0]
    ws.apply(SetNarration(first, "They meet at the Café Mélo."))
    ws.apply(SetNarration(second, "They meet at the cafe melo, がう said."))
    qtbot.waitUntil(lambda: "Mélo" in ws.tree.node(first).story.narration, timeout=5_000)
    window.actions_.find.trigger()
    ws.search.edit.setText("cafe melo")
    assert set(ws.matches) == {first, second}
    ws.search.edit.setText("café")
    assert ws.matches == [first]
    ws.search.edit.setText("かう")
    assert ws.matches == []
