"""Pictures of the inspector (story fields, chips, takes) and of the compare window, rendered
offscreen into test-output/ for a person to look at; the test checks they are not blank."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QImage

from studio.core.commands import SetDialogue, SetNarration
from studio.core.story import DialogueLine

OUT = Path(__file__).resolve().parents[2] / "test-output"


def _distinct_colours(image: QImage) -> int:
    step = max(1, image.width() // 60)
    return len({image.pixel(x, y) for x in range(0, image.width(), step) for y in range(0, image.height(), step)})


def test_inspector_and_compare_window_pictures(make_window, tmp_path, qtbot) -> None:
    window = make_window()
    assert window.new_project(tmp_path / "story"), window.last_error
    window.resize(1600, 1000)
    ws, project, service = window.workspace, window.session.project, window.session.service
    settings = window.session.job_settings()
    first, job = service.generate(project.tree.root_id, "Character: Qiqi; Motion: juggle; Background: dawn park.",
                                  settings=settings)
    assert service.wait_jobs([job], 60)
    jobs = [service.reroll(first, settings=settings) for _ in range(2)]
    assert service.wait_jobs(jobs, 60)
    project.apply(SetDialogue(first, (DialogueLine("Qiqi", "Watch this!"), DialogueLine("Aoi", "Careful…"))))
    project.apply(SetNarration(first, "Morning in the park. Qiqi has a new trick."))
    qtbot.waitUntil(lambda: len([t for t in project.tree.takes_of(first) if t.clip_path]) == 3, timeout=60_000)
    ws.select(first)
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 3 and bool(ws.inspector.chips.chips))
    qtbot.waitUntil(lambda: all(t.player.frame_count for t in ws.inspector.takes.tiles), timeout=20_000)
    qtbot.wait(300)
    OUT.mkdir(exist_ok=True)
    body = ws.inspector.widget()
    inspector = body.grab().toImage()
    assert inspector.save(str(OUT / "inspector.png"))
    assert window.grab().toImage().save(str(OUT / "window-authoring.png"))
    assert _distinct_colours(inspector) > 20

    compare = ws.compare_takes()
    assert compare is not None
    qtbot.waitUntil(lambda: all(c.player.frame_count for c in compare.columns), timeout=20_000)
    compare.pause()
    compare.seek(3)
    qtbot.wait(100)
    picture = compare.grab().toImage()
    assert picture.save(str(OUT / "compare.png"))
    assert _distinct_colours(picture) > 20
    compare.close()
