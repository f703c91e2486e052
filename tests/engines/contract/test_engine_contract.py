"""What every engine must do (engine protocol v2), run for each registered engine and for a
fake heavy engine, with tiny configurations on the CPU."""

from __future__ import annotations

import threading
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from studio.composition import default_registry
from studio.core.instruction import parse_instruction
from studio.core.progress import Cancelled, Progress
from studio.engines.base import (
    BatchDecoder,
    DeviceKind,
    Engine,
    EngineConfig,
    EngineSettings,
    GenerationContext,
    RequirementKind,
    TurnContext,
)
from studio.engines.registry import EngineRegistry

from .cases import CASES, EngineCase

ENGINES = sorted(CASES)


@pytest.fixture(params=ENGINES)
def case(request: pytest.FixtureRequest) -> EngineCase:
    return CASES[request.param]()


@pytest.fixture
def checkpoints(tmp_path: Path, case: EngineCase) -> Path:
    folder = tmp_path / "checkpoints"
    folder.mkdir()
    case.prepare(folder)
    return folder


@pytest.fixture
def registry(case: EngineCase) -> EngineRegistry:
    registry = EngineRegistry()
    registry.register(case.info, case.factory)
    return registry


@pytest.fixture
def config(checkpoints: Path) -> EngineConfig:
    return EngineConfig(checkpoints=checkpoints)


@pytest.fixture
def engine(registry: EngineRegistry, case: EngineCase, config: EngineConfig) -> Iterator[Engine]:
    made = registry.create(case.info.name, config)
    yield made
    made.unload()


@pytest.fixture
def settings(case: EngineCase) -> EngineSettings:
    return case.info.settings.from_values(case.settings)


def _turn(engine: Engine, case: EngineCase, settings: EngineSettings, seed: int, text: int = 0,
          context: GenerationContext | None = None) -> tuple[object, np.ndarray]:
    prediction = engine.predict(context or GenerationContext(), parse_instruction(case.instructions[text]),
                                settings, seed)
    clip = engine.decode(prediction, settings, seed)
    return prediction, clip.frames


class Recorder:
    """Progress reports, and a cancel flag raised after the ``after``-th report."""

    def __init__(self, after: int | None = None) -> None:
        self.after = after
        self.reports: list[Progress] = []
        self.reports_when_cancelled: int | None = None

    def __call__(self, progress: Progress) -> None:
        self.reports.append(progress)
        if self.after is not None and len(self.reports) >= self.after and self.reports_when_cancelled is None:
            self.reports_when_cancelled = len(self.reports)

    def cancelled(self) -> bool:
        return self.reports_when_cancelled is not None

    def after_cancel(self) -> int:
        return len(self.reports) - (self.reports_when_cancelled or 0)


def test_every_registered_engine_has_a_case() -> None:
    missing = set(default_registry().names()) - set(CASES)
    assert not missing, f"add a tiny configuration for {sorted(missing)} in tests/engines/contract/cases.py"


def test_info_settings_and_entry_point(case: EngineCase, registry: EngineRegistry, config: EngineConfig) -> None:
    info = case.info
    assert info.name and info.version and info.label and info.description
    schema = info.settings.schema()
    assert schema, "an engine has at least one setting"
    defaults = info.settings()
    assert info.settings.from_values({}) == defaults
    assert defaults.overrides() == {}
    for preset in info.settings.PRESETS:
        info.settings.from_values({}, preset=preset.name)
    height, width = info.capabilities.default_size
    assert (defaults.value("height", height), defaults.value("width", width)) == (height, width)
    assert defaults.value("frames", info.capabilities.default_frames) == info.capabilities.default_frames
    assert registry.check(info.name, config) == [], "with its tiny weights the engine can run here"
    made = registry.create(info.name, config)
    assert isinstance(made, Engine) and made.info == info and not made.loaded


def test_same_seed_gives_the_same_frames(engine: Engine, case: EngineCase, settings: EngineSettings) -> None:
    engine.load()
    first_prediction, first = _turn(engine, case, settings, seed=11)
    again_prediction, again = _turn(engine, case, settings, seed=11)
    np.testing.assert_array_equal(first, again)
    np.testing.assert_array_equal(first_prediction.representation, again_prediction.representation)  # type: ignore[attr-defined]


def test_frames_fps_and_representation_match_the_settings_and_info(engine: Engine, case: EngineCase,
                                                                   settings: EngineSettings) -> None:
    engine.load()
    prediction = engine.predict(GenerationContext(), parse_instruction(case.instructions[0]), settings, 3)
    spec = case.info.capabilities.representation
    assert prediction.representation.shape == tuple(spec.shape)
    assert prediction.representation.dtype == np.dtype(spec.dtype)
    clip = engine.decode(prediction, settings, 3)
    expected = (settings.value("frames"), settings.value("height"), settings.value("width"), 3)
    assert clip.frames.shape == expected and clip.frames.dtype == np.uint8
    assert clip.fps == pytest.approx(settings.value("fps"))


@pytest.mark.parametrize("stage", ["load", "predict", "decode"])
def test_progress_is_monotone_and_ends_at_its_total(engine: Engine, case: EngineCase, settings: EngineSettings,
                                                     stage: str) -> None:
    seen = Recorder()
    if stage == "load":
        engine.load(seen)
    else:
        engine.load()
        prediction = engine.predict(GenerationContext(), parse_instruction(case.instructions[0]), settings, 5,
                                    seen if stage == "predict" else lambda _p: None)
        if stage == "decode":
            engine.decode(prediction, settings, 5, seen)
    assert seen.reports, f"{stage} reports progress"
    totals = {p.total for p in seen.reports}
    assert len(totals) == 1 and totals.pop() > 0
    steps = [p.step for p in seen.reports]
    assert steps == sorted(steps), f"{stage} progress goes back: {steps}"
    assert steps[-1] == seen.reports[-1].total, f"{stage} progress ends at {steps[-1]} of {seen.reports[-1].total}"


@pytest.mark.parametrize("stage", ["load", "predict", "decode"])
def test_cancel_takes_effect_within_one_step(engine: Engine, case: EngineCase, settings: EngineSettings,
                                             stage: str) -> None:
    # Cancelled before it starts: nothing happens.
    with pytest.raises(Cancelled):
        if stage == "load":
            engine.load(cancelled=lambda: True)
        else:
            engine.load()
            prediction = engine.predict(GenerationContext(), parse_instruction(case.instructions[0]), settings, 1,
                                        cancelled=lambda: stage == "predict")
            engine.decode(prediction, settings, 1, cancelled=lambda: True)
    if stage == "load":
        assert not engine.loaded, "a cancelled load leaves nothing loaded"
    # Cancelled after the first step: at most one more step is reported.
    seen = Recorder(after=1)
    try:
        if stage == "load":
            engine.unload()
            engine.load(seen, seen.cancelled)
        else:
            prediction = engine.predict(GenerationContext(), parse_instruction(case.instructions[0]), settings, 2,
                                        *((seen, seen.cancelled) if stage == "predict" else ()))
            if stage == "decode":
                engine.decode(prediction, settings, 2, seen, seen.cancelled)
    except Cancelled:
        pass
    else:  # only a stage of a single step may finish
        assert seen.reports[-1].step == seen.reports[-1].total and len(seen.reports) <= 2
    assert seen.after_cancel() <= 1, f"{stage} went on for {seen.after_cancel()} steps after the cancel"


def _cuda_allocated() -> int:
    """Bytes torch holds on the GPU (0 without torch or CUDA): unload must give them back."""
    import sys

    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_available():
        return 0
    torch.cuda.synchronize()
    return int(torch.cuda.memory_allocated())


def test_load_and_unload_are_idempotent_and_free_what_load_took(engine: Engine) -> None:
    engine.unload()  # before any load: nothing to do
    gpu_before = _cuda_allocated()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        engine.load()
        engine.load()
        assert engine.loaded
        engine.unload()
        engine.unload()
        assert not engine.loaded
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert after - before < 256 * 1024, f"unload kept {after - before} bytes"
    assert _cuda_allocated() <= gpu_before, "unload kept GPU memory"
    engine.load()
    assert engine.loaded


def test_check_names_each_missing_file_by_path(case: EngineCase, registry: EngineRegistry, tmp_path: Path) -> None:
    empty = tmp_path / "empty-checkpoints"
    empty.mkdir()
    unmet = registry.check(case.info.name, EngineConfig(checkpoints=empty))
    files = [r for r in unmet if r.kind is RequirementKind.FILE]
    expected = [str(empty / case.info.name / item.path) for item in case.info.checkpoints]
    assert sorted(r.path for r in files) == sorted(expected)
    for requirement in files:
        assert requirement.path in requirement.message
    if not case.info.checkpoints:
        assert unmet == []


def test_check_refuses_a_gpu_that_is_not_there(case: EngineCase, registry: EngineRegistry,
                                               config: EngineConfig, monkeypatch: pytest.MonkeyPatch) -> None:
    """A GPU engine placed on a missing GPU is refused with the device named; a CPU-only
    engine runs on the CPU whatever GPU the big engines were given."""
    from studio.engines import devices

    monkeypatch.setattr(devices, "cuda_devices", lambda: [])
    far = EngineConfig(checkpoints=config.checkpoints, device=EngineConfig.parse("cuda:7").device)
    unmet = registry.check(case.info.name, far)
    if DeviceKind.CUDA in case.info.capabilities.devices:
        assert any(r.kind is RequirementKind.DEVICE and "cuda:7" in r.message for r in unmet)
    else:
        assert unmet == []
        assert registry.create(case.info.name, far).config.device.kind is DeviceKind.CPU  # type: ignore[attr-defined]


def test_a_second_turn_reads_representations_of_its_own_space_only(engine: Engine, case: EngineCase,
                                                                    settings: EngineSettings) -> None:
    engine.load()
    first, _frames = _turn(engine, case, settings, seed=4)
    instruction = parse_instruction(case.instructions[0])
    own = TurnContext(instruction=instruction, state=GenerationContext().state, deltas=first.deltas,  # type: ignore[attr-defined]
                      motion_level=first.motion_level, engine=case.info.name,  # type: ignore[attr-defined]
                      representation_space=case.info.capabilities.representation.space,
                      representation=first.representation, conditioning=first.conditioning)  # type: ignore[attr-defined]
    foreign = TurnContext(instruction=instruction, state=GenerationContext().state, deltas=first.deltas,  # type: ignore[attr-defined]
                          motion_level=first.motion_level, engine="elsewhere",  # type: ignore[attr-defined]
                          representation_space="elsewhere/1", representation=None)
    for history in ((own,), (foreign,)):
        second = engine.predict(GenerationContext(history=history), parse_instruction(case.instructions[1]),
                                settings, 5)
        assert second.representation.shape == tuple(case.info.capabilities.representation.shape)


def test_worker_passes_a_turns_representation_only_within_its_space(case: EngineCase, config: EngineConfig,
                                                                     settings: EngineSettings, tmp_path: Path) -> None:
    """Through the real worker: the engine sees turn 1's representation when it made turn 1,
    not when another engine (another space) did."""
    from worker.fake_engine import FakeScript, fake_registry  # tests/ is on sys.path

    from studio.storage import Project
    from studio.worker import GenerationService, HostMode

    seen: list[GenerationContext] = []
    lock = threading.Lock()
    registry = fake_registry(FakeScript(), "foreign")
    single = _single(case)

    def target(cfg: EngineConfig) -> Engine:
        return single.create(case.info.name, cfg)

    def spying(cfg: EngineConfig) -> Engine:
        made = target(cfg)
        original = made.predict

        def predict(context, *args, **kwargs):  # type: ignore[no-untyped-def]
            with lock:
                seen.append(context)
            return original(context, *args, **kwargs)

        made.predict = predict  # type: ignore[method-assign]
        return made

    registry.register(case.info, spying)
    with Project.create(tmp_path / "story") as project:
        service = GenerationService(project, registry, device=config, default_engine=case.info.name,
                                    hosts=HostMode.IN_PROCESS)  # the spy lives in this test's memory
        service.start()
        try:
            root = project.tree.root_id
            a, j1 = service.generate(root, case.instructions[0], settings=settings.to_values())
            b, j2 = service.generate(root, case.instructions[0], engine="foreign")
            assert service.wait_jobs([j1, j2], 60)
            _, j3 = service.generate(a, case.instructions[1], settings=settings.to_values())
            _, j4 = service.generate(b, case.instructions[1], settings=settings.to_values())
            assert service.wait_jobs([j3, j4], 60)
            assert all(service.job(j).status.value == "done" for j in (j1, j2, j3, j4)), \
                [service.job(j).error for j in (j1, j2, j3, j4)]
            take = project.tree.takes[service.job(j3).take_id]
            assert take.settings == settings.to_values(), "the take stores every value used"
        finally:
            service.stop(cancel_running=True, timeout=20)
    after_own, after_foreign = seen[1], seen[2]
    spec = case.info.capabilities.representation
    assert after_own.history[-1].representation is not None
    assert after_own.history[-1].representation.shape == tuple(spec.shape)
    assert after_own.history[-1].representation_space == spec.space
    assert after_foreign.history[-1].representation is None
    assert after_foreign.history[-1].engine == "foreign"
    if case.info.capabilities.continuation:  # the parent's clip, to continue from
        previous = after_own.previous_clip
        assert previous is not None and previous.path.is_absolute() and previous.path.is_file()
        assert previous.frame_count == settings.value("frames") and previous.engine == case.info.name
    else:
        assert after_own.previous_clip is None


def _single(case: EngineCase) -> EngineRegistry:
    registry = EngineRegistry()
    registry.register(case.info, case.factory)
    return registry


def test_batched_decode_matches_single_decodes(engine: Engine, case: EngineCase, settings: EngineSettings) -> None:
    if not case.info.capabilities.batched_decode:
        pytest.skip(f"{case.info.name} does not declare batched decode")
    assert isinstance(engine, BatchDecoder)
    engine.load()
    predictions = [engine.predict(GenerationContext(), parse_instruction(text), settings, seed)
                   for seed, text in enumerate(case.instructions)]
    batched = engine.decode_many(predictions, settings, [7, 8])
    single = [engine.decode(p, settings, seed) for p, seed in zip(predictions, [7, 8], strict=True)]
    for one, other in zip(batched, single, strict=True):
        np.testing.assert_array_equal(one.frames, other.frames)


def test_preview_frames_when_declared(engine: Engine, case: EngineCase, settings: EngineSettings) -> None:
    engine.load()
    seen = Recorder()
    prediction = engine.predict(GenerationContext(), parse_instruction(case.instructions[0]), settings, 1)
    engine.decode(prediction, settings, 1, seen)
    previews = [p.preview for p in seen.reports if p.preview is not None]
    if not case.info.capabilities.preview_frames:
        assert previews == [], "previews sent without declaring them"
        return
    assert previews
    for frames in previews:
        assert isinstance(frames, np.ndarray) and frames.dtype == np.uint8 and frames.ndim == 4
