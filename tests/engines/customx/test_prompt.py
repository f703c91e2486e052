"""The LLaVA-Llama-3 prompt: template, view lines, <image> expansion, crop, with a tokenizer fixture."""

from __future__ import annotations

import pytest

pytest.importorskip("tokenizers")
pytest.importorskip("transformers")

from studio.core.instruction import parse_instruction
from studio.engines.customx import prompt
from studio.engines.customx.tiny import llava_tokenizer


@pytest.fixture(scope="module")
def tokenizer():  # type: ignore[no-untyped-def]
    return llava_tokenizer()


def test_the_sentence_follows_the_instruction() -> None:
    instruction = parse_instruction("Character: Qiqi; Motion: run; Adverb: backward; Background: day town; "
                                    "Camera: follow.")
    assert prompt.describe(instruction) == "A character is running backward. The camera follows the character."
    assert prompt.describe(parse_instruction("Character: Qiqi; Motion: wave.")) == "A character is waving."
    assert prompt.describe(parse_instruction("Character: Qiqi; Motion: dance; Camera: orbit.")).endswith(
        "The camera orbits around the character.")


def test_the_text_is_the_template_then_one_line_per_view() -> None:
    text = prompt.full_text("A character is running.")
    assert text.startswith("<|start_header_id|>system<|end_header_id|>\n\nDescribe the video")
    assert "<|start_header_id|>user<|end_header_id|>\n\nA character is running.<|eot_id|>" in text
    assert text.endswith("\nThe front view looks like<image>\nThe left view looks like<image>"
                         "\nThe back view looks like<image>\nThe right view looks like<image>")


def test_each_image_becomes_its_tokens_and_the_length_is_fixed(tokenizer) -> None:  # type: ignore[no-untyped-def]
    crop = prompt.crop_start(tokenizer)
    tokens = prompt.build(tokenizer, "A character is running.", max_length=160, image_tokens=9, crop=crop)
    image = tokenizer.convert_tokens_to_ids("<image>")
    assert len(tokens) == 160 - 4 + 4 * 9  # as LLaVA-Llama-3: 256 - 4 + 4 x 576 = 2,556
    assert tokens.ids.count(image) == 36
    runs = [i for i in range(1, len(tokens.ids)) if tokens.ids[i] == image and tokens.ids[i - 1] != image]
    assert len(runs) == 4, "four runs of image tokens, one per view"
    assert sum(tokens.mask) == len(tokenizer(prompt.full_text("A character is running."))["input_ids"]) - 4 + 36
    assert tokens.mask[-1] == 0, "padding at the end"
    prefix = tokenizer.convert_ids_to_tokens(tokens.ids[:crop])
    assert prefix[0] == "<|begin_of_text|>" and prefix[-1] == "<|end_header_id|>"
    assert tokenizer.convert_ids_to_tokens(tokens.ids[crop:crop + 3])[0] == "A", "the crop keeps the user's text"


def test_the_unconditional_prompt_masks_its_image_tokens(tokenizer) -> None:  # type: ignore[no-untyped-def]
    tokens = prompt.build(tokenizer, "", max_length=160, image_tokens=5, crop=0, masked_images=True)
    assert all(m == 0 for i, m in zip(tokens.ids, tokens.mask, strict=True) if i == tokens.image_token)


def test_a_prompt_too_long_for_its_views_is_refused(tokenizer) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(prompt.PromptError, match="too long"):
        prompt.build(tokenizer, "run " * 200, max_length=160, image_tokens=5, crop=0)
