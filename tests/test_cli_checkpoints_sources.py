"""`kamishibai checkpoints convert-customx` with a released file or folder that is not there
is bad input: exit 2 naming the option, and no folder made (QA: it stopped with "internal
error: ConversionError: Missing l/tokenizer.json." after making checkpoints/customx/)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def convert(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", "checkpoints", "convert-customx", *options,
                           "--checkpoints", str(tmp_path / "ck")], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)


@pytest.mark.parametrize(("remove", "said"), [
    ("x.pt", "--transformer x.pt: no such file."),
    ("v.pt", "--vae v.pt: no such file."),
    ("lora.safetensors", "--lora lora.safetensors: no such file."),
    ("llava", "--llava llava: no such folder."),
    ("clip/tokenizer.json", "--clip clip: it holds no tokenizer.json."),
])
def test_a_missing_release_file_is_named_and_nothing_is_made(tmp_path: Path, remove: str, said: str) -> None:
    for name in ("x.pt", "v.pt", "lora.safetensors"):
        (tmp_path / name).write_bytes(b"")
    for name in ("llava", "clip"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "tokenizer.json").write_text("{}")
    if remove == "llava":
        shutil.rmtree(tmp_path / remove)
    else:
        (tmp_path / remove).unlink()
    done = convert(tmp_path, "--transformer", "x.pt", "--lora", "lora.safetensors", "--vae", "v.pt",
                   "--llava", "llava", "--clip", "clip")
    assert done.returncode == 2, done.stderr
    assert said in done.stderr and "internal error" not in done.stderr, done.stderr
    assert "Nothing was written" in done.stderr
    assert not (tmp_path / "ck").exists()
