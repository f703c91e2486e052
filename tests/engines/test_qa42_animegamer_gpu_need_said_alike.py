"""AnimeGamer's GPU need is said alike by the engine, the README and docs/ANIMEGAMER.md: the
README said "about 23 GB free", the engine "24 GB or more", and the engine's page measured a
turn under a 16 GiB cap with offloading. All now say 24 GB, or 16 GB with
``--device cuda:0+offload``, and the README's peak figures are the page's measurements."""

from __future__ import annotations

import re
from pathlib import Path

from studio.engines import devices, requirements
from studio.engines.catalog.animegamer import check
from studio.engines.config import EngineConfig

ROOT = Path(__file__).resolve().parents[2]


def _said(path: Path) -> str:
    return " ".join(path.read_text(encoding="utf-8").split())


def test_the_engine_readme_and_page_agree(monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(devices, "cuda_devices", lambda: [])
    monkeypatch.setattr(requirements, "nvidia_driver_visible", lambda: False)
    (hint,) = [r.hint for r in check(EngineConfig.parse("cuda:0", checkpoints=[tmp_path]))
               if r.kind is requirements.RequirementKind.DEVICE]
    assert "24 GB" in hint and "16 GB with --device cuda:0+offload" in hint, hint
    row = next(line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
               if line.startswith("| `animegamer` |"))
    assert "a CUDA GPU of 24 GB" in row and "of 16 GB with `--device cuda:0+offload`" in row, row
    assert "23 GB" not in row
    page = _said(ROOT / "docs" / "ANIMEGAMER.md")
    assert "A GPU of 24 GB runs the Reference preset" in page
    assert "A GPU of 16 GB runs a turn with `--device cuda:0+offload`" in page
    for figure in re.findall(r"peaked at ([\d.]+ GiB|[\d.]+ GB)", row):
        assert figure in page, figure
