"""A checkpoint folder edited by hand or mixed from other models: config.json values of the
wrong type or absurd size, a manifest of the wrong shape, a broken tokenizer, a foreign
weight file. Each is refused with an EngineLoadError that names the file and says what to
do, before any large allocation, and the catalogue's check (``kamishibai doctor``) reports
the config's problems without crashing."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.engines.base import EngineConfig, EngineLoadError  # noqa: E402
from studio.engines.catalog.mini import check  # noqa: E402
from studio.engines.mini import weights  # noqa: E402
from studio.engines.mini.engine import MiniEngine  # noqa: E402


def _edit(change: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        path = folder / weights.CONFIG
        manifest = json.loads(path.read_text(encoding="utf-8"))
        change(manifest)
        path.write_text(json.dumps(manifest), encoding="utf-8")
    return edit


def _relist(folder: Path) -> None:
    """Update the manifest's sizes and digests, as someone who swapped files in would."""
    _edit(lambda manifest: manifest.__setitem__("files", weights.list_files(folder)))(folder)


def _set(section: str, name: str, value: Any) -> Callable[[Path], None]:
    return _edit(lambda manifest: manifest["model"][section].__setitem__(name, value))


def _foreign_lm(folder: Path) -> None:
    shutil.copyfile(folder / weights.DECODER_IO, folder / weights.LM)
    _relist(folder)


def _broken_tokenizer(folder: Path) -> None:
    (folder / weights.TOKENIZER).write_text("{broken", encoding="utf-8")
    _relist(folder)


def _foreign_tokenizer(folder: Path) -> None:
    (folder / weights.TOKENIZER).write_text(json.dumps(
        {"version": "1.0", "model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}), encoding="utf-8")
    _relist(folder)


CASES: dict[str, tuple[Callable[[Path], None], str, str]] = {
    # name: (damage, the file the message names, what it says)
    "hidden is text": (_set("lm", "hidden", "abc"), weights.CONFIG, "model.lm.hidden should be a whole number"),
    "hidden is negative": (_set("lm", "hidden", -4), weights.CONFIG, "model.lm.hidden should be a whole number"),
    "heads of zero": (_set("decoder", "heads", 0), weights.CONFIG, "can't be built"),
    "heads that do not divide": (_set("lm", "heads", 3), weights.CONFIG, "can't be built"),
    "a grid of text": (_set("representation", "image_grid", "ab"), weights.CONFIG, "image_grid should be a list"),
    "video is null": (_edit(lambda m: m["model"].__setitem__("video", None)), weights.CONFIG,
                      "model.video should be a group of fields"),
    "latent is text": (_edit(lambda m: m["model"].__setitem__("latent", "x")), weights.CONFIG,
                       "model.latent should be a group of fields"),
    "critic is text": (_edit(lambda m: m["model"].__setitem__("critic", "abc")), weights.CONFIG,
                       "model.critic should be a list"),
    "vocab size is text": (_edit(lambda m: m["model"].__setitem__("vocab_size", "300")), weights.CONFIG,
                           "model.vocab_size should be a whole number"),
    "a million layers": (_set("lm", "layers", 10**6), weights.CONFIG, "at most 256"),
    "a huge video": (_edit(lambda m: m["model"]["video"].__setitem__("frames", 10**6 + 1)), weights.CONFIG,
                     "model.video is 1000001 frames"),
    "a huge hidden size": (_set("lm", "hidden", 10**9), weights.LM, "does not fit the model in its config.json"),
    "files is a list": (_edit(lambda m: m.__setitem__("files", [1])), weights.CONFIG, "'files' entry should map"),
    "a size of text": (_edit(lambda m: m["files"][weights.LM].__setitem__("bytes", "x")), weights.CONFIG,
                       "lm.safetensors"),
    "a size missing": (_edit(lambda m: m["files"][weights.LM].pop("bytes")), weights.CONFIG, "lm.safetensors"),
    "a broken tokenizer": (_broken_tokenizer, weights.TOKENIZER, "not a readable tokenizer file"),
    "a foreign tokenizer": (_foreign_tokenizer, weights.TOKENIZER, "not the mini model's tokenizer"),
    "a foreign weight file": (_foreign_lm, weights.LM, "does not fit the model in its config.json"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_hand_edited_checkpoint_is_refused_with_the_file_and_what_to_do(checkpoints: Path, case: str) -> None:
    damage, file, says = CASES[case]
    folder = checkpoints / "mini"
    damage(folder)
    engine = MiniEngine(EngineConfig(checkpoints=checkpoints, threads=1))
    started = time.monotonic()
    with pytest.raises(EngineLoadError) as raised:
        engine.load()
    assert time.monotonic() - started < 20, "refused only after building an absurd network"
    assert str(folder / file) in raised.value.message and says in raised.value.message, raised.value.message
    assert raised.value.hint, "no advice on what to do"
    assert not engine.loaded


CONFIG_CASES = ["hidden is text", "video is null", "a million layers", "files is a list", "a size of text",
                "heads of zero"]


@pytest.mark.parametrize("case", CONFIG_CASES)
def test_the_check_reports_a_hand_edited_config_without_failing(checkpoints: Path, case: str) -> None:
    damage, _file, _says = CASES[case]
    damage(checkpoints / "mini")
    unmet = check(EngineConfig(checkpoints=checkpoints))  # raised before for 'a size of text'
    if case == "heads of zero":
        return  # a value of the right type: only building the network finds it
    assert any(str(checkpoints / "mini" / weights.CONFIG) in r.message and r.hint for r in unmet), unmet
