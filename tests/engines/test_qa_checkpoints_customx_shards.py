"""CustomX's text encoder downloaded in shards (``model-0000N-of-0000M.safetensors`` and
``model.safetensors.index.json``, as Hugging Face ships LLaVA-Llama-3-8B): a missing shard,
a damaged or hostile index, or a tensor in two shards is refused with the file named and
what to do, and nothing outside the folder is read. QA: the folder's files were merged
whatever the index said, so a missing shard surfaced as "no tensor for ... (37 missing)" in
the converted file, and a tensor in two files silently took the last one read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")
pytest.importorskip("transformers")

from safetensors.torch import load_file, save_file  # noqa: E402
from torch import Tensor  # noqa: E402

from studio.cli import main  # noqa: E402
from studio.engines.customx.convert import ConversionError, ReleasedFiles, convert_release, read_tensors  # noqa: E402
from tests.engines.customx.test_convert import SIZE, _release  # noqa: E402

SHARDS = ("model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors")
INDEX = "model.safetensors.index.json"


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> ReleasedFiles:
    files, _, _ = _release(tmp_path_factory.mktemp("qa") / "release")
    return files


def _shard(folder: Path) -> tuple[dict[str, Tensor], dict[str, str]]:
    """Split ``folder/model.safetensors`` into two shards and an index; returns the tensors
    and the index's weight_map."""
    tensors = load_file(str(folder / "model.safetensors"))
    keys = sorted(tensors)
    halves = (keys[: len(keys) // 2], keys[len(keys) // 2:])
    for name, part in zip(SHARDS, halves, strict=True):
        save_file({k: tensors[k] for k in part}, str(folder / name))
    weight_map = {k: name for name, part in zip(SHARDS, halves, strict=True) for k in part}
    (folder / INDEX).write_text(json.dumps({"metadata": {}, "weight_map": weight_map}))
    (folder / "model.safetensors").unlink()
    return tensors, weight_map


@pytest.fixture
def sharded(tmp_path: Path) -> tuple[Path, dict[str, Tensor], dict[str, str]]:
    folder = tmp_path / "llava ü"
    folder.mkdir()
    torch.manual_seed(1)
    save_file({f"layer.{i}.weight": torch.randn(3, 2) for i in range(6)}, str(folder / "model.safetensors"))
    tensors, weight_map = _shard(folder)
    return folder, tensors, weight_map


def test_a_sharded_folder_reads_every_tensor_once(sharded: tuple[Path, dict[str, Tensor], dict[str, str]]
                                                  ) -> None:
    folder, tensors, _ = sharded
    read = read_tensors(folder)
    assert sorted(read) == sorted(tensors) and all(torch.equal(read[k], tensors[k]) for k in tensors)


def test_a_shard_the_index_names_but_is_missing_is_named(
        sharded: tuple[Path, dict[str, Tensor], dict[str, str]]) -> None:
    folder, _, _ = sharded
    (folder / SHARDS[1]).unlink()
    with pytest.raises(ConversionError, match=SHARDS[1]) as raised:
        read_tensors(folder)
    assert INDEX in raised.value.message and "again" in raised.value.hint


def test_a_missing_shard_without_an_index_is_named(
        sharded: tuple[Path, dict[str, Tensor], dict[str, str]]) -> None:
    folder, _, _ = sharded
    (folder / INDEX).unlink()
    assert len(read_tensors(folder)) == 6  # both shards there: no index needed
    (folder / SHARDS[0]).unlink()
    with pytest.raises(ConversionError, match=SHARDS[0]) as raised:
        read_tensors(folder)
    assert "1 of the 2 shards" in raised.value.message


@pytest.mark.parametrize("shard", ["../outside.safetensors", "/etc/outside.safetensors", "..", "sub/x.safetensors",
                                   ""])
def test_an_index_naming_a_shard_outside_its_folder_is_refused_unread(
        sharded: tuple[Path, dict[str, Tensor], dict[str, str]], shard: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder, _, weight_map = sharded
    save_file({"outside": torch.zeros(1)}, str(folder.parent / "outside.safetensors"))
    (folder / "sub").mkdir()
    save_file({"outside": torch.zeros(1)}, str(folder / "sub" / "x.safetensors"))
    (folder / INDEX).write_text(json.dumps({"weight_map": weight_map | {"outside": shard}}))
    import safetensors.torch

    read: list[str] = []
    real = safetensors.torch.load_file

    def load_file_seen(path: str, *args: object, **kwargs: object) -> dict[str, Tensor]:
        read.append(str(path))
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(safetensors.torch, "load_file", load_file_seen)
    with pytest.raises(ConversionError, match="outside its folder") as raised:
        read_tensors(folder)
    assert INDEX in raised.value.message and repr(shard) in raised.value.message
    assert read == []  # refused before any file was read


@pytest.mark.parametrize("text", ["not json", "[1, 2]", '{"weight_map": ["a"]}', '{"weight_map": {"a": 3}}',
                                  '{"weight_map": {}}'])
def test_an_unreadable_index_is_named(sharded: tuple[Path, dict[str, Tensor], dict[str, str]],
                                      text: str) -> None:
    folder, _, _ = sharded
    (folder / INDEX).write_text(text)
    with pytest.raises(ConversionError, match=INDEX) as raised:
        read_tensors(folder)
    assert raised.value.hint


def test_a_tensor_in_two_shards_is_refused_not_overwritten(
        sharded: tuple[Path, dict[str, Tensor], dict[str, str]]) -> None:
    folder, tensors, weight_map = sharded
    twice = next(k for k, v in weight_map.items() if v == SHARDS[0])
    second = load_file(str(folder / SHARDS[1]))
    save_file(second | {twice: torch.zeros_like(tensors[twice])}, str(folder / SHARDS[1]))
    with pytest.raises(ConversionError, match=repr(twice)) as raised:
        read_tensors(folder)
    assert SHARDS[0] in raised.value.message and SHARDS[1] in raised.value.message


def test_a_tensor_the_index_lists_but_its_shard_lacks_is_named(
        sharded: tuple[Path, dict[str, Tensor], dict[str, str]]) -> None:
    folder, _, weight_map = sharded
    (folder / INDEX).write_text(json.dumps({"weight_map": weight_map | {"layer.99.weight": SHARDS[1]}}))
    with pytest.raises(ConversionError, match="'layer.99.weight'") as raised:
        read_tensors(folder)
    assert SHARDS[1] in raised.value.message


def test_a_stray_file_beside_an_index_is_not_read(sharded: tuple[Path, dict[str, Tensor], dict[str, str]]
                                                  ) -> None:
    folder, tensors, _ = sharded
    save_file({"layer.0.weight": torch.full((3, 2), 7.0)}, str(folder / "old-consolidated.safetensors"))
    read = read_tensors(folder)
    assert torch.equal(read["layer.0.weight"], tensors["layer.0.weight"])


def test_convert_customx_names_the_missing_llava_shard(tmp_path: Path, release: ReleasedFiles,
                                                       capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import functools
    import shutil

    from studio.engines.customx import convert

    llava = tmp_path / "llava-llama-3-8b-v1_1-transformers"
    shutil.copytree(release.llava, llava)
    _shard(llava)
    files = ReleasedFiles(release.transformer, release.lora, release.vae, llava, release.clip)
    checkpoints = tmp_path / "checkpoints"
    convert_release(files, checkpoints, size=SIZE, dtype=torch.float32)  # sharded: converts
    (llava / SHARDS[1]).unlink()
    monkeypatch.setattr(convert, "convert_release", functools.partial(convert_release, size=SIZE,
                                                                       dtype=torch.float32))
    args = ["checkpoints", "convert-customx", "--transformer", str(files.transformer), "--vae", str(files.vae),
            "--llava", str(llava), "--clip", str(files.clip), "--checkpoints", str(checkpoints)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and SHARDS[1] in err and INDEX in err
    assert (checkpoints / "customx" / "model.json").is_file()  # checked before the folder changed: kept


def test_a_transformer_of_another_width_is_refused_not_an_internal_error(release: ReleasedFiles) -> None:
    from studio.engines.customx.convert import convert_transformer
    from studio.engines.customx.sizes import RELEASED

    released = read_tensors(release.transformer)  # tiny weights, converted as the released width
    with pytest.raises(ConversionError, match="doesn't split") as raised:
        convert_transformer(released, RELEASED.transformer.hidden, str(release.transformer))
    assert str(release.transformer) in raised.value.message


def test_doctor_source_names_a_text_encoder_shard_that_is_missing(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    downloads = tmp_path / "downloads"
    for relative in ("hunyuancustom_editing_720P/mp_rank_00_model_states.pt", "vae/pytorch_model.pt",
                     "llava-llama-3-8b-v1_1-transformers/tokenizer.json", "clip-vit-large-patch14/tokenizer.json"):
        (downloads / relative).parent.mkdir(parents=True, exist_ok=True)
        (downloads / relative).write_bytes(b"")
    llava = downloads / "llava-llama-3-8b-v1_1-transformers"
    (llava / INDEX).write_text(json.dumps({"weight_map": {"a": SHARDS[0], "b": SHARDS[1]}}))
    (llava / SHARDS[0]).write_bytes(b"")
    base = ["checkpoints", "doctor", "--engine", "customx", "--checkpoints", str(tmp_path / "ck"),
            "--source", str(downloads)]
    assert main(base) == 1
    out = capsys.readouterr().out
    assert "DAMAGED --llava" in out and SHARDS[1] in out and "Convert them with" not in out
    assert main([*base, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    llava_row = next(row for row in report["release"] if row["option"] == "--llava")
    assert SHARDS[1] in llava_row["problem"] and report["convert_command"] is None
    (llava / SHARDS[1]).write_bytes(b"")
    assert main([*base, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["convert_command"] is not None and all(row["problem"] is None for row in report["release"])
