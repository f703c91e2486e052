"""`kamishibai eval` refuses a --report it could not update before it plays anything (QA:
`eval mini --report picture.png` ran the whole evaluation, a minute and more, then stopped
with "not UTF-8 text" and the figures were lost; so did a report whose markers were edited
by hand)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.core.errors import StudioError


@pytest.fixture
def evaluations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the evaluations started (each stops at once)."""
    import studio.engines.mini.report as report_module

    started: list[int] = []

    def evaluate(*_args: object, **_kwargs: object) -> dict[str, object]:
        started.append(1)
        raise StudioError("stopped by the test")

    monkeypatch.setattr(report_module, "run_evaluation", evaluate)
    return started


@pytest.mark.parametrize(("content", "message"), [
    (b"\x89PNG\r\n\x1a\n\x00\xff", "is not UTF-8 text"),
    (b"# Benchmarks\n\n<!-- bench:mini -->\nold\n<!-- bench:mini -->\n", "marker(s), not one of each"),
])
def test_a_report_that_could_not_be_updated_is_refused_before_the_run(
        content: bytes, message: str, evaluations: list[int], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report.md"
    report.write_bytes(content)
    assert main(["eval", "mini", "--episodes", "1", "--report", str(report)]) == 2
    assert message in capsys.readouterr().err
    assert report.read_bytes() == content, "the report is left as it was"
    assert not evaluations


def test_no_report_skips_the_check(evaluations: list[int], tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report.md"
    report.write_bytes(b"\xff")
    main(["eval", "mini", "--episodes", "1", "--report", str(report), "--no-report"])
    assert evaluations == [1]
    assert "stopped by the test" in capsys.readouterr().err
