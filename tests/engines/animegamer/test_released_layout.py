"""The released-key rules against our models, and ``kamishibai checkpoints plan`` at full size."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.engines.animegamer.plan import Plan, make_plan, parse_manifest
from studio.engines.animegamer.released import Part, Placement, Skip, Target, Unplaced, expected_keys, place
from studio.engines.animegamer.sizes import FULL, TINY, ModelSize

from .released_files import dit_state, manifest, mllm_state, t5_and_clip_state, vae_state


def _parameters(module) -> dict[str, tuple[int, ...]]:  # type: ignore[no-untyped-def]
    return {name: tuple(p.shape) for name, p in module.named_parameters()}


@pytest.mark.parametrize("size", [TINY, FULL], ids=["tiny", "full"])
def test_our_files_fill_exactly_the_models_parameters(size: ModelSize) -> None:
    """What the converter must write is exactly what the models (built empty) have."""
    from studio.engines.animegamer.mllm import AnimeGamerMLLM, parameter_name
    from studio.engines.animegamer.transformer import AnimeGamerTransformer, _parameter_name
    from studio.engines.animegamer.vae import empty_vae

    mllm = {parameter_name(k): v for t in (Target.BASE, Target.MLLM) for k, v in expected_keys(t, size).items()}
    assert mllm == _parameters(AnimeGamerMLLM.empty(size.mllm))
    decoder = {_parameter_name(k): v for k, v in expected_keys(Target.DECODER, size).items() if ".lora_" not in k}
    assert decoder == _parameters(AnimeGamerTransformer.empty(size.decoder))
    assert expected_keys(Target.VAE, size) == _parameters(empty_vae(size.vae))
    if size is FULL:
        counts = {t: sum(__import__("math").prod(s) for s in expected_keys(t, size).values()) for t in Target}
        assert 6.9e9 < counts[Target.BASE] < 7.0e9  # Mistral-7B's linears
        assert 1.6e9 < counts[Target.DECODER] < 1.8e9  # CogVideoX-2B with AnimeGamer's additions
        assert 2.1e8 < counts[Target.VAE] < 2.2e8


def _plan(part: Part, state: dict[str, object], size: ModelSize = FULL) -> Plan:
    return make_plan(part, parse_manifest(manifest(state)), size)  # type: ignore[arg-type]


@pytest.mark.parametrize("trained_only", [False, True], ids=["every-parameter", "trained-only"])
def test_plan_places_every_key_of_a_full_size_mllm_file(trained_only: bool) -> None:
    state = mllm_state(FULL, trained_only=trained_only, meta=True)
    plan = _plan(Part.MLLM, state)
    assert plan.ok, plan.missing[:3]
    assert plan.count("placed") + plan.count("skipped") == len(state)
    skipped = {row.key.name for row in plan.rows if row.status == "skipped"}
    assert all(".original_module." in name for name in skipped)
    assert bool(plan.notes) == trained_only  # the frozen linears then come from Mistral's own files


def test_plan_of_the_decoder_skips_t5_and_clip_and_places_the_rest() -> None:
    state = {**dit_state(FULL, meta=True), **t5_and_clip_state(FULL, meta=True),
             **{f"first_stage_model.{k}": v for k, v in vae_state(FULL, meta=True).items()}}
    plan = _plan(Part.DECODER, state)
    assert plan.ok
    reasons = {row.key.name.split(".")[0]: row.detail for row in plan.rows if row.status == "skipped"}
    assert "T5" in reasons["conditioner"] and "OpenCLIP" in reasons["clip_img_encoder"]
    adaln = next(r for r in plan.rows if "adaLN_modulations.0.1.weight" in r.key.name)
    assert "norm1.linear" in adaln.detail and "norm2.linear" in adaln.detail


def test_plan_reports_a_misnamed_key_a_wrong_shape_and_missing_weights() -> None:
    state = dit_state(FULL, meta=True)
    good = "model.diffusion_model.transformer.layers.3.attention.dense.matrix_A.0"
    misnamed = good.replace("dense", "dens")
    state[misnamed] = state.pop(good)
    reshaped = "model.diffusion_model.flow_embed.0.weight"
    state[reshaped] = state[reshaped].new_empty((512, 4096))
    plan = _plan(Part.DECODER, state)
    assert not plan.ok
    assert [r.key.name for r in plan.rows if r.status == "unplaced"] == [misnamed]
    assert [r.key.name for r in plan.rows if r.status == "shape"] == [reshaped]
    assert plan.missing == ["decoder: transformer_blocks.3.attn1.to_out.0.lora_A.weight"]


def test_the_tiny_fixtures_are_not_the_released_size() -> None:
    plan = _plan(Part.VAE, vae_state(TINY))
    assert not plan.ok and plan.count("shape") > 0
    assert _plan(Part.VAE, vae_state(TINY), TINY).ok


@pytest.mark.parametrize(("key", "expected"), [
    ("llm.base_model.model.model.layers.0.self_attn.q_proj.weight", Target.BASE),  # older peft: no base_layer
    ("llm.base_model.model.model.layers.31.mlp.down_proj.lora_B.default.weight", Target.MLLM),
    ("llm.base_model.model.model.layers.0.self_attn.rotary_emb.inv_freq", None),
    ("llm.base_model.model.model.layers.32.mlp.down_proj.lora_B.default.weight", "unplaced"),
    ("llm.base_model.model.model.layers.0.self_attn.gate_proj.lora_A.default.weight", "unplaced"),
])
def test_mllm_rules(key: str, expected: object) -> None:
    rule = place(Part.MLLM, key, FULL)
    if expected is None:
        assert isinstance(rule, Skip)
    elif expected == "unplaced":
        assert isinstance(rule, Unplaced)
    else:
        assert isinstance(rule, Placement) and rule.target is expected


def test_the_plan_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "mllm.json"
    good.write_text(json.dumps(manifest(mllm_state(FULL, meta=True))))
    assert main(["checkpoints", "plan", "--manifest", str(good), "--part", "mllm"]) == 0
    out = capsys.readouterr().out
    assert "0 unplaced" in out and "can go ahead" in out
    keys = manifest(vae_state(FULL, meta=True))
    keys["keys"][5][0] = "decoder.up.9.block.0.conv1.conv.weight"
    bad = tmp_path / "vae.json"
    bad.write_text(json.dumps(keys))
    assert main(["checkpoints", "plan", "--manifest", str(bad), "--part", "vae", "--problems-only"]) == 1
    out = capsys.readouterr().out
    assert "UNPLACED decoder.up.9.block.0.conv1.conv.weight" in out and "would fail" in out
    broken = tmp_path / "broken.json"
    broken.write_text('{"keys": [["a", "not a shape", null]]}')
    assert main(["checkpoints", "plan", "--manifest", str(broken), "--part", "vae"]) == 2
