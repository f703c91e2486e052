"""Several `kamishibai export ... --force` to one path at once: those that finished last said
"a file of that name appeared while the export ran ... export again with --force to replace
it", though --force was given. Now they say another export or program wrote the file
meanwhile, and suggest --force only where it was not given."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.export import api

from .helpers import Fixture


@pytest.fixture
def beaten(story: Fixture, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    """Every export's file is written by another export just before this one puts it in place."""
    real = api._write

    def raced(branch, out, fmt, options, files, progress, cancelled):  # type: ignore[no-untyped-def]
        made = real(branch, out, fmt, options, files, progress, cancelled)
        out.write_text("another export's subtitles\n", encoding="utf-8")
        return made

    monkeypatch.setattr(api, "_write", raced)
    path, leaf = story.project.path, story.leaf
    story.project.close()
    return path, leaf


@pytest.mark.parametrize("force", [True, False], ids=["force", "no-force"])
def test_the_hint_names_force_only_where_it_was_not_given(beaten: tuple[Path, str], tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str], force: bool) -> None:
    project, leaf = beaten
    out = tmp_path / "ep.srt"
    assert main(["export", str(project), "--leaf", leaf, "--out", str(out), "--quiet",
                 *(["--force"] if force else [])]) == 2
    err = capsys.readouterr().err
    assert "appeared while the export ran" in err and "another export or program wrote it meanwhile" in err, err
    assert ("--force" in err) is not force, err
    assert out.read_text(encoding="utf-8") == "another export's subtitles\n", "left as it is"
