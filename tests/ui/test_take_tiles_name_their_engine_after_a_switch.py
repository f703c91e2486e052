"""After the engine is switched mid-branch, the take tiles say which engine made each take.

Which engine made a take was only in a tooltip of its tile's caption: a turn with a sketch
take and a mini take showed two tiles alike. A tile now names its engine ("Take 2 · mini")
when the turn's takes come from more than one engine, or from another engine than the one
new takes use; the compare window's facts name it beside the seed.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QTextDocument

from studio.core.model import Take
from studio.ui.inspector.compare_window import CompareWindow
from studio.ui.media_cache import ClipCache

from .conftest import fake_engine_window

TIMEOUT_MS = 60_000


def _captions(window, qtbot) -> list[str]:  # type: ignore[no-untyped-def]
    """The take tiles' captions, once the tiles show."""
    tiles = window.workspace.inspector.takes.tiles
    qtbot.waitUntil(lambda: all(tile.caption.isVisibleTo(window) for tile in tiles))
    return [tile.caption.text() for tile in tiles]


def _pick_engine(window, name: str) -> None:  # type: ignore[no-untyped-def]
    combo = window.engine_picker.combo
    combo.setCurrentIndex(combo.findData(name))
    assert window.session.engine == name


def test_tiles_name_the_engine_once_takes_come_from_another(make_window, sample_project: Path, qtbot,  # type: ignore[no-untyped-def]
                                                            settings, registry) -> None:
    window, _script = fake_engine_window(make_window, sample_project, settings, registry)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    ws.select(first, center=False)
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: len(session.project.tree.takes_of(first)) == 1 and not session.active_jobs(),
                    timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 1)
    assert _captions(window, qtbot) == ["Take 1"], "one engine, the current one: nothing more to say"

    _pick_engine(window, "sketch")  # new takes from now on are the sketch engine's
    assert _captions(window, qtbot) == ["Take 1 · fake"]

    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: len(session.project.tree.takes_of(first)) == 2 and not session.active_jobs(),
                    timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 2)
    assert _captions(window, qtbot) == ["Take 1 · fake", "Take 2 · sketch"]

    _pick_engine(window, "fake")  # back: the turn still holds takes of two engines
    assert _captions(window, qtbot) == ["Take 1 · fake", "Take 2 · sketch"]


def test_compare_facts_name_the_engine_as_written(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """An engine name stored by another program is shown as written, even with a "<" in it."""
    takes = [Take(id=f"t{index}", node_id="n", engine=engine, seed=100 + index, clip_path=f"c{index}.mp4")
             for index, engine in enumerate(("sketch", "mini<2>"))]
    compare = CompareWindow("Turn 1", takes, "t0", {}, ClipCache(), lambda rel: str(tmp_path / rel))
    qtbot.addWidget(compare)
    shown = []
    for column in compare.columns:
        document = QTextDocument()
        document.setHtml(column.facts.text())
        shown.append(document.toPlainText())
    assert shown[0].endswith("seed 100 · sketch") and shown[1].endswith("seed 101 · mini<2>"), shown
