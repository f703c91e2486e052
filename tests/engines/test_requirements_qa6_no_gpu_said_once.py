"""A CUDA-only engine on a machine without an NVIDIA driver is told so once: `doctor` printed
"needs a CUDA GPU" and then "can't run its predict stage on cpu" and the same for decode,
three lines for one cause. With a driver, each stage placed on the CPU is still named."""

from __future__ import annotations

import pytest

from studio.engines import requirements
from studio.engines.config import EngineConfig
from studio.engines.requirements import check_cuda_placement

from .test_protocol import CAPS


@pytest.mark.parametrize("driver", [False, True])
def test_no_gpu_is_one_reason_and_a_cpu_placement_with_a_driver_is_named(monkeypatch: pytest.MonkeyPatch,
                                                                          driver: bool) -> None:
    monkeypatch.setattr(requirements, "nvidia_driver_visible", lambda: driver)
    reasons = [r.message for r in check_cuda_placement(EngineConfig.parse("cpu"), CAPS, engine="big", label="Big",
                                                       gpu_hint="Use a GPU.")]
    if driver:
        assert any("can't run its predict stage on cpu" in m for m in reasons), reasons
        assert not any("needs a CUDA GPU" in m for m in reasons)
    else:
        assert reasons == ["The Big engine needs a CUDA GPU, and this machine shows none (no NVIDIA driver)."]
