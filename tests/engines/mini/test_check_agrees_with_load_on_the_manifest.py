"""``kamishibai doctor`` (the catalogue's check) and the engine's load agree on config.json's
file list: a folder whose manifest does not list a file the engine loads, lists it without
its size and SHA-256, or is of another format, is reported as not available (with the
reason), instead of "available" while every turn fails to load."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from studio.engines.base import EngineLoadError
from studio.engines.catalog.mini import check
from studio.engines.config import EngineConfig


def _unlist(name: str) -> Callable[[dict[str, Any]], None]:
    def edit(manifest: dict[str, Any]) -> None:
        del manifest["files"][name]
    return edit


def _no_digest(name: str) -> Callable[[dict[str, Any]], None]:
    def edit(manifest: dict[str, Any]) -> None:
        del manifest["files"][name]["sha256"]
    return edit


def _listed_as_text(name: str) -> Callable[[dict[str, Any]], None]:
    def edit(manifest: dict[str, Any]) -> None:
        manifest["files"][name] = "ok"
    return edit


def _format(value: object) -> Callable[[dict[str, Any]], None]:
    def edit(manifest: dict[str, Any]) -> None:
        if value is None:
            del manifest["format"]
        else:
            manifest["format"] = value
    return edit


CASES = {
    "lm unlisted": (_unlist("lm.safetensors"), "does not list lm.safetensors"),
    "tokenizer unlisted": (_unlist("tokenizer.json"), "does not list tokenizer.json"),
    "decoder without sha256": (_no_digest("decoder.safetensors"),
                               "lists decoder.safetensors without its size in bytes and SHA-256"),
    "decoder_io listed as text": (_listed_as_text("decoder_io.safetensors"), "does not list decoder_io.safetensors"),
    "another format": (_format("kamishibai-mini/2"), "its \"format\" entry reads \"kamishibai-mini/2\""),
    "no format": (_format(None), "it has no \"format\" entry"),
}


def _edit(folder: Path, edit: Callable[[dict[str, Any]], None]) -> None:
    path = folder / "mini" / "config.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    edit(manifest)
    path.write_text(json.dumps(manifest), encoding="utf-8")


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_manifest_the_engine_refuses_is_reported_by_the_check(checkpoints: Path, case: str) -> None:
    edit, words = CASES[case]
    config = EngineConfig(checkpoints=checkpoints)
    assert check(config) == []  # the intact copy can run
    _edit(checkpoints, edit)
    from studio.engines.mini.engine import MiniEngine

    with pytest.raises(EngineLoadError):  # the engine refuses it ...
        MiniEngine(config).load()
    unmet = check(config)  # ... and the check says so, with the reason
    assert unmet, "the check called a folder available that the engine can't load"
    assert any(words in item.message for item in unmet), [item.message for item in unmet]
    assert all(item.hint for item in unmet)


def test_the_intact_folder_and_the_shipped_one_still_pass(checkpoints: Path) -> None:
    assert check(EngineConfig(checkpoints=checkpoints)) == []
    shipped = Path(__file__).resolve().parents[3] / "checkpoints"
    if (shipped / "mini" / "config.json").is_file():
        assert [r for r in check(EngineConfig(checkpoints=shipped)) if r.kind.value == "file"] == []
