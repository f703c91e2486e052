"""Converting a (tiny) CustomX release: every key placed or dropped by name, the Kohya LoRA
merged as W += up @ down, misnamed keys refused with their names, the result loadable."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")
pytest.importorskip("transformers")

from safetensors.torch import load_file, save_file  # noqa: E402

from studio.cli import main  # noqa: E402
from studio.engines.customx.components import Tokenizers, build  # noqa: E402
from studio.engines.customx.convert import (  # noqa: E402
    LORA_PREFIX,
    ConversionError,
    ReleasedFiles,
    convert_release,
    convert_transformer,
    merge_kohya_lora,
    released_names,
    to_released,
)
from studio.engines.customx.sizes import TINY  # noqa: E402
from studio.engines.customx.tiny import clip_tokenizer, llava_tokenizer  # noqa: E402

SIZE = TINY


def _release(folder: Path) -> tuple[ReleasedFiles, dict[str, torch.Tensor], dict[str, torch.Tensor]]:
    """A release of tiny random weights in the released names and formats."""
    torch.manual_seed(0)
    tokenizers = Tokenizers(llava_tokenizer(), clip_tokenizer())
    transformer = {k: torch.randn_like(v) for k, v in build("transformer", SIZE, tokenizers).state_dict().items()}
    released = to_released(transformer, SIZE)
    (folder / "hunyuancustom_editing_720P").mkdir(parents=True)
    pt = folder / "hunyuancustom_editing_720P" / "mp_rank_00_model_states.pt"
    torch.save({"module": released}, pt)
    lora = {}
    for module in ("double_blocks.0.img_attn_qkv", "single_blocks.1.linear1"):
        out_dim, in_dim = released[f"{module}.weight"].shape
        key = LORA_PREFIX + module.replace(".", "_")
        lora[f"{key}.lora_down.weight"] = torch.randn(4, in_dim)
        lora[f"{key}.lora_up.weight"] = torch.randn(out_dim, 4)
        lora[f"{key}.alpha"] = torch.tensor(2.0)
    save_file(lora, str(folder / "pytorch_lora_kohaya_weights.safetensors"))
    save_file(build("vae", SIZE).state_dict(), str(folder / "vae.safetensors"))
    llava_dir, clip_dir = folder / "llava-llama-3-8b-v1_1-transformers", folder / "clip-vit-large-patch14"
    llava_dir.mkdir()
    clip_dir.mkdir()
    ours = build("text_encoder", SIZE, tokenizers).state_dict()
    hf = {}
    for name, tensor in ours.items():
        head, _, rest = name.partition(".")
        prefix = {"llm": "language_model.model.", "vision": "vision_tower.vision_model.",
                  "projector": "multi_modal_projector."}
        hf[prefix[head] + rest] = tensor
    hf["language_model.lm_head.weight"] = torch.zeros(len(tokenizers.llava), SIZE.text.hidden)
    save_file(hf, str(llava_dir / "model.safetensors"))
    tokenizers.llava.save_pretrained(str(llava_dir))
    text_model = build("text_encoder_2", SIZE, tokenizers).state_dict()
    clip = {"text_model." + name.removeprefix("model."): t for name, t in text_model.items()}
    clip["vision_model.post_layernorm.weight"] = torch.ones(4)
    clip["logit_scale"] = torch.tensor(1.0)
    save_file(clip, str(clip_dir / "model.safetensors"))
    tokenizers.clip.save_pretrained(str(clip_dir))
    files = ReleasedFiles(pt, folder / "pytorch_lora_kohaya_weights.safetensors", folder / "vae.safetensors",
                          llava_dir, clip_dir)
    return files, transformer, lora


def test_the_release_converts_and_the_lora_is_merged(tmp_path: Path) -> None:
    files, transformer, lora = _release(tmp_path / "release")
    report = convert_release(files, tmp_path / "checkpoints", size=SIZE, dtype=torch.float32)
    assert report.lora_modules == 2
    assert sorted(report.dropped) == ["language_model.lm_head.weight", "logit_scale",
                                      "vision_model.post_layernorm.weight"]
    ours = load_file(str(tmp_path / "checkpoints" / "customx" / "transformer.safetensors"))
    assert set(ours) == set(transformer)
    hidden = SIZE.transformer.hidden
    key = LORA_PREFIX + "double_blocks_0_img_attn_qkv"
    delta = lora[f"{key}.lora_up.weight"] @ lora[f"{key}.lora_down.weight"]  # alpha ignored
    torch.testing.assert_close(ours["transformer_blocks.0.attn.to_k.weight"],
                               transformer["transformer_blocks.0.attn.to_k.weight"] + delta[hidden:2 * hidden])
    key = LORA_PREFIX + "single_blocks_1_linear1"
    delta = lora[f"{key}.lora_up.weight"] @ lora[f"{key}.lora_down.weight"]
    torch.testing.assert_close(ours["single_transformer_blocks.1.proj_mlp.weight"],
                               transformer["single_transformer_blocks.1.proj_mlp.weight"] + delta[3 * hidden:])
    untouched = "transformer_blocks.0.attn.add_q_proj.weight"
    torch.testing.assert_close(ours[untouched], transformer[untouched])
    assert torch.equal(ours["norm_out.linear.weight"], transformer["norm_out.linear.weight"])


def test_the_converted_folder_loads_and_generates(tmp_path: Path) -> None:
    from studio.core.instruction import parse_instruction
    from studio.engines.base import EngineConfig, GenerationContext
    from studio.engines.catalog.customx import TEST_INFO
    from studio.engines.customx.engine import CustomXEngine

    files, _transformer, _lora = _release(tmp_path / "release")
    convert_release(files, tmp_path / "checkpoints", size=SIZE, dtype=torch.float32)
    engine = CustomXEngine(EngineConfig(checkpoints=tmp_path / "checkpoints"), info=TEST_INFO)
    engine.load()
    settings = TEST_INFO.settings.from_values({"height": 32, "width": 48, "frames": 5, "steps": 1,
                                               "continuation_frames": 0, "vae_tiling": False})
    prediction = engine.predict(GenerationContext(), parse_instruction("Character: Qiqi; Motion: run."), settings, 0)
    assert engine.decode(prediction, settings, 0).frames.shape == (5, 32, 48, 3)
    assert main(["checkpoints", "doctor", "--engine", "customx", "--checkpoints", str(tmp_path / "checkpoints")]) == 0


def test_a_misnamed_key_is_refused_with_its_name() -> None:
    released = {name: torch.zeros(6) for name in released_names(SIZE)}
    released["double_blocks.0.img_attn_qkv_typo.weight"] = released.pop("double_blocks.0.img_attn_qkv.weight")
    with pytest.raises(ConversionError, match=r"'double_blocks\.0\.img_attn_qkv_typo\.weight'"):
        convert_transformer(released, SIZE.transformer.hidden)


def test_a_missing_key_is_refused_with_its_name(tmp_path: Path) -> None:
    from studio.engines.customx.components import WeightsError, check_keys

    model = build("transformer", SIZE)
    state = dict(model.state_dict())
    del state["bg_proj.weight"]
    with pytest.raises(WeightsError, match="'bg_proj.weight'"):
        check_keys(model, state, "transformer.safetensors")


def test_a_lora_key_naming_no_layer_is_refused() -> None:
    weights = {"double_blocks.0.img_attn_qkv.weight": torch.zeros(6, 2)}
    lora = {LORA_PREFIX + "double_blocks_0_img_attn_qvk.lora_down.weight": torch.zeros(1, 2),
            LORA_PREFIX + "double_blocks_0_img_attn_qvk.lora_up.weight": torch.zeros(6, 1)}
    with pytest.raises(ConversionError, match="img_attn_qvk"):
        merge_kohya_lora(weights, lora)


def test_the_doctor_lists_missing_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["checkpoints", "doctor", "--engine", "customx", "--checkpoints", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    for name in ("transformer.safetensors", "vae.safetensors", "text_encoder.safetensors", "tokenizer/tokenizer.json"):
        assert str(tmp_path / "customx" / name) in out
