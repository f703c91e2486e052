"""A report `kamishibai bench` could not write (a read-only file, a folder that can't be
made) used to be found out only after the benchmarks had run for minutes, as "internal
error: PermissionError". It is now refused before anything runs; an interrupted run says
which sections it wrote and which benchmarks are left, and never leaves half a report."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio import benchmarks
from studio.core.errors import StudioError

MODULE = """from studio.benchmarks import BenchResult
from pathlib import Path
TITLE = {title!r}
def run(quick):
    Path(__file__).with_name("ran-{key}").write_text("yes")
    if {interrupt}:
        raise KeyboardInterrupt
    return [BenchResult("figure", 1.0, "s")]
"""


@pytest.fixture
def bench_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "tests" / "bench"
    folder.mkdir(parents=True)
    for key, interrupt in (("a", False), ("b", True), ("c", False)):
        (folder / f"bench_{key}.py").write_text(MODULE.format(title=key.upper(), key=key, interrupt=interrupt))
    monkeypatch.setattr(benchmarks, "find_bench_dir", lambda start=None: folder)
    return folder


def test_a_report_that_cannot_be_created_is_refused_before_running(tmp_path: Path, bench_dir: Path) -> None:
    blocker = tmp_path / "docs"
    blocker.write_text("a file where the report's folder should be")
    with pytest.raises(StudioError, match="can't be created"):
        benchmarks.run_benchmarks(["a"], report=blocker / "BENCHMARKS.md", echo=lambda _: None)
    assert not (bench_dir / "ran-a").exists()


def test_a_read_only_report_is_refused_before_running(tmp_path: Path, bench_dir: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    report = tmp_path / "BENCHMARKS.md"
    report.write_text("# Benchmarks\n", encoding="utf-8")
    report.chmod(0o444)
    real_access = os.access
    if real_access(report, os.W_OK):  # root may write anything: play the user who may not
        monkeypatch.setattr(os, "access", lambda path, mode: False if Path(path) == report and mode & os.W_OK
                            else real_access(path, mode))
        monkeypatch.setattr(Path, "write_text", _refused_for(report, Path.write_text))
    with pytest.raises(StudioError, match="can't be written"):
        benchmarks.run_benchmarks(["a"], report=report, echo=lambda _: None)
    assert not (bench_dir / "ran-a").exists()
    assert report.read_text(encoding="utf-8") == "# Benchmarks\n"
    assert benchmarks.run_benchmarks(["a"], quick=True, report=report, echo=lambda _: None) == 0  # prints only


def _refused_for(report: Path, write):  # type: ignore[no-untyped-def]
    def write_text(self: Path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self == report:
            raise PermissionError(13, "Permission denied", str(self))
        return write(self, *args, **kwargs)
    return write_text


def test_an_interrupted_run_keeps_what_it_wrote_and_says_what_is_left(tmp_path: Path, bench_dir: Path) -> None:
    report = tmp_path / "BENCHMARKS.md"
    said: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        benchmarks.run_benchmarks(["a", "b", "c"], report=report, echo=said.append)
    text = report.read_text(encoding="utf-8")
    assert "<!-- bench:a -->" in text and "<!-- bench:b -->" not in text
    assert not (bench_dir / "ran-c").exists()
    assert said[-1].startswith("interrupted during b")
    assert "wrote a" in said[-1] and "kamishibai bench b c" in said[-1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["BENCHMARKS.md", "tests"]  # no temporary file left


def test_names_as_a_shell_completes_them_run_once(tmp_path: Path, bench_dir: Path) -> None:
    said: list[str] = []
    assert benchmarks.run_benchmarks(["tests/bench/bench_a.py", "a", "bench_a"], quick=True,
                                     report=tmp_path / "B.md", echo=said.append) == 0
    assert [line for line in said if line.startswith("==")] == ["== a: A"]
