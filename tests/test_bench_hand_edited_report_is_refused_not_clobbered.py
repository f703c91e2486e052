"""`kamishibai bench` rewrites one section of docs/BENCHMARKS.md between its markers. A
report edited by hand (a marker lost or doubled) used to be "repaired" by appending a new
section; the next run then replaced everything from the orphaned start marker to the new
end marker, wiping the other sections. Now such a report is refused, untouched, before any
benchmark runs, saying which markers to fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio import benchmarks
from studio.benchmarks import BenchResult, format_section, update_report
from studio.core.errors import StudioError

REPORT = """# Benchmarks

<!-- bench:fake -->
## Fake
| measure | value |
| old | 1 s |
<!-- /bench:fake -->

Notes written by hand about the fake figures.

<!-- bench:other -->
## Other
| measure | value |
| kept | 2 s |
<!-- /bench:other -->
"""


def _section(value: float) -> str:
    return format_section("fake", "Fake", [BenchResult("new", value, "s")], 1.0)


@pytest.fixture
def bench_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "tests" / "bench"
    folder.mkdir(parents=True)
    (folder / "bench_fake.py").write_text(
        "from studio.benchmarks import BenchResult\n"
        "TITLE = 'Fake'\n"
        "RUNS = []\n"
        "def run(quick):\n"
        "    RUNS.append(quick)\n"
        "    (__import__('pathlib').Path(__file__).with_name('ran')).write_text('yes')\n"
        "    return [BenchResult('new', 3.0, 's')]\n")
    monkeypatch.setattr(benchmarks, "find_bench_dir", lambda start=None: folder)
    return folder


def test_a_well_formed_section_is_replaced_and_the_rest_kept(tmp_path: Path) -> None:
    report = tmp_path / "BENCHMARKS.md"
    report.write_text(REPORT, encoding="utf-8")
    update_report(report, "fake", _section(5.0))
    text = report.read_text(encoding="utf-8")
    assert "| old |" not in text and "| new | 5 s |" in text
    assert "Notes written by hand" in text and "| kept | 2 s |" in text


@pytest.mark.parametrize("edit", [
    lambda t: t.replace("<!-- /bench:fake -->\n", ""),  # the end marker lost
    lambda t: t.replace("<!-- bench:fake -->\n", ""),  # the start marker lost
    lambda t: t + "\n<!-- bench:fake -->\n",  # a start marker pasted twice
    lambda t: t.replace("<!-- /bench:fake -->\n", "").replace("<!-- /bench:other -->",
                                                             "<!-- /bench:other -->\n<!-- /bench:fake -->"),
])
def test_a_report_with_broken_markers_is_left_untouched(tmp_path: Path, edit) -> None:  # type: ignore[no-untyped-def]
    report = tmp_path / "BENCHMARKS.md"
    edited = edit(REPORT)
    report.write_text(edited, encoding="utf-8")
    for value in (5.0, 6.0):  # twice: the second run is the one that used to wipe the other sections
        with pytest.raises(StudioError, match="bench:fake"):
            update_report(report, "fake", _section(value))
    assert report.read_text(encoding="utf-8") == edited


def test_the_benchmark_does_not_run_when_its_section_cannot_be_written(
        tmp_path: Path, bench_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studio.cli import main

    report = tmp_path / "BENCHMARKS.md"
    edited = REPORT.replace("<!-- /bench:fake -->\n", "")
    report.write_text(edited, encoding="utf-8")
    with pytest.raises(StudioError, match=r"1 `<!-- bench:fake -->` and 0 `<!-- /bench:fake -->`"):
        benchmarks.run_benchmarks(["fake"], report=report, echo=lambda _: None)
    assert not (bench_dir / "ran").exists()  # refused before minutes of measuring
    assert report.read_text(encoding="utf-8") == edited

    # the command says so on stderr with exit status 2 (the default report is the checkout's; --quick writes none)
    assert main(["bench", "fake", "--quick"]) == 0
    assert (bench_dir / "ran").exists()
    assert main(["bench", "nope", "mini"]) == 2
    captured = capsys.readouterr()
    assert "Unknown benchmark(s): nope, mini" in captured.err
    assert "kamishibai eval mini" in captured.err
