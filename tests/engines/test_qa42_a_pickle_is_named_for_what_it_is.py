"""A weights file that is not what its name says is named for what it is, from its first bytes
(nothing is unpickled): a PyTorch pickle saved as .safetensors was "1,556 bytes, expected
8,303,152 (incomplete copy?)"; a .bin beside a missing .safetensors was not mentioned; the mini
engine's repair advice said "Restore the file from the repository" for any folder, and its
config.json without a format read "its format is None"."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from studio.engines.capabilities import CheckpointFile
from studio.engines.catalog import mini
from studio.engines.checkpoints_folder import app_checkpoints
from studio.engines.config import EngineConfig
from studio.engines.file_kinds import foreign_kind, torch_archive_problem
from studio.engines.requirements import check_files, safetensors_size_problem

torch = pytest.importorskip("torch")


def test_a_pickle_named_safetensors_is_not_an_incomplete_copy(tmp_path: Path) -> None:
    path = tmp_path / "mllm.safetensors"
    torch.save({"w": torch.zeros(3)}, path)
    problem = safetensors_size_problem(path) or ""
    assert problem.startswith(f"{path} is not a safetensors file: it is a PyTorch file"), problem
    assert "incomplete copy" not in problem
    assert "kamishibai checkpoints convert" in problem


def test_a_torch_file_beside_a_missing_one_is_mentioned(tmp_path: Path) -> None:
    torch.save({"w": torch.zeros(3)}, tmp_path / "mllm.bin")
    (reason,) = check_files(tmp_path, [CheckpointFile("mllm.safetensors")], engine="test")
    assert reason.message.startswith(f"Missing {tmp_path / 'mllm.safetensors'}")
    assert "found mllm.bin beside it" in reason.message and "convert it first" in reason.message, reason.message


def test_a_web_page_and_a_cut_archive_are_told_apart(tmp_path: Path) -> None:
    page = tmp_path / "3d-vae.pt"
    page.write_text("<!DOCTYPE html><html><body>Not found</body></html>", encoding="utf-8")
    assert "web page" in (foreign_kind(page) or "")
    assert "web page" in (torch_archive_problem(page) or "")
    whole = tmp_path / "pytorch_model.bin"
    torch.save({"w": torch.zeros(1000)}, whole)
    assert torch_archive_problem(whole) is None
    cut = tmp_path / "cut.bin"
    cut.write_bytes(whole.read_bytes()[:2000])
    assert "is cut short" in (torch_archive_problem(cut) or "")


def test_the_mini_check_names_the_pickle_and_the_apps_own_copy(tmp_path: Path) -> None:
    own = app_checkpoints() / "mini"
    folder = tmp_path / "ck" / "mini"
    shutil.copytree(own, folder)
    torch.save({"w": torch.zeros(3)}, folder / "lm.safetensors")
    unmet = mini.check(EngineConfig(checkpoints=tmp_path / "ck"))
    named = [r for r in unmet if r.path == str(folder / "lm.safetensors")]
    assert named and "is not a safetensors file: it is a PyTorch file" in named[0].message, unmet
    assert "repository" not in named[0].hint
    assert named[0].hint.startswith(f"Copy lm.safetensors from the app's own mini weights in {own}"), named[0].hint


def test_a_config_without_a_format_is_said_in_words(tmp_path: Path) -> None:
    import json

    folder = tmp_path / "ck" / "mini"
    shutil.copytree(app_checkpoints() / "mini", folder)
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    del config["format"]
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    messages = [r.message for r in mini.check(EngineConfig(checkpoints=tmp_path / "ck"))]
    assert any("is not a mini checkpoint's config.json: it has no \"format\" entry" in m for m in messages), messages
    assert not any("None" in m for m in messages), messages
