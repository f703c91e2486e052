"""The sheets benchmark (tests/bench/bench_sheets.py), run in its quick mode, so that it can't rot
between the runs that rewrite docs/BENCHMARKS.md; and its baselines, read back: a ratio against
a baseline that wrote nothing would say nothing."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image

from studio.benchmarks import BenchResult

BENCH = Path(__file__).resolve().parents[1] / "bench" / "bench_sheets.py"


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_sheets_smoke", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_the_quick_run_measures_both_sheets_of_both_branches(bench: ModuleType) -> None:
    results: list[BenchResult] = bench.run(quick=True)
    short, long = bench.QUICK_TURNS
    assert [r.name.split(" (")[0] for r in results] == [f"PNG sheet, {short} turns", f"PDF sheet, {short} turns",
                                                        f"PNG sheet, {long} turns", f"PDF sheet, {long} turns"]
    for result in results:
        assert result.unit == "ms/turn" and result.value > 0, result
        assert result.ratio is not None and result.ratio > 0, result
        assert "ms/turn" in result.baseline, result
    assert f"clips {bench.QUICK_WIDTH}x{bench.QUICK_HEIGHT}" in results[0].note
    if _high_water_mark_resets():
        assert all(re.search(r"peak memory \+\d+ MiB \(baseline \+\d+ MiB\)", r.note) for r in results), results


def _high_water_mark_resets() -> bool:
    """Whether this system lets a process reset its peak resident size (Linux), as the
    benchmark does to measure each sheet's peak memory."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def test_the_baselines_write_a_page_per_three_posters(bench: ModuleType, tmp_path: Path) -> None:
    board = bench.build_board(tmp_path, (4,), (bench.QUICK_HEIGHT, bench.QUICK_WIDTH))
    with board.project:
        assert bench.pillow_pages(board.posters, tmp_path / "base.png") == 2
        assert bench.reportlab_pages(board.posters, tmp_path / "base.pdf") == 2
    pages = sorted(tmp_path.glob("base-*.png"))
    assert [page.name for page in pages] == ["base-001.png", "base-002.png"]
    with Image.open(pages[1]) as page:
        width_pt, height_pt = bench._page_size()
        assert page.size == (round(width_pt * 150 / 72), round(height_pt * 150 / 72))
        assert page.getpixel((page.width - 5, page.height - 5)) == (255, 255, 255)
        x, y, w, h = bench._picture_slots()[0]  # the fourth poster, first on page 2
        centre = (round((x + w / 2) * 150 / 72), round((y + h / 2) * 150 / 72))
        assert page.getpixel(centre) != (255, 255, 255)
    pdf = (tmp_path / "base.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Subtype /Image") == 4
    assert b"ASCII85Decode" not in pdf
