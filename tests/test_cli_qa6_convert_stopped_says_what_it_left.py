"""A conversion stopped by Ctrl+C while it writes says what it left, before "interrupted":
which characters (or the CustomX checkpoint) the engine can use, and to run the same
command again. QA: only "kamishibai: interrupted" was said, though Qiqi's model.json was
already removed, so the engine was then "not available" with no word of why.

The Ctrl+C is a real SIGINT, sent by the process to itself when the converter starts to
write a given file, or to stage the tokenizers (the wrapper below), so that it comes at the same point every run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from studio.engines.animegamer.sizes import TINY
from studio.engines.catalog import animegamer_layout as layout
from tests.engines.animegamer.released_files import write_release

CTRL_C_WHEN_WRITING = """
import os, signal, sys
import {module} as convert
from studio.cli import main

write = convert.{function}

def ctrl_c_then_write(tensors, path, *rest):
    if path.name.startswith({name!r}):
        os.kill(os.getpid(), signal.SIGINT)
    return write(tensors, path, *rest)

convert.{function} = ctrl_c_then_write
sys.argv[0] = "kamishibai"
sys.exit(main())
"""


def stopped(cwd: Path, module: str, function: str, name: str, *args: str) -> subprocess.CompletedProcess[str]:
    code = CTRL_C_WHEN_WRITING.format(module=module, function=function, name=name)
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def test_animegamer_says_which_characters_are_usable(tmp_path: Path) -> None:
    write_release(tmp_path / "release", TINY, characters=("qiqi", "sosuke"))
    args = ("checkpoints", "convert", "release", "--checkpoints", "ck", "--size", "tiny")
    done = stopped(tmp_path, "studio.engines.animegamer.convert", "save_whole", layout.DECODER_FILE, *args)
    assert done.returncode == 130, done.stderr
    assert f"the conversion was stopped before it finished. No character in {tmp_path}/ck/animegamer is usable " \
           "yet. Run the same command again to finish" in done.stderr, done.stderr
    assert not list((tmp_path / "ck").rglob("*.partial"))

    whole = subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=300,
                           cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    (tmp_path / "ck" / layout.ENGINE / "sosuke" / layout.MODEL_FILE).unlink()  # converted again below
    again = stopped(tmp_path, "studio.engines.animegamer.convert", "save_whole", layout.DECODER_FILE,
                    *args, "--character", "sosuke")
    assert again.returncode == 130, again.stderr
    assert f"Usable in {tmp_path}/ck/animegamer: Qiqi." in again.stderr, again.stderr


def test_customx_says_whether_the_checkpoint_there_is_still_used(tmp_path: Path) -> None:
    for name in ("x.pt", "v.pt"):
        (tmp_path / name).write_bytes(b"")
    for name in ("llava", "clip"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "tokenizer.json").write_text("{}")
    args = ("checkpoints", "convert-customx", "--transformer", "x.pt", "--vae", "v.pt", "--llava", "llava",
            "--clip", "clip", "--checkpoints", "ck")
    module = "studio.engines.customx.convert"
    # stopped before anything is written
    done = stopped(tmp_path, module, "_stage_tokenizers", "kamishibai-customx-", *args)
    assert done.returncode == 130, done.stderr
    assert f"the conversion was stopped before it finished. {tmp_path}/ck/customx has no model.json, so the " \
           "engine does not use it; run the same command again to finish it." in done.stderr, done.stderr

    (tmp_path / "ck" / "customx" / "model.json").write_text("{}")
    kept = stopped(tmp_path, module, "_stage_tokenizers", "kamishibai-customx-", *args)
    assert kept.returncode == 130, kept.stderr
    assert f"The converted files already in {tmp_path}/ck/customx were left as they were" in kept.stderr, kept.stderr
