"""What only a checkout has, asked of an installed studio.

``kamishibai eval mini`` wrote its report into ``site-packages/docs/BENCHMARKS.md`` (its default
was the checkout's ``docs/`` found relative to the package); installed, it prints only, or
writes where ``--report`` says. ``kamishibai bench`` ended with "internal error:
FileNotFoundError: tests/bench not found" (exit status 1); it is now refused as a user error
(exit status 2) that says benchmarks run from a source checkout.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.installation.test_qa37_installed_checkpoints import make_installed_copy, run_installed

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_installed_copy(tmp_path_factory.mktemp("installed") / "site-packages")


def test_bench_outside_a_checkout_is_a_plain_refusal(site: Path, tmp_path: Path) -> None:
    done = run_installed(site, tmp_path, "-m", "studio", "bench", "--quick")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "internal error" not in done.stderr
    assert "Benchmarks run from a source checkout" in done.stderr
    assert "hint: Run `kamishibai bench` from a clone" in done.stderr


EVAL = ("-m", "studio", "eval", "mini", "--episodes", "1", "--steps", "1", "--threads", "1")


def test_eval_installed_prints_only_and_writes_where_report_says(site: Path, tmp_path: Path) -> None:
    report = tmp_path / "mine.md"
    done = run_installed(site, tmp_path, *EVAL, "--report", str(report))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"wrote {report}" in done.stdout
    assert "<!-- bench:mini -->" in report.read_text(encoding="utf-8")
    assert not (site / "docs").exists()
    # without --report: the table is printed, and nothing is written anywhere
    again = run_installed(site, tmp_path, *EVAL)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "wrote " not in again.stdout
    assert not (site / "docs").exists(), "the report went into site-packages"
    assert [line for line in again.stdout.splitlines() if line.startswith("|")], again.stdout
