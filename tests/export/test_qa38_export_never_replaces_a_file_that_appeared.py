"""Two exports to the same name started a moment apart: the second must not silently
replace the first's file without --force. QA: `kamishibai export P --out out/same.webm -q`
twice, half a second apart, both succeeded; the file checked at the start was replaced at
the end."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from studio.export.errors import ExportError
from studio.export.output import OutputFiles

from .helpers import Fixture, video_facts


def test_a_file_that_appears_during_the_export_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "same.webm"
    with OutputFiles(out) as files:
        files.temp_for(out).write_bytes(b"the new export")
        out.write_bytes(b"another export's file")  # written while this export ran
        with pytest.raises(ExportError) as raised:
            files.commit()
    assert str(out) in raised.value.message and "appeared while the export ran" in raised.value.message
    assert "export again" in raised.value.hint  # the command line names --force where it was not given
    assert out.read_bytes() == b"another export's file"
    assert [path.name for path in tmp_path.iterdir()] == ["same.webm"]  # no work folder left


def test_a_file_there_from_the_start_is_replaced(tmp_path: Path) -> None:
    out = tmp_path / "same.webm"
    out.write_bytes(b"earlier export")  # there when the export began: the caller allowed replacing it (--force)
    with OutputFiles(out) as files:
        files.temp_for(out).write_bytes(b"the new export")
        assert files.commit() == (out,)
    assert out.read_bytes() == b"the new export"


def test_a_new_file_is_written_once(tmp_path: Path) -> None:
    out = tmp_path / "new.webm"
    with OutputFiles(out) as files:
        files.temp_for(out).write_bytes(b"the new export")
        files.commit()
    assert out.read_bytes() == b"the new export" and os.stat(out).st_nlink == 1


def test_two_cli_exports_half_a_second_apart(story: Fixture, tmp_path: Path) -> None:
    project = story.project.path
    story.project.close()
    folder = tmp_path / "out"
    folder.mkdir()
    command = [sys.executable, "-m", "studio", "export", str(project), "--out", str(folder / "same.webm"), "-q",
               "--size", "1280x720"]
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    second = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    results = [(process.wait(timeout=300), *process.communicate()) for process in (first, second)]
    codes = sorted(code for code, _out, _err in results)
    assert codes[0] == 0 and codes[1] != 0, results  # one wrote the file, the other said why it did not
    failed = next(err for code, _out, err in results if code != 0)
    # refused when it ends (the race this guards), or at its start if the first was done by then (a loaded machine)
    assert "same.webm" in failed and ("appeared while the export ran" in failed or "already exists" in failed), failed
    assert video_facts(folder / "same.webm").codec == "vp9"
    assert sorted(path.name for path in folder.iterdir()) == ["same.webm"]
