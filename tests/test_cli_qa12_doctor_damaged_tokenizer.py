"""`kamishibai checkpoints doctor` names a converted tokenizer file the engine can't load, and
says to convert again. QA: a garbage tokenizer.model (or a tokenizer_config.json that is no
JSON) of the size the conversion recorded was listed "ok" and the report ended "Ready: Qiqi.";
the engine's load then failed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli_checkpoints_doctor_damaged_files import _converted

from studio.cli import main
from studio.engines.catalog import animegamer_layout as layout


def _damage(folder: Path, name: str, content: bytes) -> Path:
    """Write ``content`` over the tokenizer's ``name`` and record its new size, as a conversion
    that copied it so would have."""
    path = folder / "tokenizer" / name
    path.write_bytes(content)
    record = folder / "qiqi" / layout.MODEL_FILE
    data = json.loads(record.read_text(encoding="utf-8"))
    data["files"][f"tokenizer/{name}"] = len(content)
    record.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(("name", "content", "said"), [
    ("tokenizer.model", b"\x00garbage, no SentencePiece model", "is not a SentencePiece model"),
    ("tokenizer_config.json", b"{oops", "can't be read as JSON"),
    ("special_tokens_map.json", b"[1, 2]", "is not a JSON object"),
])
def test_a_tokenizer_the_engine_cannot_load_is_damaged(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       name: str, content: bytes, said: str) -> None:
    if name == "tokenizer.model":
        pytest.importorskip("sentencepiece")
    path = _damage(_converted(tmp_path), name, content)
    capsys.readouterr()
    code = main(["checkpoints", "doctor", "--checkpoints", str(tmp_path)])
    text = capsys.readouterr().out
    assert code == 1 and "Ready" not in text, text
    assert f"DAMAGED {path} {said}" in text, text
    assert "Convert again" in text, text

    assert main(["checkpoints", "doctor", "--checkpoints", str(tmp_path), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [entry["path"] for entry in report["damaged"]] == [str(path)], report["damaged"]
    assert report["complete"] == [] and report["ok"] is False


def test_a_whole_tokenizer_stays_ready(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _converted(tmp_path)
    capsys.readouterr()
    assert main(["checkpoints", "doctor", "--checkpoints", str(tmp_path)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("Ready: Qiqi.")
