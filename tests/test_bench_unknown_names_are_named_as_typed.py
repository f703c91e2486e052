"""`kamishibai bench NAME` names an unknown benchmark as it was typed (QA: `bench
../etc/passwd` said "Unknown benchmark(s): passwd", a name the user never gave, and `bench
""` said "Unknown benchmark(s): ." with nothing to see)."""

from __future__ import annotations

import pytest

from studio.cli import main


@pytest.mark.parametrize(("names", "shown"), [
    (["../etc/passwd"], "'../etc/passwd'"),
    ([""], "''"),
    (["two words", "nope"], "'two words', nope"),
    (["x\x1by"], "'x\\x1by'"),
])
def test_an_unknown_benchmark_is_named_as_typed(names: list[str], shown: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--quick", *names]) == 2
    err = capsys.readouterr().err
    assert f"Unknown benchmark(s): {shown}. Available: " in err, err


def test_a_benchmark_file_names_its_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--quick", "tests/bench/bench_nope.py"]) == 2
    assert "Unknown benchmark(s): 'tests/bench/bench_nope.py'." in capsys.readouterr().err
