"""The release's ``Mistral-7B-Instruct-v0.1/config.json`` checked against the model size
being converted, and where AnimeGamer's tokenizer lies near a release (without torch: the
doctor reports both).

AnimeGamer was trained on Mistral-7B-Instruct-v0.1. Another download in that folder (v0.2,
whose shapes are the same but whose rotary base is 1,000,000 instead of 10,000; or a model
of another size) converted without a word when its shapes happened to fit, and made a model
that talks nonsense; when they did not fit, the conversion read gigabytes and then listed
hundreds of keys of the wrong shape. Its ``config.json`` says which model it is in a few
hundred bytes, so it is read first.
"""

from __future__ import annotations

from pathlib import Path

from studio.engines.animegamer.sizes import MLLMSize, ModelSize
from studio.engines.hf_config import CONFIG_FILE, ConfigUnreadableError, mismatches, read_config, with_rope_theta

TOKENIZER_PLACES = ("animegamer_tokenizer", "../MLLM/VisualAR/animegamer_tokenizer",
                    "MLLM/VisualAR/animegamer_tokenizer")
"""Where the code release's tokenizer folder is looked for, relative to the release's
``checkpoints/`` folder (the code release puts ``checkpoints/`` beside ``MLLM/``)."""


def find_tokenizer(source: Path) -> Path | None:
    """AnimeGamer's tokenizer near the release's checkpoints (it ships with the code)."""
    for place in TOKENIZER_PLACES:
        candidate = source.parent / place.removeprefix("../") if place.startswith("../") else source / place
        if (candidate / "tokenizer.model").is_file():
            return candidate
    return None


def _expected(size: MLLMSize) -> dict[str, float]:
    """config.json's fields that must hold these values (Hugging Face's names)."""
    return {"hidden_size": size.hidden, "intermediate_size": size.intermediate, "num_hidden_layers": size.layers,
            "num_attention_heads": size.heads, "num_key_value_heads": size.kv_heads,
            "vocab_size": size.base_vocabulary, "rope_theta": size.rope_theta}


def base_config_problem(folder: Path, size: ModelSize) -> str | None:
    """What ``folder``'s config.json says that does not fit Mistral-7B-Instruct-v0.1 at
    ``size`` (each differing field with both values), or None: when it fits, when a field is
    not given, or when there is no config.json (the weights' shapes are still checked)."""
    path = folder / CONFIG_FILE
    try:
        config = read_config(folder)
    except ConfigUnreadableError as error:
        return f"{path} {error.reason}"
    if config is None:
        return None
    model = "Mistral-7B-Instruct-v0.1" if size.name == "full" else f"the {size.name}-size model"
    wrong = mismatches(with_rope_theta(config), _expected(size.mllm), model)
    if not wrong:
        return None
    return f"{path} describes another model than Mistral-7B-Instruct-v0.1: {'; '.join(wrong)}"


BASE_HINT = ("Put Mistral-7B-Instruct-v0.1 (version 0.1: AnimeGamer was trained on it) in {folder}, every file of "
             "its download.")


def base_hint(folder: Path) -> str:
    return BASE_HINT.format(folder=folder)
