"""Save text with the instruction a turn's take was made from, typed back after an edit, says
only that it was saved: the take matches it again and the turns after it are current (it said
"its take no longer matches it", being told only that the turn has a take)."""

from __future__ import annotations

from pathlib import Path

from tests.ui.conftest import fake_engine_window


def test_the_original_text_typed_back_is_saved_without_a_stale_word(
        make_window, sample_project: Path, settings, registry, qtbot) -> None:
    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    ws, project, service = window.workspace, window.session.project, window.session.service
    script.release.set()
    job_settings = window.session.job_settings()
    top, job = service.generate(project.tree.root_id, "Qiqi runs in the park", settings=job_settings)
    _below, below_job = service.generate(top, "Qiqi waves", settings=job_settings)
    assert service.wait_jobs([job, below_job], 60) and service.wait_idle(60)
    window.session.settle()
    said: list[str] = []
    ws.message.connect(said.append)
    ws.select(top, center=False)

    ws.save_text("Qiqi sleeps in the park")
    window.session.settle()
    qtbot.waitUntil(lambda: bool(said) and said[-1].startswith("Instruction saved"))
    assert said[-1].startswith("Instruction saved; its take no longer matches it, and 1 turn after it is stale")

    ws.save_text("Qiqi runs in the park")
    window.session.settle()
    qtbot.waitUntil(lambda: len(said) >= 2 and said[-1].startswith("Instruction saved"))
    assert not any(take.stale for take in project.tree.takes.values())
    assert said[-1] == "Instruction saved."
