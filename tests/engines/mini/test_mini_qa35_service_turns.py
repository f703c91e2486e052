"""The mini engine behind the generation service, in its own engine process, as the window
and the command line run it (the shipped weights: 16 denoising steps take a second or more, so
the cancel lands while the clip is decoded): a turn cancelled while it is decoded keeps no take and the
next turn runs right after it; a re-roll with the same seed makes the same clip (read back
from its mp4), another seed another clip; a branch of turns keeps its character."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.composition import create_project, default_checkpoints, default_registry
from studio.core.jobs import JobStatus
from studio.core.model import TakeStatus
from studio.engines.config import EngineConfig
from studio.engines.continuity import CONTINUED_KEY
from studio.storage.media import read_clip
from studio.worker import GenerationService, JobEvent

SETTINGS = {"steps": 16, "height": 32, "width": 48, "frames": 5}


def test_cancel_then_turns_and_rerolls_through_the_engine_process(tmp_path: Path) -> None:
    if not (default_checkpoints() / "mini" / "config.json").is_file():
        pytest.skip("the shipped checkpoint is not in this checkout")
    project = create_project(tmp_path / "story")
    config = dataclasses.replace(EngineConfig.parse("cpu"), checkpoints=default_checkpoints(), threads=1)
    service = GenerationService(project, default_registry(), device=config, default_engine="mini")
    cancel_on_denoising: set[str] = set()

    def on_event(event: JobEvent) -> None:
        if event.job_id in cancel_on_denoising and "denoising" in (event.message or ""):
            cancel_on_denoising.discard(event.job_id)
            service.cancel(event.job_id)

    service.subscribe(on_event)
    service.start()
    try:
        root = project.tree.root.id
        node, job = service.generate(root, "Character: Qiqi; Motion: jump; Background: day town.",
                                     settings=SETTINGS, seed=5)
        cancel_on_denoising.add(job)
        assert service.wait_jobs([job], 120)
        assert service.job(job).status is JobStatus.CANCELLED
        assert not any(t.status is TakeStatus.DONE for t in project.tree.takes_of(node))

        quick = {**SETTINGS, "steps": 1}
        node, job = service.generate(root, "Character: Qiqi; Motion: jump; Background: day town.",
                                     settings=quick, seed=5)
        assert service.wait_jobs([job], 120) and service.job(job).status is JobStatus.DONE
        same = service.reroll(node, seed=5, settings=quick)
        other = service.reroll(node, seed=6, settings=quick)
        assert service.wait_jobs([same, other], 120)
        takes = {t.seed: t for t in project.tree.takes_of(node) if t.status is TakeStatus.DONE}
        clips = [read_clip(project.path / t.clip_path)[0] for t in project.tree.takes_of(node)
                 if t.status is TakeStatus.DONE]
        assert len(clips) == 3 and set(takes) == {5, 6}
        assert clips[0].shape == (5, 32, 48, 3)
        assert np.array_equal(clips[0], clips[1]) and not np.array_equal(clips[0], clips[2])

        child, job = service.generate(node, "Motion: wave.", settings=quick, seed=7)
        assert service.wait_jobs([job], 120) and service.job(job).status is JobStatus.DONE
        made = next(t for t in project.tree.takes_of(child) if t.status is TakeStatus.DONE)
        assert made.conditioning.get(CONTINUED_KEY, {}).get("character") == "Qiqi", made.conditioning
    finally:
        service.stop(cancel_running=True, timeout=30)
        project.close()
