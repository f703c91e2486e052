"""Benchmark harness behind ``kamishibai bench``.

Benchmarks live in ``tests/bench/bench_*.py``. Each module defines ``TITLE`` (a heading)
and ``run(quick: bool) -> list[BenchResult]``. The harness runs them and rewrites that
module's section of ``docs/BENCHMARKS.md`` (other sections are kept), with the machine and
the date, so figures are always tied to where they were measured.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import importlib.util
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from studio.core.errors import StudioError

REPORT_ONLY = {"mini": "kamishibai eval mini"}
"""Sections of the report that another command writes, not ``kamishibai bench``."""


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


def _cores() -> str:
    """``16 cores``, or ``2 of 16 cores`` when this process may use only some of them
    (taskset, a container's cpuset): the benchmarks ran on the cores they were given."""
    total = os.cpu_count()
    usable: int | None = total
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        pass
    if total and usable and usable < total:
        return f"{usable} of {total} cores"
    return f"{total} cores"


def _gpus() -> str:
    """``2 NVIDIA H200 (143771 MiB, driver 580.1)``, from ``nvidia-smi`` ("" without an
    NVIDIA GPU); only the GPUs ``CUDA_VISIBLE_DEVICES`` leaves to the benchmarks."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return ""
    try:
        done = subprocess.run([smi, "--query-gpu=index,name,memory.total,driver_version",
                               "--format=csv,noheader,nounits"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return ""
    if done.returncode != 0:
        return ""
    rows = [[field.strip() for field in line.split(",")] for line in done.stdout.splitlines() if line.strip()]
    rows = [row for row in rows if len(row) == 4]
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        wanted = [item.strip() for item in visible.split(",") if item.strip()]
        if all(item.isdigit() for item in wanted):
            rows = [row for row in rows if row[0] in wanted]
    if not rows:
        return ""
    kinds: dict[tuple[str, str, str], int] = {}
    for _index, name, memory, driver in rows:
        kinds[(name, memory, driver)] = kinds.get((name, memory, driver), 0) + 1
    return ", ".join(f"{count} {name} ({memory} MiB, driver {driver})"
                     for (name, memory, driver), count in kinds.items())


def machine_description() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = " ".join(line.split(":", 1)[1].split())
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
    gpus = _gpus()
    gpus = f", {gpus}" if gpus else ""
    system = f"{platform.system()} {platform.release()}"
    return f"{cpu}, {_cores()}{mem}{gpus}, {system}, Python {platform.python_version()}"


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
    """``tests/bench`` of the source checkout (``start``: the folder holding ``studio/``,
    default this copy's). An installed wheel or a frozen app has none: that is said as a user
    error, not an internal one (it ended with "internal error: FileNotFoundError", exit 1), and
    no folder above site-packages is searched, where another project's tests could be."""
    from studio import shipped

    root = start if start is not None else shipped.source_checkout()
    candidate = root / "tests" / "bench" if root is not None else None
    if candidate is not None and candidate.is_dir():
        return candidate
    raise StudioError("Benchmarks run from a source checkout of Kamishibai Studio: this copy "
                      f"({shipped.PACKAGE}) has no tests/bench folder beside it.",
                      hint="Run `kamishibai bench` from a clone of the project's repository, set up as its "
                           "README says (`make run` makes its .venv).")


def available_benchmarks(bench_dir: Path) -> dict[str, Path]:
    """Each benchmark of ``bench_dir`` by name (``bench_sketch.py``: ``sketch``), in name order."""
    return {p.stem.removeprefix("bench_"): p for p in sorted(bench_dir.glob("bench_*.py"))}


def benchmark_names() -> list[str]:
    """The benchmarks ``kamishibai bench`` can run in this copy (none outside a source checkout),
    read from the file names alone: ``bench --help`` lists them without importing any."""
    try:
        return list(available_benchmarks(find_bench_dir()))
    except StudioError:
        return []


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


def _markers(key: str) -> tuple[str, str]:
    return f"<!-- bench:{key} -->", f"<!-- /bench:{key} -->"


def _section_span(text: str, key: str, report: Path) -> tuple[int, int] | None:
    """Where ``key``'s section (its markers included) is in ``text``; None when it has none.
    A section whose markers were edited by hand (one missing, doubled, out of order, or
    another section's marker between them) is refused rather than guessed at: replacing
    it could take the report's other sections with it."""
    begin, end = _markers(key)
    starts, ends = text.count(begin), text.count(end)
    if starts == ends == 0:
        return None
    fix = (f"Fix the file by hand: each section starts with a line `{begin}` and ends with a line `{end}` "
           "(or delete both lines and what is between them to start the section afresh).")
    if starts != 1 or ends != 1:
        raise StudioError(f"{report} has {starts} `{begin}` and {ends} `{end}` marker(s), not one of each: "
                          f"its {key} section can't be replaced without risking the rest of the file.", hint=fix)
    first, last = text.index(begin), text.index(end) + len(end)
    if last < first:
        raise StudioError(f"{report}: `{end}` comes before `{begin}`.", hint=fix)
    inner = text[first + len(begin):last - len(end)]
    stray = re.search(r"<!-- /?bench:[^>]*-->", inner)
    if stray:
        raise StudioError(f"{report}: the {key} section holds another section's marker ({stray.group(0)}): "
                          "replacing it would remove that section too.", hint=fix)
    return first, last


def _read_report(report: Path) -> str:
    try:
        return report.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise StudioError(f"{report} is not UTF-8 text ({error.reason} at byte {error.start}).",
                          hint="Save it as UTF-8, or name another report file.") from None


def check_report(report: Path, keys: list[str]) -> None:
    """Refuse, before any benchmark runs, a report that could not be updated afterwards: not a
    file, not writable, not UTF-8, or a section whose markers were edited by hand."""
    if report.exists():
        if not report.is_file():
            raise StudioError(f"The benchmarks report {report} is not a file.")
        text = _read_report(report)
        for key in keys:
            _section_span(text, key, report)
        if not os.access(report, os.W_OK) or not (_can_create_in(report.parent) or _can_append(report)):
            raise StudioError(f"The benchmarks report {report} can't be written (permission denied); nothing was run.",
                              hint="Make it writable, or run with --quick to print the figures only.")
        return
    folder = report.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK) or not _can_create_in(folder):
        raise StudioError(f"The benchmarks report {report} can't be created ({folder} is not a writable folder); "
                          "nothing was run.", hint="Run with --quick to print the figures only.")


def _can_create_in(folder: Path) -> bool:
    """Whether a file can really be made in ``folder``: ``os.access`` says yes to root for a
    read-only file system (``/sys``, a read-only mount), where the write failed only after the
    run, as an internal error."""
    import tempfile

    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _can_append(report: Path) -> bool:
    """Whether ``report`` opens for writing (in append mode: its text is left as it is)."""
    try:
        with report.open("a", encoding="utf-8"):
            return True
    except OSError:
        return False


def update_report(report: Path, key: str, section: str) -> None:
    text = _read_report(report) if report.exists() else (
        "# Benchmarks\n\nFigures from `kamishibai bench`. Each section names the machine it ran on.\n"
    )
    span = _section_span(text, key, report)
    text = text[:span[0]] + section + text[span[1]:] if span else text.rstrip() + "\n\n" + section + "\n"
    report.parent.mkdir(parents=True, exist_ok=True)
    _write_atomically(report, text)


def _write_atomically(report: Path, text: str) -> None:
    """Replace ``report`` whole or not at all (an interrupted run never leaves half a file);
    in place where its folder takes no new file but the file itself may be written."""
    import tempfile

    if report.exists() and not os.access(report.parent, os.W_OK | os.X_OK):
        report.write_text(text, encoding="utf-8")
        return
    mode = report.stat().st_mode & 0o7777 if report.exists() else 0o644
    # written beside it and renamed over it (storage's helpers are a layer this module may not use)
    descriptor, name = tempfile.mkstemp(dir=report.parent, prefix=f".{report.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(name, mode)
        os.replace(name, report)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


def _quoted(name: str) -> str:
    """A name as typed, quoted where it is empty or not a plain word (a path, spaces); the
    command line escapes control characters where it prints the message."""
    return name if name.replace("_", "").replace("-", "").isalnum() else f"'{name}'"


def _chosen(names: list[str], available: dict[str, Path]) -> list[str]:
    """The benchmarks ``names`` ask for, in order and once each (``bench_sketch.py`` and
    ``tests/bench/bench_sketch.py``, as a shell completes them, name ``sketch``)."""
    chosen: list[str] = []
    given: dict[str, str] = {}  # each key as it was typed, for the message naming an unknown one
    for name in names:
        key = Path(name).name.removesuffix(".py").removeprefix("bench_")
        given.setdefault(key, name)
        if key not in chosen:
            chosen.append(key)
    unknown = [key for key in chosen if key not in available]
    if unknown:
        elsewhere = [f"{key} is measured by `{REPORT_ONLY[key]}`" for key in unknown if key in REPORT_ONLY]
        typed = ", ".join(_quoted(given[key]) for key in unknown)
        raise StudioError(f"Unknown benchmark(s): {typed}. Available: {', '.join(available)}."
                          + (f" ({'; '.join(elsewhere)}.)" if elsewhere else ""),
                          hint="`kamishibai bench` alone runs them all.")
    return chosen


def run_benchmarks(names: list[str], quick: bool = False, report: Path | None = None,
                   echo: Callable[[str], None] = print) -> int:
    """Run ``names`` (all without), writing each one's section as soon as it ends. Bad names
    and a report that could not be updated are refused (:class:`StudioError`) before anything
    runs. Interrupted (Ctrl+C), the sections already written stay, and it says which."""
    bench_dir = find_bench_dir()
    report = report or bench_dir.parent.parent / "docs" / "BENCHMARKS.md"
    available = available_benchmarks(bench_dir)
    chosen = _chosen(names, available) if names else list(available)
    if not quick:
        check_report(report, chosen)
    written: list[str] = []
    for key in chosen:
        try:
            module = _load(available[key])
            echo(f"== {key}: {module.TITLE}")
            start = time.perf_counter()
            results: list[BenchResult] = module.run(quick)
            elapsed = time.perf_counter() - start
        except KeyboardInterrupt:
            left = chosen[chosen.index(key):]
            echo(f"interrupted during {key}: "
                 + (f"wrote {', '.join(written)} to {report}; " if written else "nothing was written; ")
                 + f"not measured: {', '.join(left)} (run `kamishibai bench {' '.join(left)}`)")
            raise
        for r in results:
            echo(f"   {r.name}: {r.value:.4g} {r.unit}  {r.goal}  {'' if r.ratio is None else f'{r.ratio:.2f}x'}")
        if not quick:
            update_report(report, key, format_section(key, module.TITLE, results, elapsed))
            written.append(key)
    if not quick:
        echo(f"wrote {report}")
    return 0
