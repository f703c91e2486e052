"""Parity with HunyuanCustom's reference code (tiny random weights, CPU), when an offline copy is given.

Set ``KAMISHIBAI_HUNYUANCUSTOM`` to a folder holding HunyuanCustom's ``hymm_sp`` package (not part
of this project; einops importable). The reference imports flash_attn; a CPU stand-in for its
variable-length attention (torch SDPA per segment) is written to a temporary folder. Checks: our
converted weights load into the reference strictly, the rotary tables match (one view: t = -1,
width + W), the transformer forward and one full sampling step (30-step schedule, shift 13,
guidance 7.5) match to float32 rounding.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import types
from dataclasses import replace
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")
REFERENCE = os.environ.get("KAMISHIBAI_HUNYUANCUSTOM", "")
pytestmark = pytest.mark.skipif(not REFERENCE or not Path(REFERENCE, "hymm_sp").is_dir(),
                                reason="no offline copy of HunyuanCustom (KAMISHIBAI_HUNYUANCUSTOM)")

STAND_IN = """
import torch
import torch.nn.functional as F


def flash_attn_varlen_func(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, *args, **kwargs):
    out = torch.zeros_like(q)
    bounds = cu_seqlens_q.tolist()
    for start, end in zip(bounds[:-1], bounds[1:]):
        if end > start:
            qs, ks, vs = (t[start:end].transpose(0, 1)[None] for t in (q, k, v))
            out[start:end] = F.scaled_dot_product_attention(qs, ks, vs)[0].transpose(0, 1)
    return out
"""


def _reference(tmp: Path):  # type: ignore[no-untyped-def]
    stub = tmp / "stubs" / "flash_attn"
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text("")
    (stub / "flash_attn_interface.py").write_text(STAND_IN)
    (stub / "bert_padding.py").write_text("def index_first_axis(*args, **kwargs):\n    raise NotImplementedError\n")
    os.environ["DISABLE_SP"] = "1"
    sys.path[:0] = [str(tmp / "stubs"), REFERENCE]
    pkg = types.ModuleType("hymm_sp")
    pkg.__path__ = [str(Path(REFERENCE, "hymm_sp"))]  # type: ignore[attr-defined]
    sys.modules["hymm_sp"] = pkg
    mods = types.ModuleType("hymm_sp.modules")
    mods.__path__ = [str(Path(REFERENCE, "hymm_sp", "modules"))]  # type: ignore[attr-defined]
    sys.modules["hymm_sp.modules"] = mods
    import hymm_sp.modules.models as ref_models
    from hymm_sp.helpers import get_nd_rotary_pos_embed_new

    spec = importlib.util.spec_from_file_location(
        "ref_sched", Path(REFERENCE, "hymm_sp/diffusion/schedulers/scheduling_flow_match_discrete.py"))
    assert spec and spec.loader
    ref_sched = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref_sched)

    def cu_seqlens_cpu(text_mask, img_len):  # type: ignore[no-untyped-def]
        batch = text_mask.shape[0]
        max_len = text_mask.shape[1] + img_len
        cu = torch.zeros([2 * batch + 1], dtype=torch.int32)
        for i in range(batch):
            cu[2 * i + 1] = i * max_len + text_mask[i].sum() + img_len
            cu[2 * i + 2] = (i + 1) * max_len
        return cu

    ref_models.get_cu_seqlens = cu_seqlens_cpu
    return ref_models, get_nd_rotary_pos_embed_new, ref_sched


def test_transformer_and_one_step_match_the_reference(tmp_path: Path) -> None:
    ref_models, get_nd_rotary_pos_embed_new, ref_sched = _reference(tmp_path)
    from studio.engines.customx.convert import to_released
    from studio.engines.customx.sampler import SamplerOptions, scheduler
    from studio.engines.customx.sizes import TINY
    from studio.engines.customx.transformer import CustomXTransformer



    torch.manual_seed(0)
    size = replace(TINY, transformer=replace(TINY.transformer, refiner_layers=2))  # the reference's refiner depth
    t = size.transformer
    ours = CustomXTransformer.of_size(t).eval()
    for p in ours.parameters():
        if not p.abs().sum():
            torch.nn.init.normal_(p, std=0.05)
    args = types.SimpleNamespace(text_projection="single_refiner", text_states_dim=t.text_dim, use_attention_mask=True,
                                 text_states_dim_2=t.pooled_dim)
    ref = ref_models.HYVideoDiffusionTransformer(
        args, patch_size=[1, 2, 2], in_channels=t.in_channels, out_channels=t.in_channels, hidden_size=t.hidden,
        mlp_width_ratio=4.0, mlp_act_type="gelu_tanh", num_heads=t.heads, depth_double_blocks=t.double_layers,
        depth_single_blocks=t.single_layers, rope_dim_list=list(t.rope_axes), qkv_bias=True, qk_norm=True,
        qk_norm_type="rms", guidance_embed=False, video_condition=True).eval()
    ref.load_state_dict(to_released(ours.state_dict(), size), strict=True)

    B, C, T, H, W = 2, t.in_channels, 3, 8, 12  # noqa: N806 (the tensor dimensions)
    x = torch.randn(B, C, T, H, W)
    view = torch.randn(1, C, 1, H, W).expand(B, -1, -1, -1, -1)
    scene = torch.randn(1, 2 * C, T, H, W).expand(B, -1, -1, -1, -1)
    text = torch.randn(B, 11, t.text_dim)
    mask = torch.ones(B, 11, dtype=torch.int64)
    mask[0, 4:] = 0
    mask[1, 9:] = 0
    pooled = torch.randn(B, t.pooled_dim)
    cos, sin = get_nd_rotary_pos_embed_new(list(t.rope_axes), [T, H // 2, W // 2], theta=t.rope_theta, use_real=True,
                                           theta_rescale_factor=1, concat_dict={"mode": "timecat-w", "bias": -1})

    def rel(a, b):  # type: ignore[no-untyped-def]
        return float((a - b).norm() / b.norm())

    def ref_forward(latents, timestep):  # type: ignore[no-untyped-def]
        return ref(latents, timestep, ref_latents=view, bg_latents=scene, text_states=text, text_mask=mask,
                   text_states_2=pooled, freqs_cos=cos, freqs_sin=sin, return_dict=True)["x"]

    with torch.no_grad():
        ours_pos = ours.positions(T, H // 2, W // 2, 1, torch.device("cpu"))
        assert torch.equal(ours_pos[0], cos) and torch.equal(ours_pos[1], sin)
        timestep = torch.tensor([937.0, 937.0])
        a = ours(x, timestep, text, mask, pooled, view, scene)
        b = ref_forward(x, timestep)
        print(f"transformer forward, relative error: {rel(a, b):.3e}")
        assert rel(a, b) < 1e-5
        # one full sampling step: 30-step schedule, shift 13, guidance 7.5 (row 0 unconditional)
        options = SamplerOptions(steps=30, guidance=7.5, shift=13.0)
        ours_s = scheduler(options, torch.device("cpu"))
        ref_s = ref_sched.FlowMatchDiscreteScheduler(shift=13.0, reverse=True, solver="euler")
        ref_s.set_timesteps(30, device="cpu")
        torch.testing.assert_close(ours_s.timesteps.float(), ref_s.timesteps.float())
        latent = x[:1]
        both = torch.cat([latent, latent])
        va = ours(both, ours_s.timesteps[0].expand(2), text, mask, pooled, view, scene)
        va = va[:1] + 7.5 * (va[1:] - va[:1])
        step_ours = ours_s.step(va, ours_s.timesteps[0], latent, return_dict=False)[0]
        vb = ref_forward(both, ref_s.timesteps[0].expand(2))
        vb = vb[:1] + 7.5 * (vb[1:] - vb[:1])
        step_ref = ref_s.step(vb, ref_s.timesteps[0], latent, return_dict=False)[0]
        print(f"one sampling step (guidance 7.5), relative error of the latents: {rel(step_ours, step_ref):.3e}; "
              f"of the update: {rel(step_ours - latent, step_ref - latent):.3e}")
        assert rel(step_ours, step_ref) < 1e-5 and rel(step_ours - latent, step_ref - latent) < 1e-4
