"""``kamishibai checkpoints convert`` on tiny files in the release's formats."""

from __future__ import annotations

import collections
import json
import pickle
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file

from studio.cli import main
from studio.engines.animegamer.convert import ConversionError, convert_release
from studio.engines.animegamer.released import Target, expected_keys
from studio.engines.animegamer.safe_load import UnsafeCheckpointError, load_weights
from studio.engines.animegamer.sizes import TINY
from studio.engines.catalog import animegamer_layout as layout

from .released_files import deepspeed_file, dit_state, mllm_state, write_release


def _keys_in(path: Path) -> set[str]:
    return set(load_file(str(path)))


@pytest.mark.parametrize(("trained_only", "plain_base"), [(False, False), (False, True), (True, False)],
                         ids=["every-parameter", "older-peft-names", "trained-only+mistral"])
def test_convert_accounts_for_every_key_and_writes_our_layout(tmp_path: Path, trained_only: bool,
                                                              plain_base: bool) -> None:
    source = write_release(tmp_path / "release", TINY, trained_only=trained_only, plain_base=plain_base)
    report = convert_release(source, tmp_path / "checkpoints", size=TINY)
    folder = tmp_path / "checkpoints" / "animegamer"
    assert report.count("unplaced") == 0
    read = collections.Counter(o.source for o in report.outcomes)
    mllm_file = source / layout.RELEASE_MLLM.format(name="Qiqi")
    assert read[str(mllm_file)] == len(torch.load(mllm_file, weights_only=True))
    assert _keys_in(folder / layout.BASE_FILE) == set(expected_keys(Target.BASE, TINY))
    assert _keys_in(folder / "qiqi" / layout.MLLM_FILE) == set(expected_keys(Target.MLLM, TINY))
    assert _keys_in(folder / "qiqi" / layout.DECODER_FILE) == set(expected_keys(Target.DECODER, TINY))
    assert _keys_in(folder / layout.VAE_FILE) == set(expected_keys(Target.VAE, TINY))
    record = json.loads((folder / "qiqi" / layout.MODEL_FILE).read_text())
    assert record["size"]["name"] == "tiny"
    decoder = folder / "qiqi" / layout.DECODER_FILE
    assert record["files"][f"qiqi/{layout.DECODER_FILE}"] == decoder.stat().st_size
    assert layout.complete_characters(folder) == ["qiqi"]


def test_values_land_where_the_release_keeps_them(tmp_path: Path) -> None:
    source = write_release(tmp_path / "release", TINY)
    convert_release(source, tmp_path / "checkpoints", size=TINY)
    folder = tmp_path / "checkpoints" / "animegamer"
    released = torch.load(source / "AnimeGamer/VDM_Decoder-Qiqi/1000/mp_rank_00_model_states.pt",
                          weights_only=False)["module"]
    ours = load_file(str(folder / "qiqi" / layout.DECODER_FILE))
    p = "model.diffusion_model."
    qkv = released[f"{p}transformer.layers.1.attention.query_key_value.original.weight"]
    h = TINY.decoder.hidden
    assert torch.equal(ours["transformer_blocks.1.attn1.to_k.weight"], qkv[h:2 * h])
    assert torch.equal(ours["transformer_blocks.1.attn1.to_v.lora_B.weight"],
                       released[f"{p}transformer.layers.1.attention.query_key_value.matrix_B.2"])
    adaln = released[f"{p}mixins.adaln_layer.adaLN_modulations.0.1.weight"].chunk(12)
    assert torch.equal(ours["transformer_blocks.0.norm2.linear.weight"][:h], adaln[3])  # shift of the MLP
    assert torch.equal(ours["transformer_blocks.0.norm1.linear.weight"][3 * h:4 * h], adaln[6])  # text shift
    assert torch.equal(ours["ofs_embedding.linear_1.weight"], released[f"{p}flow_embed.0.weight"])
    mllm = torch.load(source / layout.RELEASE_MLLM.format(name="Qiqi"), weights_only=True)
    ours = load_file(str(folder / "qiqi" / layout.MLLM_FILE))
    assert torch.equal(ours["model.layers.1.post_attention_layernorm.weight"],
                       mllm["llm.base_model.model.model.layers.1.post_attention_layernorm.modules_to_save.default.weight"])
    assert torch.equal(ours["output_resampler.2.bias"], mllm["output_resampler.proj.2.bias"])
    vae = load_file(str(folder / layout.VAE_FILE))
    sat_vae = torch.load(source / layout.RELEASE_VAE, weights_only=True)["state_dict"]
    assert torch.equal(vae["decoder.up_blocks.0.resnets.0.norm1.conv_y.conv.weight"],
                       sat_vae["decoder.up.3.block.0.norm1.conv_y.conv.weight"])  # SAT keeps up levels reversed


def test_a_misnamed_key_is_refused_by_name_and_nothing_is_written(tmp_path: Path) -> None:
    source = write_release(tmp_path / "release", TINY)
    path = source / layout.RELEASE_MLLM.format(name="Qiqi")
    state = torch.load(path, weights_only=True)
    good = "llm.base_model.model.model.layers.1.self_attn.v_proj.lora_A.default.weight"
    state[good.replace("v_proj", "v_prj")] = state.pop(good)
    torch.save(state, path)
    with pytest.raises(ConversionError) as raised:
        convert_release(source, tmp_path / "checkpoints", size=TINY)
    message = str(raised.value)
    assert "v_prj" in message and "v_proj.lora_A.weight" in message  # the stray key and the weight it lacks
    assert not (tmp_path / "checkpoints" / "animegamer" / "qiqi").exists()


def test_a_wrong_shape_is_refused(tmp_path: Path) -> None:
    source = write_release(tmp_path / "release", TINY)
    folder = source / "AnimeGamer/VDM_Decoder-Qiqi/1000"
    module = dit_state(TINY)
    module["model.diffusion_model.time_embed.0.weight"] = torch.zeros(3, 3)
    torch.save(deepspeed_file(module), folder / layout.DEEPSPEED_FILE)
    with pytest.raises(ConversionError, match=r"time_embed\.0\.weight' has shape \(3, 3\)"):
        convert_release(source, tmp_path / "checkpoints", size=TINY)


class Payload:
    """Unpickling this would touch a file: proof that code ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (open, (str(self.marker), "w"))


def test_a_file_with_a_pickled_object_is_refused_without_running_it(tmp_path: Path) -> None:
    source = write_release(tmp_path / "release", TINY)
    marker = tmp_path / "ran"
    path = source / layout.RELEASE_MLLM.format(name="Qiqi")
    torch.save({**mllm_state(TINY), "extra": Payload(marker)}, path)
    with pytest.raises(UnsafeCheckpointError, match="not a tensor") as raised:
        convert_release(source, tmp_path / "checkpoints", size=TINY)
    assert "open" in str(raised.value)  # the global it refused
    assert not marker.exists()


def test_the_decoder_file_may_hold_numpy_rng_state_and_nothing_else(tmp_path: Path) -> None:
    path = tmp_path / "mp_rank_00_model_states.pt"
    torch.save(deepspeed_file({"w": torch.zeros(2)}), path)
    with pytest.raises(UnsafeCheckpointError):
        load_weights(path)  # a plain weights-only load refuses the numpy state
    loaded = load_weights(path, allow_numpy_arrays=True)
    assert loaded["np_rng_state"][1].dtype.name == "uint32"
    marker = tmp_path / "ran"
    torch.save({**deepspeed_file({"w": torch.zeros(2)}), "args": Payload(marker)}, path)
    with pytest.raises(UnsafeCheckpointError):
        load_weights(path, allow_numpy_arrays=True)
    assert not marker.exists()
    import numpy as np

    torch.save({"module": {}, "objects": np.array([Path("x")], dtype=object)}, path)
    with pytest.raises((UnsafeCheckpointError, pickle.UnpicklingError)):
        load_weights(path, allow_numpy_arrays=True)


def test_the_convert_and_doctor_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_release(tmp_path / "release", TINY, characters=("qiqi", "sosuke"))
    checkpoints = tmp_path / "checkpoints"
    assert main(["checkpoints", "doctor", "--checkpoints", str(checkpoints), "--source", str(source)]) == 1
    out = capsys.readouterr().out
    assert f"MISSING {checkpoints / 'animegamer' / 'qiqi' / 'decoder.safetensors'} (expected about 3.46 GB)" in out
    assert f"found   {source / 'AnimeGamer/VDM_Decoder-Sosuke/1000/mp_rank_00_model_states.pt'}" in out
    assert main(["checkpoints", "convert", str(source), "--checkpoints", str(checkpoints), "--size", "tiny"]) == 0
    assert "Converted qiqi, sosuke" in capsys.readouterr().out
    assert main(["checkpoints", "doctor", "--checkpoints", str(checkpoints)]) == 0
    out = capsys.readouterr().out
    assert "Ready: Qiqi, Sosuke." in out and "MISSING" not in out
    decoder = checkpoints / "animegamer" / "sosuke" / "decoder.safetensors"
    decoder.write_bytes(decoder.read_bytes()[:100])
    main(["checkpoints", "doctor", "--checkpoints", str(checkpoints)])
    assert "incomplete copy" in capsys.readouterr().out
    assert main(["checkpoints", "convert", str(tmp_path / "nowhere"), "--checkpoints", str(checkpoints)]) == 2
