"""The catalogue entry: light to import and check, registered, unavailable without weights."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from studio.composition import default_registry
from studio.doctor import engine_reports
from studio.engines import requirements
from studio.engines.catalog import animegamer as catalog
from studio.engines.config import EngineConfig
from studio.engines.requirements import RequirementKind

REPO = Path(__file__).resolve().parents[3]


def test_listing_and_checking_the_engine_imports_no_torch(tmp_path: Path) -> None:
    code = ("import sys\nfrom pathlib import Path\nfrom studio.composition import default_registry\n"
            "from studio.engines.config import EngineConfig\n"
            "r = default_registry()\n"
            f"reasons = r.check('animegamer', EngineConfig(checkpoints=Path({str(tmp_path)!r})))\n"
            "assert reasons\nprint(sorted(m for m in ('torch', 'transformers', 'diffusers', 'peft', 'numpy') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True,
                         env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == "[]"


def test_without_checkpoints_the_engine_is_listed_as_unavailable(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(requirements, "nvidia_driver_visible", lambda: False)
    registry = default_registry()
    assert "animegamer" in registry.names()
    report = {r.name: r for r in engine_reports(registry, EngineConfig(checkpoints=tmp_path))}["animegamer"]
    assert not report.available
    files = [r for r in report.reasons if r.kind is RequirementKind.FILE]
    assert {r.path for r in files} == {str(tmp_path / "animegamer" / f.path) for f in catalog.INFO.checkpoints}
    assert any("about 14.0 GB" in r.message for r in files)
    devices = [r.message for r in report.reasons if r.kind is RequirementKind.DEVICE]
    assert any("needs a CUDA GPU" in m and "shows none" in m for m in devices)
    assert "European Union" in report.license
    assert registry.info("sketch").name == "sketch"  # the rest of the app is untouched


def test_one_complete_character_is_enough(tiny: Path) -> None:
    reasons = catalog.TEST_INFO.check(EngineConfig(checkpoints=tiny))
    assert reasons == []  # Sosuke is not converted: fine
    (tiny / "animegamer" / "qiqi" / "model.json").unlink()
    paths = {r.path for r in catalog.TEST_INFO.check(EngineConfig(checkpoints=tiny))}
    assert str(tiny / "animegamer" / "qiqi" / "model.json") in paths
    assert str(tiny / "animegamer" / "sosuke" / "decoder.safetensors") in paths


def test_a_gpu_placement_is_checked_for_memory(tiny: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.engines import devices
    from studio.engines.devices import DeviceInfo

    small = DeviceInfo("cuda:0", "Small GPU", 12 * 1024**3, 12 * 1024**3)
    monkeypatch.setattr(devices, "cuda_devices", lambda: [small])
    config = EngineConfig.parse("cuda:0", checkpoints=tiny)
    memory = [r for r in catalog.check(config) if r.kind is RequirementKind.MEMORY]
    assert memory and "cuda:0" in memory[0].message
    split = EngineConfig.parse("predict=cuda:0+offload,decode=cuda:0", checkpoints=tiny)
    assert not [r for r in catalog.check(split) if r.kind is RequirementKind.MEMORY]
