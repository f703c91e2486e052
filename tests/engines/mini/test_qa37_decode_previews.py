"""The mini engine sends preview frames while it decodes: after each denoising step but the
last, while the previews' time stays a small share of the clip's, a small picture of the
clip's current estimate (decoded from the latent for a latent model) that the window
accepts. Before, the bar moved through the steps with nothing to see until the clip came.
The clip itself is the same with previews or without."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.composition import default_checkpoints  # noqa: E402
from studio.core.instruction import parse_instruction  # noqa: E402
from studio.core.progress import Progress  # noqa: E402
from studio.engines.base import EngineConfig, GenerationContext  # noqa: E402
from studio.engines.catalog.mini import INFO, MiniSettings  # noqa: E402
from studio.engines.mini.engine import MiniEngine  # noqa: E402
from studio.engines.mini.runtime import PREVIEW_SHARE, PreviewPacer  # noqa: E402
from studio.engines.mini.tiny import write_tiny_checkpoint  # noqa: E402
from studio.worker.progress import preview_frames  # noqa: E402

TEXT = "Character: Qiqi; Motion: jump; Background: day town."


@pytest.fixture(scope="module", params=["tiny", "tiny_latent"])
def engine(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> MiniEngine:
    folder = write_tiny_checkpoint(tmp_path_factory.mktemp(request.param) / "mini", config_name=request.param)
    made = MiniEngine(EngineConfig(checkpoints=folder.parent, threads=1))
    made.load()
    return made


def _decode(engine: MiniEngine, settings: MiniSettings, seed: int = 5) -> tuple[np.ndarray, list[Progress]]:
    prediction = engine.predict(GenerationContext(), parse_instruction(TEXT), settings, 1)
    seen: list[Progress] = []
    clip = engine.decode(prediction, settings, seed, seen.append)
    return clip.frames, seen


def test_the_catalogue_declares_preview_frames() -> None:
    assert INFO.capabilities.preview_frames


def test_each_step_but_the_last_can_send_a_preview_the_window_accepts(engine: MiniEngine) -> None:
    engine._ready().preview_cost = None  # as on a first clip: no preview timed yet
    settings = MiniSettings.from_values({"steps": 4, "height": 32, "width": 48, "frames": 5})
    _, seen = _decode(engine, settings)
    decoding = [p for p in seen if p.total == 5]
    assert [p.step for p in decoding] == [1, 2, 3, 4, 5]
    sent = [p for p in decoding if p.preview is not None]
    assert sent and sent[0].step == 1  # the first step shows something at once
    assert all(p.step < 4 for p in sent)  # never after the last step: the clip comes next
    canvas_frames = engine._ready().decoder.canvas[1]
    for p in sent:
        frames = p.preview
        assert isinstance(frames, np.ndarray) and preview_frames(frames) is frames  # the window takes it
        assert frames.dtype == np.uint8 and frames.ndim == 4 and frames.shape[-1] == 3
        assert 1 <= frames.shape[0] <= 16 and max(frames.shape[1:3]) <= 32  # small: at most the clip's size
        assert frames.shape[0] <= max(1, (canvas_frames + 1) // 2) * 2 + 1


def test_the_clip_is_the_same_with_previews_or_without(engine: MiniEngine) -> None:
    settings = MiniSettings.from_values({"steps": 3, "height": 32, "width": 48, "frames": 5})
    engine._ready().preview_cost = None
    with_previews, seen = _decode(engine, settings, seed=11)
    assert any(p.preview is not None for p in seen)
    prediction = engine.predict(GenerationContext(), parse_instruction(TEXT), settings, 1)
    without = engine.decode(prediction, settings, 11).frames  # no progress callback: no preview is made
    np.testing.assert_array_equal(with_previews, without)


def test_one_step_sends_no_preview(engine: MiniEngine) -> None:
    _, seen = _decode(engine, MiniSettings.from_values({"steps": 1, "height": 32, "width": 48, "frames": 5}))
    assert [p.preview for p in seen if p.total == 2] == [None, None]


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_pacer_keeps_previews_within_their_share_of_the_decoding() -> None:
    clock = _Clock()
    pacer = PreviewPacer(8, cost=None, clock=clock)
    sent = []
    for index in range(8):
        clock.now += 0.5  # a step
        if pacer.due(index):
            clock.now += 0.09  # a preview
            pacer.made(0.09)
            sent.append(index)
    assert sent[0] == 0 and 7 not in sent
    assert pacer.spent <= PREVIEW_SHARE * 0.5 * 9 + 0.09  # the first one is made before its cost is known
    assert len(sent) >= 3  # cheap previews: about every other step

    costly = PreviewPacer(4, cost=0.4, clock=clock)  # a preview that costs nearly a step: none
    for index in range(4):
        clock.now += 0.5
        assert not costly.due(index)


def test_a_cheap_preview_goes_with_every_step_but_the_last() -> None:
    clock = _Clock()
    pacer = PreviewPacer(4, cost=0.001, clock=clock)
    due = []
    for index in range(4):
        clock.now += 0.5
        due.append(pacer.due(index))
        if due[-1]:
            pacer.made(0.001)
    assert due == [True, True, True, False]


@pytest.mark.skipif(not (default_checkpoints() / "mini" / "config.json").is_file(), reason="no shipped checkpoint")
def test_the_shipped_models_previews_show_the_clip_as_it_forms() -> None:
    """On the shipped weights a preview is the latent decoded at half size: the last one already
    looks like the clip (closer to it than to a clip of another seed), and the previews of the
    default four steps cost a small share of the decoding."""
    engine = MiniEngine(EngineConfig(checkpoints=default_checkpoints(), threads=1))
    engine.load()
    settings = MiniSettings.from_values({"height": 128, "width": 192})
    final, seen = _decode(engine, settings, seed=5)
    _decode(engine, settings, seed=5)  # timed once more, warm
    sent = [p for p in seen if p.preview is not None]
    assert sent and all(p.preview.shape[1:] == (64, 96, 3) for p in sent)
    assert all(p.preview.shape[0] == 9 for p in sent)
    other, _ = _decode(engine, settings, seed=6)
    last = torch.from_numpy(sent[-1].preview).float()
    small = [torch.nn.functional.interpolate(torch.from_numpy(f[::2]).permute(0, 3, 1, 2).float(), size=(64, 96),
                                             mode="area").permute(0, 2, 3, 1) for f in (final, other)]
    same, different = ((last - s).abs().mean().item() for s in small)
    assert same < different, (same, different)
    runtime = engine._ready()
    assert runtime.preview_cost is not None and runtime.preview_cost < 0.5


def test_a_mini_jobs_progress_events_carry_its_previews(tmp_path: Path) -> None:
    """Through the generation service (in-process, tiny weights): the window's job events bring
    the previews, and the take's clip is written as usual."""
    import dataclasses

    from studio.composition import default_registry
    from studio.storage import Project
    from studio.storage.media import read_clip
    from studio.worker import EventKind, GenerationService, HostMode, JobEvent, JobStatus

    checkpoints = tmp_path / "checkpoints"
    write_tiny_checkpoint(checkpoints / "mini", config_name="tiny_latent")
    config = dataclasses.replace(EngineConfig.parse("cpu"), checkpoints=checkpoints, threads=1)
    project = Project.create(tmp_path / "story")
    seen: list[JobEvent] = []
    try:
        service = GenerationService(project, default_registry(), device=config, default_engine="mini",
                                    hosts=HostMode.IN_PROCESS)
        service.subscribe(lambda event: seen.append(event) if isinstance(event, JobEvent) else None)
        service.start()
        try:
            _, job_id = service.generate(project.tree.root_id, TEXT, seed=3,
                                         settings={"steps": 4, "height": 32, "width": 48, "frames": 5})
            assert service.wait_jobs([job_id], 240)
            job = service.job(job_id)
            assert job.status is JobStatus.DONE, (job.error, job.hint)
            frames, _ = read_clip(project.path / project.tree.takes[job.take_id].clip_path)
            assert len(frames) == 5
        finally:
            service.stop(cancel_running=True, timeout=30)
    finally:
        project.close()
    previews = [e.preview for e in seen if e.job_id == job_id and e.kind is EventKind.PROGRESS and e.preview]
    assert previews and all(p.stage == "decode" and 0 < p.stage_step < 4 for p in previews)
    assert all(p.frames.dtype == np.uint8 and p.frames.ndim == 4 for p in previews)
