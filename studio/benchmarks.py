"""Benchmark harness behind ``kamishibai bench``.

Benchmarks live in ``tests/bench/bench_*.py``. Each module defines ``TITLE`` (a heading)
and ``run(quick: bool) -> list[BenchResult]``. The harness runs them and rewrites that
module's section of ``docs/BENCHMARKS.md`` (other sections are kept), with the machine and
the date, so figures are always tied to where they were measured.
"""

from __future__ import annotations

import datetime as _dt
import importlib.util
import os
import platform
import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType


@dataclass(frozen=True)
class BenchResult:
    """One figure. ``goal`` says what we aim for; ``baseline``/``ratio`` compare in-run."""

    name: str
    value: float
    unit: str
    goal: str = ""
    met: bool | None = None
    baseline: str = ""
    ratio: float | None = None
    note: str = ""


def machine_description() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f", {int(line.split()[1]) / 1024 / 1024:.0f} GiB RAM"
    except OSError:
        pass
    system = f"{platform.system()} {platform.release()}"
    return f"{cpu}, {os.cpu_count()} cores{mem}, {system}, Python {platform.python_version()}"


def best_of(fn: Callable[[], object], repeat: int = 5) -> float:
    """Smallest wall time of ``repeat`` calls, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


@contextmanager
def stopwatch() -> Iterator[list[float]]:
    """``with stopwatch() as t: ...`` then ``t[0]`` holds the elapsed seconds."""
    out: list[float] = []
    start = time.perf_counter()
    try:
        yield out
    finally:
        out.append(time.perf_counter() - start)


def find_bench_dir(start: Path | None = None) -> Path:
    here = (start or Path(__file__)).resolve()
    for parent in [here, *here.parents]:
        candidate = parent / "tests" / "bench"
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("tests/bench not found: run benchmarks from a source checkout")


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"kamishibai_bench_{path.stem}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def format_section(key: str, title: str, results: list[BenchResult], seconds: float) -> str:
    date = _dt.datetime.now().strftime("%Y-%m-%d %H:%M")
    lines = [
        f"<!-- bench:{key} -->",
        f"## {title}",
        "",
        f"Measured {date} on {machine_description()} ({seconds:.1f} s). "
        f"Re-run with `kamishibai bench {key}`.",
        "",
        "| measure | value | goal | met | baseline in the same run | ratio | note |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        met = "" if r.met is None else ("yes" if r.met else "**no**")
        ratio = "" if r.ratio is None else f"{r.ratio:.2f}x"
        lines.append(f"| {r.name} | {r.value:.4g} {r.unit} | {r.goal} | {met} | {r.baseline} | {ratio} | {r.note} |")
    lines.append(f"<!-- /bench:{key} -->")
    return "\n".join(lines)


def update_report(report: Path, key: str, section: str) -> None:
    text = report.read_text() if report.exists() else (
        "# Benchmarks\n\nFigures from `kamishibai bench`. Each section names the machine it ran on.\n"
    )
    pattern = re.compile(rf"<!-- bench:{re.escape(key)} -->.*?<!-- /bench:{re.escape(key)} -->", re.DOTALL)
    text = pattern.sub(lambda _: section, text) if pattern.search(text) else text.rstrip() + "\n\n" + section + "\n"
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text(text)


def run_benchmarks(names: list[str], quick: bool = False, report: Path | None = None,
                   echo: Callable[[str], None] = print) -> int:
    bench_dir = find_bench_dir()
    report = report or bench_dir.parent.parent / "docs" / "BENCHMARKS.md"
    available = {p.stem.removeprefix("bench_"): p for p in sorted(bench_dir.glob("bench_*.py"))}
    chosen = names or list(available)
    unknown = [n for n in chosen if n not in available]
    if unknown:
        echo(f"unknown benchmark(s): {', '.join(unknown)}; available: {', '.join(available)}")
        return 2
    for key in chosen:
        module = _load(available[key])
        echo(f"== {key}: {module.TITLE}")
        start = time.perf_counter()
        results: list[BenchResult] = module.run(quick)
        elapsed = time.perf_counter() - start
        for r in results:
            echo(f"   {r.name}: {r.value:.4g} {r.unit}  {r.goal}  {'' if r.ratio is None else f'{r.ratio:.2f}x'}")
        if not quick:
            update_report(report, key, format_section(key, module.TITLE, results, elapsed))
    if not quick:
        echo(f"wrote {report}")
    return 0
