"""`kamishibai checkpoints doctor` does not call a character ready when one of its files (or
a shared one) is of another size than the conversion recorded, or is a safetensors file cut
short: it names the file as damaged and exits 1. QA: it listed such a file as "ok ...,
expected N (incomplete copy?)" and still ended "Ready: Qiqi.", with exit status 0."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import numpy as np
import pytest

from studio.cli import main
from studio.engines.catalog import animegamer_layout as layout


def tiny_sentencepiece_model() -> bytes:
    """A SentencePiece model the engine's tokenizer check loads (a few hundred bytes of
    vocabulary, trained here in milliseconds); without sentencepiece installed that check
    reads no model file, and any bytes do."""
    try:
        import sentencepiece
    except ImportError:
        return b"a tokenizer model"
    model = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(["Qiqi eats bread slowly in the bakery at night"] * 20), model_writer=model,
        vocab_size=30, model_type="char", normalization_rule_name="identity", minloglevel=2)
    return model.getvalue()


def _converted(checkpoints: Path) -> Path:
    """Qiqi's files and the shared ones, whole (small safetensors files, a tiny tokenizer), with
    the sizes of her conversion record, as `checkpoints convert` leaves them; the animegamer/
    folder."""
    from safetensors.numpy import save_file

    folder = checkpoints / layout.ENGINE
    sizes = {}
    for item in (*layout.shared_files(), *layout.character_files("qiqi")):
        path = folder / item.path
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".safetensors":
            save_file({"weight": np.zeros((4, 8), dtype=np.float16)}, str(path))
        elif path.name == "tokenizer.model":
            path.write_bytes(tiny_sentencepiece_model())
        elif item.path != f"qiqi/{layout.MODEL_FILE}":
            path.write_text("{}", encoding="utf-8")
        sizes[item.path] = path.stat().st_size if path.is_file() else 0
    sizes.pop(f"qiqi/{layout.MODEL_FILE}")
    from studio.engines.animegamer.sizes import TINY  # the record holds the model's dimensions, as converted

    (folder / "qiqi" / layout.MODEL_FILE).write_text(json.dumps({"files": sizes, "size": TINY.to_json()}),
                                                     encoding="utf-8")
    return folder


def _doctor(checkpoints: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, dict[str, object]]:
    capsys.readouterr()
    code = main(["checkpoints", "doctor", "--checkpoints", str(checkpoints)])
    text = capsys.readouterr().out
    assert main(["checkpoints", "doctor", "--checkpoints", str(checkpoints), "--json"]) == code
    return code, text, json.loads(capsys.readouterr().out)


def test_whole_files_are_ready(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _converted(tmp_path)
    code, text, report = _doctor(tmp_path, capsys)
    assert code == 0 and text.rstrip().endswith("Ready: Qiqi."), text
    assert report["damaged"] == [] and report["complete"] == ["qiqi"] and report["ok"] is True


@pytest.mark.parametrize("name", [f"qiqi/{layout.DECODER_FILE}", layout.VAE_FILE], ids=["own", "shared"])
def test_a_file_of_another_size_than_converted_is_damaged(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          name: str) -> None:
    path = _converted(tmp_path) / name
    whole = path.stat().st_size
    os.truncate(path, whole - 16)
    code, text, report = _doctor(tmp_path, capsys)
    assert code == 1, text
    assert "Ready" not in text, text
    assert f"DAMAGED {path} is {whole - 16:,} bytes, expected {whole:,} (as converted; incomplete copy?)." in text
    assert report["damaged"] == [{"path": str(path), "message": f"{path} is {whole - 16:,} bytes, expected "
                                  f"{whole:,} (as converted; incomplete copy?)."}]
    assert report["complete"] == [] and report["ok"] is False


def test_a_safetensors_file_cut_short_without_a_record_is_damaged(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    folder = _converted(tmp_path)
    record = folder / "qiqi" / layout.MODEL_FILE
    record.write_text(json.dumps({"files": {}, "size": json.loads(record.read_text(encoding="utf-8"))["size"]}),
                      encoding="utf-8")  # a record without the files' sizes (an older conversion)
    path = folder / "qiqi" / layout.MLLM_FILE
    whole = path.stat().st_size
    os.truncate(path, whole - 1)
    code, text, _report = _doctor(tmp_path, capsys)
    assert code == 1 and "Ready" not in text, text
    assert f"DAMAGED {path} is {whole - 1:,} bytes, but its header describes {whole:,}" in text, text
