"""A safetensors weights file that is there but cut short or grown (its size is not the one
its header gives) is a reason its engine can't run, in the engine's own check: the one the
window's engine picker, the generating commands and `kamishibai doctor` all read through
``registry.check``. QA: only the doctor added it (on top of the checks), so the picker
offered such an engine and its first turn failed with "Error while deserializing header"."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from test_cli_checkpoints_doctor_damaged_files import tiny_sentencepiece_model

from engines.contract.heavy_engine import INFO as HEAVY  # tests/ is on sys.path
from engines.contract.heavy_engine import write_weights
from studio.engines import requirements
from studio.engines.catalog import animegamer as animegamer_catalog
from studio.engines.catalog import animegamer_layout as layout
from studio.engines.catalog import customx as customx_catalog
from studio.engines.config import EngineConfig
from studio.engines.registry import EngineRegistry
from studio.engines.requirements import RequirementKind


def _registry() -> EngineRegistry:
    registry = EngineRegistry()
    registry.register(HEAVY)
    return registry


def _whole(path: Path) -> Path:
    """A small whole safetensors file at ``path``."""
    from safetensors.numpy import save_file

    path.parent.mkdir(parents=True, exist_ok=True)
    save_file({"weight": np.zeros((4, 8), dtype=np.float16)}, str(path))
    return path


@pytest.mark.parametrize("change", [-10, 7], ids=["cut-short", "grown"])
def test_registry_check_names_a_weights_file_of_the_wrong_size(tmp_path: Path, change: int) -> None:
    weights = write_weights(tmp_path / "heavy")
    config = EngineConfig(checkpoints=tmp_path)
    assert _registry().check("heavy", config) == []
    whole = weights.stat().st_size
    os.truncate(weights, whole + change)
    (reason,) = _registry().check("heavy", config)
    assert reason.kind is RequirementKind.FILE and reason.path == str(weights)
    assert reason.message == f"{weights} is {whole + change:,} bytes, but its header describes {whole:,} " \
                             "(incomplete copy?)."


def test_a_file_put_right_again_is_whole_again(tmp_path: Path) -> None:
    """The header is read once per version of the file (path, size, time), never stale."""
    weights = write_weights(tmp_path / "heavy")
    config = EngineConfig(checkpoints=tmp_path)
    whole = weights.read_bytes()
    weights.write_bytes(whole[:-10])
    assert len(_registry().check("heavy", config)) == 1
    before = requirements._size_problem.cache_info()
    assert len(_registry().check("heavy", config)) == 1  # unchanged: its header is not read again
    after = requirements._size_problem.cache_info()
    assert (after.hits, after.misses) == (before.hits + 1, before.misses)
    weights.write_bytes(whole)
    os.utime(weights, ns=(weights.stat().st_atime_ns, weights.stat().st_mtime_ns + 1_000_000))
    assert _registry().check("heavy", config) == []


def test_a_folder_where_the_weights_go_is_named_not_read(tmp_path: Path) -> None:
    weights = write_weights(tmp_path / "heavy")
    weights.unlink()
    weights.mkdir()  # not a file: check_files says it is missing
    assert "Missing" in _registry().check("heavy", EngineConfig(checkpoints=tmp_path))[0].message
    assert "can't be read" in (requirements.safetensors_size_problem(weights) or "")


def test_customx_names_a_cut_short_file_once_with_its_convert_hint(tmp_path: Path) -> None:
    folder = tmp_path / customx_catalog.NAME
    for item in customx_catalog.FILES:
        if item.path.endswith(".safetensors"):
            _whole(folder / item.path)
        elif item.path == customx_catalog.MODEL_FILE:  # the converter's record: the model's sizes
            from studio.engines.customx.sizes import TINY

            (folder / item.path).parent.mkdir(parents=True, exist_ok=True)
            (folder / item.path).write_text(json.dumps({"size": TINY.to_json()}), encoding="utf-8")
        else:  # a tokenizer.json holds a tokenizer model
            (folder / item.path).parent.mkdir(parents=True, exist_ok=True)
            (folder / item.path).write_text('{"model": {"type": "BPE"}}', encoding="utf-8")
    config = EngineConfig(checkpoints=tmp_path)

    def file_reasons() -> list[requirements.Requirement]:
        return [r for r in customx_catalog.check(config) if r.kind is RequirementKind.FILE]

    assert file_reasons() == []
    vae = folder / customx_catalog.VAE_FILE
    os.truncate(vae, vae.stat().st_size - 1)
    (reason,) = file_reasons()
    assert reason.path == str(vae) and "but its header describes" in reason.message
    assert "convert-customx" in reason.hint


def _animegamer(checkpoints: Path, *characters: str) -> Path:
    """The shared files and ``characters``' files, whole; the animegamer/ folder."""
    folder = checkpoints / layout.ENGINE
    for item in (*layout.shared_files(), *(f for c in characters for f in layout.character_files(c))):
        path = folder / item.path
        if path.suffix == ".safetensors":
            _whole(path)
        elif path.name == "tokenizer.model":  # the engine's check loads it
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(tiny_sentencepiece_model())
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("{}", encoding="utf-8")
        if path.name == layout.MODEL_FILE:  # a conversion record holds the model's dimensions
            from studio.engines.animegamer.sizes import TINY

            path.write_text(json.dumps({"size": TINY.to_json()}), encoding="utf-8")
    return folder


def test_animegamer_names_a_damaged_shared_file(tmp_path: Path) -> None:
    folder = _animegamer(tmp_path, "qiqi")
    assert animegamer_catalog.check_files(folder) == []
    vae = folder / layout.VAE_FILE
    os.truncate(vae, vae.stat().st_size + 5)
    assert [r.path for r in animegamer_catalog.check_files(folder)] == [str(vae)]


def test_animegamer_without_a_whole_character_names_the_damaged_file(tmp_path: Path) -> None:
    folder = _animegamer(tmp_path, "qiqi")
    mllm = folder / "qiqi" / layout.MLLM_FILE
    os.truncate(mllm, mllm.stat().st_size - 3)
    paths = [r.path for r in animegamer_catalog.check_files(folder)]
    assert str(mllm) in paths, paths
    assert all(Path(p).is_relative_to(folder / "sosuke") for p in paths if p != str(mllm)), paths


def test_animegamer_with_one_whole_character_runs_beside_a_damaged_one(tmp_path: Path) -> None:
    folder = _animegamer(tmp_path, "qiqi", "sosuke")
    decoder = folder / "sosuke" / layout.DECODER_FILE
    os.truncate(decoder, decoder.stat().st_size - 3)
    assert animegamer_catalog.check_files(folder) == []  # as with Sosuke's files missing: Qiqi plays
