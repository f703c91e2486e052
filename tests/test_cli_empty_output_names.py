"""An empty output name (an unset shell variable: `kamishibai export P --out "$OUT"`) is
refused by what it is, not read as the current folder: the messages named "." ("Can't write .:
a folder of that name exists", "Can't write the bundle to ."), and nothing was written."""

from __future__ import annotations

from pathlib import Path

import pytest
from demo_project import import_demo_project  # tests/ is on sys.path

from studio.cli import main


@pytest.mark.parametrize(("command", "said"), [
    (["export", "{path}", "--out", ""], "--out is empty"),
    (["export", "{path}", "--out", "  "], "--out is empty"),
    (["bundle", "{path}", ""], "The bundle's file name is empty"),
])
def test_an_empty_output_name_is_refused_by_name(command: list[str], said: str, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = import_demo_project(tmp_path, monkeypatch)
    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    capsys.readouterr()
    assert main([part.format(path=path) for part in command]) == 2
    err = capsys.readouterr().err
    assert said in err
    assert "write ." not in err and "write the bundle to ." not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before
