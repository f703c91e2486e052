"""The ``config.json`` of the ``--llava`` and ``--clip`` folders checked against the text
encoders' sizes, before any weight is read (no torch: the doctor checks it too).

A folder of another model (LLaVA-1.5 on Llama-2, CLIP-B, a 70B LLaVA) was refused only once
its weights' names were compared with ours, in words about our converted file ("text_encoder
.safetensors (converted): no tensor for 'llm.layers.10...' (613 missing)"), which names
neither the folder given nor what is wrong with it. Its config.json says which model it is.
"""

from __future__ import annotations

from pathlib import Path

from studio.engines.customx.sizes import TextSize
from studio.engines.hf_config import CONFIG_FILE, ConfigUnreadableError, mismatches, read_config, with_rope_theta

MODELS = {"--llava": "LLaVA-Llama-3-8B (llava-llama-3-8b-v1_1-transformers)",
          "--clip": "CLIP-L (clip-vit-large-patch14)"}
"""What each option's folder must hold, as the messages name it."""


def _expected(option: str, size: TextSize) -> dict[str, dict[str, float]]:
    """config.json's sections and the values their fields must have (Hugging Face's names)."""
    if option == "--llava":
        return {"text_config": {"hidden_size": size.hidden, "intermediate_size": size.intermediate,
                                "num_hidden_layers": size.layers, "num_attention_heads": size.heads,
                                "num_key_value_heads": size.kv_heads, "rope_theta": size.rope_theta},
                "vision_config": {"hidden_size": size.vision_hidden, "intermediate_size": size.vision_intermediate,
                                  "num_hidden_layers": size.vision_layers, "num_attention_heads": size.vision_heads,
                                  "image_size": size.image_size, "patch_size": size.patch}}
    return {"text_config": {"hidden_size": size.clip_hidden, "intermediate_size": size.clip_intermediate,
                            "num_hidden_layers": size.clip_layers, "num_attention_heads": size.clip_heads,
                            "max_position_embeddings": size.clip_positions}}


def _section(config: dict[str, object], name: str) -> dict[str, object]:
    """A section of the config (older CLIP configs call it ``text_config_dict``)."""
    found = config.get(name)
    if not isinstance(found, dict):
        found = config.get(f"{name}_dict")
    return with_rope_theta(found) if isinstance(found, dict) else {}


def config_problem(option: str, folder: Path, size: TextSize, sized: str = "released") -> str | None:
    """What ``folder``'s config.json (given with ``option``) says that does not fit the model
    at ``size`` (named ``sized``), each differing field with both values; None when it fits,
    when a field is not given, or when there is no config.json (the weights are still checked
    name by name and shape by shape)."""
    try:
        config = read_config(folder)
    except ConfigUnreadableError as error:
        return f"{option} {folder}: its {CONFIG_FILE} {error.reason}"
    if config is None:
        return None
    model = MODELS[option] if sized == "released" else f"the {sized}-size model"
    wrong = [problem for name, fields in _expected(option, size).items()
             for problem in mismatches(_section(config, name), fields, model, f"{name}.")]
    if not wrong:
        return None
    return f"{option} {folder} holds another model: its {CONFIG_FILE} says {'; '.join(wrong)}"


def config_hint(option: str) -> str:
    return f"Nothing was written. Give {option} the folder of {MODELS[option]}, every file of its download."
