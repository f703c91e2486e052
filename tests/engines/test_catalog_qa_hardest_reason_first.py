"""Where the reasons an engine can't run are cut to one line, the first is one that
converting weights does not fix.

QA: without a GPU and without converted weights, ``import-demo --engine animegamer
--generate`` said "Missing .../tokenizer.model (and 12 more reason(s))": that the engine
needs a CUDA GPU, which no conversion fixes, was among the hidden ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio import composition
from studio.engines import devices, requirements
from studio.engines.catalog.reasons import hardest_first
from studio.engines.config import EngineConfig
from studio.engines.requirements import Requirement, RequirementKind
from studio.worker.operations import cannot_run


@pytest.fixture
def no_gpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without an NVIDIA driver or a CUDA device, whatever runs the tests."""
    monkeypatch.setattr(devices, "cuda_devices", lambda: [])
    monkeypatch.setattr(requirements, "nvidia_driver_visible", lambda: False)


@pytest.mark.parametrize(("engine", "device"), [("animegamer", "cpu"), ("animegamer", "cuda:0"),
                                                ("customx", "cpu"), ("customx", "cuda:0"), ("mini", "cuda:0")])
def test_no_gpu_is_said_before_the_missing_files(no_gpu: None, tmp_path: Path, engine: str, device: str) -> None:
    config = EngineConfig.parse(device, checkpoints=tmp_path)
    unmet = composition.default_registry().check(engine, config)
    kinds = [reason.kind for reason in unmet]
    assert RequirementKind.FILE in kinds and RequirementKind.DEVICE in kinds, unmet
    assert unmet[0].kind is RequirementKind.DEVICE, unmet
    message, hint = cannot_run(engine, unmet)
    assert "more reason" in message and "Missing" not in message, message
    if engine != "mini":
        assert "needs a CUDA GPU" in message and "NVIDIA GPU of" in hint, (message, hint)


def test_device_then_memory_then_package_then_the_rest_each_in_its_order() -> None:
    found = [Requirement(RequirementKind.FILE, "file a"), Requirement(RequirementKind.PACKAGE, "package"),
             Requirement(RequirementKind.CONFIG, "config"), Requirement(RequirementKind.FILE, "file b"),
             Requirement(RequirementKind.MEMORY, "memory"), Requirement(RequirementKind.DEVICE, "device")]
    assert [r.message for r in hardest_first(found)] == ["device", "memory", "package", "file a", "config",
                                                         "file b"]
