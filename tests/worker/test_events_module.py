"""The window imports the worker's events directly: that import must stay light."""

from __future__ import annotations

import subprocess
import sys

from studio.worker.events import DocumentChanged, EventKind, JobEvent


def test_importing_the_events_imports_no_numpy_no_torch_no_service() -> None:
    code = (
        "import sys\n"
        "import studio.worker.events, studio.worker\n"
        "from studio.worker import EventKind, JobEvent, JobStatus, DocumentChanged\n"
        "heavy = [m for m in ('numpy', 'torch', 'PIL', 'studio.worker.service', 'studio.engines.sketch')"
        " if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"importing the events pulled in {out.stdout.strip()}"


def test_events_are_typed() -> None:
    assert {kind.value for kind in EventKind} >= {"queued", "started", "progress", "predicted", "finished",
                                                  "failed", "cancelled", "interrupted", "updated"}
    assert JobEvent.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert DocumentChanged.__dataclass_params__.frozen  # type: ignore[attr-defined]
