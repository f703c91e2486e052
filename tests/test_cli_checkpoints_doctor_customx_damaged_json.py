"""`kamishibai checkpoints doctor --engine customx` and the engine's own check name a tokenizer
or config JSON file that is damaged (cut short, not JSON, not UTF-8, or JSON but no object) and
exit 1. QA: a garbage `tokenizer/tokenizer.json` was listed as "ok", the engine counted as
available, and the first turn failed while transformers loaded it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from studio.cli import main
from studio.engines.catalog import customx as catalog
from studio.engines.requirements import check_files


def _converted(checkpoints: Path) -> Path:
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
        else:
            path.write_text('{"model": {"type": "BPE"}, "added_tokens": []}', encoding="utf-8")
    return folder


DAMAGE = {
    "cut-short": b'{"model": {"type": "BPE", "vocab": {"a": 0',
    "not-json": b"<html>404 Not Found</html>",
    "not-utf8": b'{"a": "\xff\xfe"}',
    "a-list": b"[1, 2, 3]",
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_tokenizer_json_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str) -> None:
    folder = _converted(tmp_path)
    path = folder / catalog.TOKENIZER_FILE
    path.write_bytes(DAMAGE[damage])
    options = ["checkpoints", "doctor", "--engine", "customx", "--checkpoints", str(tmp_path)]
    capsys.readouterr()
    code = main(options)
    text = capsys.readouterr().out
    assert code == 1, text
    assert f"NO  {path}" in text and "damaged" in text, text
    assert main([*options, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    assert [entry["path"] for entry in report["damaged"]] == [str(path)], report["damaged"]
    reasons = check_files(folder, catalog.INFO.checkpoints, engine=catalog.NAME)
    assert [reason.path for reason in reasons] == [str(path)], reasons


def test_a_repaired_file_is_read_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _converted(tmp_path)
    path = folder / catalog.TOKENIZER_2_FILE
    good = path.read_bytes()
    path.write_bytes(DAMAGE["cut-short"])
    assert check_files(folder, catalog.INFO.checkpoints, engine=catalog.NAME)
    path.write_bytes(good + b" " * 8)  # a new version of the file (its size changed)
    assert check_files(folder, catalog.INFO.checkpoints, engine=catalog.NAME) == []
    assert main(["checkpoints", "doctor", "--engine", "customx", "--checkpoints", str(tmp_path)]) == 0
