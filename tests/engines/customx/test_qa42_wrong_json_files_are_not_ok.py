"""CustomX's model.json that is JSON but not a conversion record ({"model_type": "llama"}), and
a tokenizer.json of {}, are named by `checkpoints doctor --engine customx` and by the engine's
check (both were listed "ok"); a text_encoder.bin beside a missing text_encoder.safetensors is
mentioned ("convert it first")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.engines.catalog import customx as catalog
from studio.engines.config import EngineConfig


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    engine = tmp_path / "ck" / catalog.NAME
    (engine / "tokenizer").mkdir(parents=True)
    (engine / catalog.MODEL_FILE).write_text(json.dumps({"model_type": "llama"}), encoding="utf-8")
    (engine / catalog.TOKENIZER_FILE).write_text("{}", encoding="utf-8")
    (engine / "text_encoder.bin").write_bytes(b"PK\x03\x04" + b"\0" * 60)
    return engine


def test_checkpoints_doctor_names_them(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["checkpoints", "doctor", "--engine", "customx", "--checkpoints", str(folder.parent)]) == 1
    out = capsys.readouterr().out
    model, tokenizer = folder / catalog.MODEL_FILE, folder / catalog.TOKENIZER_FILE
    assert f"NO  {model}  (0.00 GB, damaged)" in out, out
    assert f"DAMAGED {model} is not a CustomX conversion record" in out, out
    assert f"DAMAGED {tokenizer} is not a tokenizer: it has no \"model\" entry" in out, out
    assert "found text_encoder.bin beside it: a PyTorch file, convert it first" in out, out


def test_the_engines_check_names_them(folder: Path) -> None:
    messages = [reason.message for reason in catalog.check(EngineConfig(checkpoints=folder.parent))]
    assert any(m.startswith(f"{folder / catalog.MODEL_FILE} is not a CustomX conversion record") for m in messages)
    assert any(m.startswith(f"{folder / catalog.TOKENIZER_FILE} is not a tokenizer") for m in messages), messages
    assert any("found text_encoder.bin beside it" in m for m in messages), messages
