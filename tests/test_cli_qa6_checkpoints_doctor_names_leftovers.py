"""`kamishibai checkpoints doctor` names the ``*.partial`` files a killed conversion leaves
(each converted file is written through one and renamed when whole), with their sizes and
what to do, in the text and in --json. QA: nothing named them; a conversion killed while
writing Qiqi's decoder left gigabytes that no command mentioned."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from studio.engines.animegamer.sizes import TINY
from studio.engines.catalog import animegamer_layout as layout
from tests.engines.animegamer.released_files import write_release


def kamishibai(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd)


def test_a_killed_conversions_partial_file_is_named(tmp_path: Path) -> None:
    write_release(tmp_path / "release", TINY)
    converted = kamishibai(tmp_path, "checkpoints", "convert", "release", "--checkpoints", "ck", "--size", "tiny")
    assert converted.returncode == 0, converted.stderr
    qiqi = tmp_path / "ck" / layout.ENGINE / "qiqi"
    # as a SIGKILL while the decoder was written leaves it: model.json removed, the file half written
    (qiqi / layout.MODEL_FILE).unlink()
    decoder = qiqi / layout.DECODER_FILE
    leftover = decoder.with_name(decoder.name + ".partial")
    leftover.write_bytes(decoder.read_bytes()[:5000])
    decoder.unlink()

    text = kamishibai(tmp_path, "checkpoints", "doctor", "--checkpoints", "ck")
    assert text.returncode == 1, text.stderr
    assert f"LEFTOVER {leftover} (5,000 bytes)" in text.stdout, text.stdout
    assert "Left by an interrupted conversion" in text.stdout and "delete them" in text.stdout
    as_json = kamishibai(tmp_path, "checkpoints", "doctor", "--checkpoints", "ck", "--json")
    assert json.loads(as_json.stdout)["leftovers"] == [{"path": str(leftover),
                                                        "bytes": 5000}]

    again = kamishibai(tmp_path, "checkpoints", "convert", "release", "--checkpoints", "ck", "--size", "tiny")
    assert again.returncode == 0, again.stderr
    assert not leftover.exists()  # converting again rewrote the file it belonged to
    done = kamishibai(tmp_path, "checkpoints", "doctor", "--checkpoints", "ck")
    assert done.returncode == 0 and "LEFTOVER" not in done.stdout, done.stdout


def test_customx_leftovers_are_named(tmp_path: Path) -> None:
    folder = tmp_path / "ck" / "customx"
    folder.mkdir(parents=True)
    (folder / "transformer.safetensors.partial").write_bytes(b"\0" * 1234)
    text = kamishibai(tmp_path, "checkpoints", "doctor", "--engine", "customx", "--checkpoints", "ck")
    assert text.returncode == 1
    assert f"LEFTOVER {folder}/transformer.safetensors.partial (1,234 bytes)" in text.stdout, text.stdout
    as_json = kamishibai(tmp_path, "checkpoints", "doctor", "--engine", "customx", "--checkpoints", "ck", "--json")
    assert json.loads(as_json.stdout)["leftovers"] == [{"path": str(folder / "transformer.safetensors.partial"),
                                                        "bytes": 1234}]
