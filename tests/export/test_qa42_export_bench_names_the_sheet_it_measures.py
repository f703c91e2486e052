"""The export benchmark's storyboard row names the layout it measures: it said "3x3", a grid
the sheets no longer have (1, 2 or 3 panels a page), in the code and in docs/BENCHMARKS.md."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from studio.export import ExportOptions

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "tests" / "bench" / "bench_export.py"


def test_the_row_and_the_report_name_the_default_sheet(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("bench_export_label", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    assert module.SHEET.panels_per_page == ExportOptions().panels_per_page
    source = BENCH.read_text(encoding="utf-8")
    assert "3x3" not in source and "{SHEET.panels_per_page} panels a page" in source
    report = (ROOT / "docs" / "BENCHMARKS.md").read_text(encoding="utf-8")
    assert f"| storyboard PDF ({module.TURNS} turns, {module.SHEET.panels_per_page} panels a page) |" in report
