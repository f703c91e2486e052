"""Tiny random CustomX checkpoints in our layout, and stand-in tokenizers.

The released tokenizers can't be downloaded here; tests and the GPU benchmark use word-level
tokenizers built from the words of the template, the view lines and common instructions,
with LLaVA-Llama-3's special tokens (``<|begin_of_text|>``, the header and end-of-turn
tokens, ``<image>``) and CLIP's (``<|startoftext|>``, ``<|endoftext|>``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from studio.engines.catalog import customx as catalog
from studio.engines.customx.prompt import CAMERA_SENTENCES, IMAGE, TEMPLATE, VIEW_LINE
from studio.engines.customx.sizes import TINY, VIEWS, ModelSize

LLAVA_SPECIAL = ("<|begin_of_text|>", "<|end_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>",
                 IMAGE, "<pad>", "<unk>")
CLIP_SPECIAL = ("<|startoftext|>", "<|endoftext|>", "<unk>")
WORDS = ("A a character is running walking jumping waving sitting dancing standing turning looking around "
         "backward forward slowly quickly happily left right front back view looks like the camera follows "
         "orbits static pans zooms in on across scene qiqi sosuke run wave day town night forest gently")


def _words() -> list[str]:
    text = " ".join([TEMPLATE, *(VIEW_LINE.format(v) for v in VIEWS), *CAMERA_SENTENCES.values(), WORDS])
    for special in LLAVA_SPECIAL:
        text = text.replace(special, " ")
    return sorted(set(re.findall(r"\w+|[^\w\s]+", text)) | set(re.findall(r"\w+|[^\w\s]+", text.lower())))


def word_tokenizer(special: tuple[str, ...], bos: str, eos: str | None, pad: str, lowercase: bool,
                   extra_words: int = 0) -> Any:
    """A ``PreTrainedTokenizerFast`` over the words above; ``extra_words`` pads the vocabulary
    (to reach a released model's embedding size)."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    vocab = {token: index for index, token in enumerate(special)}
    for word in _words() + [f"w{i}" for i in range(extra_words)]:
        vocab.setdefault(word, len(vocab))
    core = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    if lowercase:
        core.normalizer = normalizers.Lowercase()
    core.pre_tokenizer = pre_tokenizers.Whitespace()
    single = f"{bos} $A" + (f" {eos}" if eos else "")
    core.post_processor = processors.TemplateProcessing(
        single=single, special_tokens=[(t, vocab[t]) for t in (bos, eos) if t])
    extra = [t for t in special if t not in (bos, eos, pad)]
    return PreTrainedTokenizerFast(  # type: ignore[no-untyped-call]
        tokenizer_object=core, bos_token=bos, eos_token=eos or bos, pad_token=pad, unk_token="<unk>",
        additional_special_tokens=extra)


def llava_tokenizer(extra_words: int = 0) -> Any:
    return word_tokenizer(LLAVA_SPECIAL, "<|begin_of_text|>", None, "<pad>", False, extra_words)


def clip_tokenizer(extra_words: int = 0) -> Any:
    return word_tokenizer(CLIP_SPECIAL, "<|startoftext|>", "<|endoftext|>", "<|endoftext|>", True, extra_words)


def write_tiny_checkpoints(checkpoints: Path, seed: int = 0, size: ModelSize = TINY) -> Path:
    """``<checkpoints>/customx/`` with tiny random weights of the released structure."""
    import torch
    from safetensors.torch import save_file

    from studio.engines.customx.components import Tokenizers, build
    from studio.engines.customx.prompt import crop_start

    folder = checkpoints / catalog.NAME
    folder.mkdir(parents=True, exist_ok=True)
    tokenizers = Tokenizers(llava_tokenizer(), clip_tokenizer())
    tokenizers.llava.save_pretrained(str(folder / "tokenizer"))
    tokenizers.clip.save_pretrained(str(folder / "tokenizer_2"))
    torch.manual_seed(seed)
    files = {"transformer": catalog.TRANSFORMER_FILE, "vae": catalog.VAE_FILE,
             "text_encoder": catalog.TEXT_ENCODER_FILE, "text_encoder_2": catalog.TEXT_ENCODER_2_FILE}
    for part, name in files.items():
        model = build(part, size, tokenizers)
        if part == "transformer":  # diffusers zero-initialises the output layers: make the test see them
            for p in model.parameters():
                if not p.abs().sum():
                    torch.nn.init.normal_(p, std=0.05)
        save_file({k: v.contiguous() for k, v in model.state_dict().items()}, str(folder / name))
    from dataclasses import replace

    text = replace(size.text, crop_start=size.text.crop_start or crop_start(tokenizers.llava))
    (folder / catalog.MODEL_FILE).write_text(json.dumps({"size": replace(size, text=text).to_json(),
                                                         "source": "tiny random weights"}, indent=1))
    return folder
