"""`kamishibai doctor` names a converted AnimeGamer tokenizer file the engine can't load, in
the words of `kamishibai checkpoints doctor`, and the engine is then not available. QA: the
doctor (and the window's engine picker, which shows its engine part) said nothing of a garbage
tokenizer.model; only `checkpoints doctor` named it, and the engine's load then failed.

The engine's own check names it, so the window's picker and the generating commands see it too;
the window checks every engine at each refresh of its picker: the tokenizer is read once per
version of its files (paths, sizes, modification times)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from test_cli_checkpoints_doctor_damaged_files import _converted, tiny_sentencepiece_model
from test_cli_qa12_doctor_damaged_tokenizer import _damage

from studio import composition
from studio.cli import main
from studio.doctor import engine_reports
from studio.engines.config import EngineConfig

DAMAGES = [
    ("tokenizer.model", b"\x00garbage, no SentencePiece model", "is not a SentencePiece model"),
    ("tokenizer_config.json", b"{oops", "can't be read as JSON"),
    ("special_tokens_map.json", b"[1, 2]", "is not a JSON object"),
]


def _animegamer(capsys: pytest.CaptureFixture[str], checkpoints: Path) -> dict[str, Any]:
    capsys.readouterr()
    main(["doctor", "--json", "--checkpoints", str(checkpoints)])
    engines: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["engines"]
    return {engine["name"]: engine for engine in engines}["animegamer"]


def _tokenizer_reasons(engine: dict[str, Any]) -> list[dict[str, Any]]:
    return [reason for reason in engine["reasons"] if "/tokenizer/" in reason["path"]]


@pytest.mark.parametrize(("name", "content", "said"), DAMAGES, ids=[name for name, _, _ in DAMAGES])
def test_doctor_names_a_damaged_tokenizer_as_checkpoints_doctor_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, content: bytes, said: str) -> None:
    if name == "tokenizer.model":
        pytest.importorskip("sentencepiece")
    path = _damage(_converted(tmp_path), name, content)
    engine = _animegamer(capsys, tmp_path)
    assert not engine["available"]
    (reason,) = _tokenizer_reasons(engine)
    assert reason["kind"] == "file" and reason["path"] == str(path), reason
    assert reason["message"].startswith(f"{path} {said}"), reason
    assert reason["message"].endswith("the engine can't load AnimeGamer's tokenizer."), reason
    assert reason["hint"].startswith("Convert again: `kamishibai checkpoints convert`"), reason

    main(["doctor", "--checkpoints", str(tmp_path)])
    text = capsys.readouterr().out
    assert f"      - {reason['message']}\n        {reason['hint']}\n" in text, text

    assert main(["checkpoints", "doctor", "--checkpoints", str(tmp_path)]) == 1
    named = capsys.readouterr().out
    assert f"DAMAGED {reason['message']} {reason['hint']}" in named, named  # the same words, the same file


def test_a_whole_tokenizer_adds_no_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _converted(tmp_path)
    assert _tokenizer_reasons(_animegamer(capsys, tmp_path)) == []


def test_a_missing_tokenizer_file_is_named_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file that is not there is the engine's own check's "Missing ..." line, not also damage."""
    path = _converted(tmp_path) / "tokenizer" / "tokenizer_config.json"
    path.unlink()
    reasons = _tokenizer_reasons(_animegamer(capsys, tmp_path))
    assert [reason["message"].split(" — ")[0] for reason in reasons] == [f"Missing {path}"], reasons


def test_the_tokenizer_is_read_once_per_version_of_its_files(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Each refresh of the window's picker checks again: an unchanged tokenizer is not read
    again; a file repaired (or damaged) since is."""
    pytest.importorskip("sentencepiece")
    from studio.engines.catalog import animegamer_tokenizer

    reads: list[Path] = []
    real = animegamer_tokenizer.tokenizer_problem

    def counted(folder: Path) -> str | None:
        reads.append(folder)
        return real(folder)

    monkeypatch.setattr(animegamer_tokenizer, "tokenizer_problem", counted)
    folder = _converted(tmp_path)
    model = _damage(folder, "tokenizer.model", b"\x00not a model")
    registry, config = composition.default_registry(), EngineConfig(checkpoints=tmp_path)

    def tokenizer_paths() -> list[str]:
        (engine,) = (report for report in engine_reports(registry, config) if report.name == "animegamer")
        return [reason.path for reason in engine.reasons if "/tokenizer/" in reason.path]

    assert tokenizer_paths() == [str(model)]
    assert tokenizer_paths() == [str(model)]
    assert len(reads) == 1, reads

    model.write_bytes(tiny_sentencepiece_model())  # repaired: another size, another modification time
    os.utime(model, ns=(model.stat().st_atime_ns, model.stat().st_mtime_ns + 1_000_000_000))
    assert tokenizer_paths() == []
    assert len(reads) == 2, reads
