"""The LLaVA-Llama-3 prompt CustomX is conditioned on, as token ids.

The instruction becomes one sentence (the motion, its adverb, then the camera the
instruction asks for), which is put in HunyuanVideo's video-description chat template; one
line per reference view follows ("The front view looks like<image>" ...). The ids are cut
and padded to ``max_length``; then each ``<image>`` becomes as many image tokens as the
vision tower gives a view (576 for LLaVA-Llama-3; current transformers no longer expands it
by itself). After encoding, the template's system part (``crop_start`` tokens) is dropped.
No torch here: the ids are plain lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from studio.core.instruction import Instruction
from studio.engines.customx.sizes import VIEWS

TEMPLATE = (
    "<|start_header_id|>system<|end_header_id|>\n\nDescribe the video by detailing the following aspects: "
    "1. The main content and theme of the video."
    "2. The color, shape, size, texture, quantity, text, and spatial relationships of the objects."
    "3. Actions, events, behaviors temporal relationships, physical movement changes of the objects."
    "4. background environment, light, style and atmosphere."
    "5. camera angles, movements, and transitions used in the video:<|eot_id|>"
    "<|start_header_id|>user<|end_header_id|>\n\n{}<|eot_id|>"
)
"""HunyuanVideo's video template, which the released text encoder was used with (its text is data)."""
IMAGE = "<image>"
VIEW_LINE = "\nThe {} view looks like" + IMAGE

CAMERA_SENTENCES = {
    "follow": "The camera follows the character.",
    "orbit": "The camera orbits around the character.",
    "static": "The camera is static.",
    "pan": "The camera pans across the scene.",
    "zoom": "The camera zooms in on the character.",
}


class PromptError(ValueError):
    """A prompt that can't be built (too long for its view lines, a tokenizer without <image>)."""


def describe(instruction: Instruction) -> str:
    """The sentence the model reads: "A character is running backward. The camera follows the character."."""
    motion = instruction.motion.strip()
    if motion:
        adverb = f" {instruction.adverb.strip()}" if instruction.adverb.strip() else ""
        verb = motion if motion.endswith("ing") or " " in motion else _ing(motion)
        sentence = f"A character is {verb}{adverb}."
    else:
        sentence = (instruction.free_text or instruction.raw).strip().rstrip(".") + "."
    camera = instruction.camera.strip().lower()
    if camera:
        sentence += " " + CAMERA_SENTENCES.get(camera.split()[0], f"The camera: {instruction.camera.strip()}.")
    return sentence


def plain_text(text: str, *tokenizers: Any) -> str:
    """``text`` with each control token of ``tokenizers`` (``<image>``, ``<|eot_id|>``,
    ``<|startoftext|>`` ...) broken up (``< image>``), so that an instruction that happens to
    write one is read as the words it is: an ``<image>`` in the sentence would otherwise take
    a reference view's place, and a header token would end the template's user turn."""
    found: set[str] = {IMAGE}
    for tokenizer in tokenizers:
        found.update(getattr(tokenizer, "all_special_tokens", ()))
        added = getattr(tokenizer, "get_added_vocab", None)
        if callable(added):
            found.update(added())
    for token in sorted(found, key=len, reverse=True):
        if len(token) > 2 and token.startswith("<") and token.endswith(">") and token in text:
            text = text.replace(token, f"< {token[1:]}")
    return text


def _ing(verb: str) -> str:
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith("ee"):
        return verb[:-1] + "ing"
    if len(verb) >= 3 and verb[-1] not in "aeiouwxy" and verb[-2] in "aeiou" and verb[-3] not in "aeiou":
        return verb + verb[-1] + "ing"
    return verb + "ing"


def full_text(sentence: str, views: Sequence[str] = VIEWS) -> str:
    return TEMPLATE.format(sentence) + "".join(VIEW_LINE.format(view) for view in views)


@dataclass(frozen=True, slots=True)
class PromptTokens:
    """Expanded ids and mask (image tokens included), before the crop."""

    ids: list[int]
    mask: list[int]
    image_token: int
    images: int
    crop_start: int

    def __len__(self) -> int:
        return len(self.ids)


def crop_start(tokenizer: Any) -> int:
    """Tokens of the template's system part (95 for LLaVA-Llama-3's tokenizer)."""
    prefix = TEMPLATE.split("{}")[0]
    return len(tokenizer(prefix)["input_ids"])


def build(tokenizer: Any, sentence: str, *, max_length: int, image_tokens: int, crop: int,
          views: Sequence[str] = VIEWS, masked_images: bool = False) -> PromptTokens:
    """The ids of ``sentence`` with the view lines, cut/padded to ``max_length``, then each
    ``<image>`` expanded to ``image_tokens`` ids. ``masked_images``: the image tokens' mask
    is 0 (the unconditional prompt of guidance sees no views)."""
    image_id = tokenizer.convert_tokens_to_ids(IMAGE)
    if image_id is None or image_id == getattr(tokenizer, "unk_token_id", None):
        raise PromptError(f"The tokenizer has no {IMAGE} token.")
    encoded = tokenizer(full_text(sentence, views), truncation=True, max_length=max_length,
                        padding="max_length")
    ids, mask = list(encoded["input_ids"]), list(encoded["attention_mask"])
    found = sum(1 for i, m in zip(ids, mask, strict=True) if i == image_id and m)
    if found != len(views):
        raise PromptError(f"The prompt is too long: {max_length} tokens leave room for {found} of the "
                          f"{len(views)} reference views.")
    out_ids: list[int] = []
    out_mask: list[int] = []
    for token, keep in zip(ids, mask, strict=True):
        if token == image_id and keep:
            out_ids.extend([image_id] * image_tokens)
            out_mask.extend([0 if masked_images else 1] * image_tokens)
        else:
            out_ids.append(token)
            out_mask.append(keep)
    return PromptTokens(out_ids, out_mask, image_id, len(views), crop)
