"""`kamishibai checkpoints doctor --engine customx --source DIR` finds the released CustomX files
under a download folder, says which convert-customx option each fills and prints the command
(QA: --source was accepted and ignored for CustomX)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from studio.cli import main

RELEASE = {
    "ckpts/hunyuancustom_editing_720P/mp_rank_00_model_states.pt": "--transformer",
    "ckpts/lora dir/pytorch_lora_kohaya_weights.safetensors": "--lora",
    "ckpts/hunyuan-video-t2v-720p/vae/pytorch_model.pt": "--vae",
    "ckpts/text_encoder/llava-llama-3-8b-v1_1-transformers/tokenizer.json": "--llava",
    "ckpts/clip-vit-large-patch14/tokenizer.json": "--clip",
}


def _unpack(root: Path, skip: str | None = None) -> None:
    for relative in RELEASE:
        if relative != skip:
            (root / relative).parent.mkdir(parents=True, exist_ok=True)
            (root / relative).write_bytes(b"")
    (root / "ckpts/decoy/vae").mkdir(parents=True)  # a vae/ folder without weights is not the VAE
    (root / "ckpts/clip-vit-large-patch14-decoy-without-tokenizer").mkdir()


def _doctor(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["checkpoints", "doctor", "--engine", "customx", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_every_part_found_gives_the_convert_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _unpack(tmp_path / "downloads")
    code, out, _ = _doctor(capsys, "--checkpoints", str(tmp_path / "ck"), "--source", str(tmp_path / "downloads"),
                           "--json")
    report = json.loads(out)
    assert code == 1 and not report["ok"]  # nothing converted yet
    found = {row["option"]: row["path"] for row in report["release"]}
    for relative, option in RELEASE.items():
        expected = tmp_path / "downloads" / relative
        assert found[option] == str(expected.parent if option in ("--llava", "--clip") else expected)
    command = report["convert_command"]
    assert command[:3] == ["kamishibai", "checkpoints", "convert-customx"]
    assert command[command.index("--checkpoints") + 1] == str(tmp_path / "ck")
    assert command[command.index("--lora") + 1].endswith("lora dir/pytorch_lora_kohaya_weights.safetensors")


def test_the_printed_command_is_quoted_for_a_shell(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _unpack(tmp_path)
    _, out, _ = _doctor(capsys, "--checkpoints", str(tmp_path / "ck"), "--source", str(tmp_path))
    line = out.split("Convert them with:\n", 1)[1].strip()
    words = shlex.split(line)
    assert words[words.index("--lora") + 1] == str(tmp_path / "ckpts/lora dir/pytorch_lora_kohaya_weights.safetensors")


@pytest.mark.parametrize("skip", list(RELEASE))
def test_a_missing_part_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str], skip: str) -> None:
    _unpack(tmp_path, skip=skip)
    option = RELEASE[skip]
    _, out, _ = _doctor(capsys, "--checkpoints", str(tmp_path / "ck"), "--source", str(tmp_path))
    row = next(line for line in out.splitlines() if f" {option} " in line)
    assert "not found (looked for" in row
    if option == "--lora":  # optional: the command is still given, without it
        assert row.lstrip().startswith("absent") and "Convert them with:" in out and "--lora" not in \
            out.split("Convert them with:")[1]
    else:
        assert row.lstrip().startswith("MISSING") and "Convert them with:" not in out


def test_a_source_that_is_not_a_folder_is_refused_before_anything(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _doctor(capsys, "--checkpoints", str(tmp_path / "ck"), "--source", str(tmp_path / "nope"))
    assert code == 2 and out == ""
    assert "--source" in err and "no such folder" in err
