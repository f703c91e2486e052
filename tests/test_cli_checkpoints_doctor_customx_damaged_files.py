"""`kamishibai checkpoints doctor --engine customx` names a converted safetensors file that is
cut short or grown (its size is not the one its header gives) as damaged and exits 1, as it
does for AnimeGamer. QA: it checked only that the files were there, listed a transformer cut
short by an interrupted copy as "ok" and exited 0, and the first turn then failed to load."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from studio.cli import main
from studio.engines.catalog import customx as catalog


def _converted(checkpoints: Path) -> Path:
    """Every file of our CustomX layout, whole (small safetensors files); the customx/ folder."""
    from safetensors.numpy import save_file

    folder = checkpoints / catalog.NAME
    for item in catalog.FILES:
        path = folder / item.path
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".safetensors":
            save_file({"weight": np.zeros((4, 8), dtype=np.float16)}, str(path))
        elif item.path == catalog.MODEL_FILE:  # the converter's record: the model's sizes
            from studio.engines.customx.sizes import TINY

            path.write_text(json.dumps({"size": TINY.to_json()}), encoding="utf-8")
        else:  # a tokenizer.json holds a tokenizer model
            path.write_text('{"model": {"type": "BPE"}}', encoding="utf-8")
    return folder


def _doctor(checkpoints: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, dict[str, Any]]:
    capsys.readouterr()
    options = ["checkpoints", "doctor", "--engine", "customx", "--checkpoints", str(checkpoints)]
    code = main(options)
    text = capsys.readouterr().out
    assert main([*options, "--json"]) == code
    return code, text, json.loads(capsys.readouterr().out)


def test_whole_files_are_ok(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _converted(tmp_path)
    code, text, report = _doctor(tmp_path, capsys)
    assert code == 0 and "NO " not in text and "DAMAGED" not in text, text
    assert report["ok"] is True and report["damaged"] == []


@pytest.mark.parametrize("change", [-16, 3], ids=["cut-short", "grown"])
def test_a_weights_file_of_the_wrong_size_is_damaged(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    change: int) -> None:
    path = _converted(tmp_path) / catalog.TRANSFORMER_FILE
    whole = path.stat().st_size
    os.truncate(path, whole + change)
    message = f"{path} is {whole + change:,} bytes, but its header describes {whole:,} (incomplete copy?)."
    code, text, report = _doctor(tmp_path, capsys)
    assert code == 1, text
    assert f"NO  {path}  (0.00 GB, damaged)" in text, text
    assert f"  DAMAGED {message}" in text, text
    assert report["ok"] is False and report["damaged"] == [{"path": str(path), "message": message}]
    assert [row["present"] for row in report["files"]] == [True] * len(catalog.FILES)


def test_a_file_that_is_no_safetensors_file_is_damaged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _converted(tmp_path) / catalog.TEXT_ENCODER_2_FILE
    path.write_bytes(b"\x00" * 5)
    code, text, report = _doctor(tmp_path, capsys)
    assert code == 1 and "not a safetensors file" in text, text
    assert [entry["path"] for entry in report["damaged"]] == [str(path)]
